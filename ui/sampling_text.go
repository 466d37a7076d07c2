package ui

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/session"
)

// samplingLimits bound what the dialog shows of a server's request: it is
// untrusted, and a screen holds only so much.
const (
	samplingMaxMessages = 200
	samplingMaxText     = 4000 // characters of one text block
	samplingMaxTools    = 50
)

// samplingLine is one line of the request as the dialog shows it: a
// heading (a label, a role) or the text under it.
type samplingLine struct {
	head bool
	text string
}

// describeSampling is the request as lines, every server string passed
// through sanitize: what the server asks (system prompt, messages by
// role), what it would like (model hints and priorities) and its limits.
func describeSampling(p mcp.CreateMessageParams, sanitize func(string) string) []samplingLine {
	var out []samplingLine
	head := func(s string) { out = append(out, samplingLine{head: true, text: s}) }
	body := func(s string) {
		for _, l := range strings.Split(s, "\n") {
			out = append(out, samplingLine{text: "  " + l})
		}
	}
	clip := func(s string) string {
		r := []rune(s)
		if len(r) > samplingMaxText {
			return string(r[:samplingMaxText]) + fmt.Sprintf("… (%d more characters)", len(r)-samplingMaxText)
		}
		return s
	}
	var limits []string
	limits = append(limits, fmt.Sprintf("max tokens %d", p.MaxTokens))
	if p.Temperature != 0 {
		limits = append(limits, "temperature "+strconv.FormatFloat(p.Temperature, 'g', 3, 64))
	}
	if len(p.StopSequences) > 0 {
		q := make([]string, 0, len(p.StopSequences))
		for _, s := range p.StopSequences {
			q = append(q, strconv.Quote(sanitize(s)))
		}
		limits = append(limits, "stop at "+strings.Join(q, ", "))
	}
	if p.IncludeContext != "" && p.IncludeContext != "none" {
		limits = append(limits, "include context "+sanitize(p.IncludeContext))
	}
	head(strings.Join(limits, " · "))
	if mp := p.ModelPreferences; mp != nil {
		var prefs []string
		if hints := modelHints(mp); len(hints) > 0 {
			for i := range hints {
				hints[i] = sanitize(hints[i])
			}
			prefs = append(prefs, "hints "+strings.Join(hints, ", "))
		}
		for _, pr := range []struct {
			name string
			v    float64
		}{{"cost", mp.CostPriority}, {"speed", mp.SpeedPriority}, {"intelligence", mp.IntelligencePriority}} {
			if pr.v != 0 {
				prefs = append(prefs, pr.name+" "+strconv.FormatFloat(pr.v, 'g', 2, 64))
			}
		}
		if len(prefs) > 0 {
			head("Model preferences: " + strings.Join(prefs, " · "))
		}
	}
	if p.SystemPrompt != "" {
		head("System prompt")
		body(clip(sanitize(p.SystemPrompt)))
	}
	if n := len(p.Tools); n > 0 {
		choice := ""
		if p.ToolChoice != nil && p.ToolChoice.Mode != "" {
			choice = ", choice " + sanitize(string(p.ToolChoice.Mode))
		}
		head(fmt.Sprintf("Tools (%d%s)", n, choice))
		for i, t := range p.Tools {
			if i == samplingMaxTools {
				body(fmt.Sprintf("… %d more", n-i))
				break
			}
			line := sanitize(t.Name)
			if d := firstLine(t.Description); d != "" {
				line += " — " + sanitize(d)
			}
			body(line)
		}
	}
	for i, m := range p.Messages {
		if i == samplingMaxMessages {
			head(fmt.Sprintf("… %d more messages", len(p.Messages)-i))
			break
		}
		head(sanitize(string(m.Role)))
		blocks, err := session.SamplingBlocks(m.Content)
		if err != nil {
			body("(unreadable content: " + sanitize(err.Error()) + ")")
			continue
		}
		for _, b := range blocks {
			body(clip(describeBlock(b, sanitize)))
		}
	}
	return out
}

// modelHints are the preferences' hint names, in order.
func modelHints(mp *mcp.ModelPreferences) []string {
	var out []string
	for _, h := range mp.Hints {
		if h.Name != "" {
			out = append(out, h.Name)
		}
	}
	return out
}

// describeBlock is one content block in words: text as it is, the rest by
// kind and size (an image or audio is not drawn).
func describeBlock(b session.SamplingBlock, sanitize func(string) string) string {
	switch b.Type {
	case "text":
		return sanitize(b.Text)
	case "image", "audio":
		return fmt.Sprintf("[%s %s, %s base64]", b.Type, sanitize(b.MIMEType), sizeText(len(b.Data)))
	case "tool_use":
		return fmt.Sprintf("[tool use %s %s: %s]", sanitize(b.ID), sanitize(b.Name), sanitize(compactJSON(b.Input)))
	case "tool_result":
		var texts []string
		for _, raw := range b.Content {
			var c session.SamplingBlock
			if json.Unmarshal(raw, &c) == nil {
				texts = append(texts, describeBlock(c, sanitize))
			}
		}
		state := ""
		if b.IsError {
			state = " (error)"
		}
		return fmt.Sprintf("[tool result %s%s] %s", sanitize(b.ToolUseID), state, strings.Join(texts, " "))
	}
	return fmt.Sprintf("[%s content]", sanitize(b.Type))
}

func compactJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "{}"
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func sizeText(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
