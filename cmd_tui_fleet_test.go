package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/session"
)

// TestWorkbenchOnConfigServers: `mcpterm --config F --servers a,b` opens
// the workbench on both entries as one list: its session is a fleet whose
// tools say which server each comes from (the chart's per-server section
// reads that), names clashing between the two namespaced, and a call
// routed to the server it names. The flags that choose one server are
// refused beside it.
func TestWorkbenchOnConfigServers(t *testing.T) {
	bin := buildMcpterm(t)
	entry := map[string]any{"command": bin, "args": []string{"demo-server"}}
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"a": entry, "b": entry}})
	cfg := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(cfg, b, 0o600); err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	var stderr bytes.Buffer
	c := &cli{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &stderr, getenv: func(k string) string {
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	}}
	fs, sf, o := c.tuiFlags()
	if _, _, ok := c.parseSelection(fs, sf, []string{"--config", cfg, "--servers", "a,b"}); !ok {
		t.Fatal("flags refused")
	}
	opts, closeFn, code := c.workbenchFleet(sf, o)
	if closeFn == nil {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	defer closeFn()
	if opts.Target != "config servers a, b" {
		t.Errorf("target %q", opts.Target)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := opts.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	set, err := s.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	per := map[string]int{}
	for _, tl := range set.Tools {
		per[tl.Server]++
		if !strings.HasPrefix(tl.Name, tl.Server+"_") {
			t.Errorf("tool %s of %s: both servers list it, so it is namespaced", tl.Name, tl.Server)
		}
	}
	if len(per) != 2 || per["a"] == 0 || per["a"] != per["b"] {
		t.Fatalf("tools per server %v", per)
	}
	res := s.Call(ctx, session.CallRequest{Tool: "b_list_todos", Arguments: ojson.NewObject()})
	if res.Err != nil || res.Raw == nil || res.IsError {
		t.Errorf("b_list_todos through the workbench's fleet: %+v", res)
	}

	for _, args := range [][]string{
		{"--config", cfg, "--servers", "a", "--all"},
		{"--config", cfg, "--servers", "a", "--server", "b"},
		{"--config", cfg, "--all", "--", bin, "demo-server"},
		{"--config", cfg, "--servers", "nope"},
	} {
		code, _, errOut := testCLI(t, nil, args...)
		if code != exitUsage || errOut == "" {
			t.Errorf("%v: exit %d %q", args, code, errOut)
		}
	}
}
