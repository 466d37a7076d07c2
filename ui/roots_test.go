package ui

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/demo"
)

// TestServerTabChangesRoots: the Server tab lists the roots mcpterm offers;
// r opens them for editing, and the new set is offered at once, with the
// server told by roots/list_changed. A path that is not a directory changes
// nothing and says why.
func TestServerTabChangesRoots(t *testing.T) {
	e := demoEnv(t)
	first, second := t.TempDir(), t.TempDir()
	roots, err := session.NewRoots(first)
	if err != nil {
		t.Fatal(err)
	}
	var sess *session.Session
	e.opts.Connect = func(ctx context.Context) (Session, error) {
		s, err := session.Open(ctx, session.Source{Kind: session.InProcess, Name: "demo", Server: demo.New(demo.Options{Seed: 7, Now: func() time.Time { return demoClock }})}, session.Options{ClientName: "mcpterm-test", ProtocolVersion: "2025-11-25", Roots: roots})
		sess = s
		return s, err
	}
	e.opts.Roots = roots
	e.opts.WorkingDir = filepath.Dir(second)
	h := newHarness(t, e.opts, 120, 40)
	h.ready()
	h.key("3")
	h.key("right")
	h.key("right")
	h.key("right")
	if s := h.screen(); !strings.Contains(s, "Roots") || !strings.Contains(s, roots.List()[0].URI) || !strings.Contains(s, "r changes them") {
		t.Fatalf("the Server tab does not list the roots:\n%s", s)
	}
	h.key("r")
	md, ok := h.m.modal.(*modal)
	if !ok || md.title != rootsTitle || md.fields[0].Value() != first {
		t.Fatalf("modal %T %+v", h.m.modal, md)
	}
	// A relative path resolves against the working directory.
	md.fields[0].SetValue(first + string(os.PathListSeparator) + filepath.Base(second))
	h.key("enter")
	h.waitFor("the roots set", msgIs[rootsSetMsg])
	got := roots.List()
	if len(got) != 2 || !strings.HasSuffix(got[1].URI, filepath.ToSlash(second)) {
		t.Fatalf("roots %+v", got)
	}
	if !strings.Contains(h.m.flash, "2 offered") || !strings.Contains(h.screen(), got[1].URI) {
		t.Errorf("flash %q, screen:\n%s", h.m.flash, h.screen())
	}
	if !slices.ContainsFunc(sess.Tap().Messages(), func(m session.Message) bool { return m.Method == "notifications/roots/list_changed" }) {
		t.Error("the server was not told (no roots/list_changed sent)")
	}

	h.key("r")
	h.m.modal.(*modal).fields[0].SetValue(filepath.Join(first, "missing"))
	h.key("enter")
	h.waitFor("the refusal", msgIs[rootsSetMsg])
	if !strings.Contains(h.m.flash, ": not a directory") || len(roots.List()) != 2 {
		t.Errorf("flash %q, roots %d", h.m.flash, len(roots.List()))
	}
}
