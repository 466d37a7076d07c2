package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// The chat-completions shape, as far as sampling needs it, and the mapping
// between it and MCP's sampling shape. Pure: no I/O here.

type chatCompletionRequest struct {
	Model       string        `json:"model"`
	Messages    []chatMessage `json:"messages"`
	MaxTokens   int           `json:"max_tokens,omitempty"`
	Temperature *float64      `json:"temperature,omitempty"`
	Stop        []string      `json:"stop,omitempty"`
	Tools       []chatTool    `json:"tools,omitempty"`
	ToolChoice  string        `json:"tool_choice,omitempty"`
}

type chatMessage struct {
	Role string `json:"role"`
	// Content is a string or a list of chatParts (null for an assistant
	// message that only calls tools).
	Content    any            `json:"content"`
	ToolCalls  []chatToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

type chatPart struct {
	Type       string          `json:"type"`
	Text       string          `json:"text,omitempty"`
	ImageURL   *chatImageURL   `json:"image_url,omitempty"`
	InputAudio *chatInputAudio `json:"input_audio,omitempty"`
}

type chatImageURL struct {
	URL string `json:"url"`
}

type chatInputAudio struct {
	Data   string `json:"data"`
	Format string `json:"format"`
}

type chatTool struct {
	Type     string       `json:"type"`
	Function chatFunction `json:"function"`
}

type chatFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

type chatToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type chatCompletionResponse struct {
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Role      string         `json:"role"`
			Content   *string        `json:"content"`
			ToolCalls []chatToolCall `json:"tool_calls"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *chatUsage `json:"usage"`
}

type chatUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// SamplingBlock is one MCP content block of a sampling message, read
// through JSON whatever Go type mcp-go gave it (a value, a pointer, a map
// from an HTTP transport), so every form is handled alike: by the
// endpoint mapping here and by the workbench's sampling dialog.
type SamplingBlock struct {
	Type      string            `json:"type"`
	Text      string            `json:"text"`
	Data      string            `json:"data"`
	MIMEType  string            `json:"mimeType"`
	ID        string            `json:"id"`
	Name      string            `json:"name"`
	Input     json.RawMessage   `json:"input"`
	ToolUseID string            `json:"toolUseId"`
	Content   []json.RawMessage `json:"content"`
	IsError   bool              `json:"isError"`
}

// samplingBlocks reads a message's content: one block or a list of them.
func SamplingBlocks(content any) ([]SamplingBlock, error) {
	raw, err := json.Marshal(content)
	if err != nil {
		return nil, err
	}
	raw = []byte(strings.TrimSpace(string(raw)))
	if len(raw) > 0 && raw[0] == '[' {
		var bs []SamplingBlock
		if err := json.Unmarshal(raw, &bs); err != nil {
			return nil, err
		}
		return bs, nil
	}
	var b SamplingBlock
	if err := json.Unmarshal(raw, &b); err != nil {
		return nil, err
	}
	return []SamplingBlock{b}, nil
}

// audioFormats are the audio types chat completions' input_audio takes.
var audioFormats = map[string]string{"audio/wav": "wav", "audio/x-wav": "wav", "audio/wave": "wav", "audio/mpeg": "mp3", "audio/mp3": "mp3"}

// chatRequest maps a sampling request to a chat-completions request body.
// What the chat shape cannot carry (an image from the assistant, audio
// other than WAV or MP3, a tool result that is not text) is an error
// naming the message, not something silently dropped.
func chatRequest(model string, p mcp.CreateMessageParams) ([]byte, error) {
	out := chatCompletionRequest{Model: model, MaxTokens: p.MaxTokens, Stop: p.StopSequences}
	// A temperature of 0 is not sent: mcp-go reads an absent temperature
	// as 0, so 0 means "the endpoint's default".
	if p.Temperature != 0 {
		t := p.Temperature
		out.Temperature = &t
	}
	if p.SystemPrompt != "" {
		out.Messages = append(out.Messages, chatMessage{Role: "system", Content: p.SystemPrompt})
	}
	for i, m := range p.Messages {
		msgs, err := chatMessages(m)
		if err != nil {
			return nil, fmt.Errorf("sampling: message %d (%s): %w", i+1, m.Role, err)
		}
		out.Messages = append(out.Messages, msgs...)
	}
	for _, t := range p.Tools {
		raw, err := json.Marshal(t)
		if err != nil {
			return nil, fmt.Errorf("sampling: tool %q: %w", t.Name, err)
		}
		var def struct {
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		_ = json.Unmarshal(raw, &def)
		out.Tools = append(out.Tools, chatTool{Type: "function", Function: chatFunction{Name: t.Name, Description: t.Description, Parameters: def.InputSchema}})
	}
	if p.ToolChoice != nil && len(p.Tools) > 0 {
		switch p.ToolChoice.Mode {
		case "", mcp.ToolChoiceModeAuto:
			out.ToolChoice = "auto"
		case mcp.ToolChoiceModeRequired, mcp.ToolChoiceModeNone:
			out.ToolChoice = string(p.ToolChoice.Mode)
		default:
			return nil, fmt.Errorf("sampling: tool choice %q is none of auto, required, none", p.ToolChoice.Mode)
		}
	}
	return json.Marshal(out)
}

// chatMessages maps one sampling message: a user message's tool results
// become "tool" messages (before the rest of it), an assistant's tool uses
// become its tool_calls.
func chatMessages(m mcp.SamplingMessage) ([]chatMessage, error) {
	if m.Role != mcp.RoleUser && m.Role != mcp.RoleAssistant {
		return nil, fmt.Errorf("role %q is neither user nor assistant", m.Role)
	}
	blocks, err := SamplingBlocks(m.Content)
	if err != nil {
		return nil, fmt.Errorf("unreadable content: %w", err)
	}
	var out []chatMessage
	var parts []chatPart
	var calls []chatToolCall
	for j, b := range blocks {
		where := func(err error) error {
			if len(blocks) > 1 {
				return fmt.Errorf("content %d: %w", j+1, err)
			}
			return err
		}
		switch b.Type {
		case "text":
			parts = append(parts, chatPart{Type: "text", Text: b.Text})
		case "image":
			if m.Role != mcp.RoleUser {
				return nil, where(errors.New("an image in an assistant message cannot be sent to a chat-completions endpoint"))
			}
			if b.MIMEType == "" || b.Data == "" {
				return nil, where(errors.New("an image without mimeType or data"))
			}
			parts = append(parts, chatPart{Type: "image_url", ImageURL: &chatImageURL{URL: "data:" + b.MIMEType + ";base64," + b.Data}})
		case "audio":
			format, ok := audioFormats[strings.ToLower(b.MIMEType)]
			if !ok || m.Role != mcp.RoleUser {
				return nil, where(fmt.Errorf("audio of type %q in a %s message cannot be sent to a chat-completions endpoint (user WAV or MP3 only)", b.MIMEType, m.Role))
			}
			parts = append(parts, chatPart{Type: "input_audio", InputAudio: &chatInputAudio{Data: b.Data, Format: format}})
		case "tool_use":
			if m.Role != mcp.RoleAssistant {
				return nil, where(errors.New("tool_use in a user message"))
			}
			args := "{}"
			if len(b.Input) > 0 && string(b.Input) != "null" {
				args = string(b.Input)
			}
			c := chatToolCall{ID: b.ID, Type: "function"}
			c.Function.Name, c.Function.Arguments = b.Name, args
			calls = append(calls, c)
		case "tool_result":
			if m.Role != mcp.RoleUser {
				return nil, where(errors.New("tool_result in an assistant message"))
			}
			text, err := toolResultText(b)
			if err != nil {
				return nil, where(err)
			}
			out = append(out, chatMessage{Role: "tool", ToolCallID: b.ToolUseID, Content: text})
		default:
			return nil, where(fmt.Errorf("content of type %q cannot be sent to a chat-completions endpoint", b.Type))
		}
	}
	switch {
	case len(calls) > 0:
		msg := chatMessage{Role: "assistant", ToolCalls: calls}
		if len(parts) > 0 {
			msg.Content = partsText(parts)
		}
		out = append(out, msg)
	case len(parts) == 1 && parts[0].Type == "text":
		out = append(out, chatMessage{Role: string(m.Role), Content: parts[0].Text})
	case len(parts) > 0 && m.Role == mcp.RoleAssistant:
		out = append(out, chatMessage{Role: "assistant", Content: partsText(parts)})
	case len(parts) > 0:
		out = append(out, chatMessage{Role: string(m.Role), Content: parts})
	}
	if len(out) == 0 {
		return nil, errors.New("no content")
	}
	return out, nil
}

// partsText joins text parts (an assistant message's content is a string).
func partsText(parts []chatPart) string {
	texts := make([]string, 0, len(parts))
	for _, p := range parts {
		texts = append(texts, p.Text)
	}
	return strings.Join(texts, "\n")
}

// toolResultText is a tool result's text: chat completions' tool messages
// carry text only.
func toolResultText(b SamplingBlock) (string, error) {
	var texts []string
	for k, raw := range b.Content {
		var c SamplingBlock
		if err := json.Unmarshal(raw, &c); err != nil {
			return "", fmt.Errorf("tool result %q content %d: %w", b.ToolUseID, k+1, err)
		}
		if c.Type != "text" {
			return "", fmt.Errorf("tool result %q holds %q content; a chat-completions tool message takes text only", b.ToolUseID, c.Type)
		}
		texts = append(texts, c.Text)
	}
	text := strings.Join(texts, "\n")
	if b.IsError {
		text = "Error: " + text
	}
	return text, nil
}

// stopReasons maps chat completions' finish_reason to MCP's stopReason;
// another reason passes through as it is (stopReason is an open string).
var stopReasons = map[string]string{"stop": "endTurn", "length": "maxTokens", "tool_calls": "toolUse", "function_call": "toolUse"}

// samplingResult maps a chat-completions answer to the sampling result.
// model is what was asked for, used when the answer does not say.
func samplingResult(data []byte, model string) (*mcp.CreateMessageResult, chatUsage, error) {
	var r chatCompletionResponse
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, chatUsage{}, fmt.Errorf("the answer is not chat-completions JSON: %v", err)
	}
	if len(r.Choices) == 0 {
		return nil, chatUsage{}, errors.New("the answer has no choices")
	}
	c := r.Choices[0]
	res := &mcp.CreateMessageResult{Model: r.Model, StopReason: c.FinishReason}
	if res.Model == "" {
		res.Model = model
	}
	if s, ok := stopReasons[c.FinishReason]; ok {
		res.StopReason = s
	}
	res.Role = mcp.RoleAssistant
	text := ""
	if c.Message.Content != nil {
		text = *c.Message.Content
	}
	if len(c.Message.ToolCalls) == 0 {
		if c.Message.Content == nil {
			return nil, chatUsage{}, errors.New("the answer's message has neither content nor tool calls")
		}
		res.Content = mcp.NewTextContent(text)
	} else {
		var blocks []mcp.Content
		if text != "" {
			blocks = append(blocks, mcp.NewTextContent(text))
		}
		for i, tc := range c.Message.ToolCalls {
			if tc.Function.Name == "" {
				return nil, chatUsage{}, fmt.Errorf("tool call %d has no function name", i+1)
			}
			var input any = map[string]any{}
			if strings.TrimSpace(tc.Function.Arguments) != "" {
				if err := json.Unmarshal([]byte(tc.Function.Arguments), &input); err != nil {
					return nil, chatUsage{}, fmt.Errorf("tool call %d (%s): arguments are not JSON: %v", i+1, tc.Function.Name, err)
				}
			}
			blocks = append(blocks, mcp.NewToolUseContent(tc.ID, tc.Function.Name, input))
		}
		res.Content = blocks
		if res.StopReason == "" || res.StopReason == "endTurn" {
			res.StopReason = "toolUse"
		}
	}
	var u chatUsage
	if r.Usage != nil {
		u = *r.Usage
	}
	return res, u, nil
}
