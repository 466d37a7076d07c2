package history

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSourcesPerServerOldestFirst(t *testing.T) {
	l, err := Open(filepath.Join(t.TempDir(), "history.jsonl"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	batch := "(batch (1 (lt)) (2 (gt \"x\")))"
	for i, e := range []Entry{
		{Server: "demo", Tool: "file_read", Source: `(fr "/a")`},
		{Server: "everything", Tool: "echo", Source: `(echo "hi")`},
		{Server: "demo", Tool: "list_todos", Batch: batch, BatchID: "1"},
		{Server: "demo", Tool: "get_todo", Batch: batch, BatchID: "2"},
		{Server: "demo", Tool: "file_read", Source: `(fr "/a")`}, // again: shows once, as the newest
		{Server: "demo", Tool: "file_read", Source: `(fr "/b")`},
	} {
		e.Time, e.Outcome = t0.Add(time.Duration(i)*time.Second), OK
		if err := l.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	got, err := l.Sources("demo", 0)
	if want := []string{batch, `(fr "/a")`, `(fr "/b")`}; err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("demo's sources = %q, %v; want %q", got, err, want)
	}
	if got, _ := l.Sources("demo", 2); strings.Join(got, "|") != `(fr "/a")|(fr "/b")` {
		t.Errorf("the newest two = %q", got)
	}
	if got, _ := l.Sources("everything", 0); len(got) != 1 || got[0] != `(echo "hi")` {
		t.Errorf("another server's sources = %q", got)
	}
	if got, _ := l.Sources("", 0); len(got) != 4 {
		t.Errorf("every server's sources = %q", got)
	}
}
