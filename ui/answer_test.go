package ui

import (
	"context"
	"testing"
	"time"
)

// A call's Answer reshapes the server's result before it reaches the
// results pane; a transport error is left as the error it is.
func TestRunCmdAppliesTheCallsAnswer(t *testing.T) {
	b := newFakeBackend()
	answered := func(res *CallResult) *CallResult {
		return &CallResult{Content: []Content{{Type: "text", Text: `{"success": true}`}}, Raw: res.Raw, Duration: res.Duration}
	}
	p := &Parsed{Syntax: "aql", Calls: []ParsedCall{
		{Tool: "get_todo", Answer: answered},
		{Tool: "create_todo", Answer: answered}, // the fake fails this one at the transport
	}}
	msg := runCmd(context.Background(), b, 1, "src", p, time.Now)()
	done, ok := msg.(callDoneMsg)
	if !ok || len(done.items) != 2 {
		t.Fatalf("message %T %+v", msg, msg)
	}
	if r := done.items[0].Result; r == nil || r.Content[0].Text != `{"success": true}` || r.Raw == nil {
		t.Errorf("answer not applied: %+v", r)
	}
	if done.items[1].Err == nil || done.items[1].Result != nil {
		t.Errorf("transport error should stay an error: %+v", done.items[1])
	}
}
