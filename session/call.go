package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpterm/mcpterm/convert/ojson"
)

// CallRequest is one tools/call to make.
type CallRequest struct {
	ID        string       // the batch id, or "" for a single call
	Tool      string       //
	Arguments *ojson.Value // an object, or nil for no arguments
	// Timeout is how long the call may go without an answer or a progress
	// notification; 0 means the session's CallTimeout.
	Timeout time.Duration
	// MaxTime is the call's overall deadline, which progress notifications
	// do not extend; 0 means the session's MaxCallTime.
	MaxTime time.Duration
	// OnProgress, when set, sees this call's progress notifications, and
	// for a task-augmented call the task's status changes (EventTask).
	OnProgress func(Event)
	// AsTask asks for a task-augmented call when the tool's
	// execution.taskSupport is "optional"; a "required" tool is always
	// called as a task, others never (tasks.go).
	AsTask bool
}

// CallResult is everything known about one call, whatever happened.
type CallResult struct {
	Seq       uint64 // per session, in start order
	ID        string
	Tool      string
	Arguments *ojson.Value
	// Raw is the tools/call result exactly as the server sent it (nil when
	// there was no result); Result is mcp-go's typed view of the same
	// (content as TextContent, ImageContent, AudioContent, EmbeddedResource,
	// ResourceLink), nil if mcp-go could not read it.
	Raw    *ojson.Value
	Result *mcp.CallToolResult
	// IsError is the result's isError: the tool ran and reported failure.
	IsError bool
	// Err is set when there is no usable result: a JSON-RPC error, timeout,
	// cancellation, lost connection, or a skipped batch call.
	Err error
	// SchemaErr is set when the tool declares an outputSchema and the
	// result's structuredContent is missing or does not validate.
	SchemaErr error
	Started   time.Time
	Duration  time.Duration
	Progress  int // progress notifications received
	Cancelled bool
	// TaskID and TaskStatus are set for a task-augmented call: the task the
	// server made and its last known status.
	TaskID     string
	TaskStatus string
}

// OK reports a result that is neither an error nor invalid.
func (r *CallResult) OK() bool { return r.Err == nil && !r.IsError && r.SchemaErr == nil }

// Call runs one tools/call. The call's idle timer restarts at every progress
// notification, but the overall deadline (MaxTime) does not move, so a
// server that reports progress forever cannot hold the call open forever.
// When either runs out, or ctx ends, the server is sent
// notifications/cancelled and the result says so. The result is never nil.
func (s *Session) Call(ctx context.Context, req CallRequest) *CallResult {
	r := &CallResult{Seq: s.callSeq.Add(1), ID: req.ID, Tool: req.Tool, Arguments: req.Arguments, Started: time.Now()}
	defer func() {
		r.Duration = time.Since(r.Started)
		if s.opts.OnCall != nil {
			s.opts.OnCall(r)
		}
	}()
	c, err := s.current()
	if err != nil {
		r.Err = err
		return r
	}
	if req.Arguments != nil && req.Arguments.Kind != ojson.Object {
		r.Err = fmt.Errorf("arguments for %s must be an object, not %s", req.Tool, req.Arguments.Kind)
		return r
	}

	timeout := req.Timeout
	if timeout <= 0 {
		timeout = s.opts.CallTimeout
	}
	maxTime := req.MaxTime
	if maxTime <= 0 {
		maxTime = s.opts.MaxCallTime
		// A longer idle timeout asked for this call keeps its proportion.
		if req.Timeout > 0 && maxTime < req.Timeout {
			maxTime = DefaultMaxTimeFactor * req.Timeout
		}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	timer := time.AfterFunc(timeout, func() { cancel(ErrTimeout) })
	defer timer.Stop()
	// The overall deadline is a timer of its own that nothing resets.
	overall := time.AfterFunc(maxTime, func() { cancel(errMaxTime) })
	defer overall.Stop()

	token := "mcpterm-" + strconv.FormatUint(r.Seq, 10)
	var progress atomic.Int64
	s.pmu.Lock()
	s.progress[token] = func(e Event) {
		timer.Reset(timeout)
		progress.Add(1)
		if req.OnProgress != nil {
			req.OnProgress(e)
		}
	}
	s.pmu.Unlock()
	defer func() {
		s.pmu.Lock()
		delete(s.progress, token)
		s.pmu.Unlock()
	}()

	args := json.RawMessage("{}")
	if req.Arguments != nil {
		args = json.RawMessage(req.Arguments.Compact())
	}
	creq := mcp.CallToolRequest{}
	creq.Params.Name = req.Tool
	creq.Params.Arguments = args
	creq.Params.Meta = &mcp.Meta{ProgressToken: token}

	if s.wantsTask(ctx, c, req) {
		s.callTask(ctx, &taskCall{c: c, req: req, creq: creq, r: r, idle: func() { timer.Reset(timeout) }, pause: func() { timer.Stop() },
			timeout: timeout, maxTime: maxTime, nprog: func() int { return int(progress.Load()) }})
		return r
	}
	cctx, capt := withCapture(ctx)
	res, err := c.client.CallTool(cctx, creq)
	r.Progress = int(progress.Load())
	raw, rpcErr, answered := capt.result()
	if answered && rpcErr == nil && len(raw) > 0 {
		if v, perr := ojson.Parse(raw); perr == nil {
			r.Raw = v
			r.IsError = v.Get("isError") != nil && v.Get("isError").Kind == ojson.Bool && v.Get("isError").Bool
		} else if err == nil {
			err = perr
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			r.Cancelled = true
			s.cancelOverHTTP(c, capt)
			switch cause := context.Cause(ctx); {
			case errors.Is(cause, errMaxTime):
				why := "the server never answered"
				if r.Progress > 0 {
					why = "progress kept arriving"
				}
				r.Err = &TimeoutError{Op: "tools/call " + req.Tool, After: maxTime.String(), Overall: true, Why: why}
				return r
			case errors.Is(cause, ErrTimeout):
				r.Err = &TimeoutError{Op: "tools/call " + req.Tool, After: timeout.String() + " without an answer or progress"}
				return r
			}
			r.Err = fmt.Errorf("tools/call %s: cancelled: %w", req.Tool, context.Canceled)
			return r
		}
		r.Err = s.classify(cctx, err, capt, "tools/call "+req.Tool)
		return r
	}
	r.Result = res
	r.IsError = r.IsError || res.IsError
	if !r.IsError {
		r.SchemaErr = s.checkOutput(ctx, req.Tool, r.Raw)
	}
	return r
}

// cancelOverHTTP sends notifications/cancelled where mcp-go does not: over
// streamable HTTP before 2026-07-28 (closing the response stream is only a
// cancellation from that revision on) and over SSE (whose answers arrive on
// a separate stream, so nothing closes). mcp-go sends it over stdio and
// in-process itself.
func (s *Session) cancelOverHTTP(c *conn, capt *capture) {
	_, isSSE := c.inner.(*sseBidir)
	_, isHTTP := c.inner.(transport.HTTPConnection)
	if !isSSE && (!isHTTP || c.info.Modern) {
		return
	}
	id, _ := capt.requestID()
	if id.IsNil() {
		return
	}
	n := mcp.JSONRPCNotification{JSONRPC: mcp.JSONRPC_VERSION}
	n.Method = string(mcp.MethodNotificationCancelled)
	n.Params.AdditionalFields = map[string]any{"requestId": id, "reason": "mcpterm: call cancelled or timed out"}
	go func() {
		ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
		defer cancel()
		_ = c.tr.SendNotification(ctx, n)
	}()
}

// BatchOptions say how to run a batch.
type BatchOptions struct {
	// Concurrency is how many calls may be in flight at once; 0 or 1 runs
	// them one after another in order.
	Concurrency int
	// StopOnError skips the calls not yet started once one fails (an error,
	// isError, a timeout or an invalid structured result).
	StopOnError bool
}

// BatchResult holds one result per request, in request order.
type BatchResult struct {
	Results  []*CallResult
	Started  time.Time
	Duration time.Duration
}

// ByID returns the result of the call with the given batch id, or nil.
func (b *BatchResult) ByID(id string) *CallResult {
	for _, r := range b.Results {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// Failed counts the results that are not OK.
func (b *BatchResult) Failed() int {
	n := 0
	for _, r := range b.Results {
		if !r.OK() {
			n++
		}
	}
	return n
}

// Batch runs the calls of a batch as separate tools/call requests (MCP has
// no JSON-RPC batching since 2025-06-18), each with its own result, timing
// and timeout; one failure does not stop the rest unless StopOnError.
func (s *Session) Batch(ctx context.Context, reqs []CallRequest, opts BatchOptions) *BatchResult {
	b := &BatchResult{Results: make([]*CallResult, len(reqs)), Started: time.Now()}
	defer func() { b.Duration = time.Since(b.Started) }()
	run := func(i int) bool {
		r := s.Call(ctx, reqs[i])
		b.Results[i] = r
		return !r.OK()
	}
	skip := func(i int, why error) {
		req := reqs[i]
		b.Results[i] = &CallResult{ID: req.ID, Tool: req.Tool, Arguments: req.Arguments, Started: time.Now(), Err: why}
	}
	schedule(ctx, len(reqs), opts.Concurrency, opts.StopOnError, nil, run, skip)
	return b
}
