package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset/toolsettest"

	"github.com/mcpterm/mcpterm/convert/dts"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/term"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

func runConvertCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	c := &cli{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	code := c.run(append([]string{"convert"}, args...))
	return code, out.String(), errb.String()
}

const convertFixture = "convert/term/testdata/github.tools.json"

func TestConvertToTerm(t *testing.T) {
	data, err := os.ReadFile(convertFixture)
	if err != nil {
		t.Fatal(err)
	}
	set, err := toolset.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	want, err := term.Render(set, term.Options{ModelFacing: true})
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := runConvertCLI(t, "", convertFixture)
	if code != exitOK || out != want.Text {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, errs, out)
	}
	// What was left out is one stderr line, never on stdout.
	if strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "$schema ×3") || !strings.Contains(errs, "x-github") {
		t.Errorf("stderr %q: want one line accounting for $schema and x-* keys", errs)
	}
	if strings.Contains(out, "x-github") || strings.Contains(out, "$schema") {
		t.Error("left-out keys reached stdout")
	}
	// The same through stdin, flags after the file name.
	code, out2, _ := runConvertCLI(t, string(data), "-", "--to", "term")
	if code != exitOK || out2 != out {
		t.Errorf("stdin gives a different document (exit %d)", code)
	}
	// term-full carries what the model never sees, so it is the longer one.
	code, full, _ := runConvertCLI(t, string(data), "--to", "term-full")
	if code != exitOK || len(full) <= len(out) || !strings.Contains(full, ":ro") {
		t.Errorf("term-full: exit %d, %d bytes (term %d); want annotation flags", code, len(full), len(out))
	}
	code, lean, errs := runConvertCLI(t, string(data), "--to", "term-lean")
	if code != exitOK || len(lean) >= len(out) || !strings.Contains(errs, "dropped (lean)") {
		t.Errorf("term-lean: exit %d, %d bytes (term %d), stderr %q", code, len(lean), len(out), errs)
	}
}

func TestConvertTermBackToMCP(t *testing.T) {
	data, _ := os.ReadFile(convertFixture)
	_, doc, _ := runConvertCLI(t, string(data))
	code, out, errs := runConvertCLI(t, "; a comment first\n"+doc, "--to", "mcp")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	res, err := ojson.Parse([]byte(out))
	if err != nil || res.Get("tools") == nil {
		t.Fatalf("--to mcp did not print a {\"tools\": [...]} result: %v\n%s", err, out)
	}
	back, err := toolset.FromValue(res)
	if err != nil {
		t.Fatal(err)
	}
	orig, _ := toolset.Parse(data)
	if len(back.Tools) != len(orig.Tools) {
		t.Fatalf("%d tools back, want %d", len(back.Tools), len(orig.Tools))
	}
	for i := range orig.Tools {
		if back.Tools[i].Name != orig.Tools[i].Name || back.Tools[i].InputSchema.Get("properties") == nil {
			t.Errorf("tool %d: %s", i, back.Tools[i].Raw.Compact())
		}
	}
	// term -> term is the identity on canonical documents.
	code, again, _ := runConvertCLI(t, doc)
	if code != exitOK || again != doc {
		t.Errorf("term -> term changed the document")
	}
	code, ts, _ := runConvertCLI(t, doc, "--to", "dts")
	want, _ := dts.Render(back)
	if code != exitOK || ts != want {
		t.Errorf("term -> dts: exit %d\n%s", code, ts)
	}
}

func TestConvertErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.term")
	os.WriteFile(bad, []byte("(declare\n  (fr file_read (path strin)))\n"), 0o644)
	for _, tc := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"", []string{filepath.Join(dir, "missing.json")}, "missing.json"},
		{"", []string{bad}, "bad.term: 2:23: unknown type strin"},
		{"[]", []string{"--to", "yaml"}, `unknown form "yaml"`},
		{"{\"tools\": 5}", nil, "<stdin>: tool list"},
		{"not json", nil, "<stdin>: tool list"},
		{"(declare (x", nil, "expected ')'"},
		{"[]", []string{"a", "b"}, "one input at a time"},
	} {
		code, out, errs := runConvertCLI(t, tc.stdin, tc.args...)
		if code != exitUsage || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("convert %v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errs, tc.want)
		}
	}
}

func TestConvertHidesControlCharacters(t *testing.T) {
	in := `[{"name":"x","description":"a\u001b[31mred\u009b1m","inputSchema":{"type":"object","properties":{"k":{"const":"\u202e"}}}}]`
	for _, form := range []string{"term", "dts", "json", "mcp"} {
		code, out, errs := runConvertCLI(t, in, "--to", form)
		if code != exitOK {
			t.Fatalf("%s: exit %d %s", form, code, errs)
		}
		if strings.ContainsAny(out, "\x1b\u009b\u202e") {
			t.Errorf("%s: control characters reached stdout: %q", form, out)
		}
	}
	// ...and what is escaped reads back unchanged.
	_, out, _ := runConvertCLI(t, in, "--to", "mcp")
	set, err := toolset.Parse([]byte(out))
	if err != nil || set.Tools[0].Description != "a\x1b[31mred\u009b1m" {
		t.Errorf("escaped JSON reads back as %q (%v)", set.Tools[0].Description, err)
	}
}

func TestConvertAQLForms(t *testing.T) {
	corpus := filepath.Join(toolsettest.CorpusDir(t), "server-memory.tools.json")
	// Introspect answers: one JSON line per exchange, operations list first.
	code, out, errs := runConvertCLI(t, "", corpus, "--to", "aql-introspect")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 3 || !strings.Contains(lines[0], `"query":"operations"`) || !strings.Contains(out, `"name":"read_graph"`) {
		t.Fatalf("introspect answers:\n%s", out)
	}
	// An override moves an operation to another endpoint in semantic mode.
	dir := t.TempDir()
	ov := dir + "/map.json"
	if err := os.WriteFile(ov, []byte(`{"read_graph": {"category": "DELETE"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, plain, _ := runConvertCLI(t, "", corpus, "--to", "aql-semantic")
	code, mapped, errs := runConvertCLI(t, "", corpus, "--to", "aql-semantic", "--aql-map", ov)
	if code != exitOK || plain == mapped {
		t.Fatalf("exit %d (%s): the override changed nothing", code, errs)
	}
	var tools []struct{ Name, Description string }
	if err := json.Unmarshal([]byte(mapped), &tools); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tl := range tools {
		if tl.Name == "mcp_aql_delete" && strings.Contains(tl.Description, "read_graph") {
			found = true
		}
	}
	if !found {
		t.Errorf("read_graph not listed on mcp_aql_delete:\n%s", mapped)
	}
	// The overrides only make sense for AQL forms.
	if code, _, errs := runConvertCLI(t, "", corpus, "--to", "term", "--aql-map", ov); code != exitUsage || !strings.Contains(errs, "aql forms only") {
		t.Errorf("--aql-map with term: exit %d, %q", code, errs)
	}
	if code, _, _ := runConvertCLI(t, "", corpus, "--to", "aql-introspect", "--aql-mode", "both"); code != exitUsage {
		t.Errorf("bad --aql-mode: exit %d", code)
	}
}
