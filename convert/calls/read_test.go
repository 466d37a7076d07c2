package calls

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
)

func mustRead(t testing.TB, c *Codec, src string) *Plan {
	t.Helper()
	p, err := c.Read(src)
	if err != nil {
		t.Fatalf("Read(%q): %v", src, err)
	}
	return p
}

func args(t testing.TB, s string) *ojson.Value {
	t.Helper()
	v, err := ojson.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Every syntax is told apart as the CLI and the workbench tell it today,
// ; comment lines included, and becomes the same Plan shape.
func TestReadSyntaxes(t *testing.T) {
	c := New(todo(t), Options{})
	type item struct{ id, tool, args string }
	cases := []struct {
		name   string
		src    string
		syntax Syntax
		batch  bool
		conc   int
		stop   bool
		items  []item
	}{
		{"sexpr", `(gt "t1")`, SExpr, false, 0, false, []item{{"", "get_todo", `{"id":"t1"}`}}},
		{"sexpr by name, comment first", "; read one\n(get_todo \"t1\")", SExpr, false, 0, false, []item{{"", "get_todo", `{"id":"t1"}`}}},
		{"sexpr batch", `(batch :concurrency 2 :stop-on-error (a (lt :limit 1)) (b (gt "x")))`, SExpr, true, 2, true,
			[]item{{"a", "list_todos", `{"limit":1}`}, {"b", "get_todo", `{"id":"x"}`}}},
		{"json", `{"name": "get_todo", "arguments": {"id": "t1"}}`, JSON, false, 0, false, []item{{"", "get_todo", `{"id":"t1"}`}}},
		{"json list, comment first", "; two\n[{\"name\": \"lt\"}, {\"id\": \"z\", \"name\": \"gt\", \"arguments\": {\"id\": \"t\"}}]", JSON, true, 0, false,
			[]item{{"1", "list_todos", `{}`}, {"z", "get_todo", `{"id":"t"}`}}},
		{"json-rpc request", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"gt","arguments":{"id":"t1"}}}`, JSON, false, 0, false,
			[]item{{"", "get_todo", `{"id":"t1"}`}}},
		{"aql", `{"operation": "get_todo", "params": {"id": "t1"}}`, AQL, false, 0, false, []item{{"", "get_todo", `{"id":"t1"}`}}},
		{"aql top-level params, comments first", "; c\n  ; d\n{\"operation\": \"list_todos\", \"limit\": 2}", AQL, false, 0, false,
			[]item{{"", "list_todos", `{"limit":2}`}}},
		{"aql batch", `{"operations": [{"operation": "list_todos"}, {"operation": "introspect", "params": {"query": "types"}}, {"operation": "get_todo", "params": {"id": "x"}}]}`,
			AQL, true, 0, false, []item{{"0", "list_todos", `{}`}, {"1", "", ``}, {"2", "get_todo", `{"id":"x"}`}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustRead(t, c, tc.src)
			if p.Syntax != tc.syntax || p.Batch != tc.batch || p.Concurrency != tc.conc || p.StopOnError != tc.stop || len(p.Items) != len(tc.items) {
				t.Fatalf("%+v", p)
			}
			if p.Source != tc.src {
				t.Errorf("Source %q", p.Source)
			}
			if got := SyntaxOf(tc.src); got != tc.syntax {
				t.Errorf("SyntaxOf = %s", got)
			}
			for i, want := range tc.items {
				it := p.Items[i]
				if it.ID != want.id || it.Tool != want.tool {
					t.Errorf("item %d: id %q tool %q, want %q %q", i, it.ID, it.Tool, want.id, want.tool)
				}
				if want.args == "" {
					if !it.IsLocal() || it.Arguments != nil {
						t.Errorf("item %d should be answered locally: %+v", i, it)
					}
					continue
				}
				if it.IsLocal() || !ojson.Equal(it.Arguments, args(t, want.args)) {
					t.Errorf("item %d: arguments %s, want %s", i, it.Arguments.Compact(), want.args)
				}
			}
		})
	}
}

// Errors keep their positions, so the caret lands under the column.
func TestReadErrorsArePositioned(t *testing.T) {
	c := New(fixtures(t), Options{})
	cases := []struct {
		src, msg, caret string
	}{
		{"(batch\n  (1 (fr \"/x\" :encc :utf8)))",
			"2:15: unknown parameter :encc (did you mean :enc?); expected one of :path :enc :off :lim",
			"    (1 (fr \"/x\" :encc :utf8)))\n                ^"},
		{`{"name":"li","arguments":{"owner":"o","repo":"r","page":0}}`, "1:57: invalid argument /page: minimum: got 0, want 1", ""},
		{"(fr \x1b[31m)", "", "  (fr  [31m)"},
	}
	for _, tc := range cases {
		_, err := c.Read(tc.src)
		var ce *call.Error
		if !errors.As(err, &ce) || ce.Pos.Line < 1 {
			t.Fatalf("%q: %v (%T), want a positioned *call.Error", tc.src, err, err)
		}
		if tc.msg != "" && !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: %v, want %s", tc.src, err, tc.msg)
		}
		if pos, ok := ErrorPos(err); !ok || pos != ce.Pos {
			t.Errorf("ErrorPos = %v %v", pos, ok)
		}
		caret := Caret(tc.src, err)
		if tc.caret != "" && !strings.HasPrefix(caret, tc.caret) {
			t.Errorf("%q: caret\n%s\nwant\n%s", tc.src, caret, tc.caret)
		}
		if strings.ContainsRune(caret, 0x1b) {
			t.Errorf("caret carries an escape: %q", caret)
		}
	}
	// No position, or a line too long to help: no caret.
	if Caret("x", errors.New("plain")) != "" {
		t.Error("caret without a position")
	}
	long := "(fr " + strings.Repeat(" ", 300) + ":bogus 1)"
	if _, err := c.Read(long); err == nil || Caret(long, err) != "" {
		t.Errorf("caret under a %d-column line: %v", len(long), err)
	}
	if pos, ok := ErrorPos(&sexpr.Error{Pos: sexpr.Pos{Line: 2, Col: 3}}); !ok || pos.Line != 2 {
		t.Errorf("sexpr.Error position: %v %v", pos, ok)
	}
}

// AQL: whole-document failures are *aql.Error (or plain for bad JSON);
// per-request failures are Items answered locally, before any I/O.
func TestReadAQL(t *testing.T) {
	c := New(todo(t), Options{})
	docLevel := map[string]string{
		`{"operations": [], "extra": 1}`: aql.CodeUnknownParam,
		`{"operation": 1}`:               aql.CodeInvalidType,
		`{"operation": "list_todos"` + strings.Repeat(" ", aql.MaxRequestBytes) + `}`:                      aql.CodePayloadTooLarge,
		"{\"operation\": \"list_todos\", \"params\": {\"q\": \"\xff\"}}":                                   aql.CodeInvalidEncoding,
		`{"operation": "list_todos", "params": ` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`: aql.CodePayloadTooLarge,
	}
	for src, code := range docLevel {
		_, err := c.Read(src)
		var ae *aql.Error
		if !errors.As(err, &ae) || ae.Code != code {
			t.Errorf("%.60q: %v, want *aql.Error %s", src, err, code)
		}
	}
	if _, err := c.Read(`{"operation": "list_todos", "params": {`); err == nil || !strings.Contains(err.Error(), "invalid JSON") {
		t.Errorf("half-typed AQL: %v", err)
	}

	p := mustRead(t, c, `{"operations": [
		{"operation": "list_todos", "params": {"fields": ["items.id"], "limit": 2}},
		{"operation": "delete_todo", "params": {"idd": "x"}},
		{"operation": "introspect", "params": {"query": "operations"}},
		7]}`)
	if got := p.Failed(); len(got) != 2 || got[0] != 1 || got[1] != 3 {
		t.Fatalf("failed %v", got)
	}
	if f := p.Items[1].LocalFailure(); f == nil || f.Code != aql.CodeUnknownParam || f.Details.Get("unknown_params").Items[0].Str != "idd" {
		t.Errorf("local failure: %+v", f)
	}
	var ae *aql.Error
	if err := p.LocalErr(); err == nil || !errors.As(err, &ae) || ae.Code != aql.CodeUnknownParam ||
		!strings.HasPrefix(err.Error(), "operations[1] (delete_todo): VALIDATION_UNKNOWN_PARAM: ") {
		t.Errorf("LocalErr: %v", err)
	}
	if p.Items[2].LocalFailure() != nil || !p.Items[2].IsLocal() || p.Items[0].LocalFailure() != nil {
		t.Error("introspect is a local success; list_todos is sent")
	}
	if it := p.Items[0]; len(it.Fields) != 1 || it.Fields[0] != "items.id" || it.Arguments.Has("fields") || it.Operation != "list_todos" {
		t.Errorf("fields: %+v", it)
	}
	labels := []string{"operations[0] (list_todos)", "operations[1] (delete_todo)", "operations[2] (introspect)", "operations[3]"}
	for i, want := range labels {
		if got := p.Label(i); got != want {
			t.Errorf("label %d = %q, want %q", i, got, want)
		}
	}
	if mustRead(t, c, `(lt)`).LocalErr() != nil {
		t.Error("LocalErr of a call")
	}
	if !p.NeedsServer() || mustRead(t, c, `{"operation":"introspect","params":{"query":"types"}}`).NeedsServer() {
		t.Error("NeedsServer")
	}
}

// Semantic mode: each operation goes to its own endpoint unless the
// request arrived through one, which refuses other categories; ReadAQL is
// the gateway's door, with the endpoint it was called through.
func TestReadAQLSemantic(t *testing.T) {
	set := todo(t)
	create := `{"operation": "create_todo", "params": {"title": "x"}}`
	if p := mustRead(t, New(set, Options{Mode: aql.Semantic}), create); p.Items[0].IsLocal() || p.Items[0].Tool != "create_todo" {
		t.Errorf("routed: %+v", p.Items[0])
	}
	for _, ep := range []string{"mcp_aql_read", "read", "READ"} {
		p := mustRead(t, New(set, Options{Mode: aql.Semantic, Endpoint: ep}), create)
		f := p.Items[0].LocalFailure()
		if f == nil || f.Code != aql.CodeEndpointMismatch || !strings.Contains(f.Message, "mcp_aql_create") {
			t.Errorf("endpoint %s: %+v", ep, f)
		}
	}
	c := New(set, Options{Mode: aql.Semantic})
	p, err := c.ReadAQL(args(t, create), "mcp_aql_read")
	if err != nil || p.Items[0].LocalFailure().Code != aql.CodeEndpointMismatch {
		t.Errorf("ReadAQL via read: %v %+v", err, p)
	}
	p, err = c.ReadAQL(args(t, create), "mcp_aql_create")
	if err != nil || p.Items[0].Tool != "create_todo" || p.Source != args(t, create).Compact() {
		t.Errorf("ReadAQL via create: %v %+v", err, p)
	}
	if _, err := c.ReadAQL(args(t, `[1]`), ""); err == nil {
		t.Error("a list is not an AQL document")
	}
}

// ReadCalls never reads AQL: the gateway's term tool takes MCP-Term and
// JSON calls only.
func TestReadCallsIsNotAQL(t *testing.T) {
	c := New(todo(t), Options{})
	if _, err := c.ReadCalls(`{"operation": "list_todos"}`); err == nil {
		t.Error("ReadCalls read AQL")
	}
}

// Overrides reach the categories and the operation names; a broken map is
// an error when AQL is used, and leaves MCP-Term alone.
func TestCategoryAndOverrides(t *testing.T) {
	set := todo(t)
	ov, err := aql.ParseOverrides([]byte(`{"list_todos": {"category": "DELETE"}, "get_todo": {"operation": "fetch_todo"}}`))
	if err != nil {
		t.Fatal(err)
	}
	c := New(set, Options{Overrides: ov})
	for tool, want := range map[string]string{"list_todos": "delete", "create_todo": "create", "update_todo": "update", "get_todo": "read", "nope": ""} {
		if got := c.Category(tool); got != want {
			t.Errorf("Category(%s) = %q, want %q", tool, got, want)
		}
	}
	if p := mustRead(t, c, `{"operation": "fetch_todo", "params": {"id": "a"}}`); p.Items[0].Tool != "get_todo" {
		t.Errorf("overridden name: %+v", p.Items[0])
	}
	cb := New(set, Options{Overrides: aql.Overrides{"list_todos": {Operation: "same"}, "get_todo": {Operation: "same"}}})
	if _, err := cb.Read(`{"operation": "same"}`); err == nil || !strings.Contains(err.Error(), "both map") {
		t.Errorf("contradicting map: %v", err)
	}
	if cb.Category("list_todos") != "" {
		t.Error("a category from an unusable map")
	}
	if _, err := cb.Read(`(lt)`); err != nil {
		t.Errorf("MCP-Term needs no AQL: %v", err)
	}
	if tpl := c.Template("get_todo"); tpl != `(gt :id "")` {
		t.Errorf("template %q", tpl)
	}
	if c.Template("nope") != "" {
		t.Error("template of an unknown tool")
	}
}

// A codec is shared by every goroutine of a face.
func TestCodecConcurrent(t *testing.T) {
	c := New(todo(t), Options{})
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			src := `(lt :limit 1)`
			if i%2 == 0 {
				src = `{"operation": "list_todos", "params": {"limit": 1}}`
			}
			p, err := c.Read(src)
			if err != nil {
				t.Error(err)
				return
			}
			for _, s := range []Syntax{SExpr, JSON, AQL} {
				if _, err := c.Print(p, s, 72); err != nil {
					t.Error(err)
				}
			}
			c.Category("list_todos")
		}()
	}
	wg.Wait()
}
