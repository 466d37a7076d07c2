package main

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset/toolsettest"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/session/demo"
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
		{"--tools", tokensFixture, "--url", "http://127.0.0.1:1/mcp"},
		{"--tools", tokensFixture, "--", "some-server"},
		{"--sse"},
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

// TestTokensLive: with no --tools the report covers the selected server,
// the built-in demo by default, like every other subcommand.
func TestTokensLive(t *testing.T) {
	code, out, errOut := tokensCLI(t, "--format", "json")
	if code != exitOK {
		t.Fatalf("demo: exit %d %s", code, errOut)
	}
	var doc struct {
		Server string `json:"server"`
		Tools  []struct {
			Name  string         `json:"name"`
			Forms map[string]int `json:"forms"`
		} `json:"tools"`
		Totals map[string]int `json:"totals"`
		True   map[string]struct {
			Upfront        int `json:"upfront"`
			OperationsList int `json:"operations_list"`
			Details        int `json:"details"`
			TrueCost       int `json:"true_cost"`
		} `json:"true_costs"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Server != "mcpterm-demo" || len(doc.Tools) < 6 || doc.Totals["json"] == 0 {
		t.Fatalf("%+v", doc)
	}
	// A tool's AQL cell is its operation's introspect details, not a
	// one-tool AQL server; the true cost adds them to the upfront figure.
	sum := 0
	for _, tool := range doc.Tools {
		sum += tool.Forms["aql_single"]
	}
	single := doc.True["aql_single"]
	if single.Upfront != doc.Totals["aql_single"] || single.Details != sum || single.TrueCost != single.Upfront+single.OperationsList+sum {
		t.Errorf("aql_single %+v, tool cells add up to %d", single, sum)
	}

	// The same server over HTTP, chosen with --url, counts the same.
	srv := httptest.NewServer(server.NewStreamableHTTPServer(demo.New(demo.Options{Seed: 1})))
	defer srv.Close()
	code, out2, errOut := tokensCLI(t, "--format", "json", "--url", srv.URL+"/mcp")
	source := regexp.MustCompile(`"source": "[^"]*"`)
	if code != exitOK || !strings.Contains(out2, srv.URL) || source.ReplaceAllString(out2, "") != source.ReplaceAllString(out, "") {
		t.Errorf("--url: exit %d %s\n%s", code, errOut, out2)
	}
	code, _, errOut = tokensCLI(t, "--", "/nonexistent/mcp-server")
	if code != exitConnect || !strings.Contains(errOut, "/nonexistent/mcp-server") {
		t.Errorf("unreachable server: exit %d %q", code, errOut)
	}
}

// --aql-map reaches the AQL columns: an operation renamed by the map makes
// the upfront definitions and the introspect answers say the new name.
func TestTokensAQLMapChangesTheAQLColumns(t *testing.T) {
	corpus := filepath.Join(toolsettest.CorpusDir(t), "server-memory.tools.json")
	ov := filepath.Join(t.TempDir(), "map.json")
	if err := os.WriteFile(ov, []byte(`{"read_graph": {"operation": "fetch_the_whole_knowledge_graph_with_every_entity_and_relation"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	total := func(args ...string) map[string]int {
		t.Helper()
		code, out, errs := tokensCLI(t, append([]string{"--format", "json", "--tools", corpus}, args...)...)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var r struct {
			Totals map[string]int `json:"totals"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return r.Totals
	}
	plain, mapped := total(), total("--aql-map", ov)
	if mapped["aql_single"] <= plain["aql_single"] || mapped["aql_semantic"] <= plain["aql_semantic"] {
		t.Errorf("upfront AQL unchanged by the map: %v vs %v", plain, mapped)
	}
	if mapped["json"] != plain["json"] || mapped["term"] != plain["term"] {
		t.Errorf("the map changed non-AQL forms: %v vs %v", plain, mapped)
	}
	if code, _, errs := tokensCLI(t, "--tools", corpus, "--aql-map", filepath.Join(t.TempDir(), "missing.json")); code != exitUsage || !strings.Contains(errs, "aql-map") {
		t.Errorf("missing map file: exit %d, %q", code, errs)
	}
}
