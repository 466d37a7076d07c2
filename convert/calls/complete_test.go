package calls

import (
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert"
	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/call"
)

func show(cs []call.Candidate) string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Text + "[" + c.Kind.String() + "]"
	}
	return strings.Join(out, " ")
}

type completeCase struct {
	before string
	word   string
	want   string // the candidates; a trailing " ..." means "begins with"
}

func checkComplete(t *testing.T, c *Codec, tests []completeCase) {
	t.Helper()
	for _, tt := range tests {
		got := c.Complete(tt.before)
		items := show(got.Items)
		want, prefix := strings.CutSuffix(tt.want, " ...")
		ok := items == want || prefix && strings.HasPrefix(items, want+" ")
		if !ok || got.Word != tt.word || got.Start != len(tt.before)-len(tt.word) {
			t.Errorf("Complete(%q):\n got  %q at %d: %s\n want %q at %d: %s", tt.before, got.Word, got.Start, items, tt.word, len(tt.before)-len(tt.word), tt.want)
		}
	}
}

// Every kind of candidate on the demo server's tools, through the codec
// the composer holds: note_update's tagged unions (Op, Block) and its
// untagged Inline, data_platform_query's sources, deep records and lists
// of records, the todo tools' booleans.
func TestCompleteDemo(t *testing.T) {
	_, set := newDemo(t)
	checkComplete(t, New(set, Options{}), []completeCase{
		{`(`, ``, `batch[batch] cc[tool-code] clear_completed[tool-name] ct[tool-code] create_todo[tool-name] ...`},
		{`(n`, `n`, `nu[tool-code] note_update[tool-name]`},
		{`(todo`, `todo`, `create_todo[tool-name] delete_todo[tool-name] get_todo[tool-name] list_todos[tool-name] update_todo[tool-name]`},
		{`(batch `, ``, `:concurrency[batch-option] :stop-on-error[batch-option]`},
		{`(batch (1 (lt)) (2 (u`, `u`, `ut[tool-code] update_todo[tool-name] note_update[tool-name]`},
		{`(batch (1 (lt)) (2 (ut "x" :`, `:`, `:title[param] :description[param] :completed[param]`},
		{`(fr "/x" `, ``, `:utf8[enum] :base64[enum] :encoding[param] :offset[param] :limit[param]`},
		{`(fr "/x" :encoding "b`, `"b`, `"base64"[enum]`},
		{`(lt `, ``, `true[literal] false[literal] :completed[param] :query[param] :limit[param] :offset[param]`},
		{`(lt :completed f`, `f`, `false[literal]`},
		{`(nu "d" (`, ``, `insert[variant] delete[variant] retain[variant]`},
		{`(nu "d" ((re`, `re`, `retain[variant]`},
		{`(nu "d" ((delete 0 `, ``, `:len[field]`},
		{`(nu "d" ((:type `, ``, `:insert[variant] :delete[variant] :retain[variant]`},
		{`(nu "d" ((insert 0 (`, ``, `paragraph[variant] heading[variant] code[variant] image[variant]`},
		{`(nu "d" ((insert 0 ((code "x" `, ``, `:lang[field]`},
		{`(nu "d" ((insert 0 ((paragraph "p" ("x" (`, ``, `:type[field] :text[field] :marks[field] :link[enum] :href[field]`},
		{`(nu "d" ((insert 0 ((paragraph "p" ("x" (:type :text :text "y" :marks (`, ``, `:bold[enum] :italic[enum] :code[enum] :strike[enum]`},
		{`(dpq "q" ((`, ``, `sql[variant] mongodb[variant] api[variant]`},
		{`(dpq "q" ((sql `, ``, `:pg[enum] :mysql[enum] :clickhouse[enum] :driver[field] :host[field] :database[field] :query[field] :alias[field]`},
		{`(dpq "q" ((api "u" :method `, ``, `:GET[enum] :POST[enum]`},
		{`(dpq "q" ((sql :pg "h" "d" "q")) (`, ``, `:json[enum] :csv[enum] :markdown[enum] :format[field] :limit[field] :sort[field]`},
		{`(dpq "q" ((sql :pg "h" "d" "q")) (:csv :sort (("f" `, ``, `:asc[enum] :desc[enum] :order[field]`},
		{`(dpq "q" () () :joins (("a" "b" ((`, ``, `:left[field] :right[field] :op[field]`},
		{`(dpq "q" () () :transformations ((`, ``, `filter[variant] agg[variant]`},
		{`(dpq "q" () () :transformations ((agg (:total (`, ``, `:count[enum] :count_distinct[enum] :sum[enum] :avg[enum] :min[enum] :max[enum] :fn[field] :field[field]`},
		{`(fr :paht`, `:paht`, `:path[param]`},
	})
}

// Signature help on the demo: the parameter's description from the
// server, the path into nested values, and the declaration the term form
// shows for the tool alone.
func TestSignatureDemo(t *testing.T) {
	_, set := newDemo(t)
	c := New(set, Options{})
	sig, ok := c.Signature(`(fr "/x" :encoding :u`)
	if !ok || sig.Tool != "file_read" || sig.Code != "fr" || sig.ParamName != "encoding" || sig.Param != 1 ||
		sig.Description != "utf8 returns text; base64 returns the raw bytes encoded, for binary files" ||
		strings.Join(sig.Enum, " ") != ":utf8 :base64" || sig.Type != ":utf8|:base64" {
		t.Errorf("file_read: %v %+v", ok, sig)
	}
	if got := sig.Decl[sig.ParamDecl.Start:sig.ParamDecl.End]; !strings.HasPrefix(got, `(encoding :utf8|:base64 "utf8 returns text`) {
		t.Errorf("encoding is declared at %v: %q", sig.ParamDecl, got)
	}
	sig, ok = c.Signature(`(batch (a (lt)) (b (dpq "q" () () :joins (("a" "b" (("x" `)
	if !ok || sig.Entry != "b" || sig.ParamName != "joins" || strings.Join(sig.Path, "/") != "joins/0/on/0/right" ||
		sig.Description != "Column, e.g. c.id" || !sig.Required {
		t.Errorf("data_platform_query: %v %+v", ok, sig)
	}
	sig, ok = c.Signature(`(nu "d" ((insert 0 ((heading `)
	if !ok || sig.Variant != "heading" || strings.Join(sig.Path, "/") != "ops/0/blocks/0/level" || strings.Join(sig.Enum, " ") != "1 2 3 4 5 6" {
		t.Errorf("note_update: %v %+v", ok, sig)
	}
	r := convert.NewRenderer(set, nil)
	for _, tool := range set.Tools {
		sig, ok := c.Signature("(" + c.Code(tool.Name))
		texts, err := r.ToolTexts("term", tool.Name)
		if err != nil || len(texts) != 1 {
			t.Fatalf("%s: %v %v", tool.Name, texts, err)
		}
		if !ok || sig.Decl != texts[0].Text || sig.Param != -1 {
			t.Errorf("%s: the declaration is not the term form's text for the tool:\n%s\nwant\n%s", tool.Name, sig.Decl, texts[0].Text)
		}
	}
}

// JSON calls and AQL documents: keys, tool and operation names, the
// parameters of the arguments or params, and their values as JSON.
func TestCompleteJSON(t *testing.T) {
	_, set := newDemo(t)
	checkComplete(t, New(set, Options{}), []completeCase{
		{`{`, ``, `"operation"[key] "params"[key] "operations"[key] "name"[key] "arguments"[key]`},
		{`{"op`, `"op`, `"operation"[key] "operations"[key]`},
		{`; a comment {"first": "["` + "\n" + `{"na`, `"na`, `"name"[key]`},
		// JSON calls
		{`{"name": "`, `"`, `"clear_completed"[tool-name] "create_todo"[tool-name] ...`},
		{`{"name": "file`, `"file`, `"file_read"[tool-name]`},
		{`{"name": "file_read", "`, `"`, `"arguments"[key]`},
		{`{"name": "file_read", "arguments": {"`, `"`, `"path"[param] "encoding"[param] "offset"[param] "limit"[param]`},
		{`{"name": "file_read", "arguments": {"path": "/x", "`, `"`, `"encoding"[param] "offset"[param] "limit"[param]`},
		{`{"name": "file_read", "arguments": {"path": "/x", "encoding": `, ``, `"utf8"[enum] "base64"[enum]`},
		{`{"name": "file_read", "arguments": {"path": "/x", "encoding": "u`, `"u`, `"utf8"[enum]`},
		{`{"name": "list_todos", "arguments": {"completed": `, ``, `true[literal] false[literal]`},
		{`{"name": "list_todos", "arguments": {"completed": t`, `t`, `true[literal]`},
		{`[{"name": "lt"}, {"name": "note_update", "arguments": {"`, `"`, `"doc"[param] "ops"[param]`},
		{`{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "file_read", "arguments": {"encoding": "`, `"`, `"utf8"[enum] "base64"[enum]`},
		{`{"name": "file_read", "arguments": {"path": "/x"}, "`, `"`, ``},
		{`{"name": "nope", "arguments": {"`, `"`, ``},
		// AQL
		{`{"operation": "`, `"`, `"clear_completed"[operation] "create_todo"[operation] "data_platform_query"[operation] "delete_todo"[operation] "file_read"[operation] "get_todo"[operation] "list_todos"[operation] "long_task"[operation] "note_update"[operation] "update_todo"[operation] "introspect"[operation]`},
		{`{"operation": "li`, `"li`, `"list_todos"[operation]`},
		{`{"operation": "todo`, `"todo`, `"create_todo"[operation] "delete_todo"[operation] "get_todo"[operation] "list_todos"[operation] "update_todo"[operation]`},
		{`{"operation": "list_todos", "`, `"`, `"params"[key]`},
		{`{"operation": "list_todos", "params": {"limit": 3, "`, `"`, `"completed"[param] "query"[param] "offset"[param] "fields"[param]`},
		{`{"operation": "update_todo", "params": {"`, `"`, `"id"[param] "title"[param] "description"[param] "completed"[param] "input"[param] "fields"[param]`},
		{`{"operation": "file_read", "params": {"path": "/x", "encoding": "`, `"`, `"utf8"[enum] "base64"[enum]`},
		{`{"operation": "introspect", "params": {"`, `"`, `"query"[param] "name"[param]`},
		{`{"operation": "introspect", "params": {"query": "`, `"`, `"operations"[enum] "types"[enum]`},
		{`{"operation": "introspect", "params": {"query": "operations", "name": "get`, `"get`, `"get_todo"[operation]`},
		{`{"operations": [{"operation": "get_todo", "params": {"id": "x"}}, {"operation": "`, `"`, `"clear_completed"[operation] ...`},
		{`{"operations": [{"operation": "get_todo", "params": {"`, `"`, `"id"[param] "fields"[param]`},
		{`{"operations": [`, ``, ``},
	})
}

// In semantic mode behind one endpoint, only that endpoint's operations
// are offered.
func TestCompleteAQLEndpoint(t *testing.T) {
	c := New(todo(t), Options{Mode: aql.Semantic, Endpoint: "mcp_aql_read"})
	checkComplete(t, c, []completeCase{
		{`{"operation": "`, `"`, `"list_todos"[operation] "get_todo"[operation] "introspect"[operation]`},
	})
	c = New(todo(t), Options{Mode: aql.Semantic, Endpoint: "delete"})
	checkComplete(t, c, []completeCase{
		{`{"operation": "`, `"`, `"delete_todo"[operation] "clear_completed"[operation]`},
	})
}

// Signature help in JSON and AQL is the same as for the call in MCP-Term.
func TestSignatureJSON(t *testing.T) {
	_, set := newDemo(t)
	c := New(set, Options{})
	term, _ := c.Signature(`(fr "/x" :encoding `)
	for _, src := range []string{
		`{"name": "file_read", "arguments": {"path": "/x", "encoding": "`,
		`{"operation": "file_read", "params": {"encoding": `,
		`{"operations": [{"operation": "file_read", "params": {"encoding": "b`,
	} {
		sig, ok := c.Signature(src)
		if !ok || sig.ParamName != "encoding" || sig.Type != term.Type || sig.Description != term.Description || sig.Decl != term.Decl {
			t.Errorf("Signature(%q) = %v %+v", src, ok, sig)
		}
	}
	if sig, ok := c.Signature(`{"name": "file_read", "arguments": {"`); !ok || sig.Tool != "file_read" || sig.Param != -1 {
		t.Errorf("at a key: %v %+v", ok, sig)
	}
	if sig, ok := c.Signature(`{"name": "file_read", "arguments": {"encoding": {"x": [`); !ok || sig.ParamName != "encoding" {
		t.Errorf("inside a parameter's value: %v %+v", ok, sig)
	}
	for _, src := range []string{`{"operation": "introspect", "params": {"query": "`, `{"name": "nope", "arguments": {"a": `, `{"`, `[`} {
		if sig, ok := c.Signature(src); ok {
			t.Errorf("Signature(%q) = %+v, want none", src, sig)
		}
	}
}
