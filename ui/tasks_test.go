package ui

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/session"
)

func mustObj(t *testing.T, src string) *ojson.Value {
	t.Helper()
	v, err := ojson.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// taskEnv is the workbench on an in-process mcp-go server with task tools
// (research answers; forever runs until the test ends, since mcp-go
// v1.2.1 ends a task's context with its request), seen at 2025-11-25, the
// revision with tasks/list. sess is the workbench's session once it has
// connected.
type taskEnv struct {
	*env
	mu   sync.Mutex
	sess *session.Session
}

func newTaskEnv(t *testing.T) *taskEnv {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	srv := server.NewMCPServer("tasks", "1.0.0", server.WithTaskCapabilities(true, true, true), server.WithToolCapabilities(false))
	srv.AddTaskTool(mcp.NewTool("research", mcp.WithTaskSupport(mcp.TaskSupportRequired), mcp.WithString("topic", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CreateTaskResult, error) {
			return &mcp.CreateTaskResult{Content: []mcp.Content{mcp.NewTextContent("report on " + req.GetString("topic", ""))}}, nil
		})
	srv.AddTaskTool(mcp.NewTool("forever", mcp.WithTaskSupport(mcp.TaskSupportRequired)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CreateTaskResult, error) {
			<-release
			return nil, errors.New("released")
		})
	src := session.Source{Kind: session.InProcess, Name: "tasks", Server: srv}
	te := &taskEnv{env: serverEnv(t, src)}
	te.opts.Theme = mustTheme("mono")
	te.opts.Connect = func(ctx context.Context) (Session, error) {
		s, err := session.Open(ctx, src, session.Options{ClientName: "mcpterm-test", ProtocolVersion: "2025-11-25"})
		if err == nil {
			te.mu.Lock()
			te.sess = s
			te.mu.Unlock()
		}
		return s, err
	}
	return te
}

func (te *taskEnv) session() *session.Session {
	te.mu.Lock()
	defer te.mu.Unlock()
	return te.sess
}

func taskIn(m *Model, st mcp.TaskStatus) bool {
	for _, t := range m.explore.tk.list {
		if t.Status == st {
			return true
		}
	}
	return false
}

// TestTasksTab: the tab appears for a server that lists tasks, fills as
// tasks start (on their status notifications), cancels the selected one
// with x, and fetches a finished one's result into Results with enter.
func TestTasksTab(t *testing.T) {
	te := newTaskEnv(t)
	h := newHarness(t, te.opts, 160, 48)
	h.ready()
	h.key("3")
	for range 3 { // Resources, Templates, Prompts, then Tasks
		h.key("right")
	}
	if h.m.explore.tab != tabTasks {
		t.Fatalf("tab %v, want Tasks; order %v", h.m.explore.tab, h.m.explore.tabOrder())
	}
	h.waitUntil("the first (empty) list", func(m *Model) bool { return m.explore.tk.loaded })
	if !strings.Contains(h.screen(), "no tasks on the server") {
		t.Errorf("empty tab:\n%s", h.screen())
	}

	s := te.session()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := make(chan *session.CallResult, 1)
	go func() { done <- s.Call(ctx, session.CallRequest{Tool: "forever"}) }()
	h.waitUntil("the running task listed", func(m *Model) bool { return taskIn(m, mcp.TaskStatusWorking) })
	if !strings.Contains(h.screen(), "x cancels it") {
		t.Errorf("a working task's detail:\n%s", h.screen())
	}
	h.press("x", "the task cancelled", func(m *Model) bool {
		return taskIn(m, mcp.TaskStatusCancelled) && strings.Contains(m.explore.tk.note, "cancelled: now cancelled")
	})
	if r := <-done; !errors.Is(r.Err, context.Canceled) {
		t.Errorf("the call waiting on the cancelled task: %v", r.Err)
	}

	if r := s.Call(ctx, session.CallRequest{Tool: "research", Arguments: mustObj(t, `{"topic":"tides"}`)}); !r.OK() {
		t.Fatal(r.Err)
	}
	h.waitUntil("the completed task listed", func(m *Model) bool { return taskIn(m, mcp.TaskStatusCompleted) })
	for i, tk := range h.m.explore.tk.list {
		if tk.Status == mcp.TaskStatusCompleted {
			h.m.explore.nav[tabTasks].Cursor = i
		}
	}
	h.press("enter", "the result in Results", func(m *Model) bool {
		r := m.results.current()
		return r != nil && r.done && strings.Contains(ansi.Strip(m.render()), "report on tides")
	})
}

// What differs between runs: task ids, dates, and how many events and
// messages the race between a task's notification and its answer made.
var (
	reUUID   = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	reDate   = regexp.MustCompile(`\d{4}-\d\d-\d\dT`)
	reTabNum = regexp.MustCompile(`(Log|Protocol) \d+`)
)

// TestFlowTasksTab: the Tasks tab with a finished task, as the terminal
// shows it (mono, 160x48).
func TestFlowTasksTab(t *testing.T) {
	te := newTaskEnv(t)
	f := startFlow(t, New(te.opts), 160, 48)
	f.waitOutput("o200k")
	s := te.session()
	if r := s.Call(context.Background(), session.CallRequest{Tool: "research", Arguments: mustObj(t, `{"topic":"tides"}`)}); !r.OK() {
		t.Fatal(r.Err)
	}
	f.keys("3", "right", "right", "right")
	f.waitOutput("Tasks 1", "completed", "enter fetches its result")
	screen := f.finish()
	checkFrame(t, screen, 160, 48)
	out := reUUID.ReplaceAllString(normalize(screen), "<task-id>")
	out = reTabNum.ReplaceAllString(reDate.ReplaceAllString(out, "<date>T"), "$1 <n>")
	golden.RequireEqual(t, out)
}
