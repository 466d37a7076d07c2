package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/session/internal/wire"
)

// hangGuard bounds every wait below; it only turns a hang into a failure.
const hangGuard = 10 * time.Second

func (h *harness) runs() []taskRun {
	h.st.mu.Lock()
	defer h.st.mu.Unlock()
	return append([]taskRun(nil), h.st.runs...)
}

// feed delivers the notifications of one method that c receives, in the
// order they arrive.
func feed(c *client.Client, method string) <-chan mcp.JSONRPCNotification {
	ch := make(chan mcp.JSONRPCNotification, 1024)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == method {
			ch <- n
		}
	})
	return ch
}

// next waits for the next notification on ch.
func next(t *testing.T, ch <-chan mcp.JSONRPCNotification, what string) mcp.JSONRPCNotification {
	t.Helper()
	select {
	case n := <-ch:
		return n
	case <-time.After(hangGuard):
		t.Fatalf("timed out waiting for %s", what)
	}
	return mcp.JSONRPCNotification{}
}

// drained lists what ch holds right now, without waiting.
func drained(ch <-chan mcp.JSONRPCNotification) []mcp.JSONRPCNotification {
	var out []mcp.JSONRPCNotification
	for {
		select {
		case n := <-ch:
			out = append(out, n)
		default:
			return out
		}
	}
}

func longTaskRequest(steps, delayMS int, token mcp.ProgressToken) mcp.CallToolRequest {
	req := mcp.CallToolRequest{}
	req.Params.Name = "long_task"
	req.Params.Arguments = map[string]any{"steps": steps, "delay_ms": delayMS}
	if token != nil {
		req.Params.Meta = &mcp.Meta{ProgressToken: token}
	}
	return req
}

func checkProgress(t *testing.T, got []mcp.JSONRPCNotification, token any, steps int) {
	t.Helper()
	if len(got) != steps {
		t.Fatalf("%d progress notifications for %d steps", len(got), steps)
	}
	for i, n := range got {
		p := n.Params.AdditionalFields
		if p["progressToken"] != token || toFloat(p["progress"]) != float64(i+1) || toFloat(p["total"]) != float64(steps) {
			t.Errorf("progress %d = %v", i, p)
		}
	}
}

// Over mcp-go's own in-process client, notifications travel on a goroutine
// of their own, so the test waits for each one as it arrives.
func TestLongTaskProgress(t *testing.T) {
	h := connect(t, Options{})
	progress := feed(h.c, "notifications/progress")
	res, err := h.c.CallTool(context.Background(), longTaskRequest(4, 1, "tok-1"))
	if err != nil || res.IsError {
		t.Fatalf("long_task: %v %v", err, res)
	}
	var out struct{ Steps, Completed int }
	if err := jsonUnmarshal(structured(res), &out); err != nil || out.Steps != 4 || out.Completed != 4 {
		t.Errorf("result = %+v (%v)", out, err)
	}
	validateOutput(t, h.wireTool("long_task"), structured(res))
	var got []mcp.JSONRPCNotification
	for i := range 4 {
		got = append(got, next(t, progress, fmt.Sprintf("progress notification %d", i+1)))
	}
	checkProgress(t, got, "tok-1", 4)
	// Without a token there are no progress notifications. The marker call
	// after it sends progress of its own; by the time that arrives, anything
	// the tokenless call sent would have too (one in-process queue, in order).
	h.ok("long_task", `{"steps": 2, "delay_ms": 0}`, nil)
	if _, err := h.c.CallTool(context.Background(), longTaskRequest(1, 0, "marker")); err != nil {
		t.Fatal(err)
	}
	if n := next(t, progress, "the marker's progress"); n.Params.AdditionalFields["progressToken"] != "marker" {
		t.Errorf("progress without a token: %v", n.Params.AdditionalFields)
	}
	// The harness's own handler runs before feed's: it has all five too.
	if n := len(h.notifications("notifications/progress")); n != 5 {
		t.Errorf("the harness saw %d progress notifications, want 5", n)
	}
	if r := h.runs(); len(r) != 3 || r[0] != (taskRun{4, 4, "completed"}) || r[1] != (taskRun{2, 2, "completed"}) {
		t.Errorf("runs = %+v", r)
	}
}

func TestLongTaskCancellation(t *testing.T) {
	h := connect(t, Options{})
	progress := feed(h.c, "notifications/progress")
	logs := feed(h.c, "notifications/message")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req := longTaskRequest(100, 50, 7)
	// The job says where it stopped in a warning; ask for warnings.
	req.Params.Meta.AdditionalFields = map[string]any{mcp.MetaKeyLogLevel: "warning"}
	done := make(chan error, 1)
	go func() {
		_, err := h.c.CallTool(ctx, req)
		done <- err
	}()
	next(t, progress, "the first progress notification")
	cancel()
	// In-process, the handler's own context error comes back as the answer.
	if err := <-done; err == nil || !(errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "context canceled")) {
		t.Errorf("cancelled call returned %v", err)
	}
	// The job records its end before it logs it.
	msg := next(t, logs, "the job's cancellation warning")
	if data, _ := msg.Params.AdditionalFields["data"].(string); !strings.HasPrefix(data, "long_task cancelled after ") {
		t.Errorf("warning = %v", msg.Params.AdditionalFields)
	}
	runs := h.runs()
	if len(runs) != 1 {
		t.Fatalf("runs = %+v", runs)
	}
	r := runs[0]
	if r.Outcome != "cancelled" || r.Done < 1 || r.Done >= 100 {
		t.Errorf("run = %+v, want cancelled part-way", r)
	}
	if msg.Params.AdditionalFields["data"] != fmt.Sprintf("long_task cancelled after %d of 100 steps", r.Done) {
		t.Errorf("warning %v for run %+v", msg.Params.AdditionalFields["data"], r)
	}
	// The job sent one notification per finished step and none after it
	// stopped: the loop has returned, so nothing more can come.
	if n := 1 + len(drained(progress)); n > r.Done {
		t.Errorf("%d progress notifications for %d finished steps", n, r.Done)
	}
}

func TestLongTaskErrors(t *testing.T) {
	h := connect(t, Options{})
	h.fails("long_task", `{"steps": 0}`, "at /steps: minimum")
	h.fails("long_task", `{"steps": 101}`, "at /steps: maximum")
	h.fails("long_task", `{"delay_ms": 20000}`, "at /delay_ms: maximum")
	h.fails("long_task", `{"steps": "five"}`, "at /steps: got string, want integer")
}

// calls is how many long_task calls the wire tests make: on a loaded
// machine an answer used to overtake its last progress in a good share of
// them.
const calls = 40

// Over ServeStdio, every progress notification of a call is on the wire
// before its answer. mcp-go's client hands a notification to its handler
// before it reads the next line, so the notifications must all be in hand
// when CallTool returns.
func TestLongTaskProgressBeforeAnswerStdio(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- ServeStdio(ctx, New(Options{}), inR, outW, log.New(io.Discard, "", 0))
		outW.Close()
	}()
	c := client.NewClient(transport.NewIO(outR, inW, nil))
	t.Cleanup(func() {
		c.Close()
		stop()
		if err := <-served; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("ServeStdio: %v", err)
		}
	})
	progressBeforeAnswer(t, c)
}

// Over NewHTTPHandler the same holds for streamable HTTP, where mcp-go used
// to drop a notification its forwarder still held when the answer went out.
func TestLongTaskProgressBeforeAnswerHTTP(t *testing.T) {
	h := NewHTTPHandler(New(Options{}))
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		_ = h.Shutdown(context.Background())
		ts.Close()
	})
	for _, version := range []string{"2025-11-25", mcp.LATEST_PROTOCOL_VERSION} {
		t.Run(version, func(t *testing.T) {
			c, err := client.NewStreamableHttpClient(ts.URL)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			progressBeforeAnswer(t, c, version)
		})
	}
}

// In process there is no wire, but wire.NewInProcessTransport counts a
// notification once the client's handler has had it: then the same holds.
func TestLongTaskProgressBeforeAnswerInProcess(t *testing.T) {
	c := client.NewClient(wire.NewInProcessTransport(New(Options{})))
	t.Cleanup(func() { c.Close() })
	progressBeforeAnswer(t, c)
}

func progressBeforeAnswer(t *testing.T, c *client.Client, version ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	progress := feed(c, "notifications/progress")
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "demo-wire-test", Version: "0"}
	if len(version) > 0 {
		init.Params.ProtocolVersion = version[0]
	}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	for i := range calls {
		token := fmt.Sprint("call-", i)
		res, err := c.CallTool(ctx, longTaskRequest(3, 0, token))
		if err != nil || res.IsError {
			t.Fatalf("call %d: %v %v", i, err, res)
		}
		checkProgress(t, drained(progress), token, 3)
	}
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
