package termtool

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/term"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

func TestReadDescribe(t *testing.T) {
	good := []struct {
		expr           string
		tools, servers []string
	}{
		{`(describe ct)`, []string{"ct"}, nil},
		{"(describe\tct file_read)", []string{"ct", "file_read"}, nil},
		{"; what do these take?\n  (describe :server memory \"odd name\")", []string{"odd name"}, []string{"memory"}},
		{`(describe :server a x :server "b c")`, []string{"x"}, []string{"a", "b c"}},
		{`(describe"ct")`, []string{"ct"}, nil},
	}
	for _, tc := range good {
		req, ok, err := ReadDescribe(tc.expr)
		if !ok || err != nil || !slices.Equal(req.Tools, tc.tools) || !slices.Equal(req.Servers, tc.servers) {
			t.Errorf("%q: %+v ok=%v err=%v, want tools %q servers %q", tc.expr, req, ok, err, tc.tools, tc.servers)
		}
	}
	// Anything else is a call (or a batch, or JSON) for the caller to read.
	for _, expr := range []string{
		``, `  `, `(ct "x")`, `(describer x)`, `(describe-all)`, `(batch (1 (describe ct)))`,
		`{"name":"describe","arguments":{}}`, `describe ct`, `; only a comment`, "; comment\n(ct 1)",
	} {
		if req, ok, err := ReadDescribe(expr); ok || err != nil || len(req.Tools)+len(req.Servers) > 0 {
			t.Errorf("%q read as a describe request: %+v ok=%v err=%v", expr, req, ok, err)
		}
	}
	// A describe request that is malformed says what was expected.
	bad := []struct{ expr, want string }{
		{`(describe)`, "describe what?"},
		{`(describe :server)`, "expected a server name after :server"},
		{`(describe :server 3)`, "expected a server name after :server"},
		{`(describe 1)`, "expected a short code, a tool name or :server NAME"},
		{`(describe (ct))`, "expected a short code, a tool name or :server NAME"},
		{`(describe :tool ct)`, "expected a short code, a tool name or :server NAME"},
		{`(describe "")`, "expected a short code, a tool name or :server NAME"},
		{`(describe ct) (describe x)`, "expected one (describe CODE ...)"},
		{`(describe "ct`, ""},
		{`(describe ct`, ""},
	}
	for _, tc := range bad {
		req, ok, err := ReadDescribe(tc.expr)
		if !ok || err == nil || !strings.Contains(err.Error(), tc.want) || len(req.Tools)+len(req.Servers) > 0 {
			t.Errorf("%q: %+v ok=%v err=%v, want an error containing %q", tc.expr, req, ok, err, tc.want)
		}
	}
}

// FuzzReadDescribe: any text is read without a panic; what is not a
// describe request has no error and no names; a request read without an
// error names something, and written back out it reads the same.
func FuzzReadDescribe(f *testing.F) {
	for _, s := range []string{
		`(describe ct)`, `(describe :server memory "odd name")`, `(describe)`, `(describe :server)`,
		"; c\n(describe x)", `(describe "a\"b" :server "\u200b")`, `(ct 1)`, `(describe ct`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		req, ok, err := ReadDescribe(expr)
		if !ok {
			if err != nil || len(req.Tools)+len(req.Servers) > 0 {
				t.Fatalf("not a describe request, yet %+v %v", req, err)
			}
			return
		}
		if err != nil {
			if len(req.Tools)+len(req.Servers) > 0 {
				t.Fatalf("an error with names: %+v", req)
			}
			return
		}
		if len(req.Tools)+len(req.Servers) == 0 {
			t.Fatal("a request naming nothing")
		}
		parts := []string{DescribeHead}
		for _, n := range req.Tools {
			if n == "" {
				t.Fatal("an empty tool name")
			}
			parts = append(parts, sexpr.Print(nameOrString(n)))
		}
		for _, n := range req.Servers {
			if n == "" {
				t.Fatal("an empty server name")
			}
			parts = append(parts, ":server", sexpr.Print(nameOrString(n)))
		}
		again, ok, err := ReadDescribe("(" + strings.Join(parts, " ") + ")")
		if !ok || err != nil || !slices.Equal(again.Tools, req.Tools) || !slices.Equal(again.Servers, req.Servers) {
			t.Fatalf("%+v written back reads as %+v ok=%v err=%v", req, again, ok, err)
		}
	})
}

func TestDescribeArguments(t *testing.T) {
	if got := DescribeArguments("ct"); got != `{"expr":"(describe ct)"}` {
		t.Errorf("DescribeArguments: %s", got)
	}
	if req, ok, err := ReadDescribe(DescribeExpr("ct")); !ok || err != nil || !slices.Equal(req.Tools, []string{"ct"}) {
		t.Errorf("DescribeExpr does not read back: %+v %v %v", req, ok, err)
	}
}

// tool is a tool with an empty object schema, as toolset.Parse reads one.
func tool(server, name, desc string) *toolset.Tool {
	set, err := toolset.Parse([]byte(`[{"name":` + strconv.Quote(name) + `,"description":` + strconv.Quote(desc) + `,"inputSchema":{"type":"object","properties":{"path":{"type":"string"}}}}]`))
	if err != nil {
		panic(err)
	}
	set.Tools[0].Server = server
	return set.Tools[0]
}

func names(ts []*toolset.Tool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}

func TestDescriberAnswer(t *testing.T) {
	set := &toolset.Set{Server: "mcpterm-demo", Tools: []*toolset.Tool{
		tool("", "create_todo", "Create a todo."), tool("", "file_read", "Read a file."), tool("", "list_todos", "List todos."),
	}}
	d := NewDescriber(set, nil)
	codes := term.ShortCodes(names(set.Tools))
	for _, tl := range set.Tools {
		if d.Code(tl.Name) != codes[tl.Name] {
			t.Errorf("%s: code %q, want %q", tl.Name, d.Code(tl.Name), codes[tl.Name])
		}
	}
	// By code, by name, ignoring case; each tool once, in list order.
	got, err := d.Answer(Request{Tools: []string{"LIST_TODOS", codes["create_todo"], "create_todo"}})
	if err != nil {
		t.Fatal(err)
	}
	back, err := term.ParseDocument(got)
	if err != nil {
		t.Fatalf("the answer does not read back: %v\n%s", err, got)
	}
	if n := names(back.Set.Tools); !slices.Equal(n, []string{"create_todo", "list_todos"}) {
		t.Errorf("described %v", n)
	}
	if back.Codes["list_todos"] != codes["list_todos"] {
		t.Errorf("code %q in the answer, %q in the list", back.Codes["list_todos"], codes["list_todos"])
	}
	// :server NAME on one server's list is the term declarations of it all.
	whole, err := d.Answer(Request{Servers: []string{"MCPTERM-DEMO"}})
	doc, _ := term.Render(set, term.Options{ModelFacing: true})
	if err != nil || whole != doc.Text {
		t.Errorf(":server: %v\n%s\nwant\n%s", err, whole, doc.Text)
	}
	// Unknown names are all named, with the nearest ones.
	_, err = d.Answer(Request{Tools: []string{"crete_todo", "zzzzzz"}, Servers: []string{"mcpterm-dem"}})
	var unk *UnknownError
	if !errors.As(err, &unk) || len(unk.Names) != 3 {
		t.Fatalf("unknown names: %v", err)
	}
	for _, want := range []string{`no tool crete_todo (did you mean create_todo`, `no tool zzzzzz`, `no server mcpterm-dem (did you mean mcpterm-demo?)`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "zzzzzz (did you mean") {
		t.Errorf("a suggestion for a name like nothing: %q", err)
	}
	// A name that is not a symbol is quoted, hidden characters made visible.
	_, err = d.Answer(Request{Tools: []string{"file read\u200b"}})
	if err == nil || !strings.Contains(err.Error(), `no tool "file read\u200b"`) {
		t.Errorf("odd name: %v", err)
	}
}

// TestDescriberServers: over a many-server list, :server NAME gives that
// server's tools only (grouped as the term mode groups them), and codes
// given by the caller are the ones answered with.
func TestDescriberServers(t *testing.T) {
	set := &toolset.Set{Tools: []*toolset.Tool{
		tool("memory", "read_graph", "Read the graph."), tool("files", "read_file", "Read a file."), tool("memory", "search_nodes", "Search."),
	}}
	d := NewDescriber(set, map[string]string{"read_file": "rf2", "not_a_tool": "x"})
	if d.Code("read_file") != "rf2" || d.Code("not_a_tool") != "" {
		t.Errorf("codes: read_file %q, not_a_tool %q", d.Code("read_file"), d.Code("not_a_tool"))
	}
	got, err := d.Answer(Request{Servers: []string{"Memory"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "read_graph") || !strings.Contains(got, "search_nodes") || strings.Contains(got, "read_file") {
		t.Errorf(":server memory:\n%s", got)
	}
	got, err = d.Answer(Request{Tools: []string{"rf2"}, Servers: []string{"memory"}})
	if err != nil || !strings.Contains(got, "(rf2 read_file") || !strings.Contains(got, "memory") || !strings.Contains(got, "files") {
		t.Errorf("a tool and a server: %v\n%s", err, got)
	}
	_, err = d.Answer(Request{Servers: []string{"memroy"}})
	if err == nil || !strings.Contains(err.Error(), "no server memroy (did you mean memory?)") {
		t.Errorf("unknown server: %v", err)
	}
}
