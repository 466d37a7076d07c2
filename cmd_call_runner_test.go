package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/session/demo"
	"github.com/mcpterm/mcpterm/session/history"
	"github.com/mcpterm/mcpterm/session/policy"
)

// readAudit reads an --audit file.
func readAudit(t *testing.T, path string) []policy.AuditRecord {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var recs []policy.AuditRecord
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r policy.AuditRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("audit line %q: %v", line, err)
		}
		recs = append(recs, r)
	}
	return recs
}

// TestCallAuditRecordsWhatWasPrinted: the runner's audit lines of a batch
// come in plan order (the slow call is first and ends last) and say how
// much the invocation printed and how much --max-output cut.
func TestCallAuditRecordsWhatWasPrinted(t *testing.T) {
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	code, out, errOut := sessCLI(t, nil, "", "call", "--audit", audit, "--max-output", "60",
		`(batch :concurrency 2 (slow (long_task :steps 2 :delay_ms 50)) (fast (file_read "/docs/README.md")))`)
	if code != exitOK || !strings.Contains(out, "(cut ") {
		t.Fatalf("exit %d %q %q", code, out, errOut)
	}
	recs := readAudit(t, audit)
	if len(recs) != 2 || recs[0].Tool != "long_task" || recs[1].Tool != "file_read" {
		t.Fatalf("audit %+v", recs)
	}
	for _, r := range recs {
		if r.Decision != policy.Allow || r.Outcome != "ok" || r.Bytes <= 60 || r.Cut <= 0 || r.Cut >= r.Bytes || r.Server != "mcpterm-demo" {
			t.Errorf("record %+v", r)
		}
	}
	if recs[0].Bytes != recs[1].Bytes || recs[0].Cut != recs[1].Cut {
		t.Errorf("one invocation, two sizes: %+v", recs)
	}
}

// TestCallRefusalAuditedNothingRun: a refused AQL batch item stops the
// whole batch; the refusal is audited with its arguments, nothing reaches
// the history, and the calls that would have run are not audited.
func TestCallRefusalAuditedNothingRun(t *testing.T) {
	state := t.TempDir()
	env := map[string]string{"XDG_STATE_HOME": state}
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	code, out, errOut := sessCLI(t, env, "", "call", "--audit", audit, "--deny", "delete_*",
		`{"operations": [{"operation": "list_todos"}, {"operation": "delete_todo", "params": {"id": "t1"}}]}`)
	if code != exitUsage || out != "" || !strings.Contains(errOut, "refused") || !strings.Contains(errOut, "--deny") {
		t.Fatalf("exit %d %q %q", code, out, errOut)
	}
	recs := readAudit(t, audit)
	if len(recs) != 1 || recs[0].Tool != "delete_todo" || recs[0].Decision != policy.Deny || string(recs[0].Arguments) != `{"id":"t1"}` || recs[0].Outcome != "" {
		t.Errorf("audit %+v", recs)
	}
	if _, err := os.Stat(filepath.Join(state, "mcpterm", "history.jsonl")); err == nil {
		log, err := history.Open(filepath.Join(state, "mcpterm", "history.jsonl"), history.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if es, _ := log.Recent(10); len(es) != 0 {
			t.Errorf("history of a refused batch: %+v", es)
		}
	}
}

// TestCallAQLBatchHistory: every operation of an AQL batch that reaches
// the server is one history entry, with the batch and its index; local
// answers (introspect) leave none.
func TestCallAQLBatchHistory(t *testing.T) {
	state := t.TempDir()
	env := map[string]string{"XDG_STATE_HOME": state}
	batch := `{"operations": [{"operation": "introspect", "params": {"query": "types"}}, {"operation": "get_todo", "params": {"id": "nope"}}, {"operation": "list_todos", "params": {"limit": 1}}]}`
	if code, out, errOut := sessCLI(t, env, "", "call", batch); code != exitToolError {
		t.Fatalf("exit %d %s %s", code, out, errOut)
	}
	log, err := history.Open(filepath.Join(state, "mcpterm", "history.jsonl"), history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	es, err := log.Recent(10)
	if err != nil || len(es) != 2 {
		t.Fatalf("%d entries, %v", len(es), err)
	}
	// Newest first.
	if es[1].Tool != "get_todo" || es[1].BatchID != "1" || es[1].Outcome != history.ToolError || es[1].Batch != batch ||
		es[0].Tool != "list_todos" || es[0].BatchID != "2" || es[0].Outcome != history.OK {
		t.Errorf("entries %+v", es)
	}
}

// TestServerSSEFallback: a config entry with only a URL is guessed to be
// streamable HTTP; the server speaks the legacy HTTP+SSE transport, so the
// command line falls back to it (session.Connect) and runs the call.
func TestServerSSEFallback(t *testing.T) {
	var sse *server.SSEServer
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { sse.ServeHTTP(w, r) }))
	defer ts.Close()
	sse = server.NewSSEServer(demo.New(demo.Options{}), server.WithBaseURL(ts.URL), server.WithSSEEndpoint("/events"))
	cfg := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(cfg, []byte(`{"mcpServers": {"old": {"url": "`+ts.URL+`/events"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := sessCLI(t, nil, "", "call", "--server", "old", "--config", cfg, "--timeout", "10s", `(file_read "/docs/README.md" :limit 14)`)
	if code != exitOK || strings.TrimSpace(out) != `(ok "# mcpterm demo")` {
		t.Fatalf("exit %d %q %q", code, out, errOut)
	}
	// Told it is streamable HTTP, nothing falls back.
	cfg2 := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(cfg2, []byte(`{"mcpServers": {"old": {"type": "http", "url": "`+ts.URL+`/events"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := sessCLI(t, nil, "", "tools", "--server", "old", "--config", cfg2, "--timeout", "5s"); code != exitConnect || !strings.Contains(errOut, "old") {
		t.Errorf("typed http entry: exit %d %q", code, errOut)
	}
}
