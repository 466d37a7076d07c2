package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// liar is a streamable HTTP MCP server (plain JSON answers) whose tasks
// misbehave, tool by tool:
//   - busy: working forever, a new statusMessage every poll;
//   - stuck: working forever, never a new word;
//   - noid: a CreateTaskResult without a taskId;
//   - weird: its tasks/get reports a status the protocol lacks;
//   - other: its tasks/get answers about another task;
//   - plain: ignores the task and answers the ordinary way;
//
// and its tasks/list always has another page.
type liar struct {
	mu        sync.Mutex
	polls     int
	cancelled []string
}

func (l *liar) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name   string `json:"name"`
			TaskID string `json:"taskId"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &req) != nil || len(req.ID) == 0 {
		w.WriteHeader(http.StatusAccepted) // a notification
		return
	}
	task := func(id, status, msg string) string {
		return fmt.Sprintf(`{"taskId":%q,"status":%q,"statusMessage":%q,"createdAt":"2025-11-25T00:00:00Z","lastUpdatedAt":"2025-11-25T00:00:00Z","ttl":null,"pollInterval":1}`, id, status, msg)
	}
	var result string
	switch req.Method {
	case "initialize":
		result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}},"serverInfo":{"name":"liar","version":"1"}}`
	case "tools/list":
		var tools []string
		for _, n := range []string{"busy", "stuck", "noid", "weird", "other", "plain"} {
			tools = append(tools, fmt.Sprintf(`{"name":%q,"inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}}`, n))
		}
		result = `{"tools":[` + strings.Join(tools, ",") + `]}`
	case "tools/call":
		switch req.Params.Name {
		case "noid":
			result = `{"task":{"status":"working","createdAt":"x","lastUpdatedAt":"x","ttl":null}}`
		case "plain":
			result = `{"content":[{"type":"text","text":"no task needed"}]}`
		default:
			result = `{"task":` + task(req.Params.Name, "working", "") + `}`
		}
	case "tasks/get":
		l.mu.Lock()
		l.polls++
		n := l.polls
		l.mu.Unlock()
		switch req.Params.TaskID {
		case "busy":
			result = task("busy", "working", fmt.Sprintf("step %d", n))
		case "weird":
			result = task("weird", "exploded", "")
		case "other":
			result = task("someone-else", "completed", "")
		default:
			result = task(req.Params.TaskID, "working", "")
		}
	case "tasks/list":
		// Always one more page.
		l.mu.Lock()
		l.polls++
		n := l.polls
		l.mu.Unlock()
		result = fmt.Sprintf(`{"tasks":[%s],"nextCursor":"c%d"}`, task(fmt.Sprintf("page-%d", n), "working", ""), n)
	case "tasks/cancel":
		l.mu.Lock()
		l.cancelled = append(l.cancelled, req.Params.TaskID)
		l.mu.Unlock()
		result = task(req.Params.TaskID, "cancelled", "as you wish")
	default:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no"}}`, req.ID)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
}

func (l *liar) wasCancelled(id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.cancelled {
		if c == id {
			return true
		}
	}
	return false
}

func TestTaskLiar(t *testing.T) {
	l := &liar{}
	hs := httptest.NewServer(l)
	t.Cleanup(hs.Close)
	s := open(t, Source{Kind: HTTP, Name: "liar", URL: hs.URL + "/mcp"}, Options{ProtocolVersion: legacy})
	ctx := ctxT(t, 60*time.Second)

	t.Run("busy forever: the overall deadline", func(t *testing.T) {
		r := s.Call(ctx, CallRequest{Tool: "busy", Timeout: 10 * time.Second, MaxTime: 400 * time.Millisecond})
		var te *TimeoutError
		if !errors.As(r.Err, &te) || !te.Overall || !strings.Contains(r.Err.Error(), "task busy") || !r.Cancelled {
			t.Fatalf("err = %v", r.Err)
		}
		if !l.wasCancelled("busy") {
			t.Error("no tasks/cancel for busy")
		}
	})
	t.Run("stuck: the idle timeout between status changes", func(t *testing.T) {
		r := s.Call(ctx, CallRequest{Tool: "stuck", Timeout: 400 * time.Millisecond, MaxTime: 30 * time.Second})
		var te *TimeoutError
		if !errors.As(r.Err, &te) || te.Overall || !strings.Contains(r.Err.Error(), "without a task status change") {
			t.Fatalf("err = %v", r.Err)
		}
		if !l.wasCancelled("stuck") {
			t.Error("no tasks/cancel for stuck")
		}
	})
	for tool, want := range map[string]string{
		"noid":  "no taskId",
		"weird": `status "exploded"`,
		"other": `about task "someone-else"`,
	} {
		t.Run(tool, func(t *testing.T) {
			r := s.Call(ctx, CallRequest{Tool: tool})
			var pe *ProtocolError
			if !errors.As(r.Err, &pe) || !strings.Contains(r.Err.Error(), want) {
				t.Fatalf("err = %v, want a ProtocolError with %q", r.Err, want)
			}
		})
	}
	t.Run("endless tasks/list", func(t *testing.T) {
		tasks, err := s.Tasks(ctx)
		if err != nil || len(tasks) != maxTaskPages {
			t.Fatalf("%d tasks, %v", len(tasks), err)
		}
		found := false
		for _, e := range s.Events() {
			found = found || e.Kind == EventNotice && strings.Contains(e.Text, "stopped after 100 pages")
		}
		if !found {
			t.Error("no notice of the pages left unread")
		}
	})
	t.Run("plain answer to a task request", func(t *testing.T) {
		r := s.Call(ctx, CallRequest{Tool: "plain"})
		if !r.OK() || resultText(r) != "no task needed" || r.TaskID != "" {
			t.Fatalf("err %v text %q task %q", r.Err, resultText(r), r.TaskID)
		}
	})
}
