package main

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/session/peers"
)

// TestTaskCallCLI: `mcpterm call` on server-everything's task-only
// simulate-research-query waits for the task, shows its status changes on
// stderr and prints the result.
func TestTaskCallCLI(t *testing.T) {
	p, err := peers.Everything(context.Background(), os.Getenv)
	if err != nil {
		if errors.Is(err, peers.ErrNoNode) && os.Getenv("CI") != "true" {
			t.Skipf("end-to-end test skipped: %v", err)
		}
		t.Fatal(err)
	}
	sel := []string{"--", p.Node, p.Entry, "stdio"}
	code, out, errOut := sessCLI(t, nil, "", append([]string{"call", `{"name":"simulate-research-query","arguments":{"topic":"tides"}}`}, sel...)...)
	if code != exitOK || !strings.Contains(out, "Research Report: tides") {
		t.Fatalf("call: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	for _, want := range []string{"mcpterm call: task ", " working: Gathering sources...", " completed"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	// A fresh stdio server has no tasks yet.
	code, out, errOut = sessCLI(t, nil, "", append([]string{"tasks", "list"}, sel...)...)
	if code != exitOK || out != "no tasks\n" {
		t.Errorf("tasks list: exit %d %q %s", code, out, errOut)
	}
	code, _, errOut = sessCLI(t, nil, "", append([]string{"tasks", "get", "no-such-task"}, sel...)...)
	if code == exitOK || !strings.Contains(errOut, "tasks/get") || !strings.Contains(errOut, "not found") {
		t.Errorf("tasks get: exit %d %s", code, errOut)
	}
}

// The demo server has no tasks: said so, nothing sent; bad verbs are usage
// errors.
func TestTasksCLIUsage(t *testing.T) {
	code, _, errOut := testCLI(t, nil, "tasks")
	if code == exitOK || !strings.Contains(errOut, "no tasks.list") {
		t.Errorf("tasks on the demo: exit %d %s", code, errOut)
	}
	for _, args := range [][]string{{"tasks", "get"}, {"tasks", "frob", "x"}, {"tasks", "list", "extra"}} {
		if code, _, errOut := testCLI(t, nil, args...); code != exitUsage || !strings.Contains(errOut, "want list, get ID") {
			t.Errorf("%q: exit %d %s", args, code, errOut)
		}
	}
}
