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
