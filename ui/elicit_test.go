package ui

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/mark3labs/mcp-go/mcp"
)

// everyKind has a field of every kind the dialog draws, in an order the
// keys below walk (fields come sorted by name: mcp-go decodes the schema
// into a map).
const everyKind = `{"type":"object","properties":{
 "a_name":{"type":"string","title":"Name","description":"Your name\u001b[2J","minLength":2},
 "b_agree":{"type":"boolean","title":"Agree"},
 "c_age":{"type":"integer","title":"Age","minimum":0,"maximum":150,"default":30},
 "d_pet":{"type":"string","title":"Pet","oneOf":[{"const":"cat","title":"Cat"},{"const":"dog","title":"Dog"}]},
 "e_tags":{"type":"array","title":"Tags","items":{"anyOf":[{"const":"x","title":"Ex"},{"const":"y","title":"Why"},{"const":"z","title":"Zed"}]},"maxItems":2,"default":["x"]},
 "f_mood":{"type":"string","title":"Mood","enum":["ok","meh"],"enumNames":["Fine","So-so"],"default":"ok"}
},"required":["a_name","d_pet"]}`

// askFor builds a server's elicitation as the AskBridge hands it over.
func askFor(t *testing.T, ctx context.Context, params mcp.ElicitationParams) *askRequest {
	t.Helper()
	if s, ok := params.RequestedSchema.(string); ok {
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		params.RequestedSchema = v
	}
	return &askRequest{ctx: ctx, server: "test-server\x1b]0;t\x07", elicit: &mcp.ElicitationRequest{Params: params}, reply: make(chan askReply, 1)}
}

func replyOf(t *testing.T, r *askRequest) askReply {
	t.Helper()
	select {
	case a := <-r.reply:
		return a
	case <-time.After(30 * time.Second):
		t.Fatal("no answer")
	}
	return askReply{}
}

func noReply(t *testing.T, r *askRequest) {
	t.Helper()
	select {
	case a := <-r.reply:
		t.Fatalf("answered too early: %+v", a)
	default:
	}
}

func TestElicitFormAccept(t *testing.T) {
	h := readyHarness(t, 120, 40)
	r := askFor(t, context.Background(), mcp.ElicitationParams{Message: "Tell us\x1b[31m about you", RequestedSchema: everyKind})
	h.send(askMsg{req: r})
	if _, ok := h.m.modal.(*elicitDialog); !ok {
		t.Fatalf("no elicitation dialog; modal %T", h.m.modal)
	}
	screen := h.screen()
	for _, want := range []string{"Tell us", "Name *", "[ ] —", "30", "‹ — ›", "[x] Ex", "‹ Fine ›", "Your name"} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(h.m.render(), "\x1b[2J") || strings.Contains(h.m.render(), "\x1b]0;t") {
		t.Fatal("server text reached the terminal unsanitised")
	}
	// Accepting with a required field empty marks it, and sends nothing.
	h.key("ctrl+s")
	noReply(t, r)
	if s := h.screen(); !strings.Contains(s, "! required") || !strings.Contains(s, "fix the marked fields first") {
		t.Fatalf("missing required fields not marked:\n%s", s)
	}
	// A live error, next to the field, as the name is typed.
	h.typeText("A")
	if s := h.screen(); !strings.Contains(s, "! at least 2 characters, got 1") {
		t.Fatalf("no live error:\n%s", s)
	}
	h.typeText("da")
	h.key("tab")
	h.key("space") // agree: yes
	h.key("tab")
	h.key("backspace")
	h.key("backspace")
	h.typeText("200")
	if s := h.screen(); !strings.Contains(s, "! 200 is more than the maximum 150") {
		t.Fatalf("no range error:\n%s", s)
	}
	h.key("backspace")
	h.key("backspace") // 2
	h.key("tab")
	h.key("right")
	h.key("right") // Dog
	h.key("tab")
	h.key("right")
	h.key("space") // tick Why
	h.key("tab")
	h.key("ctrl+x") // Mood left out
	h.key("enter")  // the last field: accept
	a := replyOf(t, r)
	if a.err != nil || a.elicit.Action != mcp.ElicitationResponseActionAccept {
		t.Fatalf("%+v", a)
	}
	b, _ := json.Marshal(a.elicit.Content)
	if string(b) != `{"a_name":"Ada","b_agree":true,"c_age":2,"d_pet":"dog","e_tags":["x","y"]}` {
		t.Fatalf("content %s", b)
	}
	if h.m.modal != nil {
		t.Fatalf("the dialog stayed open: %T", h.m.modal)
	}
}

func TestElicitDeclineCancelAndQueue(t *testing.T) {
	h := readyHarness(t, 80, 24)
	r1 := askFor(t, context.Background(), mcp.ElicitationParams{Message: "first", RequestedSchema: everyKind})
	r2 := askFor(t, context.Background(), mcp.ElicitationParams{Message: "second", RequestedSchema: `{"type":"object","properties":{"ok":{"type":"boolean","default":true}}}`})
	h.send(askMsg{req: r1})
	h.send(askMsg{req: r2})
	if s := h.screen(); !strings.Contains(s, "first") || strings.Contains(s, "second") {
		t.Fatalf("the second request must wait:\n%s", s)
	}
	h.key("ctrl+d")
	if a := replyOf(t, r1); a.elicit.Action != mcp.ElicitationResponseActionDecline {
		t.Fatalf("%+v", a)
	}
	if s := h.screen(); !strings.Contains(s, "second") {
		t.Fatalf("the queued request did not open:\n%s", s)
	}
	// The quit question covers it; saying no brings it back.
	h.m.composer.dirty = true
	h.key("ctrl+c")
	if md, ok := h.m.modal.(*modal); !ok || md.title != quitTitle {
		t.Fatalf("modal %T", h.m.modal)
	}
	h.key("n")
	if _, ok := h.m.modal.(*elicitDialog); !ok {
		t.Fatalf("the elicitation did not come back after the quit question: %T", h.m.modal)
	}
	h.key("esc")
	if a := replyOf(t, r2); a.elicit.Action != mcp.ElicitationResponseActionCancel {
		t.Fatalf("%+v", a)
	}
}

func TestElicitServerGivesUp(t *testing.T) {
	h := readyHarness(t, 80, 24)
	ctx, cancel := context.WithCancelCause(context.Background())
	r := askFor(t, ctx, mcp.ElicitationParams{Message: "quick", RequestedSchema: everyKind})
	h.send(askMsg{req: r})
	cancel(errors.New("server timeout"))
	h.waitFor("the dialog to close", msgIs[askEventMsg])
	if h.m.modal != nil || !strings.Contains(h.m.flash, "withdrew its question (server timeout)") {
		t.Fatalf("modal %T flash %q", h.m.modal, h.m.flash)
	}
}

func TestElicitBadSchema(t *testing.T) {
	h := readyHarness(t, 80, 24)
	r := askFor(t, context.Background(), mcp.ElicitationParams{Message: "x", RequestedSchema: `{"type":"object","properties":{"o":{"type":"object"}}}`})
	h.send(askMsg{req: r})
	a := replyOf(t, r)
	if a.err == nil || !strings.Contains(a.err.Error(), `field "o"`) || h.m.modal != nil {
		t.Fatalf("%+v modal %T", a, h.m.modal)
	}
}

func TestElicitURL(t *testing.T) {
	var mu sync.Mutex
	var opened []string
	e := demoEnv(t)
	e.opts.OpenURL = func(_ context.Context, u string) error {
		mu.Lock()
		defer mu.Unlock()
		opened = append(opened, u)
		return nil
	}
	h := newHarness(t, e.opts, 80, 24)
	h.ready()
	r := askFor(t, context.Background(), mcp.ElicitationParams{Mode: "url", Message: "Sign in to continue", URL: "https://example.com/auth?x=1", ElicitationID: "e1"})
	h.send(askMsg{req: r})
	if s := h.screen(); !strings.Contains(s, "https://example.com/auth?x=1") || !strings.Contains(s, "o open the link") {
		t.Fatalf("screen:\n%s", s)
	}
	h.key("o")
	h.waitFor("the link to open", msgIs[elicitOpenedMsg])
	if s := h.screen(); !strings.Contains(s, "opened in the browser") {
		t.Fatalf("screen:\n%s", s)
	}
	h.key("enter")
	if a := replyOf(t, r); a.elicit.Action != mcp.ElicitationResponseActionAccept || len(opened) != 1 || opened[0] != "https://example.com/auth?x=1" {
		t.Fatalf("%+v %v", a, opened)
	}
	// A link that is not http(s) is shown, never opened.
	r = askFor(t, context.Background(), mcp.ElicitationParams{Mode: "url", Message: "run", URL: "file:///etc/passwd", ElicitationID: "e2"})
	h.send(askMsg{req: r})
	h.key("o")
	if s := h.screen(); !strings.Contains(s, "not an http(s) URL") {
		t.Fatalf("screen:\n%s", s)
	}
	h.key("ctrl+d")
	if a := replyOf(t, r); a.elicit.Action != mcp.ElicitationResponseActionDecline || len(opened) != 1 {
		t.Fatalf("%+v %v", a, opened)
	}
}

// TestElicitNotes: what the schema had that the form cannot use is said.
func TestElicitNotes(t *testing.T) {
	h := readyHarness(t, 120, 40)
	r := askFor(t, context.Background(), mcp.ElicitationParams{Message: "n", RequestedSchema: `{"type":"object","properties":{"n":{"type":"integer","maximum":3,"default":9}}}`})
	h.send(askMsg{req: r})
	if s := h.screen(); !strings.Contains(s, `note: field "n": default ignored: 9 is more than the maximum 3`) {
		t.Fatalf("screen:\n%s", s)
	}
}

// TestElicitNoFields: a form without fields is a yes/no question.
func TestElicitNoFields(t *testing.T) {
	h := readyHarness(t, 80, 24)
	r := askFor(t, context.Background(), mcp.ElicitationParams{Message: "Proceed?", RequestedSchema: `{"type":"object","properties":{}}`})
	h.send(askMsg{req: r})
	for _, k := range []string{"tab", "space", "x", "left", "ctrl+x"} {
		h.key(k)
	}
	noReply(t, r)
	h.key("enter")
	if a := replyOf(t, r); a.elicit.Action != mcp.ElicitationResponseActionAccept {
		t.Fatalf("%+v", a)
	}
}

// TestElicitRandomKeys: any run of keys leaves the dialog drawable within
// the screen, and whatever it answers fits the schema.
func TestElicitRandomKeys(t *testing.T) {
	keys := []string{"tab", "shift+tab", "up", "down", "left", "right", "space", "ctrl+x", "backspace", "a", "7", "-", ".", "enter"}
	h := readyHarness(t, 80, 24)
	for seed := range 12 {
		r := askFor(t, context.Background(), mcp.ElicitationParams{Message: "m", RequestedSchema: everyKind})
		h.send(askMsg{req: r})
		d := h.m.modal.(*elicitDialog)
		x := uint32(seed*2654435761 + 1)
		for range 120 {
			if h.m.modal == nil {
				break
			}
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			h.key(keys[int(x%uint32(len(keys)))])
			checkFrame(t, ansi.Strip(h.m.render()), 80, 24)
		}
		if h.m.modal != nil {
			h.key("esc")
		}
		if a := replyOf(t, r); a.elicit.Action == mcp.ElicitationResponseActionAccept {
			if err := d.form.Validate(a.elicit.Content.(map[string]any)); err != nil {
				t.Fatalf("seed %d: accepted %v: %v", seed, a.elicit.Content, err)
			}
		}
	}
}
