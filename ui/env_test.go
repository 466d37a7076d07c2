package ui

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/demo"
	"github.com/mcpterm/mcpterm/session/history"
	"github.com/mcpterm/mcpterm/themes"
	"github.com/mcpterm/mcpterm/tokens"
)

// testCounters are shared by every test of the package: the tokenizers
// are loaded once (they are read-only once loaded).
var testCounters = tokens.NewCounters()

// env is the workbench wired as cmd_tui.go wires it — the real codec,
// renderer, report and runner — on a real server: by default a fresh
// in-process demo server, with the history and the drafts in a temporary
// directory.
type env struct {
	opts   Options
	hist   *history.Log
	drafts *history.Drafts
	calls  *atomic.Int64 // tools/call requests the server received
}

// demoClock is the demo server's clock, fixed so its answers repeat.
var demoClock = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

// demoEnv is the workbench on a new in-process demo server.
func demoEnv(t testing.TB) *env {
	t.Helper()
	srv := demo.New(demo.Options{Seed: 7, Now: func() time.Time { return demoClock }})
	return serverEnv(t, session.Source{Kind: session.InProcess, Name: "demo", Server: srv})
}

// serverEnv is the workbench on src.
func serverEnv(t testing.TB, src session.Source) *env {
	t.Helper()
	// Not t.TempDir: a draft autosave the test's last key started can
	// still be writing when the test ends (the harness runs Cmds on their
	// own goroutines, as the runtime does), and t.TempDir fails the test
	// when its directory is not empty at cleanup. The removal here takes
	// what it can; a file written after it is left to the system's tmp.
	dir, err := os.MkdirTemp("", "mcpterm-ui-test-*")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	hist, err := history.Open(filepath.Join(dir, "history.jsonl"), history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{hist: hist, drafts: history.NewDrafts(filepath.Join(dir, "drafts")), calls: new(atomic.Int64)}
	sopts := session.Options{ClientName: "mcpterm-test", OnCall: func(*session.CallResult) { e.calls.Add(1) }}
	e.opts = Options{
		Connect:    func(ctx context.Context) (Session, error) { return session.Open(ctx, src, sopts) },
		Target:     src.String(),
		History:    hist,
		Drafts:     e.drafts,
		DraftKey:   "test",
		Counters:   testCounters,
		Theme:      mustTheme("dark"),
		Now:        newTestClock().Now,
		WorkingDir: dir,
	}
	return e
}

// offlineEnv is the workbench on a saved tool list.
func offlineEnv(t testing.TB, path string) *env {
	t.Helper()
	return serverEnv(t, session.Source{Kind: session.Offline, ToolsFile: path})
}

// hostileServer is an MCP server whose names, descriptions and results
// are full of terminal escapes: OSC 52 (sets the clipboard), an OSC 8
// hyperlink, cursor moves, a screen clear, colour codes and C1 controls.
func hostileServer() *server.MCPServer {
	srv := server.NewMCPServer("evil\x1b]0;title\x07", "1.0\x1b[2J")
	srv.AddTool(mcp.NewTool(hostileName, mcp.WithDescription(hostileDesc)), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("result " + hostileDesc), nil
	})
	srv.AddTool(mcp.NewTool("file_read", mcp.WithDescription("Read a file."), mcp.WithString("path", mcp.Required())),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("ok"), nil
		})
	return srv
}

const (
	hostileName = "steal\x1b]52;c;SGVsbG8=\x07_it"
	hostileDesc = "Looks harmless.\x1b[2J\x1b[H\x1b[31mRED\x1b[0m\x1b[10;10H moved \x1b]8;;http://evil\x07link\x1b]8;;\x07 \u009b31m c1"
)

// testClock advances by a fixed step per reading, so durations in views
// are the same on every run.
type testClock struct{ t atomic.Int64 }

func newTestClock() *testClock {
	c := &testClock{}
	c.t.Store(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC).UnixNano())
	return c
}

func (c *testClock) Now() time.Time { return time.Unix(0, c.t.Add(int64(5*time.Millisecond))).UTC() }

func mustTheme(name string) themes.Choice {
	c, err := themes.Parse(name, false)
	if err != nil {
		panic(err)
	}
	return c
}

// readyHarness is a harness on the demo server with its counts in.
func readyHarness(t testing.TB, w, h int) *harness {
	t.Helper()
	hs := newHarness(t, demoEnv(t).opts, w, h)
	hs.ready()
	return hs
}
