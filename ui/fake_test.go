package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// hostile is a tool name and text full of terminal escapes: OSC 52 (sets
// the clipboard), cursor moves, a screen clear and colour resets.
const (
	hostileName = "evil\x1b]52;c;SGVsbG8=\x07_tool"
	hostileDesc = "Looks harmless.\x1b[2J\x1b[H\x1b[31mRED\x1b[0m\x1b[10;10H moved \x1b]8;;http://x\x07link\x1b]8;;\x07 \x9b31m c1"
)

const fakeTools = `{"server":"fake","version":"1.2.3","tools":[
 {"name":"file_read","description":"Read a file from the demo tree.","inputSchema":{"type":"object","properties":{"path":{"type":"string","description":"file path"},"encoding":{"type":"string","enum":["utf8","base64"]},"offset":{"type":"integer"}},"required":["path"]},"annotations":{"readOnlyHint":true,"openWorldHint":false}},
 {"name":"delete_todo","description":"Delete a todo by id.","inputSchema":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]},"annotations":{"destructiveHint":true,"openWorldHint":false}},
 {"name":"create_todo","description":"Create a todo.","inputSchema":{"type":"object","properties":{"title":{"type":"string"},"priority":{"type":"string","enum":["low","high"]}},"required":["title"]},"annotations":{"destructiveHint":false,"openWorldHint":false}},
 {"name":"slow_task","description":"Takes until cancelled and reports progress.","inputSchema":{"type":"object","properties":{}},"annotations":{"readOnlyHint":true,"openWorldHint":false}},
 {"name":"` + "evil\\u001b]52;c;SGVsbG8=\\u0007_tool" + `","description":"` + "Looks harmless.\\u001b[2J\\u001b[H\\u001b[31mRED\\u001b[0m\\u001b[10;10H moved \\u001b]8;;http://x\\u0007link\\u001b]8;;\\u0007 \\u009b31m c1" + `","inputSchema":{"type":"object","properties":{}},"annotations":{"readOnlyHint":true,"openWorldHint":false}}
]}`

func fakeSet() *toolset.Set {
	set, err := toolset.Parse([]byte(fakeTools))
	if err != nil {
		panic(err)
	}
	return set
}

// fakeBackend is a scripted server. Calls answer by tool name:
// slow_task blocks until cancelled (sending progress), delete_todo fails
// with isError, the hostile tool returns escapes, others echo arguments.
type fakeBackend struct {
	set    *toolset.Set
	events chan Event
	mu     sync.Mutex
	calls  []CallRequest
	closed bool
	slow   chan struct{} // closed to let slow_task finish normally
}

func newFakeBackend() *fakeBackend {
	return &fakeBackend{set: fakeSet(), events: make(chan Event, 64), slow: make(chan struct{})}
}

func (f *fakeBackend) Info() ServerInfo {
	return ServerInfo{Name: "fake", Version: "1.2.3", Protocol: "2025-06-18", Transport: "fake", Instructions: "Be nice.", Capabilities: []string{"tools", "resources", "prompts"}}
}
func (f *fakeBackend) Tools() *toolset.Set { return f.set }
func (f *fakeBackend) RefreshTools(context.Context) (*toolset.Set, error) {
	return f.set, nil
}

func (f *fakeBackend) Call(ctx context.Context, req CallRequest) (*CallResult, error) {
	f.mu.Lock()
	f.calls = append(f.calls, req)
	f.mu.Unlock()
	text := func(s string, isErr bool) *CallResult {
		raw := ojson.NewObject().Set("content", ojson.NewArray(ojson.NewObject().Set("type", ojson.NewString("text")).Set("text", ojson.NewString(s))))
		if isErr {
			raw.Set("isError", ojson.NewBool(true))
		}
		return &CallResult{Content: []Content{{Type: "text", Text: s}}, IsError: isErr, Raw: raw, Duration: 7 * time.Millisecond}
	}
	switch req.Tool {
	case "slow_task":
		f.events <- Event{Kind: EventProgress, CallID: req.ID, Progress: 1, Total: 4, Text: "working"}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-f.slow:
			return text("slow done", false), nil
		}
	case "delete_todo":
		return text("no todo with id "+req.Arguments.Get("id").StringOr("?"), true), nil
	case hostileName:
		return text("result "+hostileDesc, false), nil
	case "create_todo":
		return nil, errors.New("connection reset by peer")
	}
	args := "{}"
	if req.Arguments != nil {
		args = req.Arguments.Compact()
	}
	return text("# "+req.Tool+"\n\n- args: `"+args+"`", false), nil
}

func (f *fakeBackend) Resources(context.Context) ([]Resource, error) {
	return []Resource{{URI: "demo://readme", Name: "readme", MIME: "text/markdown", Description: "The demo's readme."}}, nil
}
func (f *fakeBackend) ResourceTemplates(context.Context) ([]ResourceTemplate, error) {
	return []ResourceTemplate{{URITemplate: "demo://todo/{id}", Name: "todo"}}, nil
}
func (f *fakeBackend) ReadResource(_ context.Context, uri string) ([]Content, error) {
	return []Content{{Type: "resource", URI: uri, MIME: "text/plain", Text: "hello from " + uri}}, nil
}
func (f *fakeBackend) Prompts(context.Context) ([]Prompt, error) {
	return []Prompt{{Name: "plan", Description: "Plan a day.", Arguments: []PromptArgument{{Name: "goal", Required: true}}}}, nil
}
func (f *fakeBackend) GetPrompt(_ context.Context, name string, args map[string]string) (*PromptResult, error) {
	return &PromptResult{Messages: []PromptMessage{{Role: "user", Content: Content{Type: "text", Text: "goal: " + args["goal"]}}}}, nil
}
func (f *fakeBackend) Subscribe(ctx context.Context) <-chan Event {
	out := make(chan Event)
	go func() {
		defer close(out)
		for {
			select {
			case <-ctx.Done():
				return
			case e := <-f.events:
				select {
				case out <- e:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out
}
func (f *fakeBackend) Close() error {
	f.mu.Lock()
	f.closed = true
	f.mu.Unlock()
	return nil
}

func (f *fakeBackend) callLog() []CallRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]CallRequest(nil), f.calls...)
}

// fakeCounter counts a "token" per word and per punctuation run; it is
// deterministic and cheap, which is all the UI needs to be tested.
type fakeCounter struct {
	mu      sync.Mutex
	ready   map[string]bool
	block   chan struct{} // when set, Load waits for it
	loadErr error
}

func newFakeCounter() *fakeCounter { return &fakeCounter{ready: map[string]bool{}} }

func (c *fakeCounter) Encodings() []string { return []string{"o200k_base", "cl100k_base"} }
func (c *fakeCounter) Load(enc string) error {
	if c.block != nil {
		<-c.block
	}
	if c.loadErr != nil {
		return c.loadErr
	}
	c.mu.Lock()
	c.ready[enc] = true
	c.mu.Unlock()
	return nil
}
func (c *fakeCounter) Ready(enc string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ready[enc]
}
func (c *fakeCounter) Count(enc, text string) int {
	n := len(strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '\n' || r == '"' || r == ',' || r == ':' }))
	if enc == "cl100k_base" {
		n += n / 10
	}
	return n
}

// memStore is a Store whose contents tests can inspect.
type memStore struct {
	mu      sync.Mutex
	draft   string
	history []string
	saves   int
}

func (s *memStore) LoadDraft() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.draft, nil
}
func (s *memStore) SaveDraft(t string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.draft = t
	s.saves++
	return nil
}
func (s *memStore) History(limit int) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.history...), nil
}
func (s *memStore) AddHistory(src string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.history = append(s.history, src)
	return nil
}
func (s *memStore) Draft() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.draft
}

// fakeClock advances by a fixed step per reading, so durations in views
// are the same on every run.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{t: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)} }
func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(5 * time.Millisecond)
	return c.t
}

func fakeOptions(b *fakeBackend) (Options, *fakeCounter, *memStore) {
	c := newFakeCounter()
	st := &memStore{}
	return Options{
		Connect:  func(context.Context) (Backend, error) { return b, nil },
		Counter:  c,
		Store:    st,
		Now:      newFakeClock().Now,
		Renderer: testRenderer{},
		Theme:    mustTheme("dark"),
	}, c, st
}

// testRenderer has fixed forms, so the tests do not change whenever a
// form is added to convert's registry: "term" is a toy compact form.
type testRenderer struct{}

func (testRenderer) Forms() []string  { return []string{"term", "json_full"} }
func (testRenderer) Totals() []string { return []string{"json", "term"} }
func (testRenderer) Render(form string, set *toolset.Set) (string, error) {
	switch form {
	case "json":
		return set.Baseline().Compact(), nil
	case "json_full":
		return set.Result().Compact(), nil
	case "term":
		var b strings.Builder
		b.WriteString("(declare")
		for _, t := range set.Tools {
			fmt.Fprintf(&b, "\n  (%s", t.Name)
			for _, k := range t.InputSchema.Get("properties").Keys() {
				fmt.Fprintf(&b, " (%s any)", k)
			}
			fmt.Fprintf(&b, " %q)", t.Description)
		}
		return b.String() + ")", nil
	}
	return "", errUnknownForm(form)
}
func (r testRenderer) RenderTool(form string, set *toolset.Set, t *toolset.Tool) (string, error) {
	return r.Render(form, &toolset.Set{Server: set.Server, Tools: []*toolset.Tool{t}})
}
