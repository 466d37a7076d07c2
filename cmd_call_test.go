package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/session/history"
	"github.com/mcpterm/mcpterm/session/policy"
)

func TestCallSexprAndJSON(t *testing.T) {
	code, out, errOut := sessCLI(t, nil, "", "call", `(file_read "/docs/README.md" :limit 14)`)
	if code != exitOK || strings.TrimSpace(out) != `(ok "# mcpterm demo")` {
		t.Fatalf("sexpr: exit %d %q %q", code, out, errOut)
	}
	code, out, errOut = sessCLI(t, nil, "", "call", "--output", "json", `{"name":"file_read","arguments":{"path":"/docs/README.md","limit":14}}`)
	var res struct {
		Content []struct{ Text string } `json:"content"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &res) != nil || len(res.Content) != 1 || res.Content[0].Text != "# mcpterm demo" {
		t.Fatalf("json: exit %d %q %q", code, out, errOut)
	}
	// From stdin and from a file.
	code, out, _ = sessCLI(t, nil, `(file_read "/docs/README.md" :limit 5)`, "call", "-f", "-")
	if code != exitOK || !strings.Contains(out, `"# mcp"`) {
		t.Errorf("-f -: exit %d %q", code, out)
	}
	f := filepath.Join(t.TempDir(), "batch.mcpt") // as the workbench saves them
	os.WriteFile(f, []byte("; a kept batch\n(batch\n  (1 (file_read \"/docs/README.md\" :limit 3))\n  (2 (file_read \"/missing\")))\n"), 0o644)
	code, out, _ = sessCLI(t, nil, "", "call", "-f", f)
	if code != exitToolError || !strings.Contains(out, `(1 (ok "# m"))`) || !strings.Contains(out, "(2 (err") {
		t.Errorf("-f FILE batch: exit %d %q", code, out)
	}
}

func TestCallExitCodes(t *testing.T) {
	cases := []struct {
		name string
		args []string
		code int
		out  string // in stdout or stderr
	}{
		{"ok", []string{`(list_todos :limit 1)`}, exitOK, "(ok"},
		{"tool error", []string{`(get_todo "nope")`}, exitToolError, "not found"},
		{"parse error", []string{`(file_read`}, exitUsage, "mcpterm call:"},
		{"unknown tool", []string{`(no_such_tool)`}, exitUsage, "unknown tool"},
		{"invalid arguments", []string{`(long_task :steps 1000)`}, exitUsage, "mcpterm call:"},
		{"timeout", []string{"--timeout", "150ms", `(long_task :steps 5 :delay_ms 2000)`}, exitTimeout, "(err timeout"},
		{"no expression", []string{}, exitUsage, "no call given"},
		{"two expressions", []string{"(a)", "(b)"}, exitUsage, "one call expression"},
		{"bad output", []string{"--output", "xml", "(list_todos)"}, exitUsage, "--output"},
		{"connection", []string{"(x)", "--", "/nonexistent/srv"}, exitConnect, "/nonexistent/srv"},
		{"offline call", []string{"--tools", "testdata-missing.json", "(x)"}, exitUsage, "--tools"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := sessCLI(t, nil, "", append([]string{"call"}, tc.args...)...)
			if code != tc.code || !strings.Contains(out+errOut, tc.out) {
				t.Errorf("exit %d (want %d); stdout %q stderr %q", code, tc.code, out, errOut)
			}
		})
	}
}

func TestCallBatchExitIsWorst(t *testing.T) {
	code, out, _ := sessCLI(t, nil, "", "call", "--timeout", "200ms",
		`(batch :concurrency 3 (ok (list_todos :limit 1)) (bad (get_todo "nope")) (slow (long_task :steps 3 :delay_ms 3000)))`)
	if code != exitTimeout || !strings.Contains(out, ":items") || !strings.Contains(out, "(bad (err tool") || !strings.Contains(out, "(slow (err timeout") {
		t.Errorf("exit %d: %s", code, out)
	}
	code, out, _ = sessCLI(t, nil, "", "call", "--stop-on-error", `(batch (1 (get_todo "nope")) (2 (list_todos)))`)
	if code != exitToolError || !strings.Contains(out, "(2 (err skipped") {
		t.Errorf("stop on error: exit %d: %s", code, out)
	}
}

func TestCallPolicyAndAudit(t *testing.T) {
	dir := t.TempDir()
	audit := filepath.Join(dir, "audit.jsonl")
	// Destructive without --yes: refused before anything runs, even the
	// harmless call in the same batch.
	code, out, errOut := sessCLI(t, nil, "", "call", "--audit", audit,
		`(batch (1 (list_todos)) (2 (clear_completed)))`)
	if code != exitUsage || out != "" || !strings.Contains(errOut, `"clear_completed" is destructive`) {
		t.Fatalf("no --yes: exit %d %q %q", code, out, errOut)
	}
	code, _, errOut = sessCLI(t, nil, "", "call", "--audit", audit, "--yes", `(clear_completed)`)
	if code != exitOK {
		t.Fatalf("--yes: exit %d %q", code, errOut)
	}
	code, _, errOut = sessCLI(t, nil, "", "call", "--audit", audit, "--read-only", `(create_todo "x")`)
	if code != exitUsage || !strings.Contains(errOut, "--read-only") {
		t.Errorf("--read-only: exit %d %q", code, errOut)
	}
	code, _, errOut = sessCLI(t, nil, "", "call", "--audit", audit, "--deny", "file_*", `(file_read "/docs/README.md")`)
	if code != exitUsage || !strings.Contains(errOut, "--deny") {
		t.Errorf("--deny: exit %d %q", code, errOut)
	}
	code, _, errOut = sessCLI(t, nil, "", "call", "--audit", audit, "--allow", "list_*,get_*", `(file_read "/docs/README.md")`)
	if code != exitUsage || !strings.Contains(errOut, "--allow") {
		t.Errorf("--allow: exit %d %q", code, errOut)
	}
	code, _, _ = sessCLI(t, nil, "", "call", "--audit", audit, "--allow", "list_*", `(list_todos)`)
	if code != exitOK {
		t.Errorf("allowed call: exit %d", code)
	}
	recs := readAudit(t, audit)
	want := []struct {
		tool string
		v    policy.Verdict
	}{
		{"clear_completed", policy.Confirm}, {"clear_completed", policy.Allow}, {"create_todo", policy.Deny},
		{"file_read", policy.Deny}, {"file_read", policy.Deny}, {"list_todos", policy.Allow},
	}
	if len(recs) != len(want) {
		t.Fatalf("%d audit records: %+v", len(recs), recs)
	}
	for i, w := range want {
		if recs[i].Tool != w.tool || recs[i].Decision != w.v {
			t.Errorf("record %d: %s %s, want %s %s", i, recs[i].Tool, recs[i].Decision, w.tool, w.v)
		}
	}
	if recs[1].Outcome != "ok" || recs[1].Bytes == 0 {
		t.Errorf("run record: %+v", recs[1])
	}
}

func TestCallMaxOutputAndSanitising(t *testing.T) {
	code, out, _ := sessCLI(t, nil, "", "call", "--max-output", "60", `(file_read "/docs/README.md")`)
	if code != exitOK || len(out) > 61 || !strings.Contains(out, "(cut ") {
		t.Errorf("--max-output: exit %d %q (%d bytes)", code, out, len(out))
	}
	// What the server says back (here: the demo echoing a path in its error)
	// reaches the terminal without escape sequences.
	code, out, errOut := sessCLI(t, nil, "", "call", `(file_read "/x\u001b]52;c;aGk=\u0007\u001b[2J")`)
	if code != exitToolError || strings.ContainsRune(out+errOut, 0x1b) || strings.ContainsRune(out, 0x07) {
		t.Errorf("escape reached the terminal: exit %d %q %q", code, out, errOut)
	}
	code, out, _ = sessCLI(t, nil, "", "call", "--output", "json", `(file_read "/x\u001b[31m")`)
	if code != exitToolError || strings.ContainsRune(out, 0x1b) || !json.Valid([]byte(out)) {
		t.Errorf("json output not clean: %q", out)
	}
}

func TestCallHistory(t *testing.T) {
	state := t.TempDir()
	env := map[string]string{"XDG_STATE_HOME": state}
	sessCLI(t, env, "", "call", `(file_read "/docs/README.md" :limit 3)`)
	sessCLI(t, env, "", "call", "--timeout", "100ms", `(long_task :steps 2 :delay_ms 1000)`)
	sessCLI(t, env, "", "call", `(batch (1 (get_todo "nope")) (2 (list_todos :limit 1)))`)
	log, err := history.Open(filepath.Join(state, "mcpterm", "history.jsonl"), history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	es, err := log.Recent(10)
	if err != nil || len(es) != 4 {
		t.Fatalf("%d history entries, %v", len(es), err)
	}
	// Newest first; the batch's two calls finish in order.
	if es[3].Tool != "file_read" || es[3].Outcome != history.OK || !strings.Contains(es[3].Source, "file_read") || es[3].Server != "mcpterm-demo" {
		t.Errorf("first: %+v", es[3])
	}
	if es[2].Tool != "long_task" || es[2].Outcome != history.Failed || !strings.Contains(es[2].Error, "timed out") {
		t.Errorf("timeout: %+v", es[2])
	}
	if es[1].BatchID != "1" || es[1].Outcome != history.ToolError || es[0].BatchID != "2" || es[0].Batch == "" {
		t.Errorf("batch: %+v / %+v", es[1], es[0])
	}
}

func TestCallDryRun(t *testing.T) {
	code, out, errOut := sessCLI(t, nil, "", "call", "--dry-run", `(file_read "/etc/hosts")`)
	if code != exitOK || !strings.Contains(out, `"method":"tools/call"`) || !strings.Contains(out, `"path":"/etc/hosts"`) {
		t.Errorf("dry run: exit %d %q %q", code, out, errOut)
	}
	tools := filepath.Join(t.TempDir(), "tools.json")
	os.WriteFile(tools, []byte(`{"tools":[{"name":"greet","inputSchema":{"type":"object","properties":{"who":{"type":"string"}},"required":["who"]}}]}`), 0o644)
	code, out, errOut = sessCLI(t, nil, "", "call", "--tools", tools, "--dry-run", "--print", "term", `{"name":"greet","arguments":{"who":"Ada"}}`)
	if code != exitOK || !strings.Contains(out, `"Ada"`) {
		t.Errorf("offline dry run: exit %d %q %q", code, out, errOut)
	}
	code, _, errOut = sessCLI(t, nil, "", "call", "--tools", tools, `(greet "Ada")`)
	if code != exitUsage || !strings.Contains(errOut, "offline") {
		t.Errorf("offline call: exit %d %q", code, errOut)
	}
}
