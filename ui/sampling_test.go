package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/session"
)

// samplingParams is a request with every part the dialog shows, and a
// hostile escape sequence in the system prompt.
func samplingParams() mcp.CreateMessageParams {
	tool := mcp.NewTool("get_weather", mcp.WithDescription("Weather of a city\nsecond line"))
	return mcp.CreateMessageParams{
		SystemPrompt: "You are a helpful test server.\x1b]8;;http://evil.example/\x1b\\CLICK\x1b]8;;\x1b\\",
		Messages: []mcp.SamplingMessage{
			{Role: mcp.RoleUser, Content: mcp.NewTextContent("What is the weather in Porto?")},
			{Role: mcp.RoleAssistant, Content: []mcp.Content{mcp.NewToolUseContent("call_1", "get_weather", map[string]any{"city": "Porto"})}},
			{Role: mcp.RoleUser, Content: []mcp.Content{mcp.NewToolResultContent("call_1", []mcp.Content{mcp.NewTextContent("18°C")}, false), mcp.NewImageContent("aGVsbG8=", "image/png")}},
		},
		ModelPreferences: &mcp.ModelPreferences{Hints: []mcp.ModelHint{{Name: "claude-sonnet"}, {Name: "gpt"}}, IntelligencePriority: 0.8},
		MaxTokens:        120,
		Temperature:      0.7,
		StopSequences:    []string{"END"},
		Tools:            []mcp.Tool{tool},
	}
}

// newAsk is a sampling request as the AskBridge makes it; cancel is the
// server giving up.
func newAsk(t *testing.T, server string, p mcp.CreateMessageParams) (*askRequest, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return &askRequest{ctx: ctx, server: server, sample: &mcp.CreateMessageRequest{CreateMessageParams: p}, reply: make(chan askReply, 1)}, cancel
}

func monoEnv(t *testing.T) *env {
	e := demoEnv(t)
	e.opts.Theme = mustTheme("mono")
	return e
}

func sentReply(t *testing.T, r *askRequest) askReply {
	t.Helper()
	select {
	case a := <-r.reply:
		return a
	default:
		t.Fatal("no reply sent")
		return askReply{}
	}
}

// The dialog shows the whole request, sanitised; the person writes the
// reply, renames the model, picks the stop reason and sends it.
func TestSamplingDialogSend(t *testing.T) {
	h := newHarness(t, monoEnv(t).opts, 160, 48)
	h.ready()
	r, _ := newAsk(t, "srv", samplingParams())
	h.send(askMsg{req: r})
	if _, ok := h.m.modal.(*samplingDialog); !ok {
		t.Fatalf("modal %T", h.m.modal)
	}
	screen := h.screen()
	for _, want := range []string{"Sampling request", "srv asks", "max tokens 120 · temperature 0.7 · stop at \"END\"", "hints claude-sonnet, gpt · intelligence 0.8",
		"System prompt", "You are a helpful test server.", "Tools (1)", "get_weather — Weather of a city", "What is the weather in Porto?",
		`[tool use call_1 get_weather: {"city":"Porto"}]`, "[tool result call_1] 18°C", "[image image/png, 8 B base64]",
		"model claude-sonnet", "‹ endTurn ›", "ctrl+s send · esc decline · tab next field · ←/→ stop reason"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(h.m.render(), "\x1b]8") {
		t.Error("the server's escape sequence reached the screen")
	}
	h.typeText("Sunny,\nabout 18°C.")
	h.key("tab")
	for range len("claude-sonnet") {
		h.key("backspace")
	}
	h.typeText("me")
	h.key("tab")
	h.key("right")
	h.key("right")
	h.key("left") // maxTokens
	if s := h.screen(); !strings.Contains(s, "‹ maxTokens ›") {
		t.Errorf("stop reason not shown:\n%s", s)
	}
	h.key("ctrl+s")
	a := sentReply(t, r)
	text, _ := a.sample.Content.(mcp.TextContent)
	if a.err != nil || a.sample.Model != "me" || a.sample.StopReason != "maxTokens" || a.sample.Role != mcp.RoleAssistant || text.Text != "Sunny,\nabout 18°C." {
		t.Errorf("reply %+v (%v)", a.sample, a.err)
	}
	h.waitUntil("the note", func(m *Model) bool { return strings.Contains(m.flash, `sampling: sent the reply as "me" (maxTokens)`) })
	if h.m.modal != nil {
		t.Errorf("modal %T after sending", h.m.modal)
	}
}

// esc declines; with no hints the model is "human".
func TestSamplingDialogDecline(t *testing.T) {
	h := newHarness(t, monoEnv(t).opts, 80, 24)
	h.ready()
	r, _ := newAsk(t, "srv", mcp.CreateMessageParams{Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("hi")}}, MaxTokens: 5})
	h.send(askMsg{req: r})
	if s := h.screen(); !strings.Contains(s, "model human") {
		t.Errorf("model not prefilled:\n%s", s)
	}
	h.key("esc")
	if a := sentReply(t, r); !errors.Is(a.err, session.ErrDeclined) || a.sample != nil {
		t.Errorf("reply %+v", a)
	}
	if h.m.modal != nil {
		t.Errorf("modal %T", h.m.modal)
	}
}

// A second request waits behind the first; a waiting request its server
// gives up on leaves the queue; the open one closes when its server gives
// up, saying so.
func TestSamplingDialogQueueAndGone(t *testing.T) {
	h := newHarness(t, monoEnv(t).opts, 80, 24)
	h.ready()
	one := mcp.CreateMessageParams{Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("first")}}, MaxTokens: 5}
	two := mcp.CreateMessageParams{Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("second")}}, MaxTokens: 5}
	three := mcp.CreateMessageParams{Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("third")}}, MaxTokens: 5}
	r1, _ := newAsk(t, "srv", one)
	r2, cancel2 := newAsk(t, "srv", two)
	r3, cancel3 := newAsk(t, "srv", three)
	h.send(askMsg{req: r1})
	h.send(askMsg{req: r2})
	h.send(askMsg{req: r3})
	if s := h.screen(); !strings.Contains(s, "first") || strings.Contains(s, "second") || len(h.m.asks.waiting) != 2 {
		t.Fatalf("queue %d:\n%s", len(h.m.asks.waiting), s)
	}
	cancel2()
	h.waitUntil("the second request dropped", func(m *Model) bool { return len(m.asks.waiting) == 1 })
	h.key("esc") // decline the first: the third opens
	if d, ok := h.m.modal.(*samplingDialog); !ok || d.req != r3 {
		t.Fatalf("modal %T after the first", h.m.modal)
	}
	cancel3()
	h.waitUntil("the third closed", func(m *Model) bool { return m.modal == nil })
	if !strings.Contains(h.m.flash, "srv withdrew its question") {
		t.Errorf("flash %q", h.m.flash)
	}
	if len(r2.reply) != 0 || len(r3.reply) != 0 {
		t.Error("a request given up on was answered")
	}
}

// The quit confirmation covers the dialog; saying no brings it back as the
// person left it.
func TestSamplingDialogUnderQuit(t *testing.T) {
	h := newHarness(t, monoEnv(t).opts, 80, 24)
	h.ready()
	h.m.composer.dirty = true // so the quit asks first
	r, _ := newAsk(t, "srv", mcp.CreateMessageParams{Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("hi")}}, MaxTokens: 5})
	h.send(askMsg{req: r})
	h.typeText("half a reply")
	h.key("ctrl+c")
	if md, ok := h.m.modal.(*modal); !ok || md.title != quitTitle {
		t.Fatalf("modal %T", h.m.modal)
	}
	h.key("n")
	h.waitUntil("the dialog back", func(m *Model) bool { _, ok := m.modal.(*samplingDialog); return ok })
	if s := h.screen(); !strings.Contains(s, "half a reply") {
		t.Errorf("the reply was lost:\n%s", s)
	}
}

// A long request scrolls; the position is shown.
func TestSamplingDialogScrolls(t *testing.T) {
	h := newHarness(t, monoEnv(t).opts, 80, 24)
	h.ready()
	p := mcp.CreateMessageParams{MaxTokens: 5}
	for i := range 40 {
		p.Messages = append(p.Messages, mcp.SamplingMessage{Role: mcp.RoleUser, Content: mcp.NewTextContent(fmt.Sprintf("message number %d", i+1))})
	}
	r, _ := newAsk(t, "srv", p)
	h.send(askMsg{req: r})
	s := h.screen()
	if !strings.Contains(s, "message number 1") || strings.Contains(s, "message number 40") || !strings.Contains(s, "lines 1–") {
		t.Fatalf("first page:\n%s", s)
	}
	for range 20 {
		h.key("pgdown")
	}
	if s := h.screen(); !strings.Contains(s, "message number 40") || !strings.Contains(s, "of 81") {
		t.Errorf("last page:\n%s", s)
	}
	checkFrame(t, h.screen(), 80, 24)
}

// The dialog in the real program, at both sizes, in the mono theme: the
// request, a reply being written, the model and stop reason.
func TestFlowSampling(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			f := startFlow(t, New(monoEnv(t).opts), sz[0], sz[1])
			f.waitOutput("o200k", "file_read")
			r, _ := newAsk(t, "demo", samplingParams())
			f.tm.Send(askMsg{req: r})
			f.waitOutput("Sampling request", "model claude-sonnet")
			f.typeText("Sunny in Porto.")
			f.keys("tab", "tab", "right")
			screen := f.waitOutput("Sunny in Porto.", "‹ maxTokens ›")
			checkFrame(t, screen, sz[0], sz[1])
			golden.RequireEqual(t, normalize(screen))
			f.keys("ctrl+s")
			f.waitOutput("sampling: sent the reply")
			if a := sentReply(t, r); a.sample == nil || a.sample.StopReason != "maxTokens" {
				t.Errorf("reply %+v", a)
			}
			f.finish()
		})
	}
}

// On a screen too small for the dialog it is cut, never broken: the frame
// keeps its size and keys still work.
func TestSamplingDialogTinyScreen(t *testing.T) {
	h := newHarness(t, monoEnv(t).opts, 80, 24)
	h.ready()
	r, _ := newAsk(t, "srv", samplingParams())
	h.send(askMsg{req: r})
	for _, sz := range [][2]int{{20, 8}, {1, 1}, {200, 60}} {
		h.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		h.key("pgdown")
		h.key("shift+tab")
		checkFrame(t, h.screen(), sz[0], sz[1])
	}
	h.key("esc")
	if a := sentReply(t, r); !errors.Is(a.err, session.ErrDeclined) {
		t.Errorf("reply %+v", a)
	}
}
