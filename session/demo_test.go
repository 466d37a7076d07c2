package session

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpterm/mcpterm/session/demo"
)

func TestDemoInProcess(t *testing.T) {
	testDemo(t, Source{Kind: InProcess, Name: "demo", Server: demo.New(demo.Options{})})
}

func TestDemoStdio(t *testing.T) {
	testDemo(t, stdioSource(t, "demo"))
}

func testDemo(t *testing.T, src Source) {
	s := open(t, src, Options{})
	ctx := ctxT(t, 20*time.Second)
	info := s.Info()
	if info.Name != demo.Name || info.Instructions != demo.Instructions {
		t.Errorf("info %q %q", info.Name, info.Instructions)
	}
	set, err := s.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"file_read", "note_update", "list_todos", "get_todo", "create_todo", "update_todo", "delete_todo", "clear_completed", "data_platform_query", "long_task"} {
		if set.Find(name) == nil {
			t.Errorf("demo lacks %s", name)
		}
	}
	if !set.Find("list_todos").Annotations.ReadOnly() || !set.Find("delete_todo").Annotations.Destructive() {
		t.Error("demo annotations not as listed")
	}
	// Property order as the server wrote it.
	if got := set.Find("file_read").InputSchema.Get("properties").Keys(); !slices.Equal(got, []string{"path", "encoding", "offset", "limit"}) {
		t.Errorf("file_read properties %v", got)
	}

	r := s.Call(ctx, CallRequest{Tool: "file_read", Arguments: obj(t, `{"path":"/docs/README.md"}`)})
	if !r.OK() || resultText(r) == "" {
		t.Errorf("file_read: %v %v", r.Err, r.SchemaErr)
	}
	r = s.Call(ctx, CallRequest{Tool: "file_read", Arguments: obj(t, `{"path":"/no/such/file"}`)})
	if !r.IsError {
		t.Errorf("missing file not an isError result: %v", r.Err)
	}
	r = s.Call(ctx, CallRequest{Tool: "create_todo", Arguments: obj(t, `{"title":"written by the session test"}`)})
	if !r.OK() {
		t.Fatalf("create_todo: %v %v %q", r.Err, r.SchemaErr, resultText(r))
	}
	r = s.Call(ctx, CallRequest{Tool: "list_todos"})
	if !r.OK() || !strings.Contains(resultText(r), "written by the session test") {
		t.Errorf("list_todos after create: %v %v", r.Err, r.SchemaErr)
	}

	// A slow operation with progress, then one cut short.
	r = s.Call(ctx, CallRequest{Tool: "long_task", Arguments: obj(t, `{"steps":3,"delay_ms":120}`), Timeout: 300 * time.Millisecond})
	if !r.OK() || r.Progress < 2 {
		t.Errorf("long_task: %v %v progress %d", r.Err, r.SchemaErr, r.Progress)
	}
	r = s.Call(ctx, CallRequest{Tool: "long_task", Arguments: obj(t, `{"steps":50,"delay_ms":200}`), Timeout: 80 * time.Millisecond})
	var te *TimeoutError
	if !errors.As(r.Err, &te) {
		t.Errorf("long_task timeout: %v", r.Err)
	}

	rs, err := s.Resources(ctx)
	if err != nil || len(rs) == 0 {
		t.Fatalf("resources: %v", err)
	}
	if ts, err := s.ResourceTemplates(ctx); err != nil || len(ts) == 0 {
		t.Errorf("templates: %v", err)
	}
	if _, err := s.ReadResource(ctx, rs[0].URI); err != nil {
		t.Errorf("read %s: %v", rs[0].URI, err)
	}
	ps, err := s.Prompts(ctx)
	if err != nil || len(ps) == 0 {
		t.Fatalf("prompts: %v", err)
	}
	if pm, err := s.GetPrompt(ctx, "summarize_file", map[string]string{"path": "/docs/README.md"}); err != nil || len(pm.Result.Messages) == 0 {
		t.Errorf("prompt: %v", err)
	}

	b := s.Batch(ctx, []CallRequest{
		{ID: "a", Tool: "list_todos"},
		{ID: "b", Tool: "file_read", Arguments: obj(t, `{"path":"/nope"}`)},
		{ID: "c", Tool: "file_read", Arguments: obj(t, `{"path":"/docs/README.md","limit":10}`)},
	}, BatchOptions{Concurrency: 2})
	if !b.ByID("a").OK() || !b.ByID("b").IsError || !b.ByID("c").OK() {
		t.Errorf("batch: %v %v %v", b.ByID("a").Err, b.ByID("b").IsError, b.ByID("c").Err)
	}
}
