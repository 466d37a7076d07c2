package fleet

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpterm/mcpterm/session"
)

// TestFleetDeadUpstreamFailsAlone kills one entry's server while its
// command has stopped working (every restart exits at once): the other
// entry keeps answering, alone and in a batch with the dead one, the dead
// one's calls fail naming it and saying it is restarting, and once its
// command works again it comes back by itself.
// TestFleetPeersClashRoutingRestart covers a restart that works at once.
func TestFleetDeadUpstreamFailsAlone(t *testing.T) {
	dir := t.TempDir()
	cfg, log, broken := filepath.Join(dir, "mcp.json"), filepath.Join(dir, "starts"), filepath.Join(dir, "broken")
	writeConfig(t, cfg, map[string]testEntry{
		"a": {keep: "file_read", starts: log, broken: broken},
		"b": {keep: "list_todos", starts: log},
	})
	ctx := testCtx(t)
	n := newNotes()
	f, err := New(ctx, Options{Load: testConfig(dir, cfg).Load, Poll: -1, Notef: n.notef,
		RestartWait: 300 * time.Millisecond, BackoffMin: 20 * time.Millisecond, BackoffMax: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := strings.Join(toolsOf(t, ctx, f), " "); got != "file_read@a list_todos@b" {
		t.Fatalf("tools %s", got)
	}
	events := f.Subscribe(ctx)
	writeFile(t, broken, []byte("x"))
	if err := syscall.Kill(lastPid(t, log, "a"), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitEvent(t, events, "a: stopped")
	// Two failed restarts: the backoff is running, not a one-off.
	n.wait(t, "a: could not start")
	n.wait(t, "a: could not start")
	if st := f.Status()["a"]; !strings.HasPrefix(st, "restarting") && st != "starting" {
		t.Fatalf("a's status while its command fails: %q", st)
	}

	for range 3 {
		if r := call(ctx, f, "list_todos"); !r.OK() {
			t.Fatalf("b stopped answering while a is down: %v", r.Err)
		}
		r := call(ctx, f, "file_read")
		var down *DownError
		if !errors.As(r.Err, &down) || down.Server != "a" || !down.Restarting {
			t.Fatalf("a call to the dead a: %#v", r.Err)
		}
		if msg := r.Err.Error(); !strings.Contains(msg, `server "a" is restarting`) || !strings.Contains(msg, "other servers are unaffected") {
			t.Fatalf("the dead a's error: %q", msg)
		}
	}
	batch := f.Batch(ctx, []session.CallRequest{callReq("file_read"), callReq("list_todos")}, session.BatchOptions{Concurrency: 2})
	if res := batch.Results; res[0].OK() || !res[1].OK() {
		t.Fatalf("a batch over the dead a and the live b: a err=%v, b err=%v", res[0].Err, res[1].Err)
	}
	if got := starts(t, log); got["a broken"] < 2 || got["b"] != 1 {
		t.Fatalf("starts %v: want a's restarts tried and b untouched", got)
	}

	if err := syscall.Unlink(broken); err != nil {
		t.Fatal(err)
	}
	waitEvent(t, events, "a: restarted")
	if r := call(ctx, f, "file_read"); !r.OK() {
		t.Fatalf("a after its command works again: %v", r.Err)
	}
}
