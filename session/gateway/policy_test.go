package gateway

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/session/policy"
)

func readAudit(t *testing.T, path string) []policy.AuditRecord {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []policy.AuditRecord
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r policy.AuditRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("audit line %q: %v", sc.Text(), err)
		}
		out = append(out, r)
	}
	return out
}

// TestPolicyWithoutYes: like `mcpterm call` without --yes, a destructive
// tool is refused, with a reason the model can relay, and nothing is sent.
// The reason is the one `mcpterm call` gives: the tool is a delete by its
// AQL classification, in term mode too.
func TestPolicyWithoutYes(t *testing.T) {
	up := demoSession(t)
	p, err := policy.New(policy.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	audit, err := policy.OpenAudit(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := newGateway(t, up, Options{Mode: ModeTerm, Policy: p, Audit: audit})
	c, _ := inProcessClient(t, g)

	r := termCall(t, c, `(dt "00000000-0000-0000-0000-000000000000")`)
	if !r.IsError || !strings.HasPrefix(text(r), `(err needs-confirmation "refused: tool \"delete_todo\" is destructive (classified as a delete), and this gateway was started without --yes`) {
		t.Fatalf("delete without --yes: %s", text(r))
	}
	contains(t, text(r), "restarting it with --yes")
	if r := termCall(t, c, `(lt :limit 1)`); r.IsError {
		t.Fatalf("a read-only tool was refused: %s", text(r))
	}
	for _, m := range up.Tap().Messages() {
		if m.Method == "tools/call" && strings.Contains(m.Payload, "delete_todo") {
			t.Fatalf("the refused call reached the upstream: %s", m.Payload)
		}
	}
	recs := readAudit(t, path)
	if len(recs) != 2 {
		t.Fatalf("audit has %d records, want 2", len(recs))
	}
	if r := recs[0]; r.Tool != "delete_todo" || r.Decision != policy.Confirm || r.Outcome != "" || r.Server != "mcpterm-demo" {
		t.Errorf("refusal record: %+v", r)
	}
	if r := recs[1]; r.Tool != "list_todos" || r.Decision != policy.Allow || r.Outcome != "ok" || r.Bytes == 0 || string(r.Arguments) != `{"limit":1}` {
		t.Errorf("call record: %+v", r)
	}
}

// TestPolicyHidesDeniedTools: --read-only and --deny leave tools out of the
// gateway's description (and AQL's operations), and calls to them fail.
func TestPolicyHidesDeniedTools(t *testing.T) {
	up := demoSession(t)
	ro, err := policy.New(policy.Rules{ReadOnly: true, Deny: []string{"data_*"}})
	if err != nil {
		t.Fatal(err)
	}
	g := newGateway(t, up, Options{Mode: ModeTerm, Policy: ro})
	c, _ := inProcessClient(t, g)
	res, err := c.ListTools(ctxT(t, 5*time.Second), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	d := res.Tools[0].Description
	contains(t, d, "file_read", "list_todos", "get_todo", "long_task")
	for _, gone := range []string{"create_todo", "delete_todo", "clear_completed", "note_update", "update_todo", "data_platform_query"} {
		if strings.Contains(d, gone) {
			t.Errorf("%s is listed under --read-only --deny data_*", gone)
		}
	}
	if r := termCall(t, c, `(create_todo "x")`); !r.IsError || !strings.HasPrefix(text(r), "(err unknown-tool") {
		t.Errorf("hidden tool: %s", text(r))
	}
	ann := res.Tools[0].Annotations
	if ann.ReadOnlyHint == nil || !*ann.ReadOnlyHint || *ann.DestructiveHint {
		t.Errorf("a read-only gateway is annotated %+v", ann)
	}

	a := newGateway(t, up, Options{Mode: ModeAQLSemantic, Policy: ro})
	if got := strings.Join(listNames(t, a), " "); got != "mcp_aql_execute mcp_aql_read" {
		t.Errorf("read-only semantic endpoints: %s", got)
	}
	ac, _ := inProcessClient(t, a)
	contains(t, text(callTool(t, ac, "mcp_aql_read", `{"operation":"data_platform_query","params":{}}`)), `"code":"NOT_FOUND_OPERATION"`)
}

// TestPolicyAQLRefusal: in AQL modes a refusal is an AQL failure that says
// why.
func TestPolicyAQLRefusal(t *testing.T) {
	p, err := policy.New(policy.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	g := newGateway(t, demoSession(t), Options{Mode: ModeAQLSingle, Policy: p})
	c, _ := inProcessClient(t, g)
	r := callTool(t, c, "mcp_aql", `{"operation":"clear_completed"}`)
	if !r.IsError {
		t.Fatalf("clear_completed without --yes: %s", text(r))
	}
	contains(t, text(r), `"success":false`, `refused: tool \"clear_completed\" is destructive`)
}

// TestPolicyRefusesAWholeBatch: the policy sees a client's whole call
// before any of it runs, as session.Runner checks every face's plans, so a
// batch with one refused call runs none of its calls: the refused one says
// why, the others that they were not run because of it. Only the refusal
// is audited.
func TestPolicyRefusesAWholeBatch(t *testing.T) {
	p, err := policy.New(policy.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Mode{ModeTerm, ModeAQLSingle} {
		t.Run(string(m), func(t *testing.T) {
			up := demoSession(t)
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			audit, err := policy.OpenAudit(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			g := newGateway(t, up, Options{Mode: m, Policy: p, Audit: audit})
			c, _ := inProcessClient(t, g)
			var r *mcp.CallToolResult
			if m == ModeTerm || m == ModeTermLazy {
				r = termCall(t, c, `(batch (1 (ct "one")) (2 (cc)) (3 (lt)))`)
				contains(t, text(r), `(results (1 (err skipped "not run: another call of the plan needs confirmation"))`,
					`(2 (err needs-confirmation "refused: tool \"clear_completed\" is destructive`, `(3 (err skipped "not run:`)
				if !r.IsError {
					t.Error("a batch none of whose calls ran is not an error")
				}
			} else {
				r = callTool(t, c, "mcp_aql", `{"operations":[{"operation":"create_todo","params":{"title":"one"}},{"operation":"clear_completed"},{"operation":"introspect","params":{"query":"operations"}}]}`)
				resp := obj(t, text(r))
				if got := resp.Get("summary").Compact(); got != `{"total":3,"succeeded":1,"failed":2}` {
					t.Errorf("summary %s: %s", got, text(r))
				}
				contains(t, text(r), `not run: another call of the plan needs confirmation`, `refused: tool \"clear_completed\" is destructive`)
			}
			for _, msg := range up.Tap().Messages() {
				if msg.Method == "tools/call" {
					t.Fatalf("a call of a refused batch reached the upstream: %s", msg.Payload)
				}
			}
			recs := readAudit(t, path)
			if len(recs) != 1 || recs[0].Tool != "clear_completed" || recs[0].Decision != policy.Confirm {
				t.Errorf("audit: %+v", recs)
			}
		})
	}
}

// TestPolicyNilAllowsEverything: a gateway given no policy runs every
// tool, destructive ones too (session.Runner's nil would confirm them).
func TestPolicyNilAllowsEverything(t *testing.T) {
	g := newGateway(t, demoSession(t), Options{Mode: ModeTerm})
	c, _ := inProcessClient(t, g)
	if r := termCall(t, c, `(cc)`); r.IsError || !strings.HasPrefix(text(r), "(ok ") {
		t.Errorf("clear_completed without a policy: %s", text(r))
	}
	a := newGateway(t, demoSession(t), Options{Mode: ModeAQLSemantic})
	ac, _ := inProcessClient(t, a)
	if r := callTool(t, ac, "mcp_aql_delete", `{"operation":"clear_completed"}`); r.IsError {
		t.Errorf("clear_completed without a policy: %s", text(r))
	}
}

// TestPolicyTermSeesAQLCategories: in term mode too the destructive rule
// reads the tool's AQL category, corrected by the overrides, as `mcpterm
// call` does: a tool the map calls a delete needs --yes.
func TestPolicyTermSeesAQLCategories(t *testing.T) {
	p, err := policy.New(policy.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	up := demoSession(t)
	plain := newGateway(t, up, Options{Mode: ModeTerm, Policy: p})
	pc, _ := inProcessClient(t, plain)
	if r := termCall(t, pc, `(ct "x")`); r.IsError {
		t.Fatalf("create_todo: %s", text(r))
	}
	mapped := newGateway(t, up, Options{Mode: ModeTerm, Policy: p, Overrides: aql.Overrides{"create_todo": {Category: aql.Delete}}})
	mc, _ := inProcessClient(t, mapped)
	r := termCall(t, mc, `(ct "x")`)
	if !r.IsError || !strings.HasPrefix(text(r), `(err needs-confirmation "refused: tool \"create_todo\" is destructive (classified as a delete)`) {
		t.Errorf("create_todo mapped to DELETE: %s", text(r))
	}
}
