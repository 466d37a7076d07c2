package gateway

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/session"
)

// directAQL answers an AQL document the way the gateway promises to, but
// with the upstream called directly: the adapter prepares, the session
// calls, aql.Finish wraps.
func directAQL(t testing.TB, s *session.Session, mode aql.Mode, via, doc string) string {
	t.Helper()
	set, err := s.Tools(ctxT(t, 10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	a, err := aql.New(set, nil, mode)
	if err != nil {
		t.Fatal(err)
	}
	in, err := aql.FromValue(obj(t, doc))
	if err != nil {
		t.Fatal(err)
	}
	return a.Run(via, in, func(c aql.ToolCall) (*ojson.Value, error) {
		r := s.Call(ctxT(t, 10*time.Second), session.CallRequest{Tool: c.Name, Arguments: c.Arguments})
		return r.Raw, r.Err
	}).Compact()
}

func listNames(t testing.TB, g *Gateway) []string {
	c, _ := inProcessClient(t, g)
	res, err := c.ListTools(ctxT(t, 10*time.Second), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	sort.Strings(names)
	return names
}

func TestAQLSingle(t *testing.T) {
	g := newGateway(t, demoSession(t), Options{Mode: ModeAQLSingle, Policy: allowAll(t)})
	if got := strings.Join(listNames(t, g), " "); got != "mcp_aql" {
		t.Fatalf("tools: %s", got)
	}
	c, _ := inProcessClient(t, g)
	direct := demoSession(t)
	docs := []string{
		`{"operation":"introspect","params":{"query":"operations"}}`,
		`{"operation":"introspect","params":{"query":"operations","name":"create_todo"}}`,
		`{"operation":"introspect","params":{"query":"types","name":"Todo"}}`,
		`{"operation":"create_todo","params":{"title":"Buy milk"}}`,
		`{"operation":"list_todos","params":{"limit":2,"fields":["items.title","total"]}}`,
		`{"operation":"update_todo","params":{"id":"00000000-0000-0000-0000-000000000000","input":{"completed":true}}}`,
		`{"operation":"file_read","params":{"path":"/docs/README.md","limit":30}}`,
		`{"operation":"create_todo","params":{}}`,
		`{"operation":"creat_todo","params":{"title":"x"}}`,
		`{"operations":[{"operation":"create_todo","params":{"title":"a"}},{"operation":"get_todo","params":{"id":"nope"}},{"operation":"clear_completed"}]}`,
	}
	for _, doc := range docs {
		got := callTool(t, c, "mcp_aql", doc)
		want := directAQL(t, direct, aql.Single, "mcp_aql", doc)
		if text(got) != want {
			t.Errorf("%s:\n gateway %s\n direct  %s", doc, text(got), want)
		}
		resp := obj(t, text(got))
		wantErr := !resp.Has("operations") && !strings.Contains(doc, `"operations"`) && !aql.IsSuccess(resp)
		if got.IsError != wantErr {
			t.Errorf("%s: isError %v", doc, got.IsError)
		}
	}
	// Spec error codes reach the client.
	contains(t, text(callTool(t, c, "mcp_aql", `{"operation":"create_todo","params":{}}`)), `"code":"VALIDATION_MISSING_PARAM"`)
	contains(t, text(callTool(t, c, "mcp_aql", `{"params":{}}`)), `"success":false`)
	contains(t, text(callTool(t, c, "mcp_aql", `{"operation":"file_read","params":{"path":"/docs/README.md","bogus":1}}`)), `"code":"VALIDATION_UNKNOWN_PARAM"`)
}

func TestAQLSemantic(t *testing.T) {
	g := newGateway(t, demoSession(t), Options{Mode: ModeAQLSemantic, Policy: allowAll(t)})
	if got := strings.Join(listNames(t, g), " "); got != "mcp_aql_create mcp_aql_delete mcp_aql_execute mcp_aql_read mcp_aql_update" {
		t.Fatalf("tools: %s", got)
	}
	c, _ := inProcessClient(t, g)
	direct := demoSession(t)
	calls := []struct{ via, doc string }{
		{"mcp_aql_read", `{"operation":"introspect","params":{"query":"operations"}}`},
		{"mcp_aql_create", `{"operation":"create_todo","params":{"title":"Buy milk"}}`},
		{"mcp_aql_read", `{"operation":"list_todos"}`},
		{"mcp_aql_delete", `{"operation":"clear_completed"}`},
		{"mcp_aql_execute", `{"operation":"long_task","params":{"steps":1,"delay_ms":0}}`},
		{"mcp_aql_create", `{"operation":"list_todos"}`},
		{"mcp_aql_create", `{"operation":"introspect","params":{"query":"operations"}}`},
		{"mcp_aql_read", `{"operations":[{"operation":"get_todo","params":{"id":"x"}},{"operation":"file_read","params":{"path":"/etc/hosts"}}]}`},
	}
	for _, x := range calls {
		got := callTool(t, c, x.via, x.doc)
		if want := directAQL(t, direct, aql.Semantic, x.via, x.doc); text(got) != want {
			t.Errorf("%s %s:\n gateway %s\n direct  %s", x.via, x.doc, text(got), want)
		}
	}
	contains(t, text(callTool(t, c, "mcp_aql_create", `{"operation":"list_todos"}`)), `"code":"VALIDATION_ENDPOINT_MISMATCH"`, "mcp_aql_read")
}
