package aql_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/demo"
)

// liveDemo connects to a fresh in-process demo server and returns its AQL
// adapter in the given mode, an executor over the session, and a counter of
// the tools/call requests that reached the server.
func liveDemo(t *testing.T, mode aql.Mode) (*aql.Adapter, aql.Executor, *atomic.Int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	var calls atomic.Int64
	s, err := session.Open(ctx, session.Source{Kind: session.InProcess, Name: "demo", Server: demo.New(demo.Options{Seed: 1})},
		session.Options{OnCall: func(*session.CallResult) { calls.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	set, err := s.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	a, err := aql.New(set, nil, mode)
	if err != nil {
		t.Fatal(err)
	}
	exec := func(c aql.ToolCall) (*ojson.Value, error) {
		r := s.Call(ctx, session.CallRequest{Tool: c.Name, Arguments: c.Arguments})
		if r.Err != nil {
			return nil, r.Err
		}
		return r.Raw, nil
	}
	return a, exec, &calls
}

// aqlRun parses and runs one AQL document.
func aqlRun(t *testing.T, a *aql.Adapter, exec aql.Executor, via, src string) *ojson.Value {
	t.Helper()
	in, err := aql.ParseInput([]byte(src))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return a.Run(via, in, exec)
}

func mustSucceed(t *testing.T, r *ojson.Value) *ojson.Value {
	t.Helper()
	if !aql.IsSuccess(r) {
		t.Fatalf("want success, got %s", r.Compact())
	}
	return r.Get("data")
}

// TestLiveDemoTodos walks the seed's own AQL example, the todo tools,
// through the semantic endpoints against the real demo server.
func TestLiveDemoTodos(t *testing.T) {
	a, exec, calls := liveDemo(t, aql.Semantic)
	want := map[string]aql.Category{"list_todos": aql.Read, "get_todo": aql.Read, "create_todo": aql.Create, "update_todo": aql.Update, "delete_todo": aql.Delete, "clear_completed": aql.Delete}
	for tool, c := range want {
		op := a.ForTool(tool)
		if op == nil || op.Name != tool || op.Category() != c {
			t.Fatalf("%s: %+v, want %s", tool, op, c)
		}
	}
	rd, cr, up, de := aql.Read.Tool(), aql.Create.Tool(), aql.Update.Tool(), aql.Delete.Tool()

	// discovery costs no server call
	list := mustSucceed(t, aqlRun(t, a, exec, rd, `{"operation":"introspect","params":{"query":"operations"}}`))
	if !strings.Contains(list.Compact(), `"name":"create_todo","semantic_category":"CREATE","endpoint":"create"`) {
		t.Errorf("operations list: %.300s", list.Compact())
	}
	det := mustSucceed(t, aqlRun(t, a, exec, rd, `{"operation":"introspect","params":{"query":"operations","name":"list_todos"}}`))
	if !strings.Contains(det.Compact(), `{"name":"limit","type":"integer","required":false,"default":50,"minimum":1,"maximum":100}`) {
		t.Errorf("list_todos details: %s", det.Compact())
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("introspection made %d server calls", n)
	}

	milk := mustSucceed(t, aqlRun(t, a, exec, cr, `{"operation":"create_todo","params":{"title":"buy milk"}}`))
	id := milk.Get("id").StringOr("")
	if id == "" || milk.Get("title").StringOr("") != "buy milk" {
		t.Fatalf("create_todo data: %s", milk.Compact())
	}
	mustSucceed(t, aqlRun(t, a, exec, cr, `{"operation":"create_todo","title":"write report"}`)) // top-level params

	// UPDATE with the spec's input object
	upd := mustSucceed(t, aqlRun(t, a, exec, up, `{"operation":"update_todo","params":{"id":"`+id+`","input":{"completed":true}}}`))
	if upd.Get("completed").Compact() != "true" {
		t.Errorf("update_todo: %s", upd.Compact())
	}

	// field selection, projected client-side and said so
	r := aqlRun(t, a, exec, rd, `{"operation":"list_todos","params":{"fields":["items.title","items.completed","total"]}}`)
	// the demo starts with three todos of its own, the first one done
	if got := mustSucceed(t, r).Compact(); got != `{"items":[{"title":"Read the MCP-Term draft","completed":true},{"title":"Try a batch call","completed":false},{"title":"Compare token counts","completed":false},{"title":"buy milk","completed":true},{"title":"write report","completed":false}],"total":5}` {
		t.Errorf("projected list: %s", got)
	}
	if r.Get("_meta").Get("projected").Compact() != "true" {
		t.Errorf("projection not reported: %s", r.Compact())
	}

	// errors caught before the server is called
	before := calls.Load()
	e := aqlRun(t, a, exec, rd, `{"operation":"create_todo","params":{"title":"x"}}`)
	if e.Get("error").Get("code").StringOr("") != aql.CodeEndpointMismatch || !strings.Contains(e.Get("error").Get("message").Str, "mcp_aql_create") {
		t.Errorf("wrong endpoint: %s", e.Compact())
	}
	e = aqlRun(t, a, exec, rd, `{"operation":"list_todos","params":{"status":"done"}}`)
	if e.Get("error").Get("code").StringOr("") != aql.CodeUnknownParam || !strings.Contains(e.Get("error").Get("details").Get("valid_params").Compact(), `"completed"`) {
		t.Errorf("unknown param: %s", e.Compact())
	}
	e = aqlRun(t, a, exec, cr, `{"operation":"create_todo","params":{}}`)
	if e.Get("error").Get("code").StringOr("") != aql.CodeMissingParam {
		t.Errorf("missing param: %s", e.Compact())
	}
	if n := calls.Load() - before; n != 0 {
		t.Errorf("%d invalid requests reached the server", n)
	}

	// an error the server reports comes back wrapped
	e = aqlRun(t, a, exec, rd, `{"operation":"get_todo","params":{"id":"00000000-0000-4000-8000-000000000000"}}`)
	if aql.IsSuccess(e) || e.Get("error").Get("code").StringOr("") != aql.CodeInternal || e.Get("error").Get("details").Get("upstream_error").StringOr("") == "" {
		t.Errorf("server error: %s", e.Compact())
	}

	// a batch on the DELETE endpoint with one failure in the middle
	b := aqlRun(t, a, exec, de, `{"operations":[
		{"operation":"delete_todo","params":{"id":"`+id+`"}},
		{"operation":"delete_todo","params":{"id":"`+id+`"}},
		{"operation":"get_todo","params":{"id":"`+id+`"}},
		{"operation":"clear_completed"}]}`)
	if s := b.Get("summary").Compact(); s != `{"total":4,"succeeded":2,"failed":2}` {
		t.Errorf("batch summary %s: %s", s, b.Compact())
	}
	codes := []string{}
	for _, it := range b.Get("results").Items {
		codes = append(codes, it.Get("result").Get("error").Get("code").StringOr("ok"))
	}
	if strings.Join(codes, ",") != "ok,INTERNAL_ERROR,VALIDATION_ENDPOINT_MISMATCH,ok" {
		t.Errorf("batch results %v", codes)
	}
	left := mustSucceed(t, aqlRun(t, a, exec, rd, `{"operation":"list_todos","params":{"fields":["total"]}}`))
	if left.Compact() != `{"total":3}` { // milk deleted, the demo's done todo cleared
		t.Errorf("after the batch: %s", left.Compact())
	}
}

// TestLiveDemoSingle: the same server through the one mcp_aql tool, and a
// classification of all of its tools.
func TestLiveDemoSingle(t *testing.T) {
	a, exec, _ := liveDemo(t, aql.Single)
	for _, op := range a.Ops {
		if op.Class.Reason == "" {
			t.Errorf("%s: no reason", op.Tool.Name)
		}
	}
	// long_task says it is read-only, but "Runs a slow job" is EXECUTE
	for tool, c := range map[string]aql.Category{"file_read": aql.Read, "note_update": aql.Update, "data_platform_query": aql.Read, "long_task": aql.Execute} {
		if got := a.ForTool(tool).Category(); got != c {
			t.Errorf("%s = %s (%s), want %s", tool, got, a.ForTool(tool).Class.Reason, c)
		}
	}
	d := mustSucceed(t, aqlRun(t, a, exec, aql.SingleTool, `{"operation":"file_read","params":{"path":"/docs/README.md"}}`))
	if d.Kind != ojson.String && d.Kind != ojson.Object {
		t.Errorf("file_read data: %.200s", d.Compact())
	}
	r := aqlRun(t, a, exec, aql.SingleTool, `{"operation":"introspect","params":{"query":"operations","name":"note_update"}}`)
	if !strings.Contains(mustSucceed(t, r).Compact(), `"mcpTool":"mcp_aql"`) {
		t.Errorf("note_update details: %.300s", r.Compact())
	}
}
