package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tokensCLI runs `mcpterm tokens ARGS` in-process.
func tokensCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	c := &cli{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
	code := c.run(append([]string{"tokens"}, args...))
	return code, out.String(), errOut.String()
}

const tokensFixture = "tokens/testdata/hard.tools.json"

func TestTokensJSON(t *testing.T) {
	code, out, errOut := tokensCLI(t, "--tools", tokensFixture, "--format", "json", "--encoding", "cl100k_base")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Encoding string `json:"encoding"`
		Server   string `json:"server"`
		Tools    []struct {
			Name  string         `json:"name"`
			Forms map[string]int `json:"forms"`
		} `json:"tools"`
		Totals  map[string]int            `json:"totals"`
		LeftOut map[string]map[string]int `json:"left_out"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if doc.Encoding != "cl100k_base" || doc.Server != "hard-fixture" || len(doc.Tools) != 3 {
		t.Fatalf("%+v", doc)
	}
	if doc.Totals["json"] == 0 || doc.Totals["json"] >= doc.Totals["json_pretty"] || doc.Tools[2].Forms["json"] == 0 {
		t.Fatalf("totals %v", doc.Totals)
	}
	if doc.LeftOut["icons"]["count"] != 1 {
		t.Fatalf("left_out %v", doc.LeftOut)
	}
}

func TestTokensSeveralServers(t *testing.T) {
	// A second list, without a server name: the file names it.
	dir := t.TempDir()
	second := filepath.Join(dir, "tiny.tools.json")
	os.WriteFile(second, []byte(`[{"name":"echo","description":"Echo back","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}]`), 0o644)
	code, out, errOut := tokensCLI(t, "--tools", tokensFixture, "--tools", second, "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Servers []struct {
			Server string         `json:"server"`
			Totals map[string]int `json:"totals"`
		} `json:"servers"`
		GrandTotal map[string]int `json:"grand_total"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Servers) != 2 || doc.Servers[1].Server != "tiny" {
		t.Fatalf("%+v", doc)
	}
	if doc.GrandTotal["json"] != doc.Servers[0].Totals["json"]+doc.Servers[1].Totals["json"] {
		t.Fatalf("grand total %v", doc.GrandTotal)
	}
	code, out, _ = tokensCLI(t, "--tools", tokensFixture, "--tools", second)
	if code != exitOK || !strings.Contains(out, "all servers") || !strings.Contains(out, "tiny · 1 tools") {
		t.Fatalf("table:\n%s", out)
	}
}

func TestTokensFormats(t *testing.T) {
	for format, want := range map[string]string{"table": "saved vs json", "md": "|---|---:|", "csv": "server,tool,json,"} {
		code, out, errOut := tokensCLI(t, "--tools", tokensFixture, "--format", format, "--sort", "json")
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("%s: exit %d, stderr %q, output:\n%s", format, code, errOut, out)
		}
	}
}

func TestTokensUsageErrors(t *testing.T) {
	cases := [][]string{
		{},
		{"--tools", tokensFixture, "--encoding", "p50k_base"},
		{"--tools", tokensFixture, "--format", "xml"},
		{"--tools", tokensFixture, "--sort", "size"},
		{"--tools", "does-not-exist.json"},
		{"--tools", tokensFixture, "extra"},
		{"--bogus"},
	}
	for _, args := range cases {
		code, out, errOut := tokensCLI(t, args...)
		if code != exitUsage || out != "" || errOut == "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}
