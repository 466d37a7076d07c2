package aql

import (
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// ask runs an introspect request through Prepare, the way a model would.
func ask(t *testing.T, a *Adapter, params string) *ojson.Value {
	t.Helper()
	via := SingleTool
	if a.Mode == Semantic {
		via = Read.Tool()
	}
	st := prep(t, a, via, `{"operation":"introspect","params":`+params+`}`)
	if st.Local == nil || !IsSuccess(st.Local) {
		t.Fatalf("introspect %s: %v", params, st.Local)
	}
	return st.Local.Get("data")
}

func TestIntrospectOperationsList(t *testing.T) {
	a := todo(t, Semantic)
	data := ask(t, a, `{"query":"operations"}`)
	p := data.Get("_protocol")
	if p.Get("version").StringOr("") != SpecVersion || p.Get("mode").StringOr("") != "semantic" {
		t.Errorf("_protocol: %s", p.Compact())
	}
	var got []string
	for _, op := range data.Get("operations").Items {
		if strings.Join(op.Keys(), ",") != "name,semantic_category,endpoint,description" {
			t.Errorf("OperationInfo keys %v", op.Keys())
		}
		got = append(got, op.Get("name").Str+":"+op.Get("semantic_category").Str+":"+op.Get("endpoint").Str)
	}
	want := "create_todo:CREATE:create introspect:READ:read list_todos:READ:read get_todo:READ:read update_todo:UPDATE:update delete_todo:DELETE:delete clear_completed:DELETE:delete"
	if strings.Join(got, " ") != want {
		t.Errorf("operations\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	if s := ask(t, todo(t, Single), `{"query":"operations"}`).Get("_protocol").Get("mode").StringOr(""); s != "single" {
		t.Errorf("single mode reports mode %q", s)
	}
}

func TestIntrospectOperationDetails(t *testing.T) {
	a := todo(t, Semantic)
	op := ask(t, a, `{"query":"operations","name":"list_todos"}`).Get("operation")
	if got := strings.Join(op.Keys(), ","); got != "name,semantic_category,endpoint,mcpTool,description,permissions,parameters,returns,examples" {
		t.Errorf("OperationDetails keys: %s", got)
	}
	if op.Get("mcpTool").Str != "mcp_aql_read" || op.Get("permissions").Compact() != `{"readOnly":true,"destructive":false}` {
		t.Errorf("details: %s", op.Compact())
	}
	// parameters in schema order, in the spec's ParameterInfo shape, then ours
	want := `[{"name":"completed","type":"boolean","required":false},` +
		`{"name":"limit","type":"integer","required":false,"default":50,"minimum":1,"maximum":100},` +
		`{"name":"offset","type":"integer","required":false,"default":0,"minimum":0},` +
		`{"name":"fields","type":"array","required":false,"description":"dot paths to keep in the result","items":{"type":"string"}}]`
	if got := op.Get("parameters").Compact(); got != want {
		t.Errorf("parameters\n got %s\nwant %s", got, want)
	}
	up := ask(t, a, `{"query":"operations","name":"update_todo"}`).Get("operation")
	if up.Get("mcpTool").Str != "mcp_aql_update" || up.Get("permissions").Compact() != `{"readOnly":false,"destructive":true}` {
		t.Errorf("update details: %s", up.Compact())
	}
	if !strings.Contains(up.Get("parameters").Compact(), `{"name":"input","type":"object","required":false`) {
		t.Errorf("UPDATE operation does not document input: %s", up.Get("parameters").Compact())
	}
	// unknown names answer null, not an error (introspection 4.3)
	if d := ask(t, a, `{"query":"operations","name":"nope"}`); d.Compact() != `{"operation":null}` {
		t.Errorf("unknown operation: %s", d.Compact())
	}
	if d := ask(t, a, `{"query":"types","name":"Nope"}`); d.Compact() != `{"type":null}` {
		t.Errorf("unknown type: %s", d.Compact())
	}
	if d := ask(t, a, `{"query":"operations","name":"introspect"}`).Get("operation"); d.Get("mcpTool").Str != "mcp_aql_read" || !strings.Contains(d.Get("parameters").Compact(), `"enum":["operations","types"]`) {
		t.Errorf("introspect's own details: %s", d.Compact())
	}
	// name: null is the same as no name
	if d := ask(t, a, `{"query":"operations","name":null}`); !d.Has("operations") {
		t.Errorf("name null: %s", d.Compact())
	}
}

// TestParameterInfoSchemas covers the hard schema shapes: $ref chains with
// a description beside the $ref, recursion, const unions as enums,
// nullable unions, type arrays, maps, discriminated unions, exclusive bounds.
func TestParameterInfoSchemas(t *testing.T) {
	a := mustAdapter(t, loadFixture(t, "hard.tools.json"), nil, Single)
	params := func(op string) string {
		return ask(t, a, `{"query":"operations","name":"`+op+`"}`).Get("operation").Get("parameters").Compact()
	}
	for _, c := range []struct{ op, want string }{
		{"api_get_user", `{"name":"user_id","type":"string","required":true,"description":"the user's id","pattern":"^u_[0-9]+$"}`},
		{"api_get_user", `{"name":"include_profile","type":"boolean | null","required":false}`},
		{"create_user", `{"name":"manager","type":"User","required":false}`},
		{"create_user", `{"name":"tags","type":"object","required":false,"additionalProperties":{"type":"string"}}`},
		{"create_user", `{"name":"role","type":"string","required":false,"enum":["admin","member"]}`},
		{"create_user", `{"name":"notify","type":"string | null","required":false,"format":"email","default":null}`},
		{"update_user_profile", `{"name":"age","type":"integer","required":false,"minimum":0,"exclusiveMaximum":200}`},
		{"update_user_profile", `"variants":[{"type":"object","fields":[{"name":"kind","type":"string","required":true,"enum":["circle"]},{"name":"r","type":"number","required":true}]}`},
		{"run_report2", `{"name":"options","type":"object","required":false,"additionalProperties":true}`},
		{"tree", `{"name":"children","type":"array","required":false,"items":{"type":"object","fields":[{"name":"value","type":"number","required":true},{"name":"children","type":"array","required":false,"items":{"type":"Node"}}]}}`},
	} {
		if got := params(c.op); !strings.Contains(got, c.want) {
			t.Errorf("%s: parameters lack\n  %s\ngot\n  %s", c.op, c.want, got)
		}
	}
}

func TestIntrospectTypes(t *testing.T) {
	a := mustAdapter(t, loadFixture(t, "hard.tools.json"), nil, Single)
	var names []string
	for _, ty := range ask(t, a, `{"query":"types"}`).Get("types").Items {
		names = append(names, ty.Get("name").Str+":"+ty.Get("kind").Str)
	}
	want := "SemanticCategory:enum OperationInput:object OperationResult:union OperationSuccess:object OperationFailure:object Content:scalar EndpointPermissions:object Id:scalar RawId:scalar User:object Node:object"
	if strings.Join(names, " ") != want {
		t.Errorf("types\n got %s\nwant %s", strings.Join(names, " "), want)
	}
	user := ask(t, a, `{"query":"types","name":"User"}`).Get("type").Compact()
	if user != `{"name":"User","kind":"object","description":"A user","fields":[{"name":"name","type":"string","required":true},{"name":"manager","type":"User","required":false},{"name":"tags","type":"object","required":false,"additionalProperties":{"type":"string"}}]}` {
		t.Errorf("User: %s", user)
	}
	if sc := ask(t, a, `{"query":"types","name":"SemanticCategory"}`).Get("type").Get("values").Compact(); sc != `["CREATE","READ","UPDATE","DELETE","EXECUTE"]` {
		t.Errorf("SemanticCategory values: %s", sc)
	}
	if m := ask(t, a, `{"query":"types","name":"OperationResult"}`).Get("type").Get("members").Compact(); m != `["OperationSuccess","OperationFailure"]` {
		t.Errorf("OperationResult members: %s", m)
	}
	// output schemas become result types the details point at
	fs := mustAdapter(t, corpus(t)["server-filesystem"], nil, Single)
	ret := ask(t, fs, `{"query":"operations","name":"read_text_file"}`).Get("operation").Get("returns")
	if ret.Get("name").Str != "ReadTextFileResult" {
		t.Fatalf("returns: %s", ret.Compact())
	}
	if ty := ask(t, fs, `{"query":"types","name":"ReadTextFileResult"}`).Get("type"); ty.Get("kind").Str != "object" || ty.Get("fields") == nil {
		t.Errorf("result type: %s", ty.Compact())
	}
}

// TestIntrospectionIsAccurate is the spec's accuracy rule (introspection
// 8.1.1/8.1.2) checked on every server: the parameters introspection
// documents are exactly those the call path accepts, and each operation's
// example request is accepted as it stands.
func TestIntrospectionIsAccurate(t *testing.T) {
	sets := corpus(t)
	sets["hard"] = loadFixture(t, "hard.tools.json")
	sets["todo"] = loadFixture(t, "todo.tools.json")
	for _, name := range sortedKeys(sets) {
		for _, mode := range []Mode{Single, Semantic} {
			a := mustAdapter(t, sets[name], nil, mode)
			for _, op := range a.Ops {
				d := a.OperationDetails(op.Name)
				var documented []string
				for _, p := range d.Get("parameters").Items {
					documented = append(documented, p.Get("name").Str)
				}
				if strings.Join(documented, ",") != strings.Join(op.ValidParams(), ",") {
					t.Errorf("%s %s: documented %v, accepted %v", name, op.Name, documented, op.ValidParams())
				}
				req := d.Get("examples").Items[0].Get("request")
				in, err := FromValue(req)
				if err != nil {
					t.Fatalf("%s %s: example %s: %v", name, op.Name, req.Compact(), err)
				}
				st := a.Prepare(a.mcpTool(op.Category()), in.Request)
				if st.Local != nil {
					t.Errorf("%s %s (%s): example %s rejected: %s", name, op.Name, mode, req.Compact(), st.Local.Compact())
				}
			}
		}
	}
}

// TestIntrospectCosts: one exchange per operation plus the two lists, each
// the very answer Prepare gives for that request.
func TestIntrospectCosts(t *testing.T) {
	for name, set := range corpus(t) {
		a := mustAdapter(t, set, nil, Single)
		costs := a.IntrospectCosts()
		if len(costs) != len(set.Tools)+2 {
			t.Errorf("%s: %d exchanges for %d tools", name, len(costs), len(set.Tools))
		}
		for _, c := range costs {
			st := prep(t, a, SingleTool, c.Request)
			if st.Local == nil || st.Local.Compact() != c.Answer {
				t.Errorf("%s %s: the recorded answer differs from the live one", name, c.Operation)
			}
			if c.Operation != "" && (c.Tool == "" || a.ForTool(c.Tool).Name != c.Operation) {
				t.Errorf("%s: cost %q names tool %q", name, c.Operation, c.Tool)
			}
		}
		lines := strings.Split(strings.TrimSuffix(a.RenderIntrospect(), "\n"), "\n")
		if len(lines) != len(costs) {
			t.Errorf("%s: RenderIntrospect has %d lines for %d exchanges", name, len(lines), len(costs))
		}
		for _, l := range lines {
			v, err := ojson.Parse([]byte(l))
			if err != nil || !v.Has("request") || !IsSuccess(v.Get("response")) {
				t.Errorf("%s: bad line %.80s: %v", name, l, err)
			}
		}
	}
}

func TestBrief(t *testing.T) {
	cases := map[string]string{
		"One. Two.":                     "One.",
		"v1.2 is out":                   "v1.2 is out",
		"a\n\n  b":                      "a b",
		strings.Repeat("é", briefMax+5): strings.Repeat("é", briefMax-1) + "…",
	}
	for in, want := range cases {
		if got := brief(in); got != want {
			t.Errorf("brief(%.20q) = %q, want %q", in, got, want)
		}
	}
}
