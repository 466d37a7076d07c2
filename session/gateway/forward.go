package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/session"
)

// The client side, forwarded. An upstream server asks its client (the
// gateway's upstream session) for sampling, elicitation and roots; behind
// the gateway the one who can answer is the gateway's own client (VS Code,
// Claude Code, Cursor...). Forwarder is the upstream session's
// session.Asker and sends sampling/createMessage and elicitation/create on
// to a client that declared the capability; roots.go keeps the upstream's
// roots the clients' roots.
//
// Which client is asked: MCP does not tie a server's request to the call
// that caused it, so the gateway picks the client whose call is in flight
// on the upstream (the most recent one when several are), and with no call
// in flight the most recently active client that declared the capability.
// A request is declined, with words saying why, when that client did not
// declare the capability (or speaks 2026-07-28, which has no
// server-initiated requests), or when no client is connected. Answers go
// back unchanged once their shape is checked and their size bounded.

// maxAnswerBytes bounds a client's answer to a forwarded request (as JSON).
const maxAnswerBytes = 4 << 20

// maxElicitFields bounds the fields of an accepted elicitation's content.
const maxElicitFields = 256

// Forwarder is the Asker of the gateway's upstream session: give it to the
// session (session.Options.Asker) and to the gateway (Options.Forward).
// Until the gateway is built, and with no client to ask, it declines.
type Forwarder struct {
	mu sync.Mutex
	g  *Gateway
}

// NewForwarder returns a Forwarder bound to no gateway yet.
func NewForwarder() *Forwarder { return &Forwarder{} }

func (f *Forwarder) bind(g *Gateway) {
	f.mu.Lock()
	f.g = g
	f.mu.Unlock()
}

func (f *Forwarder) gateway() *Gateway {
	if f == nil {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.g
}

// noClient is why a request is declined with nobody to forward it to.
const noClient = "the mcpterm gateway has no client connected to forward it to"

// Sample forwards sampling/createMessage to a client that declared
// sampling, or declines (session.ErrDeclined) saying why.
func (f *Forwarder) Sample(ctx context.Context, _ string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	g := f.gateway()
	if g == nil {
		return nil, declined{"sampling", noClient}
	}
	tools := len(req.CreateMessageParams.Tools) > 0
	t, why := g.peers.target(g.srv, func(c mcp.ClientCapabilities) string {
		switch {
		case c.Sampling == nil:
			return "did not declare sampling"
		case tools && c.Sampling.Tools == nil:
			return "did not declare sampling with tools, and the request carries tools"
		}
		return ""
	})
	if t == nil {
		g.notef("declined the upstream's sampling request: %s", why)
		return nil, declined{"sampling", why}
	}
	defer t.release()
	g.notef("forwarding the upstream's sampling request to %s", t.name)
	req.Request.Method = string(mcp.MethodSamplingCreateMessage)
	//lint:ignore SA1019 sampling is what the upstream asked for; the gateway only passes it on
	res, err := g.srv.RequestSampling(t.ctx(ctx), req)
	if err != nil {
		return nil, t.failed(ctx, "sampling", err)
	}
	if err := checkSampling(res); err != nil {
		g.notef("the answer of %s to sampling: %v", t.name, err)
		return nil, fmt.Errorf("the gateway's client %s answered sampling with %w", t.name, err)
	}
	return res, nil
}

// Elicit forwards elicitation/create to a client that declared the mode
// asked for (form or URL), or declines.
func (f *Forwarder) Elicit(ctx context.Context, _ string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	decline := &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}
	g := f.gateway()
	if g == nil {
		return decline, nil
	}
	url := req.Params.Mode == mcp.ElicitationModeURL
	t, why := g.peers.target(g.srv, func(c mcp.ClientCapabilities) string {
		e := c.Elicitation
		switch {
		case e == nil:
			return "did not declare elicitation"
		case url && e.URL == nil:
			return "did not declare URL-mode elicitation"
		case !url && e.Form == nil && e.URL != nil:
			// An empty elicitation capability means form mode.
			return "did not declare form-mode elicitation"
		}
		return ""
	})
	if t == nil {
		g.notef("declined the upstream's elicitation: %s", why)
		return decline, nil
	}
	defer t.release()
	g.notef("forwarding the upstream's elicitation to %s", t.name)
	req.Request.Method = string(mcp.MethodElicitationCreate)
	res, err := g.srv.RequestElicitation(t.ctx(ctx), req)
	if errors.Is(err, server.ErrServerInitiatedRequestUnsupported) {
		g.notef("declined the upstream's elicitation: %v", t.failed(ctx, "elicitation", err))
		return decline, nil
	}
	if err != nil {
		return nil, t.failed(ctx, "elicitation", err)
	}
	if err := checkElicitation(res, url); err != nil {
		g.notef("the answer of %s to elicitation: %v", t.name, err)
		return nil, fmt.Errorf("the gateway's client %s answered elicitation with %w", t.name, err)
	}
	return res, nil
}

// failed words a forwarded request's failure for the upstream.
func (t *askTarget) failed(ctx context.Context, what string, err error) error {
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("the gateway's client %s gave no %s answer in time: %w", t.name, what, context.Cause(ctx))
	case t.gone():
		return fmt.Errorf("the gateway's client %s disconnected before answering %s", t.name, what)
	case errors.Is(err, server.ErrServerInitiatedRequestUnsupported):
		return declined{what, t.name + " speaks a protocol revision without server-initiated requests"}
	}
	return fmt.Errorf("the gateway's client %s answered %s with an error: %w", t.name, what, err)
}

// declined is the gateway's refusal of a sampling request it cannot
// forward: session.ErrDeclined, in words that say who declined and why
// (ErrDeclined's own text speaks of a person).
type declined struct{ what, why string }

func (d declined) Error() string { return "the mcpterm gateway declined " + d.what + ": " + d.why }
func (d declined) Unwrap() error { return session.ErrDeclined }

// checkSampling checks the shape of a client's sampling answer: a bounded
// message with a known role and content. (mcp-go has read it already, so
// the model name is there, if only as "".)
func checkSampling(res *mcp.CreateMessageResult) error {
	if res == nil {
		return errors.New("no result")
	}
	b, err := json.Marshal(res)
	if err != nil {
		return fmt.Errorf("a result that cannot be encoded: %v", err)
	}
	if len(b) > maxAnswerBytes {
		return fmt.Errorf("a result of %d bytes, over the gateway's limit of %d", len(b), maxAnswerBytes)
	}
	var m struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("a result that is not an object: %v", err)
	}
	if m.Role != string(mcp.RoleAssistant) && m.Role != string(mcp.RoleUser) {
		return fmt.Errorf("role %q (want assistant or user)", clipText(m.Role))
	}
	var one struct {
		Type string `json:"type"`
	}
	var many []struct {
		Type string `json:"type"`
	}
	types := []string{}
	if json.Unmarshal(m.Content, &one) == nil && one.Type != "" {
		types = append(types, one.Type)
	} else if json.Unmarshal(m.Content, &many) == nil && len(many) > 0 {
		for _, c := range many {
			types = append(types, c.Type)
		}
	} else {
		return errors.New("no content (want a content object or a non-empty array of them)")
	}
	for _, ty := range types {
		switch ty {
		case "text", "image", "audio", "tool_use", "tool_result":
		default:
			return fmt.Errorf("content of type %q (want text, image, audio, tool_use or tool_result)", clipText(ty))
		}
	}
	return nil
}

// checkElicitation checks the shape of a client's elicitation answer: a
// known action, and for an accepted form a flat object of primitive values
// (strings, numbers, booleans, arrays of strings for multi-select).
func checkElicitation(res *mcp.ElicitationResult, url bool) error {
	if res == nil {
		return errors.New("no result")
	}
	switch res.Action {
	case mcp.ElicitationResponseActionAccept, mcp.ElicitationResponseActionDecline, mcp.ElicitationResponseActionCancel:
	default:
		return fmt.Errorf("action %q (want accept, decline or cancel)", clipText(string(res.Action)))
	}
	if res.Content == nil {
		return nil
	}
	b, err := json.Marshal(res.Content)
	if err != nil {
		return fmt.Errorf("content that cannot be encoded: %v", err)
	}
	if len(b) > maxAnswerBytes {
		return fmt.Errorf("content of %d bytes, over the gateway's limit of %d", len(b), maxAnswerBytes)
	}
	if res.Action != mcp.ElicitationResponseActionAccept || url {
		if string(b) == "{}" || string(b) == "null" {
			return nil
		}
		return fmt.Errorf("content with action %s%s (only an accepted form carries content)", res.Action, map[bool]string{true: " in URL mode"}[url])
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return errors.New("content that is not an object")
	}
	if len(fields) > maxElicitFields {
		return fmt.Errorf("content of %d fields, over the gateway's limit of %d", len(fields), maxElicitFields)
	}
	for k, v := range fields {
		var x any
		_ = json.Unmarshal(v, &x)
		switch x := x.(type) {
		case string, float64, bool:
		case []any:
			if slices.ContainsFunc(x, func(e any) bool { _, ok := e.(string); return !ok }) {
				return fmt.Errorf("field %q: an array of something other than strings", clipText(k))
			}
		default:
			return fmt.Errorf("field %q: not a string, number, boolean or array of strings", clipText(k))
		}
	}
	return nil
}

// clipText bounds a peer's text quoted in an error.
func clipText(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}
