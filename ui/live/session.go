// Package live connects the workbench (package ui) to the real mcpterm
// packages: session/ for the server, tokens/ for counting, convert/safe for
// sanitising, convert/call and convert/aql for calls. The ui package only
// knows its own small interfaces; this is the one place that knows theirs.
package live

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/history"
	"github.com/mcpterm/mcpterm/ui"
)

// Connector opens src with opts each time the UI (re)connects.
func Connector(src session.Source, opts session.Options) ui.Connector {
	return Connect(src, opts, ConnectOptions{})
}

// ConnectOptions are the workbench's extras on top of session.Options.
type ConnectOptions struct {
	// RetrySSE is set for a config entry whose HTTP transport was guessed:
	// when streamable HTTP cannot connect, the legacy SSE transport is tried.
	RetrySSE bool
	// History, when set, records every call with its outcome (the same log
	// `mcpterm call` writes).
	History *history.Log
}

// Connect is Connector with ConnectOptions.
func Connect(src session.Source, opts session.Options, co ConnectOptions) ui.Connector {
	retrySSE := co.RetrySSE
	return func(ctx context.Context) (ui.Backend, error) {
		s, err := session.Open(ctx, src, opts)
		if err != nil && retrySSE && session.Classify(err) == session.ClassConnection {
			sse := src
			sse.Kind = session.SSE
			if s2, err2 := session.Open(ctx, sse, opts); err2 == nil {
				s, err = s2, nil
			}
		}
		if err != nil {
			return nil, connectError(err)
		}
		set, err := s.Tools(ctx)
		if err != nil {
			s.Close()
			return nil, connectError(err)
		}
		b := NewBackend(s, set)
		b.hist = co.History
		return b, nil
	}
}

// stderrError carries a stdio server's stderr to the UI's connection screen.
type stderrError struct {
	err    error
	stderr string
}

func (e *stderrError) Error() string  { return e.err.Error() }
func (e *stderrError) Unwrap() error  { return e.err }
func (e *stderrError) Stderr() string { return e.stderr }

func connectError(err error) error {
	var exit *session.ServerExitError
	if errors.As(err, &exit) && exit.Stderr != "" {
		return &stderrError{err: err, stderr: exit.Stderr}
	}
	return err
}

// Backend adapts a *session.Session to ui.Backend.
type Backend struct {
	s *session.Session

	mu  sync.Mutex
	set *toolset.Set

	// side carries what the adapter itself has to say: progress tied to a
	// call, and connection loss seen by a call.
	side chan ui.Event
	hist *history.Log
}

// NewBackend wraps an open session whose tools were listed as set.
func NewBackend(s *session.Session, set *toolset.Set) *Backend {
	return &Backend{s: s, set: set, side: make(chan ui.Event, 256)}
}

// Session is the wrapped session (for tests).
func (b *Backend) Session() *session.Session { return b.s }

func (b *Backend) Info() ui.ServerInfo {
	in := b.s.Info()
	si := ui.ServerInfo{
		Name: in.Name, Title: in.Title, Version: in.Version, Protocol: in.ProtocolVersion,
		Transport: in.Source, Instructions: in.Instructions, Offline: b.s.IsOffline(),
		Capabilities: capabilities(in.Capabilities),
	}
	if si.Offline {
		si.Transport = "offline: " + strings.TrimPrefix(in.Source, "offline: ")
	}
	return si
}

func capabilities(c mcp.ServerCapabilities) []string {
	var out []string
	if c.Tools != nil {
		s := "tools"
		if c.Tools.ListChanged {
			s += " (list_changed)"
		}
		out = append(out, s)
	}
	if c.Resources != nil {
		s := "resources"
		var f []string
		if c.Resources.Subscribe {
			f = append(f, "subscribe")
		}
		if c.Resources.ListChanged {
			f = append(f, "list_changed")
		}
		if len(f) > 0 {
			s += " (" + strings.Join(f, ", ") + ")"
		}
		out = append(out, s)
	}
	if c.Prompts != nil {
		out = append(out, "prompts")
	}
	if c.Logging != nil {
		out = append(out, "logging")
	}
	if c.Completions != nil {
		out = append(out, "completions")
	}
	var exp []string
	for k := range c.Experimental {
		exp = append(exp, "experimental "+k)
	}
	sort.Strings(exp)
	return append(out, exp...)
}

func (b *Backend) Tools() *toolset.Set {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.set
}

func (b *Backend) RefreshTools(ctx context.Context) (*toolset.Set, error) {
	set, err := b.s.Tools(ctx)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	b.set = set
	b.mu.Unlock()
	return set, nil
}

func (b *Backend) Call(ctx context.Context, req ui.CallRequest) (*ui.CallResult, error) {
	r := b.s.Call(ctx, session.CallRequest{
		Tool:      req.Tool,
		Arguments: req.Arguments,
		OnProgress: func(e session.Event) {
			ev := ui.Event{Kind: ui.EventProgress, Time: e.Time, CallID: req.ID, Progress: e.Progress, Total: e.Total, Text: e.Text}
			select {
			case b.side <- ev:
			default:
			}
		},
	})
	b.record(req, r)
	if r.Err != nil {
		if session.Classify(r.Err) == session.ClassConnection {
			select {
			case b.side <- ui.Event{Kind: ui.EventClosed, Time: r.Started.Add(r.Duration), Text: r.Err.Error()}:
			default:
			}
		}
		return nil, r.Err
	}
	res := ConvertResult(r.Raw)
	res.IsError = r.IsError
	res.Duration = r.Duration
	if r.SchemaErr != nil {
		res.Warning = "structuredContent: " + r.SchemaErr.Error()
	}
	return res, nil
}

// record appends a finished call to the history, as `mcpterm call` does:
// a single call keeps its source, a batch call the batch and its id.
func (b *Backend) record(req ui.CallRequest, r *session.CallResult) {
	if b.hist == nil {
		return
	}
	src, _ := safe.Cut(req.Source, 4096)
	e := history.Entry{Time: r.Started, Server: firstNonEmpty(b.s.Info().Name, b.s.Source().String()), Tool: r.Tool,
		Duration: r.Duration, Outcome: history.OK, Source: src}
	if req.Batch {
		e.Source, e.Batch, e.BatchID = "", src, req.BatchID
	}
	if r.Arguments != nil {
		e.Arguments = json.RawMessage(r.Arguments.Compact())
	}
	if r.Raw != nil {
		for _, it := range r.Raw.Get("content").Items {
			if t := it.Get("text"); t != nil && t.Kind == ojson.String {
				e.Summary, _ = safe.Cut(t.Str, 200)
				break
			}
		}
	}
	switch {
	case r.Err != nil:
		e.Outcome, e.Error = history.Failed, r.Err.Error()
	case r.IsError:
		e.Outcome = history.ToolError
	case r.SchemaErr != nil:
		e.Outcome, e.Error = history.ToolError, r.SchemaErr.Error()
	}
	_ = b.hist.Append(e) // a history that cannot be written must not fail the call
}

// ConvertResult reads a CallToolResult from the JSON the server sent, so
// content types mcp-go does not know still show as what they claim to be.
func ConvertResult(raw *ojson.Value) *ui.CallResult {
	res := &ui.CallResult{Raw: raw}
	if raw == nil {
		return res
	}
	if c := raw.Get("content"); c != nil && c.Kind == ojson.Array {
		for _, item := range c.Items {
			res.Content = append(res.Content, convertContent(item))
		}
	}
	if sc := raw.Get("structuredContent"); sc != nil && sc.Kind != ojson.Null {
		res.Structured = sc
	}
	if e := raw.Get("isError"); e != nil && e.Kind == ojson.Bool {
		res.IsError = e.Bool
	}
	return res
}

func convertContent(v *ojson.Value) ui.Content {
	c := ui.Content{Type: v.Get("type").StringOr("unknown")}
	c.Text = v.Get("text").StringOr("")
	c.MIME = v.Get("mimeType").StringOr("")
	c.URI = v.Get("uri").StringOr("")
	c.Name = v.Get("name").StringOr("")
	if d := v.Get("data").StringOr(""); d != "" {
		c.DataSize = base64.StdEncoding.DecodedLen(len(d))
	}
	if r := v.Get("resource"); r != nil && r.Kind == ojson.Object {
		c.URI = r.Get("uri").StringOr(c.URI)
		c.MIME = r.Get("mimeType").StringOr(c.MIME)
		c.Text = r.Get("text").StringOr("")
		if bl := r.Get("blob").StringOr(""); bl != "" {
			c.DataSize = base64.StdEncoding.DecodedLen(len(bl))
		}
	}
	return c
}

func (b *Backend) Resources(ctx context.Context) ([]ui.Resource, error) {
	rs, err := b.s.Resources(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]ui.Resource, 0, len(rs))
	for _, r := range rs {
		out = append(out, ui.Resource{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIME: r.MIMEType})
	}
	return out, nil
}

func (b *Backend) ResourceTemplates(ctx context.Context) ([]ui.ResourceTemplate, error) {
	ts, err := b.s.ResourceTemplates(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]ui.ResourceTemplate, 0, len(ts))
	for _, t := range ts {
		tpl := ""
		if t.URITemplate != nil && t.URITemplate.Template != nil {
			tpl = t.URITemplate.Raw()
		}
		out = append(out, ui.ResourceTemplate{URITemplate: tpl, Name: t.Name, Title: t.Title, Description: t.Description, MIME: t.MIMEType})
	}
	return out, nil
}

func (b *Backend) ReadResource(ctx context.Context, uri string) ([]ui.Content, error) {
	rc, err := b.s.ReadResource(ctx, uri)
	if err != nil {
		return nil, err
	}
	var out []ui.Content
	if c := rc.Raw.Get("contents"); c != nil && c.Kind == ojson.Array {
		for _, item := range c.Items {
			ct := ui.Content{Type: "resource", URI: item.Get("uri").StringOr(uri), MIME: item.Get("mimeType").StringOr(""), Text: item.Get("text").StringOr("")}
			if bl := item.Get("blob").StringOr(""); bl != "" {
				ct.DataSize = base64.StdEncoding.DecodedLen(len(bl))
			}
			out = append(out, ct)
		}
	}
	return out, nil
}

func (b *Backend) Prompts(ctx context.Context) ([]ui.Prompt, error) {
	ps, err := b.s.Prompts(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]ui.Prompt, 0, len(ps))
	for _, p := range ps {
		up := ui.Prompt{Name: p.Name, Title: p.Title, Description: p.Description}
		for _, a := range p.Arguments {
			up.Arguments = append(up.Arguments, ui.PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
		}
		out = append(out, up)
	}
	return out, nil
}

func (b *Backend) GetPrompt(ctx context.Context, name string, args map[string]string) (*ui.PromptResult, error) {
	pm, err := b.s.GetPrompt(ctx, name, args)
	if err != nil {
		return nil, err
	}
	res := &ui.PromptResult{Description: pm.Raw.Get("description").StringOr("")}
	if ms := pm.Raw.Get("messages"); ms != nil && ms.Kind == ojson.Array {
		for _, m := range ms.Items {
			c := m.Get("content")
			if c == nil || c.Kind != ojson.Object {
				continue
			}
			res.Messages = append(res.Messages, ui.PromptMessage{Role: m.Get("role").StringOr("?"), Content: convertContent(c)})
		}
	}
	return res, nil
}

// Subscribe merges the session's events, the protocol tap and the
// adapter's own events into one stream, ending when ctx does. It starts with
// what the session has retained (the handshake and the first tools/list
// happen before the UI subscribes); sequence numbers keep the snapshot and
// the live stream from repeating an item.
func (b *Backend) Subscribe(ctx context.Context) <-chan ui.Event {
	out := make(chan ui.Event, 512)
	evs := b.s.Subscribe(ctx)
	tap, stop := b.s.Tap().Subscribe()
	pastEvents, pastMsgs := b.s.Events(), b.s.Tap().Messages()
	go func() {
		defer close(out)
		defer stop()
		send := func(e ui.Event) bool {
			select {
			case out <- e:
				return true
			case <-ctx.Done():
				return false
			}
		}
		var lastEv, lastMsg uint64
		for _, m := range pastMsgs {
			lastMsg = m.Seq
			if !send(convertMessage(m)) {
				return
			}
		}
		for _, e := range pastEvents {
			lastEv = e.Seq
			if !send(convertEvent(e)) {
				return
			}
		}
		for {
			select {
			case <-ctx.Done():
				return
			case e, ok := <-evs:
				if !ok {
					return
				}
				if e.Seq <= lastEv {
					continue
				}
				if !send(convertEvent(e)) {
					return
				}
			case m, ok := <-tap:
				if !ok {
					tap = nil
					continue
				}
				if m.Seq <= lastMsg {
					continue
				}
				if !send(convertMessage(m)) {
					return
				}
			case e := <-b.side:
				if !send(e) {
					return
				}
			}
		}
	}()
	return out
}

func convertEvent(e session.Event) ui.Event {
	ev := ui.Event{Time: e.Time, Level: e.Level, Logger: e.Source, Text: e.Text}
	switch e.Kind {
	case session.EventLog:
		ev.Kind = ui.EventLog
	case session.EventProgress:
		// Progress tied to a call arrives through the call's OnProgress;
		// this copy is for the log only.
		ev.Kind = ui.EventProgress
		ev.CallID = -1
		ev.Progress, ev.Total = e.Progress, e.Total
	case session.EventStderr:
		ev.Kind = ui.EventStderr
		ev.Logger = ""
	case session.EventListChanged:
		ev.Kind = ui.EventListChanged
		ev.Text = e.Source
	default:
		ev.Kind = ui.EventLog
		if ev.Level == "" {
			ev.Level = "notice"
		}
		ev.Logger = firstNonEmpty(e.Source, string(e.Kind))
	}
	return ev
}

func convertMessage(m session.Message) ui.Event {
	return ui.Event{Kind: ui.EventProtocol, Time: m.Time, Proto: &ui.ProtocolMessage{
		Seq: m.Seq, Outgoing: m.Dir == session.Sent, Kind: string(m.Kind), ID: m.ID, Method: m.Method,
		Raw: m.Payload, Size: m.Size, Latency: m.Latency, Pair: m.Pair, Err: m.Err,
	}}
}

func (b *Backend) Close() error { return b.s.Close() }

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

var _ ui.Backend = (*Backend)(nil)
