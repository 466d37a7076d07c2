package demo

import (
	"context"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/session/internal/wire"
)

// maxRuns bounds the kept history of long_task outcomes.
const maxRuns = 100

// taskRun records how one long_task call ended, for the server's own log.
type taskRun struct {
	Steps, Done int
	Outcome     string // completed, cancelled
}

const longTaskInput = `{
  "type": "object",
  "properties": {
    "steps": {"type": "integer", "minimum": 1, "maximum": 100, "default": 5, "description": "Number of steps to run"},
    "delay_ms": {"type": "integer", "minimum": 0, "maximum": 10000, "default": 500, "description": "Time each step takes, in milliseconds"}
  },
  "additionalProperties": false
}`

const longTaskOutput = `{
  "type": "object",
  "properties": {
    "steps": {"type": "integer"},
    "completed": {"type": "integer"},
    "elapsed_ms": {"type": "integer"}
  },
  "required": ["steps", "completed", "elapsed_ms"],
  "additionalProperties": false
}`

func (st *state) addLongTask(s *server.MCPServer) {
	st.add(s, tool("long_task", "Long Task",
		"Run a slow job of several steps. Sends a progress notification after each step when the request carries a progressToken, and stops as soon as the request is cancelled.",
		longTaskInput, longTaskOutput, hints("Long Task", true, false, true)), st.longTask)
}

func (st *state) longTask(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := struct {
		Steps   int `json:"steps"`
		DelayMS int `json:"delay_ms"`
	}{Steps: 5, DelayMS: 500}
	if err := bind(req, &a); err != nil {
		return toolErr("%v", err)
	}
	if a.Steps < 1 || a.Steps > 100 || a.DelayMS < 0 || a.DelayMS > 10000 {
		return toolErr("steps must be 1-100 and delay_ms 0-10000")
	}
	var token mcp.ProgressToken
	if req.Params.Meta != nil {
		token = req.Params.Meta.ProgressToken
	}
	srv := server.ServerFromContext(ctx)
	// Served by ServeStdio or NewHTTPHandler, the stream has a ledger: the
	// answer waits until the progress it noted there is on the wire.
	ledger := wire.From(ctx)
	var sent []wire.Mark
	start := st.now()
	for i := 1; i <= a.Steps; i++ {
		timer := time.NewTimer(time.Duration(a.DelayMS) * time.Millisecond)
		select {
		case <-ctx.Done():
			timer.Stop()
			st.record(taskRun{a.Steps, i - 1, "cancelled"})
			st.log(ctx, srv, mcp.LoggingLevelWarning, fmt.Sprintf("long_task cancelled after %d of %d steps", i-1, a.Steps))
			return nil, ctx.Err()
		case <-timer.C:
		}
		if token != nil && srv != nil {
			// Noted before it is handed over, so its write cannot be missed.
			m := ledger.Note(token, float64(i))
			// Best effort: a client that stopped reading must not fail the job.
			if err := srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
				"progressToken": token,
				"progress":      i,
				"total":         a.Steps,
				"message":       fmt.Sprintf("step %d of %d", i, a.Steps),
			}); err != nil {
				ledger.Unnote(m)
			} else {
				sent = append(sent, m)
			}
		}
	}
	// The work is done either way: a client that leaves while the last
	// progress goes out still gets the (undeliverable) answer.
	_ = ledger.Await(ctx, sent...)
	st.record(taskRun{a.Steps, a.Steps, "completed"})
	elapsed := st.now().Sub(start).Milliseconds()
	return result(struct {
		Steps     int   `json:"steps"`
		Completed int   `json:"completed"`
		ElapsedMS int64 `json:"elapsed_ms"`
	}{a.Steps, a.Steps, elapsed})
}

func (st *state) record(r taskRun) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.runs = append(st.runs, r)
	if len(st.runs) > maxRuns {
		st.runs = st.runs[len(st.runs)-maxRuns:]
	}
}

// log sends a log message to the client when it asked for that level.
func (st *state) log(ctx context.Context, srv *server.MCPServer, level mcp.LoggingLevel, msg string) {
	if srv == nil {
		return
	}
	_ = srv.SendLogMessageToClient(ctx, mcp.NewLoggingMessageNotification(level, Name, msg))
}
