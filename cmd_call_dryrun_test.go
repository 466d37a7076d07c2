package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset/toolsettest"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

func dryRunFixtures(t *testing.T) *toolset.Set {
	t.Helper()
	data, err := os.ReadFile("convert/call/testdata/fixtures.tools.json")
	if err != nil {
		t.Fatal(err)
	}
	set, err := toolset.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func dryRun(t testing.TB, set *toolset.Set, src, printAs string) (int, string, string) {
	t.Helper()
	return dryRunWith(t, set, src, printAs, calls.Options{})
}

func TestDryRunJSON(t *testing.T) {
	set := dryRunFixtures(t)
	code, out, errOut := dryRun(t, set, `(fr "/etc/hosts" :utf8)`, "json")
	want := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"file_read","arguments":{"path":"/etc/hosts","enc":"utf8"}}}` + "\n"
	if code != exitOK || out != want || errOut != "" {
		t.Errorf("exit %d\nstdout %q\nstderr %q\nwant %q", code, out, errOut, want)
	}
	// a batch prints one request per line, JSON-RPC ids counting from 1
	code, out, _ = dryRun(t, set, `(batch :concurrency 2 (a (fr "/a")) (b (bp "/" "x" "y")))`, "")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != exitOK || len(lines) != 2 ||
		lines[0] != `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"file_read","arguments":{"path":"/a"}}}` ||
		lines[1] != `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"batch_paths","arguments":{"root":"/","paths":["x","y"]}}}` {
		t.Errorf("batch: exit %d\n%s", code, out)
	}
	// what --print json writes reads back as input
	code, out2, _ := dryRun(t, set, "["+strings.ReplaceAll(strings.TrimSpace(out), "\n", ",")+"]", "json")
	if code != exitOK || out2 != out {
		t.Errorf("JSON-RPC requests as input: exit %d\n%s", code, out2)
	}
}

func TestDryRunTerm(t *testing.T) {
	set := dryRunFixtures(t)
	code, out, _ := dryRun(t, set, `{"name": "file_read", "arguments": {"path": "/etc/hosts", "enc": "base64"}}`, "term")
	if code != exitOK || out != "(fr \"/etc/hosts\" :enc :base64)\n" {
		t.Errorf("exit %d, %q", code, out)
	}
	code, out, _ = dryRun(t, set, `(batch :stop-on-error (1 (fr "/etc/passwd")) (2 (nu "doc.md" (insert 0 ((paragraph "intro" () ("Hello world" "and a somewhat longer second line of text")))))))`, "term")
	want := `(batch :stop-on-error
  (1 (fr "/etc/passwd"))
  (2
    (nu "doc.md"
      ((insert 0 ((paragraph "intro" () ("Hello world" "and a somewhat longer second line of text"))))))))
`
	if code != exitOK || out != want {
		t.Errorf("exit %d\n%s\nwant\n%s", code, out, want)
	}
}

func TestDryRunErrors(t *testing.T) {
	set := dryRunFixtures(t)
	code, out, errOut := dryRun(t, set, "(batch\n  (1 (fr \"/x\" :encc :utf8)))", "json")
	want := "mcpterm call: 2:15: unknown parameter :encc (did you mean :enc?); expected one of :path :enc :off :lim\n" +
		"    (1 (fr \"/x\" :encc :utf8)))\n" +
		"                ^\n"
	if code != exitUsage || out != "" || errOut != want {
		t.Errorf("exit %d\nstdout %q\nstderr:\n%s\nwant:\n%s", code, out, errOut, want)
	}
	if code, _, errOut := dryRun(t, set, `(fr "/x")`, "yaml"); code != exitUsage || !strings.Contains(errOut, `unknown --print "yaml"`) {
		t.Errorf("bad --print: exit %d %q", code, errOut)
	}
	if code, _, errOut := dryRun(t, set, `{"name":"li","arguments":{"owner":"o","repo":"r","page":0}}`, "json"); code != exitUsage || !strings.Contains(errOut, "1:57: invalid argument /page: minimum: got 0, want 1") {
		t.Errorf("validation error: exit %d %q", code, errOut)
	}
	// the caret line never carries control characters from the input
	_, _, errOut = dryRun(t, set, "(fr \x1b[31m)", "json")
	if strings.ContainsRune(errOut, 0x1b) {
		t.Errorf("stderr echoes an escape character: %q", errOut)
	}
}

// Names from a server may hold C1 controls, which JSON allows raw; the
// printed requests escape them.
func TestDryRunTerminalSafe(t *testing.T) {
	set, err := toolset.Parse([]byte(`[{"name":"evil\u009b2J","inputSchema":{"type":"object","properties":{"s":{"type":"string"}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := dryRun(t, set, `{"name":"evil\u009b2J","arguments":{"s":"\u0085x\u007f"}}`, "json")
	if code != exitOK || strings.ContainsAny(out, "\u009b\u0085\u007f") || !strings.Contains(out, `evil\u009b2J`) || !strings.Contains(out, `\u0085x\u007f`) {
		t.Errorf("exit %d %q %q", code, out, errOut)
	}
	code, out, _ = dryRun(t, set, `{"name":"evil\u009b2J","arguments":{"s":"\u0085x"}}`, "term")
	if code != exitOK || strings.ContainsAny(out, "\u009b\u0085") {
		t.Errorf("term output holds C1 controls: %q", out)
	}
}

func todoFixture(t testing.TB) *toolset.Set {
	t.Helper()
	data, err := os.ReadFile("convert/aql/testdata/todo.tools.json")
	if err != nil {
		t.Fatal(err)
	}
	set, err := toolset.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func dryRunWith(t testing.TB, set *toolset.Set, src, printAs string, o calls.Options) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := (&cli{stdout: &out, stderr: &errOut}).dryRunCall(calls.New(set, o), src, printAs)
	return code, out.String(), errOut.String()
}

// camelSet has names in the styles AQL rewrites.
const camelSet = `[{"name":"getUserByID","inputSchema":{"type":"object","properties":{"userId":{"type":"string"},"dryRun":{"type":"boolean"}},"required":["userId"]}},
	{"name":"API-delete-user","inputSchema":{"type":"object","properties":{"userId":{"type":"string"}}},"annotations":{"destructiveHint":true}}]`

func TestDryRunPrintAQL(t *testing.T) {
	set, err := toolset.Parse([]byte(camelSet))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ src, want string }{
		{`(getUserByID "u1" :dryRun true)`, `{"operation":"get_user_by_id","params":{"user_id":"u1","dry_run":true}}`},
		{`{"name":"API-delete-user","arguments":{"userId":"u2"}}`, `{"operation":"api_delete_user","params":{"user_id":"u2"}}`},
		{`(batch (a (getUserByID "u1")) (b (API-delete-user :userId "u1")))`,
			`{"operations":[{"operation":"get_user_by_id","params":{"user_id":"u1"}},{"operation":"api_delete_user","params":{"user_id":"u1"}}]}`},
		// AQL input prints canonical AQL: snake names, params object.
		{`{"operation":"get_user_by_id","userId":"u1","params":{"dry_run":false}}`, `{"operation":"get_user_by_id","params":{"user_id":"u1","dry_run":false}}`},
	}
	for _, tc := range cases {
		code, out, errOut := dryRun(t, set, tc.src, "aql")
		if code != exitOK || out != tc.want+"\n" || errOut != "" {
			t.Errorf("%s\nexit %d\nstdout %q\nstderr %q\nwant %s", tc.src, code, out, errOut, tc.want)
		}
	}
	// What --print aql writes is AQL input that means the same tools/call.
	code, out, _ := dryRun(t, set, `{"operation":"get_user_by_id","params":{"user_id":"u1","dry_run":true}}`, "json")
	if want := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"getUserByID","arguments":{"userId":"u1","dryRun":true}}}` + "\n"; code != exitOK || out != want {
		t.Errorf("AQL --print json: exit %d %q", code, out)
	}
	code, out, _ = dryRun(t, set, `{"operation":"get_user_by_id","params":{"user_id":"u1","dry_run":true}}`, "term")
	if code != exitOK || out != "(gubi \"u1\" :dryRun true)\n" {
		t.Errorf("AQL --print term: exit %d %q", code, out)
	}
	// Batch options have no AQL spelling, and the user hears so.
	code, out, errOut := dryRun(t, set, `(batch :concurrency 2 (1 (getUserByID "u1")))`, "aql")
	if code != exitOK || !strings.HasPrefix(out, `{"operations":`) || !strings.Contains(errOut, ":concurrency") {
		t.Errorf("batch options: exit %d %q %q", code, out, errOut)
	}
}

func TestDryRunAQLInput(t *testing.T) {
	set := todoFixture(t)
	batch := `{"operations": [
		{"operation": "update_todo", "params": {"id": "t1", "input": {"completed": true}}},
		{"operation": "introspect", "params": {"query": "types"}},
		{"operation": "list_todos", "limit": 2, "params": {"fields": ["items.id"]}}]}`
	code, out, errOut := dryRun(t, set, batch, "json")
	want := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"update_todo","arguments":{"id":"t1","completed":true}}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_todos","arguments":{"limit":2}}}` + "\n"
	if code != exitOK || out != want {
		t.Errorf("--print json: exit %d\n%s\nwant\n%s", code, out, want)
	}
	if !strings.Contains(errOut, "operations[1] (introspect) is answered locally") || !strings.Contains(errOut, "fields items.id are applied to the result client-side") {
		t.Errorf("notes: %q", errOut)
	}
	code, out, _ = dryRun(t, set, batch, "aql")
	want = `{"operations":[{"operation":"update_todo","params":{"id":"t1","completed":true}},{"operation":"introspect","params":{"query":"types"}},{"operation":"list_todos","params":{"limit":2,"fields":["items.id"]}}]}` + "\n"
	if code != exitOK || out != want {
		t.Errorf("--print aql: exit %d\n%s\nwant\n%s", code, out, want)
	}
	code, out, _ = dryRun(t, set, batch, "term")
	if want := "(batch (0 (ut \"t1\" :completed true)) (2 (lt :limit 2)))\n"; code != exitOK || out != want {
		t.Errorf("--print term: exit %d %q, want %q", code, out, want)
	}
	// ; comments may precede AQL as they may precede any JSON call.
	code, out, _ = dryRun(t, set, "; list them\n  ; two\n{\"operation\": \"list_todos\", \"params\": {\"limit\": 1}}\n", "aql")
	if code != exitOK || out != `{"operation":"list_todos","params":{"limit":1}}`+"\n" {
		t.Errorf("comments: exit %d %q", code, out)
	}
	// Only introspect: nothing to send.
	code, out, errOut = dryRun(t, set, `{"operation":"introspect","params":{"query":"operations"}}`, "json")
	if code != exitOK || out != "" || !strings.Contains(errOut, "answered locally") {
		t.Errorf("introspect: exit %d %q %q", code, out, errOut)
	}
}

func TestDryRunAQLErrors(t *testing.T) {
	set := todoFixture(t)
	// Any failing request fails the dry run: exit 2, nothing on stdout, the
	// AQL error as JSON on stderr.
	code, out, errOut := dryRun(t, set, `{"operations": [{"operation": "list_todos"}, {"operation": "delete_todo", "params": {"idd": "x"}}]}`, "json")
	prefix := "mcpterm call: operations[1] (delete_todo): "
	if code != exitUsage || out != "" || !strings.HasPrefix(errOut, prefix) {
		t.Fatalf("exit %d %q %q", code, out, errOut)
	}
	var resp struct {
		Success bool
		Error   struct {
			Code    string
			Details struct {
				UnknownParams []string `json:"unknown_params"`
				ValidParams   []string `json:"valid_params"`
			}
		}
	}
	if err := json.Unmarshal([]byte(strings.TrimPrefix(strings.TrimSpace(errOut), prefix)), &resp); err != nil ||
		resp.Success || resp.Error.Code != "VALIDATION_UNKNOWN_PARAM" || resp.Error.Details.UnknownParams[0] != "idd" || resp.Error.Details.ValidParams[0] != "id" {
		t.Errorf("%v: %q", err, errOut)
	}
	semantic := calls.Options{Mode: aql.Semantic, Endpoint: aql.Read.Tool()}
	code, _, errOut = dryRunWith(t, set, `{"operation": "create_todo", "params": {"title": "x"}}`, "aql", semantic)
	if code != exitUsage || !strings.Contains(errOut, `"code":"VALIDATION_ENDPOINT_MISMATCH"`) || !strings.Contains(errOut, "mcp_aql_create") {
		t.Errorf("endpoint: exit %d %q", code, errOut)
	}
	for src, want := range map[string]string{
		`{"operation": "list_todo"}`:                                                  `"did_you_mean":["list_todos"`,
		`{"operation": "list_todos", "params": {"limit": "ten"}}`:                     "VALIDATION_INVALID_TYPE",
		`{"operation": "get_todo"}`:                                                   "VALIDATION_MISSING_PARAM",
		`{"operation": "list_todos"` + strings.Repeat(" ", aql.MaxRequestBytes) + `}`: "VALIDATION_PAYLOAD_TOO_LARGE",
		`{"operation": "list_todos", "params": {`:                                     "invalid JSON",
		"{\"operation\": \"list_todos\", \"params\": {\"q\": \"\xff\"}}":              "VALIDATION_INVALID_ENCODING",
	} {
		code, out, errOut := dryRun(t, set, src, "json")
		if code != exitUsage || out != "" || !strings.Contains(errOut, want) {
			t.Errorf("%.60q: exit %d %q %.300q", src, code, out, errOut)
		}
	}
}

// TestDryRunEquivalence checks AQL <-> S-expression <-> JSON-RPC on every
// tool of the demo fixtures and the shared corpus: a call written as an
// S-expression, printed as AQL, means the same tools/call; AQL printed as
// AQL is a fixed point; AQL printed as MCP-Term reads back to the same
// request.
func TestDryRunEquivalence(t *testing.T) {
	sets := []*toolset.Set{todoFixture(t), dryRunFixtures(t)}
	if files, _ := filepath.Glob(filepath.Join("..", "shared", "corpus", "*.tools.json")); len(files) > 0 {
		for _, f := range files {
			sets = append(sets, toolsettest.Load(t, f))
		}
	} else {
		t.Log("../shared/corpus not present: checking the fixtures only")
	}
	checked := 0
	for _, set := range sets {
		r := call.NewResolver(set)
		for _, tool := range set.Tools {
			src := r.Template(tool.Name)
			code, rpc, _ := dryRun(t, set, src, "json")
			if code != exitOK {
				continue // a placeholder below a minimum, say
			}
			code, q, errOut := dryRun(t, set, src, "aql")
			if code != exitOK {
				t.Errorf("%s: %s --print aql: exit %d %s", set.Server, src, code, errOut)
				continue
			}
			q = strings.TrimSpace(q)
			if code, rpc2, errOut := dryRun(t, set, q, "json"); code != exitOK || rpc2 != rpc {
				t.Errorf("%s: %s\nAQL %s\n--print json: exit %d %s%s\nwant %s", set.Server, src, q, code, rpc2, errOut, rpc)
			}
			if code, q2, _ := dryRun(t, set, q, "aql"); code != exitOK || strings.TrimSpace(q2) != q {
				t.Errorf("%s: AQL %s is not a fixed point: %s", set.Server, q, q2)
			}
			code, term, errOut := dryRun(t, set, q, "term")
			if code != exitOK {
				t.Errorf("%s: AQL %s --print term: exit %d %s", set.Server, q, code, errOut)
				continue
			}
			if code, rpc3, _ := dryRun(t, set, term, "json"); code != exitOK || rpc3 != rpc {
				t.Errorf("%s: AQL %s as term %s reads back as %s, want %s", set.Server, q, term, rpc3, rpc)
			}
			checked++
		}
	}
	if checked < 10 {
		t.Fatalf("only %d calls checked", checked)
	}
	t.Logf("%d calls checked", checked)
}

// FuzzDryRunAQL feeds any text to the dry run in every print form: no
// panic, exit 0 or 2, nothing a terminal would obey on stdout, and printed
// AQL is a fixed point.
func FuzzDryRunAQL(f *testing.F) {
	f.Add(`{"operation": "update_todo", "params": {"id": "t1", "input": {"completed": true}}}`)
	f.Add(`{"operations": [{"operation": "introspect", "params": {"query": "types"}}, {"operation": "list_todos", "limit": 2, "fields": ["items.id"]}]}`)
	f.Add(`{"operation": "create_todo", "params": {"title": "\u009b2J", "_meta": {}}}`)
	f.Add(`{"operation": "introspect", "params": {"query": "operations", "name": "get_todo"}}`)
	f.Add(`{"operations": [[], 1, {"operation": {}}, {"operations": []}]}`)
	f.Add(`(create_todo "x" :completed true)`)
	set := todoFixture(f)
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		for _, printAs := range []string{"json", "term", "aql"} {
			code, out, _ := dryRunWith(t, set, src, printAs, calls.Options{})
			if code != exitOK && code != exitUsage {
				t.Fatalf("--print %s: exit %d", printAs, code)
			}
			if strings.ContainsFunc(out, func(r rune) bool { return r == 0x1b || r >= 0x7f && r <= 0x9f }) {
				t.Fatalf("--print %s: control character in %q", printAs, out)
			}
			if printAs == "aql" && code == exitOK && calls.SyntaxOf(src) == calls.AQL {
				if code2, out2, errOut := dryRunWith(t, set, out, "aql", calls.Options{}); code2 != exitOK || out2 != out {
					t.Fatalf("not a fixed point:\n%s\n%s%s", out, out2, errOut)
				}
			}
		}
	})
}

// BenchmarkDryRunAQL is the command line's own share of an AQL call: read
// the document, build the adapter, check and translate a 3-operation batch,
// print the tools/call requests.
func BenchmarkDryRunAQL(b *testing.B) {
	set := todoFixture(b)
	src := `{"operations": [
		{"operation": "update_todo", "params": {"id": "t1", "input": {"completed": true}}},
		{"operation": "introspect", "params": {"query": "operations", "name": "update_todo"}},
		{"operation": "list_todos", "limit": 2, "params": {"fields": ["items.id"]}}]}`
	b.ReportAllocs()
	for b.Loop() {
		if code, _, errOut := dryRun(b, set, src, "json"); code != exitOK {
			b.Fatal(errOut)
		}
	}
}
