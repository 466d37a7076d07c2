package aql

import (
	"strings"
	"testing"
)

func TestParseOverrides(t *testing.T) {
	ov, err := ParseOverrides([]byte(`{"clear_completed": {"category": "execute"}, "get_todo": {"operation": "fetch_todo"}, "list_todos": {"category": "READ", "operation": "todos"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if ov["clear_completed"] != (Override{Category: Execute}) || ov["get_todo"] != (Override{Operation: "fetch_todo"}) || ov["list_todos"] != (Override{Read, "todos"}) {
		t.Errorf("parsed %+v", ov)
	}
	bad := map[string]string{
		`[1]`:                                "top level is a array",
		`{"a": 1}`:                           `"a": is a number`,
		`{"a": {"category": "WRITE"}}`:       `unknown category "WRITE"`,
		`{"a": {"category": 1}}`:             "category is a number",
		`{"a": {"operation": "Get-It"}}`:     `"get_it" would be`,
		`{"a": {"operation": 3}}`:            "operation is a number",
		`{"a": {"operation": "introspect"}}`: "reserved",
		`{"a": {"op": "x"}}`:                 `unknown key "op"`,
		`{"a": {"operation": "x"}, "b": {"operation": "x"}}`: `"a" and "b" both map to operation "x"`,
		`{"a": `: "aql map:",
	}
	for src, want := range bad {
		_, err := ParseOverrides([]byte(src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseOverrides(%s) = %v, want an error containing %q", src, err, want)
		}
	}
	if _, err := ParseOverrides(make([]byte, MaxOverrideFile+1)); err == nil {
		t.Error("oversized map accepted")
	}
}

// TestOverridesUsedEverywhere: an override changes the classification, the
// renderings, introspection, the call path and endpoint checks alike.
func TestOverridesUsedEverywhere(t *testing.T) {
	set := loadFixture(t, "todo.tools.json")
	ov, err := ParseOverrides([]byte(`{"clear_completed": {"category": "EXECUTE"}, "get_todo": {"operation": "fetch_todo"}, "nope": {"category": "READ"}}`))
	if err != nil {
		t.Fatal(err)
	}
	a := mustAdapter(t, set, ov, Semantic)
	if len(a.Warnings) != 1 || !strings.Contains(a.Warnings[0], `"nope"`) {
		t.Errorf("warnings %q", a.Warnings)
	}
	cc := a.ForTool("clear_completed")
	if cc.Category() != Execute || cc.Class.Source != "override" || !strings.Contains(cc.Class.Reason, "would be DELETE") {
		t.Errorf("clear_completed: %+v", cc.Class)
	}
	if a.ForTool("get_todo").Name != "fetch_todo" || a.Operation("get_todo") != nil {
		t.Error("rename not applied")
	}
	out, _ := RenderSemantic(set, ov)
	if !strings.Contains(out, `"mcp_aql_execute"`) || !strings.Contains(out, "Operations: clear_completed") || !strings.Contains(out, "fetch_todo") || strings.Contains(out, "get_todo") {
		t.Errorf("rendering ignores the overrides: %s", out)
	}
	d := ask(t, a, `{"query":"operations","name":"clear_completed"}`).Get("operation")
	if d.Get("semantic_category").Str != "EXECUTE" || d.Get("mcpTool").Str != "mcp_aql_execute" {
		t.Errorf("introspection ignores the overrides: %s", d.Compact())
	}
	wantCall(t, prep(t, a, "mcp_aql_read", `{"operation":"fetch_todo","params":{"id":"1"}}`), "get_todo", `{"id":"1"}`)
	wantError(t, prep(t, a, "mcp_aql_delete", `{"operation":"clear_completed"}`), CodeEndpointMismatch)
	wantCall(t, prep(t, a, "mcp_aql_execute", `{"operation":"clear_completed"}`), "clear_completed", `{}`)

	// an override name that an automatic name wanted: the override wins
	ov2 := Overrides{"create_todo": {Operation: "list_todos"}}
	b := mustAdapter(t, set, ov2, Single)
	if b.ForTool("create_todo").Name != "list_todos" || b.ForTool("list_todos").Name != "list_todos_2" {
		t.Errorf("override vs automatic name: %s, %s", b.ForTool("create_todo").Name, b.ForTool("list_todos").Name)
	}
	// contradictions built in code are refused too
	if _, err := New(set, Overrides{"get_todo": {Operation: "x"}, "list_todos": {Operation: "x"}}, Single); err == nil {
		t.Error("two tools, one operation: accepted")
	}
	if _, err := New(set, Overrides{"get_todo": {Operation: "Bad Name"}}, Single); err == nil {
		t.Error("invalid operation name: accepted")
	}
}

// TestOverridesRoundTrip: the adapter's own choices, written out as a map
// file and read back, reproduce the same adapter.
func TestOverridesRoundTrip(t *testing.T) {
	set := loadFixture(t, "hard.tools.json")
	a := mustAdapter(t, set, nil, Single)
	text := a.Overrides().String()
	ov, err := ParseOverrides([]byte(text))
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	b := mustAdapter(t, set, ov, Single)
	for i, op := range a.Ops {
		if b.Ops[i].Name != op.Name || b.Ops[i].Category() != op.Category() {
			t.Errorf("%s: %s/%s became %s/%s", op.Tool.Name, op.Name, op.Category(), b.Ops[i].Name, b.Ops[i].Category())
		}
	}
}
