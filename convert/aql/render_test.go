package aql

import (
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

func TestSingleTool(t *testing.T) {
	a := todo(t, Single)
	tools := a.Tools()
	if len(tools) != 1 {
		t.Fatalf("%d tools in single mode", len(tools))
	}
	tool := tools[0]
	if got := strings.Join(tool.Keys(), ","); got != "name,description,inputSchema,annotations" {
		t.Errorf("keys %s", got)
	}
	if tool.Get("name").Str != SingleTool || tool.Get("annotations").Compact() != `{"readOnlyHint":false,"destructiveHint":true}` {
		t.Errorf("single tool: %s", tool.Compact())
	}
	want := "MCP-AQL adapter for todo-fixture: every operation goes through this tool as {\"operation\": \"name\", \"params\": {...}}.\n" +
		"Create: create_todo\n" +
		"Read: introspect, list_todos, get_todo\n" +
		"Update: update_todo\n" +
		"Delete: delete_todo, clear_completed\n" +
		`Parameters: {"operation":"introspect","params":{"query":"operations","name":"<operation>"}}`
	if d := tool.Get("description").Str; d != want {
		t.Errorf("description\n got %q\nwant %q", d, want)
	}
	if s := tool.Get("inputSchema").Compact(); s != `{"type":"object","properties":{"operation":{"type":"string","description":"Operation name"},"params":{"type":"object","description":"Operation parameters"}},"required":["operation"]}` {
		t.Errorf("schema %s", s)
	}
}

func TestSemanticTools(t *testing.T) {
	a := mustAdapter(t, corpus(t)["server-memory"], nil, Semantic)
	var got []string
	for _, tool := range a.Tools() {
		got = append(got, tool.Get("name").Str+" "+tool.Get("annotations").Compact())
	}
	// no UPDATE or EXECUTE tools: the server has no such operations
	want := []string{
		`mcp_aql_create {"readOnlyHint":false,"destructiveHint":false}`,
		`mcp_aql_read {"readOnlyHint":true,"destructiveHint":false}`,
		`mcp_aql_delete {"readOnlyHint":false,"destructiveHint":true}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tools\n got %q\nwant %q", got, want)
	}
	del := a.Tools()[2].Get("description").Str
	if del != "server-memory: destructive operations that remove data; use with caution.\n"+
		`Call as {"operation": "name", "params": {...}}.`+"\n"+
		"Operations: delete_entities, delete_observations, delete_relations\n"+
		`Parameters, via mcp_aql_read: {"operation":"introspect","params":{"query":"operations","name":"<operation>"}}` {
		t.Errorf("delete description %q", del)
	}
	// READ is always there: it carries introspect
	empty := mustAdapter(t, mustSet(t, `[{"name":"run_it","inputSchema":{"type":"object"}}]`), nil, Semantic)
	var names []string
	for _, tool := range empty.Tools() {
		names = append(names, tool.Get("name").Str)
	}
	if strings.Join(names, ",") != "mcp_aql_read,mcp_aql_execute" {
		t.Errorf("endpoints of an execute-only server: %v", names)
	}
	if d := empty.Tools()[0].Get("description").Str; !strings.Contains(d, "Operations: introspect\n") {
		t.Errorf("read endpoint of an execute-only server: %q", d)
	}
}

// TestRenderMatchesBaselineShape: the form output is the model-facing
// [{name, description, input_schema}] array, like the json form.
func TestRenderMatchesBaselineShape(t *testing.T) {
	for name, set := range corpus(t) {
		for _, render := range []func() (string, error){
			func() (string, error) { return RenderSingle(set, nil) },
			func() (string, error) { return RenderSemantic(set, nil) },
		} {
			out, err := render()
			if err != nil {
				t.Fatal(err)
			}
			v, err := ojson.Parse([]byte(out))
			if err != nil || v.Kind != ojson.Array || len(v.Items) == 0 {
				t.Fatalf("%s: %v %.80s", name, err, out)
			}
			for _, tool := range v.Items {
				if got := strings.Join(tool.Keys(), ","); got != "name,description,input_schema" {
					t.Errorf("%s: keys %s", name, got)
				}
			}
			// every operation is named in the definitions
			for _, tool := range set.Tools {
				a := mustAdapter(t, set, nil, Single)
				if !strings.Contains(out, a.ForTool(tool.Name).Name) {
					t.Errorf("%s: %s not listed", name, tool.Name)
				}
			}
			if len(out) >= len(set.Baseline().Compact()) && len(set.Tools) > 1 {
				t.Errorf("%s: AQL form (%d bytes) is not smaller than the baseline (%d)", name, len(out), len(set.Baseline().Compact()))
			}
		}
		costs, err := IntrospectCostsFor(set, nil, Semantic)
		if err != nil || len(costs) != len(set.Tools)+2 || costs[2].Tool != set.Tools[0].Name {
			t.Errorf("%s: IntrospectCostsFor: %v, %d", name, err, len(costs))
		}
		out, err := RenderIntrospectSet(set, nil, Semantic)
		if err != nil || strings.Count(out, "\n") != len(set.Tools)+2 {
			t.Errorf("%s: introspect rendering: %v, %d lines", name, err, strings.Count(out, "\n"))
		}
	}
}
