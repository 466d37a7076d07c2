package fleet

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFleetLazyStart runs one config three times over the same cache:
// lazily with a cold cache (every server started to learn its tools, the
// cache written), lazily again with one entry's cache out of date (nothing
// started by listing; a call starts only its own server, which refreshes
// the listing and the cache file), then eagerly (everything started at
// once).
func TestFleetLazyStart(t *testing.T) {
	dir := t.TempDir()
	cfg, log, cache := filepath.Join(dir, "mcp.json"), filepath.Join(dir, "starts"), filepath.Join(dir, "cache")
	writeConfig(t, cfg, map[string]testEntry{
		"a": {keep: "file_read,list_todos", starts: log},
		"b": {keep: "create_todo", starts: log},
	})
	ctx := testCtx(t)
	open := func(start Start) *Fleet {
		t.Helper()
		f, err := New(ctx, Options{Start: start, Load: testConfig(dir, cfg).Load, Poll: -1, CacheDir: cache})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}

	f := open(StartLazy)
	if got := starts(t, log); got["a"] != 1 || got["b"] != 1 {
		t.Fatalf("a cold lazy start did not start each server once: %v", got)
	}
	if st := f.Status(); st["a"] != "up" || st["b"] != "up" {
		t.Fatalf("status after a cold start: %v", st)
	}
	f.Close()
	files := cacheFiles(t, cache)
	if len(files) != 2 {
		t.Fatalf("cache files %v, want one per server", files)
	}

	// Make a's cache stale: the server has gained list_todos since.
	var aCache string
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var c cached
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(raw(c.Tools), `"name":"file_read"`) {
			continue // b's
		}
		aCache = p
		n := len(c.Tools)
		c.Tools = slices.DeleteFunc(c.Tools, func(raw json.RawMessage) bool { return strings.Contains(string(raw), `"name":"list_todos"`) })
		if len(c.Tools) != n-1 {
			t.Fatalf("list_todos not in a's cache: %s", b)
		}
		if b, err = json.Marshal(c); err != nil {
			t.Fatal(err)
		}
		writeFile(t, p, b)
	}
	if aCache == "" {
		t.Fatal("no cache file holds a's tools")
	}

	f = open(StartLazy)
	defer func() { f.Close() }()
	if got := starts(t, log); got["a"] != 1 || got["b"] != 1 {
		t.Fatalf("a warm lazy start started servers: %v", got)
	}
	if got := strings.Join(toolsOf(t, ctx, f), " "); got != "create_todo@b file_read@a" {
		t.Fatalf("tools from the cache: %s", got)
	}
	if got := starts(t, log); got["a"] != 1 || got["b"] != 1 {
		t.Fatalf("listing tools started servers: %v", got)
	}
	if st := f.Status(); st["a"] != "not started (listed from the cache)" || st["b"] != st["a"] {
		t.Fatalf("status before any call: %v", st)
	}
	events := f.Subscribe(ctx)
	if r := call(ctx, f, "file_read"); !r.OK() || !strings.Contains(r.Raw.Compact(), "README") {
		t.Fatalf("file_read on the lazy a: err=%v raw=%v", r.Err, r.Raw)
	}
	if got := starts(t, log); got["a"] != 2 || got["b"] != 1 {
		t.Fatalf("a call to a's tool: starts %v, want a once more and b not", got)
	}
	waitTools(t, ctx, f, events, "create_todo@b", "file_read@a", "list_todos@a")
	b, err := os.ReadFile(aCache)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"name":"list_todos"`) {
		t.Fatalf("a's cache was not refreshed after it started: %s", b)
	}
	if st := f.Status(); st["a"] != "up" || st["b"] != "not started (listed from the cache)" {
		t.Fatalf("status after a's call: %v", st)
	}
	f.Close()

	f = open(StartEager)
	if got := starts(t, log); got["a"] != 3 || got["b"] != 2 {
		t.Fatalf("an eager start did not start every server: %v", got)
	}
	if st := f.Status(); st["a"] != "up" || st["b"] != "up" {
		t.Fatalf("status after an eager start: %v", st)
	}
}

func raw(tools []json.RawMessage) string {
	var b strings.Builder
	for _, t := range tools {
		b.Write(t)
	}
	return b.String()
}
