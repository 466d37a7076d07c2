package aql

import (
	"testing"

	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// TestEquivalenceWithSExpressions: the same call written as AQL, as an
// S-expression and as JSON {"name", "arguments"} becomes the same tools/call
// params, and so the same JSON-RPC request.
func TestEquivalenceWithSExpressions(t *testing.T) {
	todoSet := loadFixture(t, "todo.tools.json")
	fs := corpus(t)["server-filesystem"]
	mem := corpus(t)["server-memory"]
	cases := []struct {
		name    string
		a       *Adapter
		aql     string
		sexpr   string
		jsonReq string
	}{
		{"positional", mustAdapter(t, todoSet, nil, Single),
			`{"operation":"get_todo","params":{"id":"7f0c1c52-0000-4000-8000-000000000001"}}`,
			`(get_todo "7f0c1c52-0000-4000-8000-000000000001")`,
			`{"name":"get_todo","arguments":{"id":"7f0c1c52-0000-4000-8000-000000000001"}}`},
		{"named and defaults left out", mustAdapter(t, todoSet, nil, Semantic),
			`{"operation":"list_todos","completed":true,"params":{"limit":10}}`,
			`(list_todos :completed true :limit 10)`,
			`{"name":"list_todos","arguments":{"completed":true,"limit":10}}`},
		{"UPDATE input", mustAdapter(t, todoSet, nil, Single),
			`{"operation":"update_todo","params":{"id":"7f0c1c52-0000-4000-8000-000000000001","input":{"title":"milk","completed":true}}}`,
			`(update_todo "7f0c1c52-0000-4000-8000-000000000001" :title "milk" :completed true)`,
			`{"name":"update_todo","arguments":{"id":"7f0c1c52-0000-4000-8000-000000000001","title":"milk","completed":true}}`},
		{"snake_case alias of a camelCase parameter", mustAdapter(t, fs, nil, Semantic),
			`{"operation":"edit_file","params":{"path":"/a.txt","edits":[{"oldText":"a","newText":"b"}],"dry_run":true}}`,
			`(edit_file "/a.txt" ((:oldText "a" :newText "b")) :dryRun true)`,
			`{"name":"edit_file","arguments":{"path":"/a.txt","edits":[{"oldText":"a","newText":"b"}],"dryRun":true}}`},
		{"nested records", mustAdapter(t, mem, nil, Single),
			`{"operation":"create_entities","params":{"entities":[{"name":"Ada","entityType":"person","observations":["wrote the first program"]}]}}`,
			`(create_entities ((:name "Ada" :entityType "person" :observations ("wrote the first program"))))`,
			`{"name":"create_entities","arguments":{"entities":[{"name":"Ada","entityType":"person","observations":["wrote the first program"]}]}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			set := c.a.sourceSet()
			via := SingleTool
			if c.a.Mode == Semantic {
				in, _ := ParseInput([]byte(c.aql))
				via = c.a.mcpTool(c.a.byName[in.Request.Operation].Category())
			}
			st := prep(t, c.a, via, c.aql)
			if st.Call == nil {
				t.Fatalf("AQL not a call: %s", st.Local.Compact())
			}
			for _, src := range []string{c.sexpr, c.jsonReq} {
				b, err := call.Parse(set, src)
				if err != nil {
					t.Fatalf("call.Parse(%s): %v", src, err)
				}
				if len(b.Calls) != 1 {
					t.Fatalf("%s: %d calls", src, len(b.Calls))
				}
				sc := b.Calls[0]
				if sc.Tool != st.Call.Name || !ojson.Equal(sc.Arguments, st.Call.Arguments) {
					t.Errorf("%s\n  gives %s %s\n  AQL   %s %s", src, sc.Tool, sc.Arguments.Compact(), st.Call.Name, st.Call.Arguments.Compact())
				}
				rpc := call.Request(1, sc).Get("params")
				if !ojson.Equal(rpc, st.Call.Params()) {
					t.Errorf("JSON-RPC params %s, AQL %s", rpc.Compact(), st.Call.Params().Compact())
				}
			}
		})
	}
}

// TestEquivalenceRoundTrip: for every operation of every corpus server, the
// AQL example request becomes a tools/call whose canonical S-expression
// (call.Format) parses back to the same tools/call.
// sourceSet rebuilds the tool list an adapter was made from.
func (a *Adapter) sourceSet() *toolset.Set {
	s := &toolset.Set{Server: a.Server}
	for _, op := range a.Ops {
		s.Tools = append(s.Tools, op.Tool)
	}
	return s
}

func TestEquivalenceRoundTrip(t *testing.T) {
	sets := corpus(t)
	sets["todo"] = loadFixture(t, "todo.tools.json")
	for _, name := range sortedKeys(sets) {
		set := sets[name]
		a := mustAdapter(t, set, nil, Single)
		r := call.NewResolver(set)
		for _, op := range a.Ops {
			in, err := FromValue(a.OperationDetails(op.Name).Get("examples").Items[0].Get("request"))
			if err != nil {
				t.Fatal(err)
			}
			st := a.Prepare(SingleTool, in.Request)
			if st.Call == nil {
				t.Fatalf("%s %s: %s", name, op.Name, st.Local.Compact())
			}
			src, err := r.Format(call.Call{Tool: st.Call.Name, Arguments: st.Call.Arguments})
			if err != nil {
				t.Errorf("%s %s: Format: %v", name, op.Name, err)
				continue
			}
			b, err := r.Read(src)
			if err != nil {
				t.Errorf("%s %s: %s does not read back: %v", name, op.Name, src, err)
				continue
			}
			if b.Calls[0].Tool != st.Call.Name || !ojson.Equal(b.Calls[0].Arguments, st.Call.Arguments) {
				t.Errorf("%s %s: %s reads back as %s", name, op.Name, src, b.Calls[0].Arguments.Compact())
			}
		}
	}
}

// TestToAQLRoundTrip: S-expression -> tools/call -> AQL (ToAQL) -> Prepare
// gives back the very same tools/call, on every fixture call below.
func TestToAQLRoundTrip(t *testing.T) {
	fs := corpus(t)["server-filesystem"]
	todoSet := loadFixture(t, "todo.tools.json")
	hard := loadFixture(t, "hard.tools.json")
	cases := []struct {
		set   *toolset.Set
		sexpr string
		aql   string
	}{
		{fs, `(edit_file "/a.txt" ((:oldText "a" :newText "b")) :dryRun true)`,
			`{"operation":"edit_file","params":{"path":"/a.txt","edits":[{"oldText":"a","newText":"b"}],"dry_run":true}}`},
		{todoSet, `(list_todos :limit 3)`, `{"operation":"list_todos","params":{"limit":3}}`},
		{hard, `{"name":"API-get-user","arguments":{"userId":"u_1"}}`, `{"operation":"api_get_user","params":{"user_id":"u_1"}}`},
		{hard, `{"name":"set_config","arguments":{"anyKey":1}}`, `{"operation":"set_config","params":{"anyKey":1}}`},
	}
	for _, c := range cases {
		for _, mode := range []Mode{Single, Semantic} {
			a := mustAdapter(t, c.set, nil, mode)
			b, err := call.NewResolver(c.set).Read(c.sexpr)
			if err != nil {
				t.Fatalf("%s: %v", c.sexpr, err)
			}
			tc := ToolCall{Name: b.Calls[0].Tool, Arguments: b.Calls[0].Arguments}
			req, err := a.ToAQL(tc)
			if err != nil {
				t.Fatal(err)
			}
			if req.Compact() != c.aql {
				t.Errorf("ToAQL(%s) = %s, want %s", c.sexpr, req.Compact(), c.aql)
			}
			in, err := FromValue(req)
			if err != nil {
				t.Fatal(err)
			}
			st := a.Prepare(a.Via(in.Request.Operation), in.Request)
			if st.Call == nil || st.Call.Name != tc.Name || !ojson.Equal(st.Call.Arguments, tc.Arguments) {
				t.Errorf("%s (%s): AQL %s prepares to %v", c.sexpr, mode, req.Compact(), st.Local)
			}
		}
	}
	a := mustAdapter(t, todoSet, nil, Single)
	if _, err := a.ToAQL(ToolCall{Name: "nope"}); err == nil {
		t.Error("unknown tool accepted")
	}
	batch, err := a.BatchToAQL([]ToolCall{{Name: "get_todo", Arguments: mustJSON(t, `{"id":"1"}`)}, {Name: "clear_completed"}})
	if err != nil || batch.Compact() != `{"operations":[{"operation":"get_todo","params":{"id":"1"}},{"operation":"clear_completed","params":{}}]}` {
		t.Errorf("batch %v %v", batch, err)
	}
}

func TestIsAQLAndVia(t *testing.T) {
	for src, want := range map[string]bool{
		`{"operation":"x"}`:           true,
		` {"operations":[]}`:          true,
		`{"name":"x","arguments":{}}`: false,
		`(get_todo "1")`:              false,
		`[{"operation":"x"}]`:         false,
		`{"operation":`:               false,
		``:                            false,
	} {
		if IsAQL([]byte(src)) != want {
			t.Errorf("IsAQL(%q) != %v", src, want)
		}
	}
	sem := mustAdapter(t, loadFixture(t, "todo.tools.json"), nil, Semantic)
	single := mustAdapter(t, loadFixture(t, "todo.tools.json"), nil, Single)
	for op, want := range map[string]string{"introspect": "mcp_aql_read", "delete_todo": "mcp_aql_delete", "create_todo": "mcp_aql_create", "nope": ""} {
		if got := sem.Via(op); got != want {
			t.Errorf("Via(%s) = %q, want %q", op, got, want)
		}
	}
	if single.Via("delete_todo") != SingleTool || single.Via("nope") != "" {
		t.Error("single-mode Via")
	}
}

func TestToAQLRefusesWhatAQLReadsOtherwise(t *testing.T) {
	a := mustAdapter(t, loadFixture(t, "hard.tools.json"), nil, Single)
	for _, args := range []string{`{"fields":["a"]}`, `{"input":{}}`, `{"_meta":1}`} {
		if _, err := a.ToAQL(ToolCall{Name: "set_config", Arguments: mustJSON(t, args)}); err == nil {
			t.Errorf("set_config %s: no error", args)
		}
	}
	// a declared parameter of that name is fine: the tool owns it
	if r, err := a.ToAQL(ToolCall{Name: "API-get-user", Arguments: mustJSON(t, `{"userId":"u_1","fields":["a"]}`)}); err != nil || r.Compact() != `{"operation":"api_get_user","params":{"user_id":"u_1","fields":["a"]}}` {
		t.Errorf("declared fields: %v %v", r, err)
	}
}
