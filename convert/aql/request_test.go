package aql

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// prep parses src as one AQL request and prepares it.
func prep(t *testing.T, a *Adapter, via, src string) Step {
	t.Helper()
	in, err := ParseInput([]byte(src))
	if err != nil {
		t.Fatalf("ParseInput(%s): %v", src, err)
	}
	if in.IsBatch() {
		t.Fatalf("ParseInput(%s): got a batch", src)
	}
	return a.Prepare(via, in.Request)
}

// wantCall asserts the step is a call of tool with exactly these arguments.
func wantCall(t *testing.T, st Step, tool, args string) {
	t.Helper()
	if st.Local != nil {
		t.Fatalf("want a call of %s, got local answer %s", tool, st.Local.Compact())
	}
	if st.Call.Name != tool {
		t.Errorf("call name %q, want %q", st.Call.Name, tool)
	}
	if got := st.Call.Arguments.Compact(); got != args {
		t.Errorf("arguments %s, want %s", got, args)
	}
}

// wantError asserts the step is a local failure with code, and returns the
// error object for further checks.
func wantError(t *testing.T, st Step, code string) *ojson.Value {
	t.Helper()
	if st.Local == nil {
		t.Fatalf("want %s, got a call %s", code, st.Call.Params().Compact())
	}
	if IsSuccess(st.Local) {
		t.Fatalf("want %s, got success %s", code, st.Local.Compact())
	}
	e := st.Local.Get("error")
	if got := e.Get("code").StringOr(""); got != code {
		t.Fatalf("code %s, want %s: %s", got, code, st.Local.Compact())
	}
	if e.Get("message").StringOr("") == "" {
		t.Errorf("%s without a message", code)
	}
	return e
}

func detail(e *ojson.Value, key string) string {
	return e.Get("details").Get(key).Compact()
}

func todo(t *testing.T, mode Mode) *Adapter {
	return mustAdapter(t, loadFixture(t, "todo.tools.json"), nil, mode)
}

func TestCallTranslation(t *testing.T) {
	a := todo(t, Single)
	cases := []struct{ src, tool, args string }{
		// params object
		{`{"operation":"get_todo","params":{"id":"a1"}}`, "get_todo", `{"id":"a1"}`},
		// top-level parameters (spec 4.2)
		{`{"operation":"get_todo","id":"a1"}`, "get_todo", `{"id":"a1"}`},
		// params wins over top level
		{`{"operation":"get_todo","id":"top","params":{"id":"inner"}}`, "get_todo", `{"id":"inner"}`},
		// arguments come out in schema order, whatever the request order
		{`{"operation":"list_todos","params":{"offset":5,"completed":true}}`, "list_todos", `{"completed":true,"offset":5}`},
		// no params at all, and params: null
		{`{"operation":"clear_completed"}`, "clear_completed", `{}`},
		{`{"operation":"clear_completed","params":null}`, "clear_completed", `{}`},
		// metadata keys are exempt and not forwarded (spec 4.6.1)
		{`{"operation":"get_todo","_meta":{"x":1},"params":{"id":"a","_request_id":"r1"}}`, "get_todo", `{"id":"a"}`},
		// UPDATE input convention: fields may sit in params.input
		{`{"operation":"update_todo","params":{"id":"a","input":{"title":"T","completed":true}}}`, "update_todo", `{"id":"a","title":"T","completed":true}`},
		// ... or flat
		{`{"operation":"update_todo","params":{"id":"a","title":"T"}}`, "update_todo", `{"id":"a","title":"T"}`},
		// fields is ours, not the tool's
		{`{"operation":"list_todos","params":{"fields":["items.title"]}}`, "list_todos", `{}`},
		// integral numbers satisfy integer
		{`{"operation":"list_todos","params":{"limit":2.0}}`, "list_todos", `{"limit":2.0}`},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) { wantCall(t, prep(t, a, SingleTool, c.src), c.tool, c.args) })
	}
	st := prep(t, a, SingleTool, `{"operation":"list_todos","params":{"fields":["items.title","total"]}}`)
	if strings.Join(st.Fields, ",") != "items.title,total" {
		t.Errorf("fields %q", st.Fields)
	}
}

func TestCallTranslationAliasesAndOpenSchemas(t *testing.T) {
	a := mustAdapter(t, loadFixture(t, "hard.tools.json"), nil, Single)
	// snake name and the schema's own spelling both work, and go out as the real name
	wantCall(t, prep(t, a, "", `{"operation":"api_get_user","params":{"user_id":"u_1","include_profile":null}}`), "API-get-user", `{"userId":"u_1","includeProfile":null}`)
	wantCall(t, prep(t, a, "", `{"operation":"api_get_user","params":{"userId":"u_1"}}`), "API-get-user", `{"userId":"u_1"}`)
	// a tool's own "fields" parameter is passed through, not taken as a projection
	st := prep(t, a, "", `{"operation":"api_get_user","params":{"user_id":"u_1","fields":["a"]}}`)
	wantCall(t, st, "API-get-user", `{"userId":"u_1","fields":["a"]}`)
	if st.Fields != nil {
		t.Errorf("projection %q taken from the tool's own parameter", st.Fields)
	}
	// a map-shaped tool (additionalProperties) takes any names
	wantCall(t, prep(t, a, "", `{"operation":"set_config","params":{"theme":"dark","size":3}}`), "set_config", `{"theme":"dark","size":3}`)
	// declared and undeclared together on a partly open schema
	wantCall(t, prep(t, a, "", `{"operation":"run_report2","report_name":"q3","params":{"options":{"x":1}}}`), "run-report2", `{"report_name":"q3","options":{"x":1}}`)
	// a root $ref schema: required comes from the referenced definition
	wantCall(t, prep(t, a, "", `{"operation":"tree","params":{"value":1,"children":[]}}`), "tree", `{"value":1,"children":[]}`)
	wantError(t, prep(t, a, "", `{"operation":"tree","params":{}}`), CodeMissingParam)
}

func TestParseInputErrors(t *testing.T) {
	codeOf := func(err error) string {
		var ae *Error
		if errors.As(err, &ae) {
			return ae.Code
		}
		return "plain: " + fmt.Sprint(err)
	}
	deep := strings.Repeat(`{"a":`, 40) + "1" + strings.Repeat("}", 40)
	deeper := strings.Repeat("[", 600) + strings.Repeat("]", 600)
	cases := []struct{ src, code string }{
		{`{"operation":"x"`, ""}, // syntax: a plain error, not an AQL failure
		{`[1,2]`, CodeInvalidType},
		{`"get_todo"`, CodeInvalidType},
		{`{}`, CodeMissingParam},
		{`{"params":{}}`, CodeMissingParam},
		{`{"operation":""}`, CodeMissingParam},
		{`{"operation":7}`, CodeInvalidType},
		{`{"operation":"x","params":[1]}`, CodeInvalidType},
		{`{"operation":"x","params":"id=1"}`, CodeInvalidType},
		{`{"operations":{"operation":"x"}}`, CodeInvalidType},
		{`{"operations":[],"extra":1}`, CodeUnknownParam},
		{`{"operations":[` + strings.TrimSuffix(strings.Repeat(`{"operation":"x"},`, MaxBatch+1), ",") + `]}`, CodePayloadTooLarge},
		{deep, CodePayloadTooLarge},
		{deeper, CodePayloadTooLarge},
		{"{\"operation\":\"a\xffb\"}", CodeInvalidEncoding},
		{`{"operation":"x","pad":"` + strings.Repeat("x", MaxRequestBytes) + `"}`, CodePayloadTooLarge},
	}
	for _, c := range cases {
		_, err := ParseInput([]byte(c.src))
		name := c.src
		if len(name) > 40 {
			name = name[:40]
		}
		if c.code == "" {
			var ae *Error
			if err == nil || errors.As(err, &ae) {
				t.Errorf("%s: want a plain syntax error, got %v", name, err)
			}
			continue
		}
		if got := codeOf(err); got != c.code {
			t.Errorf("%s: got %s, want %s", name, got, c.code)
		}
	}
	_, err := ParseInput([]byte("{\"operation\":\"ab\xff\"}"))
	var ae *Error
	if errors.As(err, &ae) && ae.Details.Get("byte_offset").Compact() != "16" {
		t.Errorf("invalid UTF-8 at byte 16, details say %s", ae.Details.Compact())
	}
}

func TestPrepareErrors(t *testing.T) {
	single := todo(t, Single)
	sem := todo(t, Semantic)

	// unknown operation, with suggestions
	e := wantError(t, prep(t, single, SingleTool, `{"operation":"get_tood","params":{"id":"1"}}`), CodeNotFoundOp)
	if !strings.Contains(detail(e, "did_you_mean"), `"get_todo"`) {
		t.Errorf("no did-you-mean for a typo: %s", e.Compact())
	}
	e = wantError(t, prep(t, single, SingleTool, `{"operation":"getTodo"}`), CodeNotFoundOp)
	if detail(e, "did_you_mean") != `["get_todo"]` {
		t.Errorf("camelCase spelling should suggest get_todo: %s", e.Compact())
	}
	e = wantError(t, prep(t, single, SingleTool, `{"operation":"zzzzzzzzzzz"}`), CodeNotFoundOp)
	if e.Get("details").Has("did_you_mean") || !strings.Contains(detail(e, "available"), "introspect") {
		t.Errorf("far-off name: %s", e.Compact())
	}
	hard := mustAdapter(t, loadFixture(t, "hard.tools.json"), nil, Single)
	e = wantError(t, prep(t, hard, SingleTool, `{"operation":"API-get-user"}`), CodeNotFoundOp)
	if !strings.HasPrefix(detail(e, "did_you_mean"), `["api_get_user"`) {
		t.Errorf("a real tool name should point at its operation: %s", e.Compact())
	}

	// wrong tool for the mode
	wantError(t, prep(t, single, "mcp_aql_read", `{"operation":"get_todo","params":{"id":"1"}}`), CodeNotFoundOp)
	e = wantError(t, prep(t, sem, "mcp_aql_authorize", `{"operation":"get_todo","params":{"id":"1"}}`), CodeNotFoundOp)
	if !strings.Contains(e.Get("message").Str, "mcp_aql_read") {
		t.Errorf("unknown endpoint should list the real ones: %s", e.Compact())
	}

	// wrong endpoint in semantic mode says which one is right
	e = wantError(t, prep(t, sem, "mcp_aql_create", `{"operation":"get_todo","params":{"id":"1"}}`), CodeEndpointMismatch)
	if e.Get("message").Str != "Operation 'get_todo' must be called via mcp_aql_read, not mcp_aql_create" ||
		detail(e, "expected_endpoint") != `"READ"` || detail(e, "actual_endpoint") != `"CREATE"` || detail(e, "mcp_tool") != `"mcp_aql_read"` {
		t.Errorf("mismatch error: %s", e.Compact())
	}
	wantError(t, prep(t, sem, "mcp_aql_delete", `{"operation":"introspect","params":{"query":"operations"}}`), CodeEndpointMismatch)
	wantCall(t, prep(t, sem, "mcp_aql_delete", `{"operation":"delete_todo","params":{"id":"1"}}`), "delete_todo", `{"id":"1"}`)

	// unknown parameters: all of them, and the valid ones
	e = wantError(t, prep(t, single, SingleTool, `{"operation":"get_todo","params":{"id":"1","force":true,"verbose":1}}`), CodeUnknownParam)
	if detail(e, "unknown_params") != `["force","verbose"]` || detail(e, "valid_params") != `["id","fields"]` || detail(e, "operation") != `"get_todo"` {
		t.Errorf("unknown params details: %s", e.Compact())
	}
	// unknown at the top level too
	wantError(t, prep(t, single, SingleTool, `{"operation":"get_todo","id":"1","idd":"2"}`), CodeUnknownParam)
	// a typo of a required parameter reports the typo first
	e = wantError(t, prep(t, single, SingleTool, `{"operation":"get_todo","params":{"idd":"1"}}`), CodeUnknownParam)
	if detail(e, "unknown_params") != `["idd"]` {
		t.Errorf("typo: %s", e.Compact())
	}

	// missing required parameter, with the recommended message
	e = wantError(t, prep(t, single, SingleTool, `{"operation":"create_todo","params":{"description":"d"}}`), CodeMissingParam)
	if e.Get("message").Str != "Missing required parameter 'title'. Expected: string" || detail(e, "param_name") != `"title"` || detail(e, "missing_params") != `["title"]` {
		t.Errorf("missing: %s", e.Compact())
	}

	// wrong top-level type
	e = wantError(t, prep(t, single, SingleTool, `{"operation":"list_todos","params":{"limit":"fifty"}}`), CodeInvalidType)
	if detail(e, "param_name") != `"limit"` || detail(e, "expected_type") != `"integer"` || detail(e, "actual_type") != `"string"` || detail(e, "value") != `"fifty"` {
		t.Errorf("invalid type: %s", e.Compact())
	}
	wantError(t, prep(t, single, SingleTool, `{"operation":"list_todos","params":{"limit":2.5}}`), CodeInvalidType)
	wantError(t, prep(t, single, SingleTool, `{"operation":"list_todos","params":{"completed":null}}`), CodeInvalidType)
	wantError(t, prep(t, hard, SingleTool, `{"operation":"api_get_user","params":{"user_id":7}}`), CodeInvalidType) // type found through a $ref chain

	// UPDATE input convention errors
	wantError(t, prep(t, single, SingleTool, `{"operation":"update_todo","params":{"id":"1","input":"x"}}`), CodeInvalidType)
	e = wantError(t, prep(t, single, SingleTool, `{"operation":"update_todo","params":{"id":"1","input":{"titel":"x"}}}`), CodeUnknownField)
	if detail(e, "unknown_fields") != `["titel"]` {
		t.Errorf("unknown field: %s", e.Compact())
	}
	e = wantError(t, prep(t, single, SingleTool, `{"operation":"update_todo","params":{"id":"1","title":"a","input":{"title":"b"}}}`), CodeUnknownParam)
	if !strings.Contains(e.Get("message").Str, "given twice") {
		t.Errorf("duplicate via input: %s", e.Compact())
	}
	// input is only an UPDATE convention
	wantError(t, prep(t, single, SingleTool, `{"operation":"create_todo","params":{"input":{"title":"x"}}}`), CodeUnknownParam)
	// the same parameter under both spellings
	e = wantError(t, prep(t, hard, SingleTool, `{"operation":"api_get_user","params":{"user_id":"u_1","userId":"u_2"}}`), CodeUnknownParam)
	if !strings.Contains(e.Get("message").Str, "given twice") {
		t.Errorf("duplicate alias: %s", e.Compact())
	}

	// fields
	wantError(t, prep(t, single, SingleTool, `{"operation":"list_todos","params":{"fields":"minimal"}}`), CodeInvalidType)
	wantError(t, prep(t, single, SingleTool, `{"operation":"list_todos","params":{"fields":["a",3]}}`), CodeInvalidType)
	wantError(t, prep(t, single, SingleTool, `{"operation":"list_todos","params":{"fields":[""]}}`), CodeInvalidType)
	wantError(t, prep(t, single, SingleTool, `{"operation":"list_todos","params":{"fields":{"a":1}}}`), CodeInvalidType)
	many := `["` + strings.Repeat(`a","`, maxFields) + `a"]`
	wantError(t, prep(t, single, SingleTool, `{"operation":"list_todos","params":{"fields":`+many+`}}`), CodePayloadTooLarge)
	if st := prep(t, single, SingleTool, `{"operation":"list_todos","params":{"fields":"full"}}`); st.Local != nil || st.Fields != nil {
		t.Errorf(`fields "full" should mean no projection: %+v`, st)
	}

	// introspect's own validation
	wantError(t, prep(t, single, SingleTool, `{"operation":"introspect"}`), CodeMissingParam)
	wantError(t, prep(t, single, SingleTool, `{"operation":"introspect","params":{"query":1}}`), CodeInvalidType)
	wantError(t, prep(t, single, SingleTool, `{"operation":"introspect","params":{"query":"tools"}}`), CodeInvalidType)
	wantError(t, prep(t, single, SingleTool, `{"operation":"introspect","params":{"query":"types","name":3}}`), CodeInvalidType)
	e = wantError(t, prep(t, single, SingleTool, `{"operation":"introspect","params":{"query":"types","verbose":true}}`), CodeUnknownParam)
	if detail(e, "valid_params") != `["query","name"]` {
		t.Errorf("introspect unknown: %s", e.Compact())
	}
}

func TestBatchItemsFailAlone(t *testing.T) {
	in, err := ParseInput([]byte(`{"operations":[{"operation":"get_todo","params":{"id":"1"}}, 5, {"params":{}}, {"operations":[]}, {"operation":"x","params":3}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if !in.IsBatch() || len(in.Batch) != 5 {
		t.Fatalf("batch of 5 expected, got %+v", in)
	}
	a := todo(t, Single)
	want := []string{"", CodeInvalidType, CodeMissingParam, CodeMissingParam, CodeInvalidType}
	for i, r := range in.Batch {
		st := a.Prepare(SingleTool, r)
		if want[i] == "" {
			wantCall(t, st, "get_todo", `{"id":"1"}`)
		} else {
			wantError(t, st, want[i])
		}
	}
}

func TestLooksLikeAQL(t *testing.T) {
	for src, want := range map[string]bool{
		`{"operation": "list_todos"}`:                  true,
		`{"operations": []}`:                           true,
		`{"operation": "list_todos", "params": {`:      true, // half-typed: an AQL error, not an S-expression one
		`{"name": "file_read", "arguments": {}}`:       false,
		`{"name": "x", "arguments": {"operation": 1}}`: false, // valid JSON, the word only nested
		`(fr "/etc/hosts")`:                            false,
		`  `:                                           false,
		`{"name": "x"`:                                 false, // broken, but nothing says AQL
	} {
		if got := LooksLikeAQL([]byte(src)); got != want {
			t.Errorf("LooksLikeAQL(%s) = %v, want %v", src, got, want)
		}
	}
}
