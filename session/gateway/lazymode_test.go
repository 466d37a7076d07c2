package gateway

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/term"
	"github.com/mcpterm/mcpterm/convert/termtool"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session"
)

// lazyListed is the one tool a term-lazy client lists.
func lazyListed(t *testing.T, c *client.Client) mcp.Tool {
	t.Helper()
	res, err := c.ListTools(ctxT(t, 10*time.Second), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 || res.Tools[0].Name != DefaultTermTool {
		t.Fatalf("tools: %+v", res.Tools)
	}
	return res.Tools[0]
}

func TestLazyListsOneLinePerTool(t *testing.T) {
	up := demoSession(t)
	g := newGateway(t, up, Options{Mode: ModeTermLazy, Policy: allowAll(t)})
	c, _ := inProcessClient(t, g)
	tool := lazyListed(t, c)
	set, _ := up.Tools(ctxT(t, 10*time.Second))
	if want := termtool.LazyDescription("mcpterm-demo", set, nil); tool.Description != want {
		t.Fatalf("description:\n%s\nwant\n%s", tool.Description, want)
	}
	head, listing, ok := strings.Cut(tool.Description, "\n\n")
	if !ok || !strings.Contains(head, "(describe CODE...)") || !strings.Contains(head, "JSON {name,arguments}") {
		t.Fatalf("how-to: %q", head)
	}
	lines := strings.Split(listing, "\n")
	if len(lines) != len(set.Tools) {
		t.Fatalf("%d lines for %d tools:\n%s", len(lines), len(set.Tools), listing)
	}
	codes := term.ShortCodes(namesOf(set.Tools))
	for i, tl := range set.Tools {
		want := codes[tl.Name] + " " + tl.Name
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d is %q, want it to start %q", i, lines[i], want)
		}
		if s := term.FirstSentence(tl.Description); s != "" && !strings.HasSuffix(lines[i], ": "+s) {
			t.Errorf("line %d %q does not end with the first sentence %q", i, lines[i], s)
		}
	}
	// Far cheaper than the term mode's full declarations.
	full := newGateway(t, up, Options{Mode: ModeTerm, Policy: allowAll(t)})
	fc, _ := inProcessClient(t, full)
	if d := lazyListed(t, fc).Description; len(tool.Description)*2 > len(d) {
		t.Errorf("lazy listing %d bytes, term declarations %d: not much of a saving", len(tool.Description), len(d))
	}
	raw, _ := tool.MarshalJSON()
	contains(t, string(raw), `"required":["expr"]`, `"destructiveHint":true`)
}

func namesOf(ts []*toolset.Tool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}

// TestLazyDescribeGivesTheDeclarations asks for tools by code and name and
// for the whole server: the answers are the term mode's lossless
// declarations, with the codes the listing gave.
func TestLazyDescribeGivesTheDeclarations(t *testing.T) {
	up := demoSession(t)
	g := newGateway(t, up, Options{Mode: ModeTermLazy, Policy: allowAll(t)})
	c, _ := inProcessClient(t, g)
	set, _ := up.Tools(ctxT(t, 10*time.Second))

	got := termCall(t, c, `(describe ct file_read)`)
	if got.IsError {
		t.Fatalf("describe: %s", text(got))
	}
	back, err := term.ParseDocument(text(got))
	if err != nil {
		t.Fatalf("the answer does not read back: %v\n%s", err, text(got))
	}
	if n := namesOf(back.Set.Tools); len(n) != 2 || n[0] != "create_todo" && n[1] != "create_todo" {
		t.Fatalf("described %v", n)
	}
	codes := term.ShortCodes(namesOf(set.Tools))
	for _, bt := range back.Set.Tools {
		orig := set.Find(bt.Name)
		if back.Codes[bt.Name] != codes[bt.Name] {
			t.Errorf("%s: code %q, the listing says %q", bt.Name, back.Codes[bt.Name], codes[bt.Name])
		}
		if bt.Description != orig.Description {
			t.Errorf("%s: description changed", bt.Name)
		}
		again, _ := term.Render(&toolset.Set{Tools: []*toolset.Tool{bt}}, term.Options{ModelFacing: true, Codes: codes})
		want, _ := term.Render(&toolset.Set{Tools: []*toolset.Tool{orig}}, term.Options{ModelFacing: true, Codes: codes})
		if again.Text != want.Text {
			t.Errorf("%s: the declaration read back renders as\n%s\nwant\n%s", bt.Name, again.Text, want.Text)
		}
	}

	// The whole server: exactly the term mode's declarations.
	whole := termCall(t, c, `(describe :server mcpterm-demo)`)
	doc, _ := term.Render(set, term.Options{ModelFacing: true})
	if text(whole) != doc.Text {
		t.Errorf("(describe :server ...) is\n%s\nwant the term declarations\n%s", text(whole), doc.Text)
	}

	// Mistakes are answered with what exists.
	bad := termCall(t, c, `(describe crete_todo :server nope)`)
	if !bad.IsError {
		t.Fatal("describing unknown names is not an error")
	}
	contains(t, text(bad), `(err unknown "no tool crete_todo (did you mean create_todo`, `no server nope`)
	empty := termCall(t, c, `(describe)`)
	contains(t, text(empty), `(err parse "describe what?`)
}

// TestLazyCallsWorkAsInTermMode calls tools nobody described, in MCP-Term,
// as a batch and as JSON, and compares with the upstream called directly.
func TestLazyCallsWorkAsInTermMode(t *testing.T) {
	g := newGateway(t, demoSession(t), Options{Mode: ModeTermLazy, Policy: allowAll(t)})
	c, _ := inProcessClient(t, g)
	direct := demoSession(t)
	cases := []struct{ expr, tool, args string }{
		{`(ct "Buy milk" :description "two litres")`, "create_todo", `{"title":"Buy milk","description":"two litres"}`},
		{`{"name":"file_read","arguments":{"path":"/docs/README.md","limit":40}}`, "file_read", `{"path":"/docs/README.md","limit":40}`},
		{`(fr "/nope")`, "file_read", `{"path":"/nope"}`},
	}
	for _, tc := range cases {
		got := termCall(t, c, tc.expr)
		want, wantErr := directTerm(t, direct, tc.tool, tc.args)
		if text(got) != want || got.IsError != wantErr {
			t.Errorf("%s:\n gateway %v %s\n direct  %v %s", tc.expr, got.IsError, text(got), wantErr, want)
		}
	}
	contains(t, text(termCall(t, c, `(batch (1 (lt :limit 1)) (2 (fr "/missing")))`)), `(results (1 (ok`, `(2 (err tool`)
	contains(t, text(termCall(t, c, `(ct 1 2 3)`)), `(err `)
}

// TestTermAcceptsAJSONCall holds the term mode to its how-to: a JSON
// {"name","arguments"} call is run like the MCP-Term one.
func TestTermAcceptsAJSONCall(t *testing.T) {
	g := newGateway(t, demoSession(t), Options{Mode: ModeTerm, Policy: allowAll(t)})
	c, _ := inProcessClient(t, g)
	a := termCall(t, c, `{"name":"create_todo","arguments":{"title":"same"}}`)
	b := termCall(t, c, `(ct "same")`)
	if a.IsError || !strings.HasPrefix(text(a), "(ok") {
		t.Fatalf("JSON call: %s", text(a))
	}
	// Both created a todo titled "same"; the answers differ only in the id.
	if strings.Count(text(a), `"same"`) != strings.Count(text(b), `"same"`) {
		t.Errorf("JSON %s vs MCP-Term %s", text(a), text(b))
	}
}

// TestLazyOverStdio runs the term-lazy gateway as its own process on stdio
// (the test binary as `mcpterm serve --mode term-lazy`, over the demo
// server on stdio) with mcp-go's stdio client: list, describe, call.
func TestLazyOverStdio(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := json.Marshal(serveSpec{Mode: ModeTermLazy, Command: exe, Args: []string{"-test.run=^$"}, Env: map[string]string{demoEnv: "1"}})
	c, err := client.NewStdioMCPClient(exe, []string{serveEnv + "=" + string(spec)}, "-test.run=^$")
	if err != nil {
		t.Fatal(err)
	}
	connect(t, c, mcp.LATEST_PROTOCOL_VERSION)
	tool := lazyListed(t, c)
	contains(t, tool.Description, "(describe CODE...)", "\nct create_todo: ")
	d := termCall(t, c, `(describe ct)`)
	if d.IsError || !strings.HasPrefix(text(d), "(declare\n (ct create_todo ") {
		t.Fatalf("describe over stdio: %s", text(d))
	}
	direct := openSession(t, session.Source{Kind: session.Stdio, Name: "demo", Command: exe, Args: []string{"-test.run=^$"}, Env: map[string]string{demoEnv: "1"}}, session.Options{})
	got := termCall(t, c, `(fr "/docs/README.md" :limit 30)`)
	want, _ := directTerm(t, direct, "file_read", `{"path":"/docs/README.md","limit":30}`)
	if text(got) != want {
		t.Errorf("call over stdio:\n gateway %s\n direct  %s", text(got), want)
	}
}
