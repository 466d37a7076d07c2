package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/peers"
)

// fleetPeersEverything is the reference server, or a skip without node.
func fleetPeersEverything(t *testing.T) peers.Peer {
	t.Helper()
	p, err := peers.Everything(context.Background(), os.Getenv)
	if err != nil {
		if errors.Is(err, peers.ErrNoNode) && os.Getenv("CI") != "true" {
			t.Skipf("skipped: %v", err)
		}
		t.Fatalf("installing the peer: %v", err)
	}
	return p
}

// fleetPeersWaitFor polls cond until it holds or the deadline passes; the
// fleet publishes no event a test could wait on for every state, so the
// condition itself is the event.
func fleetPeersWaitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func fleetPeersCall(ctx context.Context, f *Fleet, tool, msg string) *session.CallResult {
	args, _ := ojson.Parse([]byte(`{"message":` + strconv.Quote(msg) + `}`))
	return f.Call(ctx, session.CallRequest{Tool: tool, Arguments: args})
}

// TestFleetPeersClashRoutingRestart runs two entries of the reference
// server (every name clashes, so both are namespaced), routes a call to
// each, kills one entry's process and checks the other keeps answering
// and the killed one is restarted and answers again.
func TestFleetPeersClashRoutingRestart(t *testing.T) {
	p := fleetPeersEverything(t)
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "a.pid")
	// The wrapper writes its pid and execs node, so the pid is the server's.
	script := filepath.Join(dir, "wrap.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho $$ > \"$PIDFILE\"\nexec \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := map[string]any{"mcpServers": map[string]any{
		"ev-a": map[string]any{"command": script, "args": []string{p.Node, p.Entry, "stdio"}, "env": map[string]string{"PIDFILE": pidFile}},
		"ev-b": map[string]any{"command": p.Node, "args": []string{p.Entry, "stdio"}},
	}}
	b, _ := json.Marshal(cfg)
	cfgPath := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(cfgPath, b, 0o600); err != nil {
		t.Fatal(err)
	}
	c := &Config{Selection: session.Selection{Configs: []string{cfgPath}}, All: true,
		Env: session.Env{Getenv: os.Getenv, Cwd: dir, Home: dir}}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	f, err := New(ctx, Options{Load: c.Load, Poll: -1, BackoffMin: 50 * time.Millisecond, BackoffMax: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if st := f.Status(); st["ev-a"] != "up" || st["ev-b"] != "up" {
		t.Fatalf("status %v", st)
	}
	set, err := f.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, tl := range set.Tools {
		names[tl.Name] = tl.Server
	}
	if names["ev-a_echo"] != "ev-a" || names["ev-b_echo"] != "ev-b" {
		t.Fatalf("clashing echo not namespaced with its server: %v", names)
	}
	if _, ok := names["echo"]; ok {
		t.Fatalf("a clashing name is listed bare")
	}
	for _, tool := range []string{"ev-a_echo", "ev-b_echo"} {
		r := fleetPeersCall(ctx, f, tool, "hi "+tool)
		if !r.OK() || !strings.Contains(r.Raw.Compact(), "hi "+tool) || r.Tool != tool {
			t.Fatalf("%s: ok=%v err=%v raw=%v tool=%q", tool, r.OK(), r.Err, r.Raw, r.Tool)
		}
	}
	firstA := f.Session("ev-a")
	raw, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	fleetPeersWaitFor(t, 30*time.Second, "ev-a to be seen down", func() bool { return f.Session("ev-a") != firstA })
	if r := fleetPeersCall(ctx, f, "ev-b_echo", "still"); !r.OK() {
		t.Fatalf("ev-b stopped answering after ev-a died: %v", r.Err)
	}
	fleetPeersWaitFor(t, 60*time.Second, "ev-a to restart", func() bool {
		s := f.Session("ev-a")
		return s != nil && s != firstA
	})
	if r := fleetPeersCall(ctx, f, "ev-a_echo", "back"); !r.OK() || !strings.Contains(r.Raw.Compact(), "back") {
		t.Fatalf("ev-a after restart: %v", r.Err)
	}
	raw2, _ := os.ReadFile(pidFile)
	if strings.TrimSpace(string(raw2)) == strconv.Itoa(pid) {
		t.Fatalf("ev-a restarted in the same process %d", pid)
	}
}
