package calls

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

func mustPrint(t testing.TB, c *Codec, p *Plan, s Syntax, width int) string {
	t.Helper()
	out, err := c.Print(p, s, width)
	if err != nil {
		t.Fatalf("Print %s: %v", s, err)
	}
	return out
}

func requestLines(c *Codec, p *Plan) string {
	var lines []string
	for _, r := range c.Requests(p) {
		lines = append(lines, r.Compact())
	}
	return strings.Join(lines, "\n")
}

// camelSet has names in the styles AQL rewrites.
const camelSet = `[{"name":"getUserByID","inputSchema":{"type":"object","properties":{"userId":{"type":"string"},"dryRun":{"type":"boolean"}},"required":["userId"]}},
	{"name":"API-delete-user","inputSchema":{"type":"object","properties":{"userId":{"type":"string"}}},"annotations":{"destructiveHint":true}}]`

// The forms `mcpterm call --dry-run --print json|term|aql` writes today.
func TestPrintDryRunForms(t *testing.T) {
	fx := New(fixtures(t), Options{})
	td := New(todo(t), Options{})
	camel, err := toolset.Parse([]byte(camelSet))
	if err != nil {
		t.Fatal(err)
	}
	cm := New(camel, Options{})
	cases := []struct {
		name  string
		c     *Codec
		src   string
		s     Syntax
		width int
		want  string
	}{
		{"requests", fx, `(fr "/etc/hosts" :utf8)`, "", 0,
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"file_read","arguments":{"path":"/etc/hosts","enc":"utf8"}}}`},
		{"batch requests count from 1", fx, `(batch :concurrency 2 (a (fr "/a")) (b (bp "/" "x" "y")))`, "", 0,
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"file_read","arguments":{"path":"/a"}}}` + "\n" +
				`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"batch_paths","arguments":{"root":"/","paths":["x","y"]}}}`},
		{"json to term", fx, `{"name": "file_read", "arguments": {"path": "/etc/hosts", "enc": "base64"}}`, SExpr, 0, `(fr "/etc/hosts" :enc :base64)`},
		{"batch term at 100", fx, `(batch :stop-on-error (1 (fr "/etc/passwd")) (2 (nu "doc.md" (insert 0 ((paragraph "intro" () ("Hello world" "and a somewhat longer second line of text")))))))`, SExpr, 100,
			`(batch :stop-on-error
  (1 (fr "/etc/passwd"))
  (2
    (nu "doc.md"
      ((insert 0 ((paragraph "intro" () ("Hello world" "and a somewhat longer second line of text"))))))))`},
		{"sexpr to aql", cm, `(getUserByID "u1" :dryRun true)`, AQL, 0, `{"operation":"get_user_by_id","params":{"user_id":"u1","dry_run":true}}`},
		{"json to aql", cm, `{"name":"API-delete-user","arguments":{"userId":"u2"}}`, AQL, 0, `{"operation":"api_delete_user","params":{"user_id":"u2"}}`},
		{"batch to aql", cm, `(batch (a (getUserByID "u1")) (b (API-delete-user :userId "u1")))`, AQL, 0,
			`{"operations":[{"operation":"get_user_by_id","params":{"user_id":"u1"}},{"operation":"api_delete_user","params":{"user_id":"u1"}}]}`},
		{"aql is canonical", cm, `{"operation":"get_user_by_id","userId":"u1","params":{"dry_run":false}}`, AQL, 0,
			`{"operation":"get_user_by_id","params":{"user_id":"u1","dry_run":false}}`},
		{"aql to requests", cm, `{"operation":"get_user_by_id","params":{"user_id":"u1","dry_run":true}}`, "", 0,
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"getUserByID","arguments":{"userId":"u1","dryRun":true}}}`},
		{"aql to term", cm, `{"operation":"get_user_by_id","params":{"user_id":"u1","dry_run":true}}`, SExpr, 0, `(gubi "u1" :dryRun true)`},
		{"aql comments", td, "; list them\n  ; two\n{\"operation\": \"list_todos\", \"params\": {\"limit\": 1}}\n", AQL, 0, `{"operation":"list_todos","params":{"limit":1}}`},
	}
	batch := `{"operations": [
		{"operation": "update_todo", "params": {"id": "t1", "input": {"completed": true}}},
		{"operation": "introspect", "params": {"query": "types"}},
		{"operation": "list_todos", "limit": 2, "params": {"fields": ["items.id"]}}]}`
	cases = append(cases,
		struct {
			name  string
			c     *Codec
			src   string
			s     Syntax
			width int
			want  string
		}{"aql batch requests skip introspect", td, batch, "", 0,
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"update_todo","arguments":{"id":"t1","completed":true}}}` + "\n" +
				`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_todos","arguments":{"limit":2}}}`},
		struct {
			name  string
			c     *Codec
			src   string
			s     Syntax
			width int
			want  string
		}{"aql batch keeps introspect and fields", td, batch, AQL, 0,
			`{"operations":[{"operation":"update_todo","params":{"id":"t1","completed":true}},{"operation":"introspect","params":{"query":"types"}},{"operation":"list_todos","params":{"limit":2,"fields":["items.id"]}}]}`},
		struct {
			name  string
			c     *Codec
			src   string
			s     Syntax
			width int
			want  string
		}{"aql batch as term keeps the indexes", td, batch, SExpr, 0, `(batch (0 (ut "t1" :completed true)) (2 (lt :limit 2)))`},
	)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustRead(t, tc.c, tc.src)
			var got string
			if tc.s == "" {
				got = requestLines(tc.c, p)
			} else {
				got = mustPrint(t, tc.c, p, tc.s, tc.width)
			}
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// What Requests writes reads back as input, as --print json's output does.
func TestRequestsReadBack(t *testing.T) {
	c := New(fixtures(t), Options{})
	p := mustRead(t, c, `(batch (a (fr "/a")) (b (bp "/" "x" "y")))`)
	back := mustRead(t, c, "["+strings.ReplaceAll(requestLines(c, p), "\n", ",")+"]")
	if requestLines(c, back) != requestLines(c, p) {
		t.Errorf("%s\n%s", requestLines(c, back), requestLines(c, p))
	}
	if rs := c.RequestsFrom(p, 41); rs[0].Get("id").Compact() != "41" || rs[1].Get("id").Compact() != "42" {
		t.Errorf("RequestsFrom: %s %s", rs[0].Compact(), rs[1].Compact())
	}
}

// The notes a dry run prints beside each form, as data.
func TestNotes(t *testing.T) {
	td := New(todo(t), Options{})
	p := mustRead(t, td, `{"operations": [
		{"operation": "update_todo", "params": {"id": "t1", "input": {"completed": true}}},
		{"operation": "introspect", "params": {"query": "types"}},
		{"operation": "list_todos", "limit": 2, "params": {"fields": ["items.id"]}}]}`)
	want := []string{
		"operations[1] (introspect) is answered locally; it sends no tools/call",
		"operations[2] (list_todos): fields items.id are applied to the result client-side; they are not sent",
	}
	for _, s := range []Syntax{JSON, SExpr} {
		if got := td.Notes(p, s); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s notes %q", s, got)
		}
	}
	if got := td.Notes(p, AQL); len(got) != 0 {
		t.Errorf("AQL keeps everything, yet notes %q", got)
	}
	single := mustRead(t, td, `{"operation":"introspect","params":{"query":"operations"}}`)
	if got := td.Notes(single, JSON); len(got) != 1 || got[0] != "introspect is answered locally; it sends no tools/call" {
		t.Errorf("single introspect: %q", got)
	}

	opts := mustRead(t, td, `(batch :concurrency 2 (1 (lt)))`)
	if got := td.Notes(opts, AQL); len(got) != 1 || !strings.Contains(got[0], ":concurrency and :stop-on-error have no AQL spelling") {
		t.Errorf("options in AQL: %q", got)
	}
	if got := td.Notes(opts, JSON); len(got) != 1 || !strings.Contains(got[0], "no JSON spelling") {
		t.Errorf("options in JSON: %q", got)
	}
	if got := td.Notes(opts, SExpr); len(got) != 0 {
		t.Errorf("MCP-Term keeps the options, yet notes %q", got)
	}
	if got := td.Notes(mustRead(t, td, `(batch (1 (lt)))`), AQL); len(got) != 0 {
		t.Errorf("no options, notes %q", got)
	}

	// Untrusted names reach a terminal line clean.
	hostile := mustRead(t, td, "{\"operations\": [{\"operation\": \"x\\u001b[2J\\nmore\"}, {\"operation\": \"list_todos\", \"fields\": [\"a\\u009b\"]}]}")
	for _, n := range append(td.Notes(hostile, JSON), hostile.Label(0)) {
		if strings.ContainsAny(n, "\x1b\n\u009b") {
			t.Errorf("note not safe for a terminal: %q", n)
		}
	}
}

// The JSON a model would write, which tokens counts for the composer.
func TestModelJSON(t *testing.T) {
	c := New(todo(t), Options{})
	cases := map[string]string{
		`(gt "t1")`:                     `{"name":"get_todo","arguments":{"id":"t1"}}`,
		`(lt)`:                          `{"name":"list_todos","arguments":{}}`,
		`(batch (1 (lt)))`:              `[{"name":"list_todos","arguments":{}}]`,
		`(batch (a (lt)) (b (gt "x")))`: `[{"name":"list_todos","arguments":{}},{"name":"get_todo","arguments":{"id":"x"}}]`,
		`{"operation": "list_todos", "params": {"limit": 1, "fields": ["total"]}}`:                         `{"name":"list_todos","arguments":{"limit":1}}`,
		`{"operations": [{"operation": "introspect", "params": {"query": "types"}}, {"operation": "lt"}]}`: ``,
		`{"operation": "introspect", "params": {"query": "types"}}`:                                        ``,
	}
	for src, want := range cases {
		p := mustRead(t, c, src)
		if got := ModelJSON(p); got != want {
			t.Errorf("%s: %s, want %s", src, got, want)
		}
		if want != "" {
			if got := mustPrint(t, c, p, JSON, 0); got != want {
				t.Errorf("%s: Print json %s, want the model's JSON %s", src, got, want)
			}
		}
	}
}

// A plan whose items are all answered locally has no call to print; AQL
// prints it back as it was read.
func TestPrintLocalOnly(t *testing.T) {
	c := New(todo(t), Options{})
	src := `{"operations":[{"operation":"introspect","params":{"query":"types"}},{"operation":"get_todo","params":{"idd":1}},[1],{"operation":"lt"}]}`
	p := mustRead(t, c, src)
	for _, s := range []Syntax{SExpr, JSON} {
		if _, err := c.Print(p, s, 72); !errors.Is(err, ErrLocalOnly) {
			t.Errorf("%s: %v", s, err)
		}
	}
	if got := mustPrint(t, c, p, AQL, 0); got != src {
		t.Errorf("AQL print of local items\n%s\nwant\n%s", got, src)
	}
	if _, err := c.Print(p, "yaml", 0); err == nil || !strings.Contains(err.Error(), `"yaml"`) {
		t.Errorf("unknown syntax: %v", err)
	}
}

// The composer's conversions: every syntax to every other, and back to the
// same call (ui/live's TestCodecSExpressionAQLAndJSON, on this package).
func TestComposerConversions(t *testing.T) {
	_, set := newDemo(t)
	c := New(set, Options{})
	p := mustRead(t, c, `(fr "/etc/hosts")`)
	if p.Syntax != SExpr || p.Items[0].Tool != "file_read" || p.Items[0].Arguments.Get("path").StringOr("") != "/etc/hosts" {
		t.Fatalf("%+v", p)
	}
	if _, err := c.Read("(fr\n  :nope 1)"); err == nil {
		t.Fatal("unknown parameter read")
	} else if pos, ok := ErrorPos(err); !ok || pos.Line != 2 {
		t.Errorf("error position %v %v", pos, ok)
	}
	for _, s := range []Syntax{AQL, JSON, SExpr} {
		text := mustPrint(t, c, p, s, 72)
		back := mustRead(t, c, text)
		if back.Syntax != s || back.Items[0].Tool != "file_read" || !ojson.Equal(back.Items[0].Arguments, p.Items[0].Arguments) {
			t.Errorf("%s round trip: %q -> %+v", s, text, back)
		}
	}
	if in := mustRead(t, c, `{"operation": "introspect", "params": {"query": "operations"}}`); !in.Items[0].IsLocal() {
		t.Errorf("introspect should be answered locally: %+v", in)
	}
	p = mustRead(t, c, `{"operation": "file_read", "params": {"path": "/a", "bogus": 1}}`)
	if f := p.Items[0].LocalFailure(); f == nil || !strings.Contains(f.Error(), "UNKNOWN_PARAM") {
		t.Errorf("AQL unknown param: %+v", f)
	}
	if tpl := c.Template("file_read"); !strings.HasPrefix(tpl, "(fr") {
		t.Errorf("template %q", tpl)
	}
	// Pretty JSON and AQL at a width, one line without.
	p = mustRead(t, c, `(batch (1 (fr "/a")) (2 (lt :limit 1)))`)
	for _, s := range []Syntax{JSON, AQL, SExpr} {
		one, pretty := mustPrint(t, c, p, s, 0), mustPrint(t, c, p, s, 20)
		if strings.Contains(one, "\n") || !strings.Contains(pretty, "\n") {
			t.Errorf("%s: one line %q, pretty %q", s, one, pretty)
		}
	}
}

// An AQL request whose arguments AQL cannot spell through ToAQL prints as
// it was read, so printing AQL back never fails.
func TestPrintAQLAsRead(t *testing.T) {
	set, err := toolset.Parse([]byte(`[{"name":"update_thing","inputSchema":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":true}}]`))
	if err != nil {
		t.Fatal(err)
	}
	c := New(set, Options{})
	p := mustRead(t, c, `(update_thing :a "x" "_meta" 1)`)
	if _, err := c.Print(p, AQL, 0); err == nil || !strings.Contains(err.Error(), "no AQL spelling") {
		t.Errorf("an argument AQL drops: %v", err)
	}
	a, _ := c.Adapter()
	if a.ForTool("update_thing") == nil {
		t.Fatal("no operation")
	}
	p = mustRead(t, c, `{"operation": "update_thing", "params": {"a": "x", "input": {"_k": 1}}}`)
	if p.Items[0].IsLocal() {
		t.Skipf("this adapter refuses the request: %s", p.Items[0].Local.Compact())
	}
	if _, err := a.ToAQL(aql.ToolCall{Name: "update_thing", Arguments: p.Items[0].Arguments}); err == nil {
		t.Fatal("ToAQL spells _k; this test no longer covers printing as read")
	}
	got := mustPrint(t, c, p, AQL, 0)
	back := mustRead(t, c, got)
	if back.Items[0].Tool != "update_thing" || !ojson.Equal(back.Items[0].Arguments, p.Items[0].Arguments) {
		t.Errorf("%s reads back as %s, want %s", got, back.Items[0].Arguments.Compact(), p.Items[0].Arguments.Compact())
	}
}

// Every batch option survives MCP-Term; AQL's ids come back as indexes.
func TestPrintKeepsBatchOptions(t *testing.T) {
	c := New(todo(t), Options{})
	p := mustRead(t, c, `(batch :concurrency 1 :stop-on-error (x (lt)) (y (gt "a")))`)
	back := mustRead(t, c, mustPrint(t, c, p, SExpr, 0))
	if back.Concurrency != 1 || !back.StopOnError || back.Items[0].ID != "x" || back.Items[1].ID != "y" {
		t.Errorf("%+v", back)
	}
	back = mustRead(t, c, mustPrint(t, c, p, AQL, 0))
	if !back.Batch || back.Items[0].ID != "0" || back.Items[1].ID != "1" {
		t.Errorf("AQL ids: %+v", back)
	}
	if _, err := New(todo(t), Options{Overrides: aql.Overrides{"list_todos": {Operation: "s"}, "get_todo": {Operation: "s"}}}).Print(p, AQL, 0); err == nil {
		t.Error("AQL print with an unusable map")
	}
}
