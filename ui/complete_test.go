package ui

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/session"
)

// tripServer is an in-process server with completions and subscriptions:
// the prompt "trip" (country, then city narrowed by the country), the
// template notes://{id}, and resources notes://a and notes://b.
type tripServer struct {
	srv   *server.MCPServer
	mu    sync.Mutex
	asked []string // "arg=value ctx" per completion/complete
}

func (s *tripServer) CompletePromptArgument(_ context.Context, _ string, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	s.mu.Lock()
	s.asked = append(s.asked, arg.Name+"="+arg.Value+" "+cc.Arguments["country"])
	s.mu.Unlock()
	if strings.HasSuffix(arg.Value, "!") {
		return nil, errors.New("no such place\x1b]52;c;eA==\x07")
	}
	all := []string{"FR", "DE"}
	if arg.Name == "city" {
		all = map[string][]string{"FR": {"Paris", "Lyon", "Lille"}, "DE": {"Berlin", "Bonn"}}[cc.Arguments["country"]]
	}
	var out []string
	for _, v := range all {
		if strings.HasPrefix(v, arg.Value) {
			out = append(out, v)
		}
	}
	return &mcp.Completion{Values: out}, nil
}

func (s *tripServer) CompleteResourceArgument(_ context.Context, _ string, arg mcp.CompleteArgument, _ mcp.CompleteContext) (*mcp.Completion, error) {
	return &mcp.Completion{Values: []string{arg.Value + "1", arg.Value + "2\x1b[31m"}}, nil
}

func (s *tripServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.asked...)
}

func newTripServer(capable bool) *tripServer {
	s := &tripServer{}
	opts := []server.ServerOption{server.WithPromptCapabilities(false), server.WithResourceCapabilities(capable, false)}
	if capable {
		opts = append(opts, server.WithCompletions(), server.WithPromptCompletionProvider(s), server.WithResourceCompletionProvider(s))
	}
	s.srv = server.NewMCPServer("trips", "1", opts...)
	s.srv.AddPrompt(mcp.NewPrompt("trip", mcp.WithArgument("country", mcp.RequiredArgument()), mcp.WithArgument("city")),
		func(_ context.Context, r mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return mcp.NewGetPromptResult("trip", []mcp.PromptMessage{mcp.NewPromptMessage(mcp.RoleUser,
				mcp.NewTextContent("Plan a trip to "+r.Params.Arguments["city"]+", "+r.Params.Arguments["country"]))}), nil
		})
	for _, u := range []string{"notes://a", "notes://b"} {
		s.srv.AddResource(mcp.NewResource(u, strings.TrimPrefix(u, "notes://")), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: u, Text: "contents of " + u}}, nil
		})
	}
	s.srv.AddResourceTemplate(mcp.NewResourceTemplate("notes://{id}", "note"), func(_ context.Context, r mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: r.Params.URI, Text: "note " + r.Params.URI}}, nil
	})
	return s
}

func tripHarness(t *testing.T, s *tripServer) *harness {
	t.Helper()
	e := serverEnv(t, session.Source{Kind: session.InProcess, Name: "trips", Server: s.srv})
	e.opts.Theme = mustTheme("mono")
	h := newHarness(t, e.opts, 160, 48)
	h.waitUntil("connected", func(m *Model) bool { return m.conn == connReady })
	h.key("3")
	h.waitUntil("the lists", func(m *Model) bool { return m.explore.loaded })
	return h
}

// completionFor waits for the answer to the form's request for field at
// value (replies are only handled while the harness waits, so it cannot
// have come already).
func (h *harness) completionFor(field int, value string) *completingForm {
	h.t.Helper()
	h.waitFor("suggestions for "+value, func(msg tea.Msg) bool {
		c, ok := msg.(completionMsg)
		return ok && c.w.field == field && c.w.value == value
	})
	f, ok := h.m.modal.(*completingForm)
	if !ok || f.value != value || f.field != field {
		h.t.Fatalf("the answer for %q was not applied (%T)", value, h.m.modal)
	}
	return f
}

func TestPromptFormCompletesAsYouType(t *testing.T) {
	s := newTripServer(true)
	h := tripHarness(t, s)
	for h.m.explore.tab != tabPrompts {
		h.key("right")
	}
	h.press("enter", "the arguments form", func(m *Model) bool { return m.modal != nil })
	if _, ok := h.m.modal.(*completingForm); !ok {
		t.Fatalf("the form is a %T", h.m.modal)
	}
	// Before anything is typed: every country.
	f := h.completionFor(0, "")
	if !slices.Equal(f.sugg, []string{"FR", "DE"}) || !f.shown {
		t.Fatalf("suggestions %v shown %v", f.sugg, f.shown)
	}
	if sc := h.screen(); !strings.Contains(sc, "FR") || !strings.Contains(sc, "tab takes it") {
		t.Errorf("suggestions not under the field:\n%s", sc)
	}
	h.typeText("F")
	f = h.completionFor(0, "F")
	if !slices.Equal(f.sugg, []string{"FR"}) {
		t.Fatalf("suggestions for F: %v", f.sugg)
	}
	h.key("tab") // takes FR
	if v := f.fields[0].Value(); v != "FR" {
		t.Fatalf("field 0 = %q", v)
	}
	// The only suggestion is what is typed: nothing shows, and tab moves on.
	h.completionFor(0, "FR")
	if f.shown {
		t.Errorf("suggestions still shown: %v", f.sugg)
	}
	h.key("tab")
	f = h.completionFor(1, "")
	if !slices.Equal(f.sugg, []string{"Paris", "Lyon", "Lille"}) {
		t.Fatalf("cities for FR: %v", f.sugg)
	}
	// The server got the country as context.
	if r := s.requests(); r[len(r)-1] != "city= FR" {
		t.Errorf("requests %v", r)
	}
	h.key("down")
	h.key("tab") // takes Lyon
	if v := f.fields[1].Value(); v != "Lyon" {
		t.Fatalf("field 1 = %q", v)
	}
	// A server's error shows under the field, sanitised, and goes away
	// with the next answer.
	h.typeText("!")
	h.completionFor(1, "Lyon!")
	if sc := h.screen(); !strings.Contains(sc, "suggestions: completion/complete: server error") || strings.Contains(h.m.render(), "\x1b]52") {
		t.Errorf("the error is not shown, or not sanitised:\n%s", sc)
	}
	h.send(tea.KeyPressMsg{Code: tea.KeyBackspace})
	h.completionFor(1, "Lyon")
	if f.shown {
		t.Errorf("still shown: %q %v", f.err, f.sugg)
	}
	h.key("enter")
	h.waitFor("the prompt", msgIs[detailMsg])
	if sc := h.screen(); !strings.Contains(sc, "Plan a trip to Lyon, FR") {
		t.Errorf("prompt:\n%s", sc)
	}
}

// Replies that no longer answer what the form shows are dropped: a tick
// older than the newest, and an answer for text since edited.
func TestStaleCompletionsAreDropped(t *testing.T) {
	s := newTripServer(true)
	h := tripHarness(t, s)
	for h.m.explore.tab != tabPrompts {
		h.key("right")
	}
	h.press("enter", "the arguments form", func(m *Model) bool { return m.modal != nil })
	h.completionFor(0, "")
	h.typeText("D")
	f := h.completionFor(0, "D")
	n := len(s.requests())

	// A tick older than the newest sends nothing.
	old := ticket{kind: kindSuggTick, conn: h.m.gen, seq: h.m.tickets.newest[kindSuggTick] - 1}
	if _, cmd := h.m.Update(completeTickMsg{t: old, w: completeWant{ref: f.ref, arg: "country", value: "X"}}); cmd != nil {
		if msg := cmd(); msg != nil {
			t.Errorf("a stale tick made %T", msg)
		}
	}
	// An answer for other text, with the newest ticket, is not shown.
	newest := ticket{kind: kindSuggest, conn: h.m.gen, seq: h.m.tickets.newest[kindSuggest]}
	h.send(completionMsg{t: newest, w: completeWant{ref: f.ref, field: 0, arg: "country", value: "F"}, c: &session.Completion{Values: []string{"FR"}}})
	if !slices.Equal(f.sugg, []string{"DE"}) {
		t.Errorf("suggestions became %v", f.sugg)
	}
	if len(s.requests()) != n {
		t.Errorf("requests %v", s.requests()[n:])
	}
}

// A template's variables are completed too, and what a server suggests is
// sanitised before it shows or goes into the field.
func TestTemplateFormCompletesSanitised(t *testing.T) {
	h := tripHarness(t, newTripServer(true))
	for h.m.explore.tab != tabTemplates {
		h.key("right")
	}
	h.press("enter", "the variables form", func(m *Model) bool { return m.modal != nil })
	h.completionFor(0, "")
	h.typeText("7")
	f := h.completionFor(0, "7")
	if !slices.Equal(f.sugg, []string{"71", "72\x1b[31m"}) {
		t.Fatalf("suggestions %v", f.sugg)
	}
	if strings.Contains(h.m.render(), "\x1b[31m") {
		t.Error("a suggestion's escape reached the frame")
	}
	h.key("up") // the last: 72 and the escape
	h.key("tab")
	if v := f.fields[0].Value(); strings.ContainsRune(v, 0x1b) || !strings.HasPrefix(v, "72") {
		t.Errorf("field = %q", v)
	}
}

// Without the completions capability the forms are plain and nothing is asked.
func TestNoCompletionsWithoutCapability(t *testing.T) {
	s := newTripServer(false)
	h := tripHarness(t, s)
	for h.m.explore.tab != tabPrompts {
		h.key("right")
	}
	h.press("enter", "the arguments form", func(m *Model) bool { return m.modal != nil })
	if _, ok := h.m.modal.(*modal); !ok {
		t.Fatalf("the form is a %T", h.m.modal)
	}
	h.typeText("F")
	h.send(tea.KeyPressMsg{Code: tea.KeyEscape})
	if len(s.requests()) != 0 {
		t.Errorf("requests %v", s.requests())
	}
}
