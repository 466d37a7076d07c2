package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/session/demo"
	"github.com/mcpterm/mcpterm/session/history"
)

// demoURL serves one demo server over HTTP for the whole test, so that
// state (the todo list) carries from one `mcpterm call` to the next.
func demoURL(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(server.NewStreamableHTTPServer(demo.New(demo.Options{Seed: 7})))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// aqlResp is an AQL response as the command line prints it.
type aqlResp struct {
	Success bool            `json:"success"`
	Data    json.RawMessage `json:"data"`
	Error   *struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Details map[string]any `json:"details"`
	} `json:"error"`
	Meta    map[string]any `json:"_meta"`
	Results []struct {
		Index     int     `json:"index"`
		Operation string  `json:"operation"`
		Result    aqlResp `json:"result"`
	} `json:"results"`
	Summary *struct{ Total, Succeeded, Failed int } `json:"summary"`
}

func compactJSON(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return b.String()
}

func decodeAQL(t *testing.T, out string) aqlResp {
	t.Helper()
	var r aqlResp
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("output is not an AQL response: %v\n%s", err, out)
	}
	return r
}

// TestCallAQLTodoRoundTrip is seed 001's todo example against the demo
// server: create through AQL, read back through an S-expression, delete
// through AQL (which needs --yes), and see it gone.
func TestCallAQLTodoRoundTrip(t *testing.T) {
	url := demoURL(t)
	code, out, errOut := sessCLI(t, nil, "", "call", "--url", url,
		`{"operation": "create_todo", "params": {"title": "Buy milk", "description": "2 litres"}}`)
	if code != exitOK {
		t.Fatalf("create: exit %d %s %s", code, out, errOut)
	}
	created := decodeAQL(t, out)
	var todo struct{ ID, Title, Description string }
	if !created.Success || json.Unmarshal(created.Data, &todo) != nil || todo.ID == "" || todo.Title != "Buy milk" {
		t.Fatalf("create answered %s", out)
	}

	code, out, errOut = sessCLI(t, nil, "", "call", "--url", url, `(get_todo "`+todo.ID+`")`)
	if code != exitOK || !strings.Contains(out, `"Buy milk"`) || !strings.Contains(out, `"2 litres"`) || !strings.HasPrefix(out, "(ok") {
		t.Fatalf("read back as S-expression: exit %d %q %q", code, out, errOut)
	}

	// UPDATE's input object, and a top-level parameter beside params.
	code, out, errOut = sessCLI(t, nil, "", "call", "--url", url, "--yes",
		`{"operation": "update_todo", "id": "`+todo.ID+`", "params": {"input": {"completed": true}}}`)
	if code != exitOK || !strings.Contains(out, `"completed": true`) {
		t.Fatalf("update: exit %d %s %s", code, out, errOut)
	}

	del := `{"operation": "delete_todo", "params": {"id": "` + todo.ID + `"}}`
	code, out, errOut = sessCLI(t, nil, "", "call", "--url", url, del)
	if code != exitUsage || out != "" || !strings.Contains(errOut, "refused") || !strings.Contains(errOut, "--yes") {
		t.Fatalf("delete without --yes: exit %d %q %q", code, out, errOut)
	}
	code, out, errOut = sessCLI(t, nil, "", "call", "--url", url, "--yes", del)
	if r := decodeAQL(t, out); code != exitOK || !r.Success || !strings.Contains(compactJSON(t, r.Data), `"deleted":true`) {
		t.Fatalf("delete with --yes: exit %d %s %s", code, out, errOut)
	}

	// Gone: the tool's own error comes back as success=false, exit 1.
	code, out, _ = sessCLI(t, nil, "", "call", "--url", url, `{"operation": "get_todo", "params": {"id": "`+todo.ID+`"}}`)
	r := decodeAQL(t, out)
	if code != exitToolError || r.Success || r.Error.Code != "INTERNAL_ERROR" || r.Error.Details["tool"] != "get_todo" || !strings.Contains(r.Error.Message, "not found") {
		t.Fatalf("read after delete: exit %d %s", code, out)
	}
}

func TestCallAQLValidation(t *testing.T) {
	code, out, errOut := sessCLI(t, nil, "", "call", `{"operation": "create_todo", "params": {"titel": "Buy milk"}}`)
	r := decodeAQL(t, out)
	if code != exitUsage || r.Success || r.Error.Code != "VALIDATION_UNKNOWN_PARAM" {
		t.Fatalf("exit %d %s %s", code, out, errOut)
	}
	if u, _ := r.Error.Details["unknown_params"].([]any); len(u) != 1 || u[0] != "titel" {
		t.Errorf("unknown_params: %v", r.Error.Details)
	}
	if v, _ := r.Error.Details["valid_params"].([]any); len(v) == 0 || v[0] != "title" {
		t.Errorf("valid_params: %v", r.Error.Details)
	}

	cases := []struct {
		name string
		args []string
		code int
		want string // in stdout
	}{
		{"missing param", []string{`{"operation": "get_todo"}`}, exitUsage, "VALIDATION_MISSING_PARAM"},
		{"wrong type", []string{`{"operation": "list_todos", "params": {"limit": "ten"}}`}, exitUsage, "VALIDATION_INVALID_TYPE"},
		{"unknown operation", []string{`{"operation": "get_todos"}`}, exitUsage, "NOT_FOUND_OPERATION"},
		{"no operation", []string{`{"operation": ""}`}, exitUsage, "VALIDATION_MISSING_PARAM"},
		{"batch envelope", []string{`{"operations": [], "extra": 1}`}, exitUsage, "VALIDATION_UNKNOWN_PARAM"},
		{"semantic endpoint", []string{"--aql-mode", "semantic", "--aql-endpoint", "mcp_aql_read", `{"operation": "create_todo", "params": {"title": "x"}}`}, exitUsage, "VALIDATION_ENDPOINT_MISMATCH"},
		{"semantic routed", []string{"--aql-mode", "semantic", `{"operation": "list_todos", "params": {"limit": 1}}`}, exitOK, `"success": true`},
		{"sexpr output", []string{"--output", "sexpr", `{"operation": "get_todo", "params": {"idd": "x"}}`}, exitUsage, "(err VALIDATION_UNKNOWN_PARAM"},
		{"sexpr ok", []string{"--output", "sexpr", `{"operation": "list_todos", "params": {"limit": 1, "fields": ["total"]}}`}, exitOK, "(ok (:total 3) :meta (:fields (\"total\") :projected true))"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := sessCLI(t, nil, "", append([]string{"call"}, tc.args...)...)
			if code != tc.code || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d (want %d); stdout %q stderr %q", code, tc.code, out, errOut)
			}
		})
	}
}

func TestCallAQLUsageErrors(t *testing.T) {
	dir := t.TempDir()
	badMap := filepath.Join(dir, "bad.json")
	os.WriteFile(badMap, []byte(`{"list_todos": {"category": "SOMETIMES"}}`), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--aql-mode", "both", `{"operation": "list_todos"}`}, "--aql-mode"},
		{[]string{"--aql-endpoint", "mcp_aql_read", `{"operation": "list_todos"}`}, "semantic"},
		{[]string{"--aql-mode", "semantic", "--aql-endpoint", "mcp_aql_search", `{"operation": "list_todos"}`}, "--aql-endpoint"},
		{[]string{"--aql-mode", "semantic", "--aql-endpoint", "read", `(list_todos)`}, "AQL input"},
		{[]string{"--aql-map", filepath.Join(dir, "missing.json"), `{"operation": "list_todos"}`}, "--aql-map"},
		{[]string{"--aql-map", badMap, `{"operation": "list_todos"}`}, "SOMETIMES"},
		{[]string{"--concurrency", "4", `{"operations": [{"operation": "list_todos"}]}`}, "array order"},
		{[]string{`{"operation": "list_todos", "params": {`}, "invalid JSON"},
	}
	for _, tc := range cases {
		code, out, errOut := sessCLI(t, nil, "", append([]string{"call"}, tc.args...)...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", tc.args, code, out, errOut)
		}
	}
}

// TestCallAQLIntrospectOffline: introspect needs no server, so a saved tool
// list is enough; a real operation is not.
func TestCallAQLIntrospectOffline(t *testing.T) {
	tools := "convert/aql/testdata/todo.tools.json"
	code, out, errOut := sessCLI(t, nil, "", "call", "--tools", tools, `{"operation": "introspect", "params": {"query": "operations"}}`)
	r := decodeAQL(t, out)
	if code != exitOK || !r.Success {
		t.Fatalf("exit %d %s %s", code, out, errOut)
	}
	var list struct {
		Operations []struct{ Name, Semantic_category string }
	}
	json.Unmarshal(r.Data, &list)
	names := map[string]string{}
	for _, op := range list.Operations {
		names[op.Name] = op.Semantic_category
	}
	if names["create_todo"] != "CREATE" || names["delete_todo"] != "DELETE" || names["introspect"] != "READ" {
		t.Errorf("operations: %v", names)
	}

	// --aql-map is used here too.
	m := filepath.Join(t.TempDir(), "map.json")
	os.WriteFile(m, []byte(`{"clear_completed": {"category": "EXECUTE"}, "get_todo": {"operation": "fetch_todo"}}`), 0o644)
	code, out, _ = sessCLI(t, nil, "", "call", "--tools", tools, "--aql-map", m,
		`{"operation": "introspect", "params": {"query": "operations", "name": "fetch_todo"}}`)
	if code != exitOK || !strings.Contains(out, `"mcpTool": "mcp_aql"`) || !strings.Contains(out, `"name": "fetch_todo"`) {
		t.Errorf("introspect by overridden name: exit %d %s", code, out)
	}
	code, out, _ = sessCLI(t, nil, "", "call", "--tools", tools, "--aql-map", m, "--aql-mode", "semantic",
		`{"operation": "introspect", "params": {"query": "operations", "name": "clear_completed"}}`)
	if code != exitOK || !strings.Contains(out, `"semantic_category": "EXECUTE"`) || !strings.Contains(out, `"mcpTool": "mcp_aql_execute"`) {
		t.Errorf("semantic introspect with map: exit %d %s", code, out)
	}

	code, out, errOut = sessCLI(t, nil, "", "call", "--tools", tools, `{"operation": "list_todos"}`)
	if code != exitUsage || out != "" || !strings.Contains(errOut, "offline") {
		t.Errorf("offline call: exit %d %q %q", code, out, errOut)
	}
}

// TestCallAQLBatch: a batch runs every operation, a failure (from the tool
// or from validation) stays its own, and the summary counts them.
func TestCallAQLBatch(t *testing.T) {
	url := demoURL(t)
	batch := `{"operations": [
		{"operation": "create_todo", "params": {"title": "one"}},
		{"operation": "get_todo", "params": {"id": "no-such-id"}},
		{"operation": "list_todos", "params": {"query": "one", "fields": ["items.title", "total"]}}
	]}`
	code, out, errOut := sessCLI(t, nil, "", "call", "--url", url, batch)
	r := decodeAQL(t, out)
	if code != exitToolError || !r.Success || r.Summary == nil || *r.Summary != (struct{ Total, Succeeded, Failed int }{3, 2, 1}) {
		t.Fatalf("exit %d %s %s", code, out, errOut)
	}
	if len(r.Results) != 3 || r.Results[1].Index != 1 || r.Results[1].Operation != "get_todo" || r.Results[1].Result.Error.Code != "INTERNAL_ERROR" {
		t.Fatalf("results: %s", out)
	}
	// The list saw the todo the first operation created: they ran in order.
	if got := compactJSON(t, r.Results[2].Result.Data); got != `{"items":[{"title":"one"}],"total":1}` || r.Results[2].Result.Meta["projected"] != true {
		t.Errorf("projected list: %s", got)
	}

	// A validation failure does not stop the rest, and makes the exit 2.
	code, out, _ = sessCLI(t, nil, "", "call", "--url", url,
		`{"operations": [{"operation": "list_todos", "params": {"bogus": 1}}, {"operation": "list_todos", "params": {"limit": 1}}]}`)
	r = decodeAQL(t, out)
	if code != exitUsage || r.Summary.Failed != 1 || r.Summary.Succeeded != 1 || r.Results[0].Result.Error.Code != "VALIDATION_UNKNOWN_PARAM" {
		t.Errorf("validation in batch: exit %d %s", code, out)
	}

	// --stop-on-error skips what follows a failed call.
	code, out, _ = sessCLI(t, nil, "", "call", "--url", url, "--stop-on-error",
		`{"operations": [{"operation": "get_todo", "params": {"id": "nope"}}, {"operation": "list_todos"}]}`)
	r = decodeAQL(t, out)
	if code != exitToolError || r.Summary.Failed != 2 || !strings.Contains(r.Results[1].Result.Error.Message, "skipped") {
		t.Errorf("stop on error: exit %d %s", code, out)
	}

	// The same batch as MCP-Term data.
	code, out, _ = sessCLI(t, nil, "", "call", "--url", url, "--output", "sexpr",
		`{"operations": [{"operation": "list_todos", "params": {"limit": 1, "fields": ["total"]}}, {"operation": "get_todo", "params": {"id": "nope"}}]}`)
	if code != exitToolError || !strings.HasPrefix(out, "(results") || !strings.Contains(out, "(0 (ok (:total 4)") ||
		!strings.Contains(out, "(err INTERNAL_ERROR") || !strings.Contains(out, "(summary :total 2 :succeeded 1 :failed 1)") {
		t.Errorf("sexpr batch: exit %d\n%s", code, out)
	}
}

// TestCallAQLPolicy: the policy sees the real tool with the AQL category as
// a hint. A read-only tool that --aql-map calls DELETE needs --yes, and
// --read-only refuses it; audit and history name the real tool.
func TestCallAQLPolicy(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join(dir, "map.json")
	os.WriteFile(m, []byte(`{"list_todos": {"category": "DELETE"}}`), 0o644)
	audit := filepath.Join(dir, "audit.jsonl")
	state := t.TempDir()
	env := map[string]string{"XDG_STATE_HOME": state}
	req := `{"operation": "list_todos", "params": {"limit": 1}}`

	code, out, errOut := sessCLI(t, env, "", "call", "--audit", audit, req)
	if code != exitOK {
		t.Fatalf("plain: exit %d %s %s", code, out, errOut)
	}
	code, out, errOut = sessCLI(t, env, "", "call", "--audit", audit, "--aql-map", m, req)
	if code != exitUsage || out != "" || !strings.Contains(errOut, `"list_todos"`) || !strings.Contains(errOut, "delete") {
		t.Fatalf("mapped to DELETE without --yes: exit %d %q %q", code, out, errOut)
	}
	code, _, errOut = sessCLI(t, env, "", "call", "--audit", audit, "--aql-map", m, "--yes", "--read-only", req)
	if code != exitUsage || !strings.Contains(errOut, "refused") {
		t.Fatalf("--read-only: exit %d %q", code, errOut)
	}
	code, _, errOut = sessCLI(t, env, "", "call", "--audit", audit, "--aql-map", m, "--yes", req)
	if code != exitOK {
		t.Fatalf("--yes: exit %d %q", code, errOut)
	}
	code, _, errOut = sessCLI(t, env, "", "call", "--audit", audit, "--deny", "list_*", req)
	if code != exitUsage || !strings.Contains(errOut, "--deny") {
		t.Fatalf("--deny on the real name: exit %d %q", code, errOut)
	}

	var verdicts []string
	for _, r := range readAudit(t, audit) {
		if r.Tool != "list_todos" {
			t.Errorf("audit names %q, want the real tool", r.Tool)
		}
		verdicts = append(verdicts, string(r.Decision))
	}
	if got := strings.Join(verdicts, " "); got != "allow confirm deny allow deny" {
		t.Errorf("audit verdicts %q", got)
	}

	log, err := history.Open(filepath.Join(state, "mcpterm", "history.jsonl"), history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	es, err := log.Recent(10)
	if err != nil || len(es) != 2 || es[0].Tool != "list_todos" || !strings.Contains(es[0].Source, `"operation"`) {
		t.Fatalf("history: %v %+v", err, es)
	}
}

func TestCallAQLMaxOutput(t *testing.T) {
	code, out, _ := sessCLI(t, nil, "", "call", "--max-output", "80", `{"operation": "introspect", "params": {"query": "types"}}`)
	if code != exitOK || len(out) > 81 || !strings.Contains(out, "(cut ") {
		t.Errorf("exit %d %q", code, out)
	}
}

// Field selection is never silent: the projected answer's token cost is
// said next to the full one's.
func TestCallAQLFieldsSaysWhatProjectionSaved(t *testing.T) {
	url := demoURL(t)
	code, out, errOut := sessCLI(t, nil, "", "call", "--url", url,
		`{"operation": "list_todos", "params": {"fields": ["items.title"]}}`)
	if code != exitOK {
		t.Fatalf("exit %d %s %s", code, out, errOut)
	}
	r := decodeAQL(t, out)
	if !r.Success || strings.Contains(compactJSON(t, r.Data), `"id"`) || !strings.Contains(compactJSON(t, r.Data), `"title"`) {
		t.Fatalf("not projected to titles: %s", out)
	}
	var projected, full int
	if _, err := fmt.Sscanf(errOut[strings.Index(errOut, "result: ")+len("result: "):], "%d of %d tokens", &projected, &full); err != nil {
		t.Fatalf("no token note on stderr: %q (%v)", errOut, err)
	}
	if projected <= 0 || projected >= full {
		t.Errorf("projected %d of %d tokens: want fewer, and more than none", projected, full)
	}
	// Without fields there is nothing to say.
	_, _, errOut = sessCLI(t, nil, "", "call", "--url", url, `{"operation": "list_todos", "params": {}}`)
	if strings.Contains(errOut, "projected") {
		t.Errorf("a note without fields: %q", errOut)
	}
}
