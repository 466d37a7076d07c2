package demo

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

func (h *harness) runs() []taskRun {
	h.st.mu.Lock()
	defer h.st.mu.Unlock()
	return append([]taskRun(nil), h.st.runs...)
}

// waitFor polls cond until it holds; the deadline only guards against a hang.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestLongTaskProgress(t *testing.T) {
	h := connect(t, Options{})
	req := mcp.CallToolRequest{}
	req.Params.Name = "long_task"
	req.Params.Arguments = map[string]any{"steps": 4, "delay_ms": 1}
	req.Params.Meta = &mcp.Meta{ProgressToken: "tok-1"}
	res, err := h.c.CallTool(context.Background(), req)
	if err != nil || res.IsError {
		t.Fatalf("long_task: %v %v", err, res)
	}
	var out struct{ Steps, Completed int }
	if err := jsonUnmarshal(structured(res), &out); err != nil || out.Steps != 4 || out.Completed != 4 {
		t.Errorf("result = %+v (%v)", out, err)
	}
	validateOutput(t, h.wireTool("long_task"), structured(res))
	waitFor(t, "4 progress notifications", func() bool { return len(h.notifications("notifications/progress")) == 4 })
	for i, n := range h.notifications("notifications/progress") {
		p := n.Params.AdditionalFields
		if p["progressToken"] != "tok-1" || toFloat(p["progress"]) != float64(i+1) || toFloat(p["total"]) != 4 {
			t.Errorf("progress %d = %v", i, p)
		}
	}
	// Without a token there are no progress notifications.
	h.ok("long_task", `{"steps": 2, "delay_ms": 0}`, nil)
	if n := len(h.notifications("notifications/progress")); n != 4 {
		t.Errorf("%d progress notifications, want still 4", n)
	}
	if r := h.runs(); len(r) != 2 || r[0] != (taskRun{4, 4, "completed"}) {
		t.Errorf("runs = %+v", r)
	}
}

func TestLongTaskCancellation(t *testing.T) {
	h := connect(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = "long_task"
	req.Params.Arguments = map[string]any{"steps": 100, "delay_ms": 50}
	req.Params.Meta = &mcp.Meta{ProgressToken: 7}
	done := make(chan error, 1)
	go func() {
		_, err := h.c.CallTool(ctx, req)
		done <- err
	}()
	waitFor(t, "the first progress notification", func() bool { return len(h.notifications("notifications/progress")) > 0 })
	cancel()
	// In-process, the handler's own context error comes back as the answer.
	if err := <-done; err == nil || !(errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "context canceled")) {
		t.Errorf("cancelled call returned %v", err)
	}
	waitFor(t, "the task to record its cancellation", func() bool { return len(h.runs()) == 1 })
	r := h.runs()[0]
	if r.Outcome != "cancelled" || r.Done < 1 || r.Done >= 100 {
		t.Errorf("run = %+v, want cancelled part-way", r)
	}
	// The task stopped: give a still-running loop time for another step, then
	// check no step past the recorded one was ever reported.
	h.ok("long_task", `{"steps": 1, "delay_ms": 120}`, nil)
	if n := len(h.notifications("notifications/progress")); n > r.Done {
		t.Errorf("%d progress notifications for %d finished steps", n, r.Done)
	}
	// The cancelled job never completed later on.
	if runs := h.runs(); len(runs) != 2 || runs[0] != r || runs[1] != (taskRun{1, 1, "completed"}) {
		t.Errorf("runs = %+v", runs)
	}
}

func TestLongTaskErrors(t *testing.T) {
	h := connect(t, Options{})
	h.fails("long_task", `{"steps": 0}`, "at /steps: minimum")
	h.fails("long_task", `{"steps": 101}`, "at /steps: maximum")
	h.fails("long_task", `{"delay_ms": 20000}`, "at /delay_ms: maximum")
	h.fails("long_task", `{"steps": "five"}`, "at /steps: got string, want integer")
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

func toFloat(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int:
		return float64(x)
	}
	return -1
}
