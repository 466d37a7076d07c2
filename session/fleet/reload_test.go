package fleet

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/session"
)

// TestFleetReloadConfig serves a config file through the fleet's own
// poller and rewrites it: an entry added, one removed and one whose args
// change. Each rewrite must show in the merged tool list, announced by a
// list_changed event; the changed entry runs in a new process, the removed
// one's tools are gone and its calls fail by name. A rewrite that is not
// JSON keeps every server as it was and says why, and a good file after it
// is read again.
func TestFleetReloadConfig(t *testing.T) {
	dir := t.TempDir()
	cfg, log := filepath.Join(dir, "mcp.json"), filepath.Join(dir, "starts")
	writeConfig(t, cfg, map[string]testEntry{
		"a": {keep: "file_read,list_todos", starts: log},
		"b": {keep: "create_todo", starts: log},
	})
	ctx := testCtx(t)
	n := newNotes()
	f, err := New(ctx, Options{Load: testConfig(dir, cfg).Load, Poll: 20 * time.Millisecond, Notef: n.notef})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	events := f.Subscribe(ctx)
	if got, want := strings.Join(toolsOf(t, ctx, f), " "), "create_todo@b file_read@a list_todos@a"; got != want {
		t.Fatalf("tools %s, want %s", got, want)
	}
	firstA := lastPid(t, log, "a")

	writeConfig(t, cfg, map[string]testEntry{
		"a": {keep: "file_read,long_task", starts: log},
		"c": {keep: "list_todos", starts: log},
	})
	waitTools(t, ctx, f, events, "file_read@a", "long_task@a", "list_todos@c")
	if got := f.Names(); strings.Join(got, ",") != "a,c" {
		t.Fatalf("names after the reload: %v", got)
	}
	if lastPid(t, log, "a") == firstA {
		t.Fatalf("a's args changed but it still runs in process %d", firstA)
	}
	if r := call(ctx, f, "list_todos"); !r.OK() || !strings.Contains(r.Raw.Compact(), "todos") {
		t.Fatalf("list_todos on the added c: err=%v raw=%v", r.Err, r.Raw)
	}
	r := call(ctx, f, "create_todo")
	var rpc *session.RPCError
	if !errors.As(r.Err, &rpc) || rpc.Code != mcp.METHOD_NOT_FOUND {
		t.Fatalf("create_todo of the removed b: %v", r.Err)
	}

	writeFile(t, cfg, []byte(`{"mcpServers": {"a": `))
	note := n.wait(t, "config changed but cannot be read")
	if !strings.Contains(note, filepath.Base(cfg)) || !strings.Contains(note, "keeping the servers") {
		t.Fatalf("the broken config's note: %q", note)
	}
	if got := strings.Join(toolsOf(t, ctx, f), " "); got != "file_read@a list_todos@c long_task@a" {
		t.Fatalf("tools after a broken rewrite: %s", got)
	}
	if st := f.Status(); st["a"] != "up" || st["c"] != "up" || len(st) != 2 {
		t.Fatalf("status after a broken rewrite: %v", st)
	}
	if r := call(ctx, f, "file_read"); !r.OK() {
		t.Fatalf("file_read after a broken rewrite: %v", r.Err)
	}

	writeConfig(t, cfg, map[string]testEntry{
		"a": {keep: "file_read,long_task", starts: log},
		"c": {keep: "list_todos", starts: log},
		"d": {keep: "create_todo", starts: log},
	})
	waitTools(t, ctx, f, events, "file_read@a", "long_task@a", "list_todos@c", "create_todo@d")
	if got := starts(t, log); got["a"] != 2 || got["c"] != 1 || got["d"] != 1 {
		t.Fatalf("unchanged entries restarted by a reload: starts %v", got)
	}
}

// TestFleetReloadDiscoveredConfig serves the config files found in the
// usual places (no --config): a user file that is saved broken keeps its
// servers running and is reported; saved whole again, its change applies;
// a config file created in another usual place is served too.
func TestFleetReloadDiscoveredConfig(t *testing.T) {
	home := t.TempDir()
	cwd := filepath.Join(home, "work")
	user := filepath.Join(home, ".cursor", "mcp.json")
	for _, d := range []string{cwd, filepath.Dir(user)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	log := filepath.Join(home, "starts")
	writeConfig(t, user, map[string]testEntry{"a": {keep: "file_read", starts: log}})
	c := &Config{All: true, Env: session.Env{Getenv: func(string) string { return "" }, Cwd: cwd, Home: home}}
	ctx := testCtx(t)
	n := newNotes()
	f, err := New(ctx, Options{Load: c.Load, Poll: 20 * time.Millisecond, Notef: n.notef})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	events := f.Subscribe(ctx)
	if got := strings.Join(toolsOf(t, ctx, f), " "); got != "file_read@a" {
		t.Fatalf("tools %s", got)
	}

	writeFile(t, user, []byte(`{"mcpServers": {"a": {"command": `))
	note := n.wait(t, "config changed but cannot be read")
	if !strings.Contains(note, user) {
		t.Fatalf("the note does not name the broken file: %q", note)
	}
	if got := strings.Join(toolsOf(t, ctx, f), " "); got != "file_read@a" {
		t.Fatalf("tools after the user file broke: %s", got)
	}
	if r := call(ctx, f, "file_read"); !r.OK() {
		t.Fatalf("file_read after the user file broke: %v", r.Err)
	}

	writeConfig(t, user, map[string]testEntry{"a": {keep: "file_read", starts: log}, "b": {keep: "list_todos", starts: log}})
	waitTools(t, ctx, f, events, "file_read@a", "list_todos@b")

	// A config file that appears in one of the usual places is read too.
	other := filepath.Join(home, ".codeium", "windsurf", "mcp_config.json")
	if err := os.MkdirAll(filepath.Dir(other), 0o700); err != nil {
		t.Fatal(err)
	}
	writeConfig(t, other, map[string]testEntry{"c": {keep: "create_todo", starts: log}})
	waitTools(t, ctx, f, events, "file_read@a", "list_todos@b", "create_todo@c")
}
