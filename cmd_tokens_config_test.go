package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/session/peers"
)

// tokensConfigPeers is the config of TestTokensAllOverConfig: the demo
// server (this binary), server-everything, server-filesystem and
// server-memory, and one broken entry.
func tokensConfigPeers(t *testing.T) (path string, good []string) {
	t.Helper()
	peer := func(install func(context.Context, func(string) string) (peers.Peer, error)) peers.Peer {
		p, err := install(context.Background(), os.Getenv)
		if err != nil {
			if errors.Is(err, peers.ErrNoNode) && os.Getenv("CI") != "true" {
				t.Skipf("end-to-end test skipped: %v", err)
			}
			t.Fatal(err)
		}
		return p
	}
	ev, fs, mem := peer(peers.Everything), peer(peers.Filesystem), peer(peers.Memory)
	bin := buildMcpterm(t)
	servers := map[string]any{
		"demo":       map[string]any{"command": bin, "args": []string{"demo-server"}},
		"everything": map[string]any{"command": ev.Node, "args": []string{ev.Entry, "stdio"}},
		"filesystem": map[string]any{"command": fs.Node, "args": []string{fs.Entry, t.TempDir()}},
		"memory": map[string]any{"command": mem.Node, "args": []string{mem.Entry},
			"env": map[string]string{"MEMORY_FILE_PATH": filepath.Join(t.TempDir(), "memory.jsonl")}},
		"broken": map[string]any{"command": filepath.Join(t.TempDir(), "no-such-server")},
	}
	b, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path, []string{"demo", "everything", "filesystem", "memory"}
}

// TestTokensAllOverConfig: `tokens --all` counts every entry of a config
// at once; its grand total, form by form (and the AQL true costs), is the
// sum of `tokens --server NAME` run on each entry alone; the broken entry
// is reported (on stderr and in the JSON's skipped) and the rest complete.
func TestTokensAllOverConfig(t *testing.T) {
	cfg, good := tokensConfigPeers(t)
	code, out, errOut := sessCLI(t, nil, "", "tokens", "--config", cfg, "--all", "--format", "json")
	if code != exitOK {
		t.Fatalf("tokens --all: exit %d\n%s\n%s", code, out, errOut)
	}
	var all struct {
		Forms   []string `json:"forms"`
		Servers []struct {
			Entry  string         `json:"entry"`
			Totals map[string]int `json:"totals"`
		} `json:"servers"`
		GrandTotal map[string]int `json:"grand_total"`
		TrueTotal  map[string]struct {
			True int `json:"true_cost"`
		} `json:"true_cost_grand_total"`
		Window  map[string]float64 `json:"grand_total_window_pct"`
		Skipped []struct{ Server, Reason string }
	}
	if err := json.Unmarshal([]byte(out), &all); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(all.Skipped) != 1 || all.Skipped[0].Server != "broken" || !strings.Contains(all.Skipped[0].Reason, "no-such-server") {
		t.Errorf("skipped: %+v", all.Skipped)
	}
	if !strings.Contains(errOut, "broken: not counted:") {
		t.Errorf("stderr does not name the broken entry: %s", errOut)
	}
	var names []string
	for _, s := range all.Servers {
		names = append(names, s.Entry)
	}
	if strings.Join(names, ",") != strings.Join(good, ",") {
		t.Fatalf("servers %v, want %v", names, good)
	}
	sum, trueSum := map[string]int{}, map[string]int{}
	for _, name := range good {
		code, out, errOut := sessCLI(t, nil, "", "tokens", "--config", cfg, "--server", name, "--format", "json")
		if code != exitOK {
			t.Fatalf("tokens --server %s: exit %d %s", name, code, errOut)
		}
		var one struct {
			Totals map[string]int `json:"totals"`
			True   map[string]struct {
				True int `json:"true_cost"`
			} `json:"true_costs"`
		}
		if err := json.Unmarshal([]byte(out), &one); err != nil {
			t.Fatal(err)
		}
		for f, n := range one.Totals {
			sum[f] += n
		}
		for f, c := range one.True {
			trueSum[f] += c.True
		}
	}
	if len(all.Forms) == 0 {
		t.Fatal("no forms")
	}
	for _, f := range all.Forms {
		if all.GrandTotal[f] != sum[f] || sum[f] == 0 {
			t.Errorf("%s: grand total %d, the servers alone sum to %d", f, all.GrandTotal[f], sum[f])
		}
		if want := 100 * float64(sum[f]) / 200000; all.Window[f] < want-0.01 || all.Window[f] > want+0.01 {
			t.Errorf("%s: %.2f%% of the window, want %.2f%%", f, all.Window[f], want)
		}
	}
	if len(trueSum) == 0 {
		t.Error("no true costs")
	}
	for f, n := range trueSum {
		if all.TrueTotal[f].True != n {
			t.Errorf("%s true cost: grand total %d, the servers alone sum to %d", f, all.TrueTotal[f].True, n)
		}
	}
	// --servers picks entries by name, and naming only broken ones fails.
	code, out, _ = sessCLI(t, nil, "", "tokens", "--config", cfg, "--servers", "everything", "--format", "json")
	if code != exitOK || !strings.Contains(out, `"entry": "everything"`) {
		t.Errorf("--servers everything: exit %d %s", code, out)
	}
	if code, _, errOut := sessCLI(t, nil, "", "tokens", "--config", cfg, "--servers", "broken"); code != exitConnect {
		t.Errorf("--servers broken: exit %d, want %d: %s", code, exitConnect, errOut)
	}
	if code, _, errOut := sessCLI(t, nil, "", "tokens", "--config", cfg, "--servers", "nope"); code != exitUsage || !strings.Contains(errOut, "nope") {
		t.Errorf("--servers nope: exit %d: %s", code, errOut)
	}
	if code, _, errOut := sessCLI(t, nil, "", "tokens", "--config", cfg, "--all", "--server", "demo"); code != exitUsage {
		t.Errorf("--all --server: exit %d: %s", code, errOut)
	}
}
