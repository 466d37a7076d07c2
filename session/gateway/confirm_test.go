package gateway

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/policy"
)

// confirmAsker is a gateway client's person: it answers every elicitation
// with answer and records what it was asked.
type confirmAsker struct {
	mu     sync.Mutex
	asked  []mcp.ElicitationRequest
	answer func() (*mcp.ElicitationResult, error)
}

func (a *confirmAsker) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	a.mu.Lock()
	a.asked = append(a.asked, req)
	answer := a.answer
	a.mu.Unlock()
	return answer()
}

func (a *confirmAsker) questions() []mcp.ElicitationRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]mcp.ElicitationRequest{}, a.asked...)
}

func confirmAnswer(action mcp.ElicitationResponseAction, content any) func() (*mcp.ElicitationResult, error) {
	return func() (*mcp.ElicitationResult, error) {
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: action, Content: content}}, nil
	}
}

// confirmGateway is a gateway in mode over the demo server with rules and
// an audit log, and an in-process mcp-go client whose person is a (nil: a
// client without elicitation), speaking a protocol revision that has
// server-initiated requests.
func confirmGateway(t *testing.T, mode Mode, rules policy.Rules, a *confirmAsker) (*client.Client, *session.Session, string) {
	t.Helper()
	up := demoSession(t)
	p, err := policy.New(rules)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	audit, err := policy.OpenAudit(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := newGateway(t, up, Options{Mode: mode, Policy: p, Audit: audit})
	var opts []client.ClientOption
	if a != nil {
		opts = append(opts, client.WithElicitationHandler(a))
	}
	c, err := client.NewInProcessClientWithOptions(g.Server(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	connect(t, c, mcp.LATEST_LEGACY_PROTOCOL_VERSION)
	return c, up, path
}

// confirmSent reports whether the upstream was sent a call of tool.
func confirmSent(up *session.Session, tool string) bool {
	for _, m := range up.Tap().Messages() {
		if m.Method == "tools/call" && m.Kind == session.KindRequest && strings.Contains(m.Payload, `"`+tool+`"`) {
			return true
		}
	}
	return false
}

// confirmCall calls delete_todo (and in term mode, optionally a batch) in
// each mode's own way.
func confirmCall(t *testing.T, c *client.Client, mode Mode, id string) *mcp.CallToolResult {
	t.Helper()
	switch mode {
	case ModePass:
		return callTool(t, c, "delete_todo", `{"id":"`+id+`"}`)
	case ModeAQLSingle:
		return callTool(t, c, "mcp_aql", `{"operation":"delete_todo","params":{"id":"`+id+`"}}`)
	case ModeAQLSemantic:
		return callTool(t, c, "mcp_aql_delete", `{"operation":"delete_todo","params":{"id":"`+id+`"}}`)
	}
	return callTool(t, c, DefaultTermTool, `{"expr":"(delete_todo \"`+id+`\")"}`)
}

// confirmModes are every mode the gateway serves, so a new mode is tested
// as soon as it exists.
func confirmModes() []Mode { return append(Modes(), ModePass) }

const confirmID = "00000000-0000-0000-0000-00000000c0de"

// TestConfirmThroughElicitation: in every mode, a destructive call of a
// client that declared elicitation is put to the person through that
// client (one form-mode question naming the server, the tool and its
// arguments); confirming runs it and is audited as confirmed, declining,
// cancelling, leaving "confirm" unchecked or failing to answer refuse it
// with words saying the person did not agree, audited so, and nothing
// reaches the upstream.
func TestConfirmThroughElicitation(t *testing.T) {
	answers := []struct {
		name   string
		answer func() (*mcp.ElicitationResult, error)
		runs   bool
		says   string
	}{
		{"accept", confirmAnswer(mcp.ElicitationResponseActionAccept, map[string]any{"confirm": true}), true, ""},
		{"decline", confirmAnswer(mcp.ElicitationResponseActionDecline, nil), false, "the person declined it when client gateway-test asked"},
		{"cancel", confirmAnswer(mcp.ElicitationResponseActionCancel, nil), false, "the person cancelled the question"},
		{"unchecked", confirmAnswer(mcp.ElicitationResponseActionAccept, map[string]any{"confirm": false}), false, "confirm was not checked"},
		{"error", func() (*mcp.ElicitationResult, error) { return nil, errors.New("the dialog broke") }, false, "could not ask the person"},
	}
	for _, mode := range confirmModes() {
		for _, ans := range answers {
			t.Run(string(mode)+"/"+ans.name, func(t *testing.T) {
				a := &confirmAsker{answer: ans.answer}
				c, up, path := confirmGateway(t, mode, policy.Rules{}, a)
				r := confirmCall(t, c, mode, confirmID)
				qs := a.questions()
				if len(qs) != 1 {
					t.Fatalf("the person was asked %d times, want once", len(qs))
				}
				q := qs[0].Params
				contains(t, q.Message, "destructive tool", "mcpterm-demo", "delete_todo", confirmID)
				if q.Mode != mcp.ElicitationModeForm {
					t.Errorf("question mode %q, want form", q.Mode)
				}
				if got := confirmSent(up, "delete_todo"); got != ans.runs {
					t.Fatalf("delete_todo reached the upstream: %v, want %v (answer %s)", got, ans.runs, text(r))
				}
				recs := readAudit(t, path)
				if len(recs) != 1 {
					t.Fatalf("audit has %d records, want 1: %+v", len(recs), recs)
				}
				rec := recs[0]
				if ans.runs {
					if rec.Decision != policy.Allow || !strings.Contains(rec.Reason, "the user confirmed it") || rec.Outcome == "" {
						t.Errorf("audit of a confirmed call: %+v", rec)
					}
					return
				}
				if !r.IsError {
					t.Errorf("a refused call is not an error: %s", text(r))
				}
				contains(t, text(r), "refused", ans.says, "do not retry")
				if rec.Decision != policy.Confirm || rec.Outcome != "" || !strings.Contains(rec.Reason, ans.says) {
					t.Errorf("audit of a refused call: %+v", rec)
				}
			})
		}
	}
}

// TestConfirmBatchAsksOnce: a batch with several destructive calls asks
// once, listing them all; declining runs none of the batch, not even its
// harmless call.
func TestConfirmBatchAsksOnce(t *testing.T) {
	a := &confirmAsker{answer: confirmAnswer(mcp.ElicitationResponseActionDecline, nil)}
	c, up, _ := confirmGateway(t, ModeTerm, policy.Rules{}, a)
	r := termCall(t, c, `(batch (1 (delete_todo "`+confirmID+`")) (2 (clear_completed)) (3 (list_todos :limit 1)))`)
	qs := a.questions()
	if len(qs) != 1 {
		t.Fatalf("asked %d times, want once", len(qs))
	}
	contains(t, qs[0].Params.Message, "2 destructive tools", "delete_todo", "clear_completed", "Run them all?")
	if strings.Contains(qs[0].Params.Message, "list_todos") {
		t.Errorf("the question lists a harmless call: %s", qs[0].Params.Message)
	}
	for _, tool := range []string{"delete_todo", "clear_completed", "list_todos"} {
		if confirmSent(up, tool) {
			t.Errorf("%s ran after the person declined the batch: %s", tool, text(r))
		}
	}

	a.answer = confirmAnswer(mcp.ElicitationResponseActionAccept, map[string]any{"confirm": true})
	r = termCall(t, c, `(batch (1 (delete_todo "`+confirmID+`")) (2 (clear_completed)) (3 (list_todos :limit 1)))`)
	for _, tool := range []string{"delete_todo", "clear_completed", "list_todos"} {
		if !confirmSent(up, tool) {
			t.Errorf("%s did not run after the person confirmed the batch: %s", tool, text(r))
		}
	}
}

// TestConfirmWithoutElicitation: a client that declared no elicitation
// cannot be asked, so the old rule stands: refused, saying only the
// person running the gateway can allow it; and a client speaking the
// newest revision (no server-initiated requests) is not asked either.
func TestConfirmWithoutElicitation(t *testing.T) {
	c, up, path := confirmGateway(t, ModeTerm, policy.Rules{}, nil)
	r := termCall(t, c, `(delete_todo "`+confirmID+`")`)
	contains(t, text(r), "started without --yes", "cannot ask the person", "--yes=TOOL")
	if confirmSent(up, "delete_todo") {
		t.Fatal("a destructive call ran without confirmation")
	}
	if recs := readAudit(t, path); len(recs) != 1 || recs[0].Decision != policy.Confirm {
		t.Fatalf("audit: %+v", recs)
	}

	a := &confirmAsker{answer: confirmAnswer(mcp.ElicitationResponseActionAccept, map[string]any{"confirm": true})}
	up2 := demoSession(t)
	p, _ := policy.New(policy.Rules{})
	g := newGateway(t, up2, Options{Mode: ModeTerm, Policy: p})
	// Over HTTP: an in-process session answers mcp-go's requests directly,
	// whatever the revision.
	tr, err := transport.NewStreamableHTTP(serveHTTP(t, g))
	if err != nil {
		t.Fatal(err)
	}
	c2 := client.NewClient(tr, client.WithElicitationHandler(a))
	connect(t, c2, mcp.LATEST_PROTOCOL_VERSION)
	r = termCall(t, c2, `(delete_todo "`+confirmID+`")`)
	if len(a.questions()) != 0 || confirmSent(up2, "delete_todo") {
		t.Fatalf("a 2026-07-28 client was asked (%d) or the call ran: %s", len(a.questions()), text(r))
	}
	contains(t, text(r), "started without --yes")
}

// TestConfirmYesPattern: --yes=delete_todo runs delete_todo without asking
// anyone, while clear_completed, destructive too, still needs the person.
func TestConfirmYesPattern(t *testing.T) {
	a := &confirmAsker{answer: confirmAnswer(mcp.ElicitationResponseActionDecline, nil)}
	c, up, path := confirmGateway(t, ModeTerm, policy.Rules{YesFor: []string{"DELETE_TODO"}}, a)
	termCall(t, c, `(delete_todo "`+confirmID+`")`)
	if len(a.questions()) != 0 || !confirmSent(up, "delete_todo") {
		t.Fatalf("--yes=DELETE_TODO: asked %d times, ran %v", len(a.questions()), confirmSent(up, "delete_todo"))
	}
	r := termCall(t, c, `(clear_completed)`)
	if len(a.questions()) != 1 || confirmSent(up, "clear_completed") {
		t.Fatalf("clear_completed under --yes=DELETE_TODO: asked %d times, ran %v: %s", len(a.questions()), confirmSent(up, "clear_completed"), text(r))
	}
	recs := readAudit(t, path)
	if len(recs) != 2 || recs[0].Decision != policy.Allow || !strings.Contains(recs[0].Reason, `confirmed by --yes "DELETE_TODO"`) ||
		recs[1].Decision != policy.Confirm || !strings.Contains(recs[1].Reason, "declined") {
		t.Fatalf("audit: %+v", recs)
	}
}

// TestConfirmQuestionIsSafe: the question masks secret-named arguments,
// shows no control sequences and invisible characters only spelt out, and
// stays bounded however long the arguments are.
func TestConfirmQuestionIsSafe(t *testing.T) {
	line := confirmLine(confirmItem(t, "drop\u200b_all", `{"password":"hunter2-very-secret","note":"\u001b]52;c;AAAA\u0007x","blob":"`+strings.Repeat("y", 5000)+`"}`))
	for _, bad := range []string{"hunter2", "\x1b", "\a", "\u200b"} {
		if strings.Contains(line, bad) {
			t.Errorf("the question line holds %q: %q", bad, line)
		}
	}
	if len(line) > maxConfirmLine {
		t.Errorf("question line of %d bytes, over %d", len(line), maxConfirmLine)
	}
	contains(t, line, "drop", "***")
}

func confirmItem(t *testing.T, tool, args string) calls.Item {
	return calls.Item{Tool: tool, Arguments: obj(t, args)}
}
