package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session/hostile"
)

// policyLimit bounds one mcpterm run of the policy suite; it only turns a
// hang into a failure.
const policyLimit = 60 * time.Second

// policyRSS bounds the peak memory of one run: nothing here is big, so
// anything near it is a leak (a gateway chain is two mcpterm processes,
// measured one at a time).
const policyRSS = 300 << 20

// policyCodec is the codec `mcpterm call` reads a scenario's calls with,
// for the short codes and operation names it gives the tools.
func policyCodec(t *testing.T, scenario string) *calls.Codec {
	t.Helper()
	b, err := json.Marshal(hostile.PolicyTools(scenario))
	if err != nil {
		t.Fatal(err)
	}
	set, err := toolset.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return calls.New(set, calls.Options{})
}

// policyRun runs mcpterm ARGS -- (the scenario's server) and checks the
// memory bound.
func policyRun(t *testing.T, scenario string, args ...string) procResult {
	t.Helper()
	r := runMcpterm(t, policyLimit, nil, append(append(args, "--"), hostileServer(t, scenario)...)...)
	if r.MaxRSS > policyRSS {
		t.Errorf("mcpterm %v peaked at %d MB", args, r.MaxRSS>>20)
	}
	return r
}

// viaGateway is the arguments that put `mcpterm serve SERVE...` between a
// client mcpterm and the scenario's server.
func viaGateway(t *testing.T, scenario string, serve ...string) []string {
	exe := hostileServer(t, scenario)[0]
	return append(append([]string{exe, mainArg, "serve"}, serve...), append([]string{"--"}, hostileServer(t, scenario)...)...)
}

// TestHostilePolicyDenyVariants (policy/mixed): --deny delete_file refuses
// the server's Delete_File too, by its name in any case, its short code
// and its AQL operation name, with exit 2 and nothing sent; no unknown
// name's "did you mean" offers either variant. (A tool name is looked up
// exactly, so DELETE_FILE is an unknown tool, whose suggestions are
// checked here too.)
func TestHostilePolicyDenyVariants(t *testing.T) {
	t.Parallel() // each runs its own processes
	const sc = "policy/mixed"
	codec := policyCodec(t, sc)
	a, err := codec.Adapter()
	if err != nil {
		t.Fatal(err)
	}
	code, op := codec.Code("Delete_File"), a.ForTool("Delete_File").Name
	if code == "Delete_File" || op == "delete_file" {
		t.Fatalf("the scenario needs Delete_File to have a code and an operation of its own: %q %q", code, op)
	}
	for _, call := range []string{`(delete_file)`, `(Delete_File :q "x")`, "(" + code + ")",
		`{"operation":"delete_file"}`, `{"operation":"` + op + `"}`, `{"name":"Delete_File","arguments":{}}`} {
		r := policyRun(t, sc, "call", "--deny", "delete_file", "--yes", call)
		if r.Code != exitUsage || !strings.Contains(r.Stderr, `is refused by --deny "delete_file"`) || strings.Contains(r.Stdout+r.Stderr, "ran ") {
			t.Errorf("%s: exit %d\nstdout %s\nstderr %s", call, r.Code, r.Stdout, r.Stderr)
		}
	}
	// Without the deny list the same near miss is answered with both.
	if r := policyRun(t, sc, "call", "--yes", `(delete_fil)`); !strings.Contains(r.Stderr, "did you mean delete_file") {
		t.Fatalf("the control case suggests nothing: %s", r.Stderr)
	}
	for _, call := range []string{`(delete_fil)`, `(Delete_Fil)`, `(DELETE_FILE)`, `{"operation":"delete_fil"}`, `{"operation":"Delete_File"}`} {
		r := policyRun(t, sc, "call", "--deny", "delete_file", "--yes", call)
		out := r.Stdout + r.Stderr
		_, after, _ := strings.Cut(out, "did you mean")
		if r.Code != exitUsage || strings.Contains(strings.ToLower(after), "delete_file") || strings.Contains(after, " "+code+"?") ||
			strings.Contains(out, `"available"`) && strings.Contains(strings.ToLower(out[strings.Index(out, `"available"`):]), "delete_file") {
			t.Errorf("%s: a denied tool is suggested (exit %d):\n%s", call, r.Code, out)
		}
	}
}

// TestHostilePolicyVariantOnly (policy/variant): with no delete_file at
// all, --deny delete_file still refuses Delete_File by each of its names,
// the AQL operation "delete_file" among them (it does not resolve to a
// tool the deny list misses).
func TestHostilePolicyVariantOnly(t *testing.T) {
	t.Parallel() // each runs its own processes
	const sc = "policy/variant"
	code := policyCodec(t, sc).Code("Delete_File")
	for _, call := range []string{`(Delete_File)`, "(" + code + ")", `{"operation":"delete_file"}`} {
		r := policyRun(t, sc, "call", "--deny", "delete_file", "--yes", call)
		if r.Code != exitUsage || !strings.Contains(r.Stderr, `refused: tool "Delete_File"`) || strings.Contains(r.Stdout, "ran ") {
			t.Errorf("%s: exit %d\nstdout %s\nstderr %s", call, r.Code, r.Stdout, r.Stderr)
		}
	}
	if r := policyRun(t, sc, "call", "--deny", "delete_file", `(read_note)`); r.Code != 0 || !strings.Contains(r.Stdout, "ran read_note") {
		t.Errorf("read_note: exit %d %s %s", r.Code, r.Stdout, r.Stderr)
	}
}

// TestHostilePolicyLyingAnnotations (policy/mixed): annotations are hints.
// drop_all says readOnlyHint: true but its name makes it a delete, so it
// needs --yes and --read-only refuses it; list_and_drop is a delete by
// the "drop" in its name; list_items is a read by name only, so
// --read-only refuses it too.
func TestHostilePolicyLyingAnnotations(t *testing.T) {
	t.Parallel() // each runs its own processes
	const sc = "policy/mixed"
	for tool, want := range map[string]string{
		"drop_all":      `tool "drop_all" is destructive (classified as a delete, whatever its readOnlyHint says); pass --yes`,
		"list_and_drop": `tool "list_and_drop" is destructive (classified as a delete); pass --yes`,
		"list_items":    `tool "list_items" is destructive (not read-only and no destructiveHint`,
	} {
		r := policyRun(t, sc, "call", "("+tool+")")
		if r.Code != exitUsage || !strings.Contains(r.Stderr, want) || strings.Contains(r.Stdout, "ran ") {
			t.Errorf("%s without --yes: exit %d %s", tool, r.Code, r.Stderr)
		}
		r = policyRun(t, sc, "call", "--read-only", "--yes", "("+tool+")")
		if r.Code != exitUsage || !strings.Contains(r.Stderr, "--read-only") || strings.Contains(r.Stdout, "ran ") {
			t.Errorf("%s under --read-only --yes: exit %d %s", tool, r.Code, r.Stderr)
		}
	}
	r := policyRun(t, sc, "tools")
	for _, line := range strings.Split(r.Stdout, "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[1] == "readonly" && f[0] != "read_note" {
			t.Errorf("shown read-only: %s", line)
		}
	}
}

// gatewayTools lists the gateway's tools as `mcpterm tools --format json`
// prints them.
func gatewayTools(t *testing.T, sc string, serve ...string) map[string]map[string]any {
	t.Helper()
	r := runMcpterm(t, policyLimit, nil, append([]string{"tools", "--format", "json", "--"}, viaGateway(t, sc, serve...)...)...)
	if r.Code != 0 {
		t.Fatalf("tools via the gateway: exit %d %s", r.Code, r.Stderr)
	}
	var list []map[string]any
	if err := json.Unmarshal([]byte(r.Stdout), &list); err != nil {
		var wrapped struct {
			Tools []map[string]any `json:"tools"`
		}
		if err2 := json.Unmarshal([]byte(r.Stdout), &wrapped); err2 != nil {
			t.Fatalf("tools --format json: %v\n%s", err, r.Stdout)
		}
		list = wrapped.Tools
	}
	out := map[string]map[string]any{}
	for _, tool := range list {
		out[tool["name"].(string)] = tool
	}
	return out
}

// TestHostilePolicyGatewayHints (policy/mixed through `mcpterm serve`):
// no gateway tool is annotated read-only or described as safe while it
// carries a tool whose read-only-ness rests on its name or on a lying hint.
func TestHostilePolicyGatewayHints(t *testing.T) {
	t.Parallel() // each runs its own processes
	const sc = "policy/mixed"
	for _, mode := range []string{"term", "aql-single", "aql-semantic"} {
		tools := gatewayTools(t, sc, "--mode", mode)
		if len(tools) == 0 {
			t.Fatalf("%s: no tools", mode)
		}
		for name, tool := range tools {
			ann, _ := tool["annotations"].(map[string]any)
			if ann["readOnlyHint"] != false || ann["destructiveHint"] != true {
				t.Errorf("%s %s: annotations %v", mode, name, ann)
			}
			if d, _ := tool["description"].(string); strings.Contains(d, "safe, read-only") {
				t.Errorf("%s %s is described as safe: %q", mode, name, d)
			}
		}
	}
	// With only the vouched read left, the gateway may say read-only.
	tools := gatewayTools(t, sc, "--mode", "aql-semantic", "--allow", "read_note")
	if ann, _ := tools["mcp_aql_read"]["annotations"].(map[string]any); len(tools) != 1 || ann["readOnlyHint"] != true || ann["destructiveHint"] != false {
		t.Errorf("--allow read_note: %v", tools)
	}
}

// TestHostilePolicyGatewayDestructive (policy/mixed through `mcpterm
// serve`): list_and_drop reaches the upstream only when the gateway's
// policy allows a destructive tool, whichever endpoint carries it: put on
// mcp_aql_read by --aql-map, it is refused there without --yes and runs
// with it; by its name it is a DELETE, which mcp_aql_read refuses.
func TestHostilePolicyGatewayDestructive(t *testing.T) {
	t.Parallel() // each runs its own processes
	const sc = "policy/mixed"
	m := t.TempDir() + "/map.json"
	if err := os.WriteFile(m, []byte(`{"list_and_drop": {"category": "READ"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	call := `(mcp_aql_read :operation "list_and_drop")`
	client := func(serve ...string) procResult {
		return runMcpterm(t, policyLimit, nil, append([]string{"call", "--yes", call, "--"}, viaGateway(t, sc, serve...)...)...)
	}
	r := client("--mode", "aql-semantic", "--aql-map", m)
	if r.Code != exitToolError || !strings.Contains(r.Stdout, `refused: tool \\\"list_and_drop\\\" is destructive`) || strings.Contains(r.Stdout, "ran list_and_drop") {
		t.Errorf("without --yes: exit %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	if r := client("--mode", "aql-semantic", "--aql-map", m, "--yes"); r.Code != 0 || !strings.Contains(r.Stdout, "ran list_and_drop") {
		t.Errorf("with --yes: exit %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	if r := client("--mode", "aql-semantic", "--yes"); r.Code != exitToolError || !strings.Contains(r.Stdout, "VALIDATION_ENDPOINT_MISMATCH") {
		t.Errorf("as a DELETE through mcp_aql_read: exit %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
}

// TestHostilePolicyGatewayDenyVariants (policy/mixed through `mcpterm
// serve --deny delete_file`): neither variant is listed or reachable, and
// the refusal of a near miss suggests neither.
func TestHostilePolicyGatewayDenyVariants(t *testing.T) {
	t.Parallel() // each runs its own processes
	const sc = "policy/mixed"
	for _, expr := range []string{`(Delete_File)`, `(delete_fil)`, `(df)`} {
		call := `(mcp_term :expr "` + expr + `")`
		r := runMcpterm(t, policyLimit, nil, append([]string{"call", "--yes", call, "--"}, viaGateway(t, sc, "--deny", "delete_file", "--yes")...)...)
		if r.Code != exitToolError || !strings.Contains(r.Stdout, "unknown-tool") || strings.Contains(r.Stdout, "ran ") ||
			strings.Contains(strings.ToLower(strings.ReplaceAll(r.Stdout, expr[1:len(expr)-1], "")), "delete_file") {
			t.Errorf("%s: exit %d\n%s\n%s", expr, r.Code, r.Stdout, r.Stderr)
		}
	}
}
