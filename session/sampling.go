package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// EndpointSampler answers sampling/createMessage with an OpenAI-compatible
// chat-completions endpoint (OpenAI, a local llama.cpp / Ollama / vLLM
// server, a proxy): the command line's --sampling-endpoint. It is the one
// translation between MCP's sampling shape and the chat-completions shape,
// both ways, so every face that answers sampling with a model uses it.
//
// The model is always the one configured (Model), never one of the
// request's modelPreferences hints: a hint names a model of the server
// author's choosing, which this endpoint may not serve and the person may
// not want to pay for. The hints stay visible to whoever configured the
// sampler (the workbench shows them).
type EndpointSampler struct {
	// url is the chat-completions URL requests go to; shown is the same,
	// without user info, query or fragment, for messages.
	url, shown string
	model      string
	// key is sent as "Authorization: Bearer key" and never shown: every
	// error passes through redact.
	key string
	// Client sends the requests; nil is a client of its own (no timeout of
	// its own: the request's context bounds the wait).
	Client *http.Client
	// MaxResponseBytes bounds the endpoint's answer; 0 is
	// DefaultSamplingResponseBytes.
	MaxResponseBytes int64
	// Report, if set, is told of each answer (who asked, which model
	// answered, the tokens the endpoint reported), so a face can say it.
	Report func(SamplingReport)
}

// SamplingReport is what an EndpointSampler answered.
type SamplingReport struct {
	Server     string
	Model      string
	StopReason string
	// PromptTokens and CompletionTokens are the endpoint's usage figures;
	// 0 when it reported none.
	PromptTokens, CompletionTokens int
}

// DefaultSamplingResponseBytes bounds a chat-completions answer: far more
// than any reply a server's maxTokens asks for, small enough that a broken
// or hostile endpoint cannot exhaust memory.
const DefaultSamplingResponseBytes = 4 << 20

// errSamplingEndpoint is wrapped by every failure of the endpoint itself
// (unreachable, an HTTP error, an answer that is not chat completions).
var errSamplingEndpoint = errors.New("sampling endpoint")

// NewEndpointSampler checks endpoint and model and returns the sampler.
// endpoint is either a base URL (such as https://api.openai.com/v1 or
// http://localhost:11434/v1), to which /chat/completions is appended, or
// the full URL ending in /chat/completions, used as it is. key may be
// empty (a local server with no authentication).
func NewEndpointSampler(endpoint, model, key string) (*EndpointSampler, error) {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("sampling endpoint %q: want an http or https URL such as https://api.openai.com/v1", shownURL(endpoint))
	}
	if strings.TrimSpace(model) == "" {
		return nil, errors.New("sampling endpoint: no model given (--sampling-model)")
	}
	if !strings.HasSuffix(strings.TrimSuffix(u.Path, "/"), "/chat/completions") {
		u.Path = strings.TrimSuffix(u.Path, "/") + "/chat/completions"
		u.RawPath = ""
	}
	s := &EndpointSampler{url: u.String(), model: model, key: key}
	s.shown = shownURL(s.url)
	return s, nil
}

// URL is the chat-completions URL, redacted (no user info, query or
// fragment): what messages show.
func (s *EndpointSampler) URL() string { return s.shown }

// Model is the model every request asks for.
func (s *EndpointSampler) Model() string { return s.model }

// shownURL drops what may hold a secret from a URL: user info, the query
// and the fragment.
func shownURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(an unreadable URL)"
	}
	u.User, u.RawQuery, u.Fragment, u.RawFragment = nil, "", "", ""
	return u.String()
}

// Sample sends the request to the endpoint and maps its answer back.
func (s *EndpointSampler) Sample(ctx context.Context, server string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	body, err := chatRequest(s.model, req.CreateMessageParams)
	if err != nil {
		return nil, err
	}
	resp, err := s.post(ctx, body)
	if err != nil {
		return nil, err
	}
	res, usage, err := samplingResult(resp, s.model)
	if err != nil {
		return nil, s.fail("%v", err)
	}
	if s.Report != nil {
		s.Report(SamplingReport{Server: server, Model: res.Model, StopReason: res.StopReason, PromptTokens: usage.PromptTokens, CompletionTokens: usage.CompletionTokens})
	}
	return res, nil
}

// fail is an endpoint error naming the (redacted) URL, with the key
// removed from whatever the endpoint or the transport said.
func (s *EndpointSampler) fail(format string, args ...any) error {
	return fmt.Errorf("%w %s: %s", errSamplingEndpoint, s.shown, s.redact(fmt.Sprintf(format, args...)))
}

func (s *EndpointSampler) redact(text string) string {
	if s.key != "" {
		text = strings.ReplaceAll(text, s.key, "[redacted]")
	}
	// The transport's errors quote the URL as sent, query and all.
	return strings.ReplaceAll(text, s.url, s.shown)
}

// post sends body and returns the answer's body, bounded; an HTTP error
// status is an error quoting the endpoint's own message, briefly.
func (s *EndpointSampler) post(ctx context.Context, body []byte) ([]byte, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		return nil, s.fail("%v", err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json")
	if s.key != "" {
		hreq.Header.Set("Authorization", "Bearer "+s.key)
	}
	c := s.Client
	if c == nil {
		c = &http.Client{}
	}
	resp, err := c.Do(hreq)
	if err != nil {
		if cause := context.Cause(ctx); cause != nil {
			return nil, s.fail("no answer: %v", cause)
		}
		return nil, s.fail("%v", unwrapURLError(err))
	}
	defer resp.Body.Close()
	limit := s.MaxResponseBytes
	if limit <= 0 {
		limit = DefaultSamplingResponseBytes
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		if cause := context.Cause(ctx); cause != nil {
			return nil, s.fail("reading the answer: %v", cause)
		}
		return nil, s.fail("reading the answer: %v", err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		msg := endpointMessage(data)
		if msg != "" {
			return nil, s.fail("HTTP %s: %s", resp.Status, msg)
		}
		return nil, s.fail("HTTP %s", resp.Status)
	}
	if int64(len(data)) > limit {
		return nil, s.fail("the answer is over %d bytes", limit)
	}
	return data, nil
}

// unwrapURLError drops net/http's "Post URL:" prefix (the URL as sent is
// not shown); the rest says what failed.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// endpointMessage is the error an endpoint gave, shortened: the OpenAI
// shape's error.message, else the start of the body.
func endpointMessage(data []byte) string {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	msg := ""
	if json.Unmarshal(data, &e) == nil && len(e.Error) > 0 {
		var obj struct {
			Message string `json:"message"`
		}
		var str string
		switch {
		case json.Unmarshal(e.Error, &obj) == nil && obj.Message != "":
			msg = obj.Message
		case json.Unmarshal(e.Error, &str) == nil:
			msg = str
		}
	}
	if msg == "" {
		msg = string(data)
	}
	msg = strings.Join(strings.Fields(msg), " ")
	const most = 300
	if len(msg) > most {
		msg = strings.ToValidUTF8(msg[:most], "") + "…"
	}
	return msg
}
