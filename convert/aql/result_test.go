package aql

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

func textResult(text string) *ojson.Value {
	return ojson.NewObject().Set("content", ojson.NewArray(ojson.NewObject().Set("type", ojson.NewString("text")).Set("text", ojson.NewString(text))))
}

func TestFinishWrapsResults(t *testing.T) {
	call := Step{Operation: "x", Call: &ToolCall{Name: "x_tool", Arguments: ojson.NewObject()}}
	cases := []struct {
		name   string
		result string
		err    error
		want   string
	}{
		{"json text is parsed", `{"content":[{"type":"text","text":"{\"a\":1}"}]}`, nil, `{"success":true,"data":{"a":1}}`},
		{"plain text stays a string", `{"content":[{"type":"text","text":"hello"}]}`, nil, `{"success":true,"data":"hello"}`},
		{"text that only looks like JSON", `{"content":[{"type":"text","text":"[not json"}]}`, nil, `{"success":true,"data":"[not json"}`},
		{"several texts", `{"content":[{"type":"text","text":"a"},{"type":"text","text":"[1]"}]}`, nil, `{"success":true,"data":["a",[1]]}`},
		{"structured content wins", `{"content":[{"type":"text","text":"ignored"}],"structuredContent":{"n":2}}`, nil, `{"success":true,"data":{"n":2}}`},
		{"an image is referenced in the content, not copied", `{"content":[{"type":"text","text":"logo:"},{"type":"image","data":"AAAA","mimeType":"image/png"}]}`, nil,
			`{"success":true,"data":[{"type":"text","text":"logo:"},{"type":"image","mimeType":"image/png","bytes":3,"block":1}]}`},
		{"blocks beside structured content are listed in _meta", `{"content":[{"type":"audio","data":"AAAA","mimeType":"audio/wav"}],"structuredContent":{"n":2}}`, nil,
			`{"success":true,"data":{"n":2},"_meta":{"blocks":[{"type":"audio","mimeType":"audio/wav","bytes":3,"block":1}]}}`},
		{"a malformed image is referenced, not passed", `{"content":[{"type":"image","data":"AAAA"}]}`, nil,
			`{"success":true,"data":[{"type":"image","bytes":3,"omitted":"malformed: not a valid MCP content item"}]}`},
		{"empty content", `{"content":[]}`, nil, `{"success":true,"data":null}`},
		{"tool error", `{"content":[{"type":"text","text":"file not found"}],"isError":true}`, nil,
			`{"success":false,"error":{"code":"INTERNAL_ERROR","message":"Internal error: 'file not found'","details":{"tool":"x_tool","upstream_error":"file not found"}}}`},
		{"a tool error's blocks are in its details", `{"content":[{"type":"text","text":"bad"},{"type":"resource_link","uri":"file:///log","name":"log"}],"isError":true}`, nil,
			`{"success":false,"error":{"code":"INTERNAL_ERROR","message":"Internal error: 'bad'","details":{"tool":"x_tool","upstream_error":"bad","blocks":[{"type":"resource_link","uri":"file:///log","name":"log","block":1}]}}}`},
		{"tool error without text", `{"content":[],"isError":true}`, nil,
			`{"success":false,"error":{"code":"INTERNAL_ERROR","message":"Internal error: 'the tool reported an error without a message'","details":{"tool":"x_tool","upstream_error":"the tool reported an error without a message"}}}`},
		{"call failed", ``, errors.New("connection reset"), `{"success":false,"error":{"code":"INTERNAL_ERROR","message":"Internal error: 'connection reset'","details":{"tool":"x_tool","upstream_error":"connection reset"}}}`},
		{"no result", `null`, nil, `{"success":false,"error":{"code":"INTERNAL_ERROR","message":"Internal error: 'the server returned no CallToolResult object'","details":{"tool":"x_tool","upstream_error":"the server returned no CallToolResult object"}}}`},
	}
	for _, c := range cases {
		var res *ojson.Value
		if c.result != "" {
			res = mustJSON(t, c.result)
		}
		got, full := Finish(call, res, c.err)
		if got.Compact() != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got.Compact(), c.want)
		}
		if full != nil {
			t.Errorf("%s: full response without a projection", c.name)
		}
	}
	// a huge upstream error is clipped, on a rune boundary
	long := strings.Repeat("é", maxUpstreamError)
	got, _ := Finish(call, mustJSON(t, `{"content":[{"type":"text","text":"`+long+`"}],"isError":true}`), nil)
	if up := got.Get("error").Get("details").Get("upstream_error").Str; len(up) > maxUpstreamError+4 || !strings.HasSuffix(up, "…") || !strings.HasPrefix(up, "é") {
		t.Errorf("clipped error: %d bytes", len(up))
	}
	// local answers pass through untouched
	local := Success(ojson.NewString("x"))
	if got, _ := Finish(Step{Local: local}, nil, nil); got != local {
		t.Error("Finish changed a local answer")
	}
}

func TestProject(t *testing.T) {
	data := mustJSON(t, `{"items":[{"id":1,"title":"a","meta":{"owner":"x","tags":["t"]}},{"id":2,"title":"b"},{"title":"c"}],"total":3,"page":{"n":1}}`)
	cases := []struct {
		fields []string
		want   string
	}{
		{[]string{"total"}, `{"total":3}`},
		{[]string{"items.id"}, `{"items":[{"id":1},{"id":2},{}]}`},
		{[]string{"total", "items.title"}, `{"items":[{"title":"a"},{"title":"b"},{"title":"c"}],"total":3}`}, // server's member order
		{[]string{"items.meta.owner"}, `{"items":[{"meta":{"owner":"x"}},{},{}]}`},
		{[]string{"items.meta", "items.meta.owner"}, `{"items":[{"meta":{"owner":"x","tags":["t"]}},{},{}]}`}, // a whole subtree wins
		{[]string{"missing", "total.deeper"}, `{}`},
		{[]string{"page..n"}, `{"page":{"n":1}}`},
	}
	for _, c := range cases {
		if got := Project(data, c.fields).Compact(); got != c.want {
			t.Errorf("Project(%q) = %s, want %s", c.fields, got, c.want)
		}
	}
	// a top-level array is a collection: the paths apply to each element
	if got := Project(mustJSON(t, `[{"a":1,"b":2},{"a":3},5]`), []string{"a"}).Compact(); got != `[{"a":1},{"a":3}]` {
		t.Errorf("array projection: %s", got)
	}
	// the input is not changed
	if data.Get("items").Items[0].Get("meta") == nil {
		t.Error("Project modified its input")
	}
}

func TestFinishProjects(t *testing.T) {
	a := todo(t, Single)
	st := prep(t, a, SingleTool, `{"operation":"list_todos","params":{"fields":["items.title","total"]}}`)
	res := textResult(`{"items":[{"id":"1","title":"milk","completed":false}],"total":1}`)
	resp, full := Finish(st, res, nil)
	if resp.Compact() != `{"success":true,"data":{"items":[{"title":"milk"}],"total":1},"_meta":{"fields":["items.title","total"],"projected":true}}` {
		t.Errorf("projected: %s", resp.Compact())
	}
	if full == nil || full.Compact() != `{"success":true,"data":{"items":[{"id":"1","title":"milk","completed":false}],"total":1}}` {
		t.Errorf("full: %v", full)
	}
	// text results cannot be projected, and the response says so
	resp, full = Finish(st, textResult("3 todos"), nil)
	if resp.Compact() != `{"success":true,"data":"3 todos","_meta":{"fields":["items.title","total"],"projected":false,"reason":"the result is text, not JSON"}}` || full != nil {
		t.Errorf("text: %s", resp.Compact())
	}
}

// fakeTodo is an in-memory executor for the todo fixture; it answers the
// way a real server would, including errors.
func fakeTodo() (Executor, *[]string) {
	todos := map[string]string{"1": "milk"}
	var calls []string
	return func(c ToolCall) (*ojson.Value, error) {
		calls = append(calls, c.Params().Compact())
		id := c.Arguments.Get("id").StringOr("")
		switch c.Name {
		case "get_todo":
			if title, ok := todos[id]; ok {
				return textResult(fmt.Sprintf(`{"id":%q,"title":%q}`, id, title)), nil
			}
			return textResult("todo "+id+" not found").Set("isError", ojson.NewBool(true)), nil
		case "create_todo":
			id := fmt.Sprint(len(todos) + 1)
			todos[id] = c.Arguments.Get("title").Str
			return textResult(fmt.Sprintf(`{"id":%q}`, id)), nil
		case "delete_todo":
			return nil, errors.New("connection closed")
		}
		return textResult("ok"), nil
	}, &calls
}

func TestBatchPartialFailure(t *testing.T) {
	a := todo(t, Single)
	exec, calls := fakeTodo()
	in, err := ParseInput([]byte(`{"operations":[
		{"operation":"create_todo","params":{"title":"bread"}},
		{"operation":"get_todo","params":{"id":"2"}},
		{"operation":"get_todo","params":{"id":"9"}},
		{"operation":"get_todo","params":{"idd":"1"}},
		{"operation":"delete_todo","params":{"id":"1"}},
		{"operation":"introspect","params":{"query":"operations","name":"get_todo"}},
		{"operation":"nope"},
		{"operation":"get_todo","params":{"id":"1","fields":["title"]}}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	out := a.Run(SingleTool, in, exec)
	if !IsSuccess(out) || out.Get("data").Kind != ojson.Null {
		t.Fatalf("the batch itself succeeds: %s", out.Compact())
	}
	if s := out.Get("summary").Compact(); s != `{"total":8,"succeeded":4,"failed":4}` {
		t.Errorf("summary %s", s)
	}
	wantCodes := []string{"", "", CodeInternal, CodeUnknownParam, CodeInternal, "", CodeNotFoundOp, ""}
	for i, r := range out.Get("results").Items {
		if r.Get("index").Compact() != fmt.Sprint(i) {
			t.Errorf("result %d has index %s", i, r.Get("index").Compact())
		}
		res := r.Get("result")
		code := res.Get("error").Get("code").StringOr("")
		if code != wantCodes[i] {
			t.Errorf("result %d (%s): code %q, want %q: %s", i, r.Get("operation").Str, code, wantCodes[i], res.Compact())
		}
	}
	// the second item saw the first one's effect: operations run in order
	if got := out.Get("results").Items[1].Get("result").Get("data").Compact(); got != `{"id":"2","title":"bread"}` {
		t.Errorf("order: %s", got)
	}
	if got := out.Get("results").Items[7].Get("result").Compact(); got != `{"success":true,"data":{"title":"milk"},"_meta":{"fields":["title"],"projected":true}}` {
		t.Errorf("projection inside a batch: %s", got)
	}
	// invalid items never reach the server
	if len(*calls) != 5 {
		t.Errorf("%d upstream calls, want 5: %q", len(*calls), *calls)
	}
}

func TestBatchSemanticEndpoint(t *testing.T) {
	a := todo(t, Semantic)
	exec, calls := fakeTodo()
	in, _ := ParseInput([]byte(`{"operations":[{"operation":"get_todo","params":{"id":"1"}},{"operation":"create_todo","params":{"title":"x"}}]}`))
	out := a.Run("mcp_aql_read", in, exec)
	if s := out.Get("summary").Compact(); s != `{"total":2,"succeeded":1,"failed":1}` {
		t.Errorf("summary %s", s)
	}
	if c := out.Get("results").Items[1].Get("result").Get("error").Get("code").StringOr(""); c != CodeEndpointMismatch {
		t.Errorf("a CREATE operation in a batch sent to mcp_aql_read: %s", c)
	}
	if len(*calls) != 1 {
		t.Errorf("calls: %q", *calls)
	}
}

func TestRunSingle(t *testing.T) {
	a := todo(t, Single)
	exec, _ := fakeTodo()
	in, _ := ParseInput([]byte(`{"operation":"get_todo","id":"1"}`))
	if got := a.Run(SingleTool, in, exec).Compact(); got != `{"success":true,"data":{"id":"1","title":"milk"}}` {
		t.Errorf("run: %s", got)
	}
}

// TestConcurrentUse: an adapter is read-only after New, so answers and calls
// may be prepared from several goroutines (run with -race).
func TestConcurrentUse(t *testing.T) {
	a := mustAdapter(t, loadFixture(t, "hard.tools.json"), nil, Semantic)
	want := a.RenderIntrospect()
	done := make(chan string)
	for i := 0; i < 4; i++ {
		go func() {
			in, _ := ParseInput([]byte(`{"operations":[{"operation":"introspect","params":{"query":"types","name":"User"}},{"operation":"api_get_user","params":{"user_id":"u_1"}}]}`))
			exec := func(c ToolCall) (*ojson.Value, error) { return textResult(`{"ok":true}`), nil }
			a.Run("mcp_aql_read", in, exec)
			done <- a.RenderIntrospect()
		}()
	}
	for i := 0; i < 4; i++ {
		if got := <-done; got != want {
			t.Error("concurrent introspection answers differ")
		}
	}
}
