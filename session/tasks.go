package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpterm/mcpterm/convert/ojson"
)

// Task-augmented tools/call (protocol 2025-11-25). A tool whose
// execution.taskSupport is "required" cannot be called the ordinary way:
// the server answers the call with a task, and the result comes later from
// tasks/result. The session does that dance in Call, so every face (the
// runner, the command line, the workbench, the gateway) gets an ordinary
// CallResult and none of them learns about tasks unless it wants to.
//
// Which calls become tasks:
//   - "required": always (the server refuses anything else);
//   - "optional": only when the caller asks (CallRequest.AsTask), since an
//     ordinary call is cheaper and gives the same result;
//   - "forbidden", absent, or a server that does not declare
//     tasks.requests.tools.call: never (the spec forbids it).

// Bounds of the task loop. The server suggests how often to poll; a server
// that asks for a poll every millisecond, or once a day, is held to these.
const (
	taskPollMin     = 100 * time.Millisecond
	taskPollMax     = 5 * time.Second
	taskPollDefault = time.Second
	// maxTaskID bounds the id a server hands out; ids are echoed in every
	// poll and shown on screens.
	maxTaskID = 256
	// maxTaskSeen bounds the last-seen statuses kept for notifications.
	maxTaskSeen = 512
	// maxTaskPages and maxTasks bound a tasks/list.
	maxTaskPages = 100
	maxTasks     = 10000
	// maxTaskMessage bounds a statusMessage in a status line.
	maxTaskMessage = 512
	// taskCancelWait bounds the tasks/cancel sent when a call gives up.
	taskCancelWait = 5 * time.Second
)

// EventTask is a task's status as the server reported it (by
// notifications/tasks/status or an answer to tasks/get); Event.TaskID and
// Event.TaskStatus say which and what, Text is the status line.
const EventTask EventKind = "task"

// ErrNoTaskList is Tasks on a server that does not declare tasks.list:
// nothing is sent.
var ErrNoTaskList = errors.New("tasks/list is not available")

// TaskError is a task that ended without a result to show: the server
// failed or cancelled it and tasks/result had nothing but an error.
type TaskError struct {
	Tool    string
	ID      string
	Status  mcp.TaskStatus
	Message string // the server's statusMessage or error text (NOT sanitised)
}

func (e *TaskError) Error() string {
	msg := fmt.Sprintf("tools/call %s: task %s %s", e.Tool, e.ID, e.Status)
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return msg
}

// Is makes a task the server cancelled count as a cancellation.
func (e *TaskError) Is(target error) bool {
	return target == context.Canceled && e.Status == mcp.TaskStatusCancelled
}

// taskState is the session's view of the tasks it has heard about: the last
// status per task (bounded) and the calls waiting on one.
type taskState struct {
	mu      sync.Mutex
	seen    map[string]string // task id -> status + "\x00" + message
	order   []string          // ids of seen, oldest first
	waiters map[string]chan struct{}
}

// note records a task's status and reports whether it changed; a call
// waiting on the task is woken.
func (ts *taskState) note(t mcp.Task, wake bool) bool {
	key := string(t.Status) + "\x00" + t.StatusMessage
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.seen == nil {
		ts.seen = map[string]string{}
	}
	old, known := ts.seen[t.TaskId]
	if !known {
		ts.order = append(ts.order, t.TaskId)
		if len(ts.order) > maxTaskSeen {
			delete(ts.seen, ts.order[0])
			ts.order = ts.order[1:]
		}
	}
	ts.seen[t.TaskId] = key
	if w := ts.waiters[t.TaskId]; w != nil && wake {
		select {
		case w <- struct{}{}:
		default:
		}
	}
	return !known || old != key
}

// wait registers a call waiting on task id. When a notification about the
// task already came (known), the channel starts signalled.
func (ts *taskState) wait(id string) (wake <-chan struct{}, done func(), known bool) {
	ch := make(chan struct{}, 1)
	ts.mu.Lock()
	if ts.waiters == nil {
		ts.waiters = map[string]chan struct{}{}
	}
	ts.waiters[id] = ch
	_, known = ts.seen[id]
	if known {
		ch <- struct{}{}
	}
	ts.mu.Unlock()
	return ch, func() {
		ts.mu.Lock()
		delete(ts.waiters, id)
		ts.mu.Unlock()
	}, known
}

// onTaskStatus handles notifications/tasks/status (on the transport's
// reader: it never blocks).
func (s *Session) onTaskStatus(p map[string]any) {
	t, err := taskFromAny(p)
	if err != nil {
		s.events.publish(Event{Kind: EventNotice, Level: "warning", Source: string(mcp.MethodNotificationTasksStatus), Text: "ignored: " + err.Error()})
		return
	}
	s.noteTaskWake(t, true)
}

// noteTask publishes a task's status when it is news.
func (s *Session) noteTask(t mcp.Task) bool { return s.noteTaskWake(t, false) }

// noteTaskWake is noteTask that also wakes a call waiting on the task (for
// news from a notification, which the waiting call has not seen).
func (s *Session) noteTaskWake(t mcp.Task, wake bool) bool {
	if !s.tasks.note(t, wake) {
		return false
	}
	s.events.publish(Event{Kind: EventTask, Source: "tasks", TaskID: t.TaskId, TaskStatus: string(t.Status), Text: TaskLine(t)})
	return true
}

// TaskLine is a task's status in one line: "task ID working: message".
// Server text: sanitise before printing.
func TaskLine(t mcp.Task) string {
	line := "task " + t.TaskId + " " + string(t.Status)
	if t.StatusMessage != "" {
		line += ": " + clipText(t.StatusMessage, maxTaskMessage)
	}
	return line
}

func taskFromAny(v any) (mcp.Task, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return mcp.Task{}, err
	}
	var t mcp.Task
	if err := json.Unmarshal(b, &t); err != nil {
		return mcp.Task{}, fmt.Errorf("not a task: %w", err)
	}
	return t, checkTask(t)
}

// checkTask rejects what no task may be: a missing or oversized id, an id
// with control characters, a status the protocol does not have.
func checkTask(t mcp.Task) error {
	switch {
	case t.TaskId == "":
		return errors.New("the task has no taskId")
	case len(t.TaskId) > maxTaskID:
		return fmt.Errorf("taskId is %d bytes (at most %d)", len(t.TaskId), maxTaskID)
	case strings.IndexFunc(t.TaskId, unicode.IsControl) >= 0:
		return fmt.Errorf("taskId %q has control characters", t.TaskId)
	}
	switch t.Status {
	case mcp.TaskStatusWorking, mcp.TaskStatusInputRequired, mcp.TaskStatusCompleted, mcp.TaskStatusFailed, mcp.TaskStatusCancelled:
		return nil
	}
	return fmt.Errorf("task %s has status %q, which is not one of working, input_required, completed, failed, cancelled", t.TaskId, clipText(string(t.Status), 64))
}

// pollEvery is the server's suggested interval, held to the bounds.
func pollEvery(t mcp.Task) time.Duration {
	if t.PollInterval == nil || *t.PollInterval <= 0 {
		return taskPollDefault
	}
	ms := *t.PollInterval
	if ms > int64(taskPollMax/time.Millisecond) {
		return taskPollMax
	}
	return max(time.Duration(ms)*time.Millisecond, taskPollMin)
}

// TaskSupport is the tool's execution.taskSupport as the session will act
// on it: "required", "optional" or "forbidden" (also for a tool the server
// does not list, and for every tool of a server that does not declare
// task-augmented tools/call).
func (s *Session) TaskSupport(ctx context.Context, tool string) mcp.TaskSupport {
	c, err := s.current()
	if err != nil {
		return mcp.TaskSupportForbidden
	}
	return s.taskSupport(ctx, c, tool)
}

func (s *Session) taskSupport(ctx context.Context, c *conn, tool string) mcp.TaskSupport {
	tc := c.info.Capabilities.Tasks
	if tc == nil || tc.Requests == nil || tc.Requests.Tools == nil || tc.Requests.Tools.Call == nil {
		return mcp.TaskSupportForbidden
	}
	set, err := s.Tools(ctx)
	if err != nil || set == nil {
		return mcp.TaskSupportForbidden
	}
	t := set.Find(tool)
	if t == nil {
		return mcp.TaskSupportForbidden
	}
	switch v := mcp.TaskSupport(t.Raw.Get("execution").Get("taskSupport").StringOr("")); v {
	case mcp.TaskSupportRequired, mcp.TaskSupportOptional:
		return v
	}
	return mcp.TaskSupportForbidden
}

func (s *Session) wantsTask(ctx context.Context, c *conn, req CallRequest) bool {
	switch s.taskSupport(ctx, c, req.Tool) {
	case mcp.TaskSupportRequired:
		return true
	case mcp.TaskSupportOptional:
		return req.AsTask
	}
	return false
}

// taskCall is one task-augmented call in progress: Call's timers and
// result, which callTask fills in.
type taskCall struct {
	c       *conn
	req     CallRequest
	creq    mcp.CallToolRequest
	r       *CallResult
	idle    func() // restarts the idle timer (a status changed)
	timeout time.Duration
	maxTime time.Duration
	pause   func() // stops the idle timer (the server waits for input)
	nprog   func() int
	seen    string // the status the call last reported
}

// taskOutcome is what tasks/result said.
type taskOutcome struct {
	v   *ojson.Value
	err error
}

// callTask sends the call task-augmented, waits for the task to end
// (polling tasks/get at the server's interval, woken early by status
// notifications), fetches tasks/result and fills r as an ordinary call
// would. ctx is Call's: it ends on the caller's cancel, the idle timeout
// (no status change or progress for the call's Timeout) and the overall
// deadline; then the task is cancelled with tasks/cancel.
func (s *Session) callTask(ctx context.Context, tc *taskCall) {
	r, op := tc.r, "tools/call "+tc.req.Tool
	tc.creq.Params.Task = &mcp.TaskParams{}
	// The server answers a task-augmented call at once, with the task. The
	// answer is awaited even when the call is cancelled meanwhile (up to
	// the idle timeout, or until the session closes): without the task's
	// id there is nothing to send tasks/cancel for, and the task would run
	// on.
	wctx, stop := context.WithTimeoutCause(context.WithoutCancel(ctx), tc.timeout, ErrTimeout)
	defer stop()
	go func() {
		select {
		case <-s.ctx.Done():
			stop()
		case <-wctx.Done():
		}
	}()
	cctx, capt := withCapture(wctx)
	_, err := tc.c.client.CallTool(cctx, tc.creq)
	raw, rpcErr, answered := capt.result()
	if !answered || rpcErr != nil {
		switch {
		case !answered && errors.Is(context.Cause(wctx), ErrTimeout):
			r.Cancelled = true
			r.Err = &TimeoutError{Op: op, After: tc.timeout.String() + " without an answer to the task-augmented call"}
		case ctx.Err() != nil && !answered:
			s.taskEnded(ctx, tc, "")
		default:
			r.Err = s.classify(cctx, err, capt, op)
		}
		return
	}
	v, perr := ojson.Parse(raw)
	if perr != nil {
		r.Err = &ProtocolError{Op: op, Err: perr}
		return
	}
	if v.Get("task") == nil && v.Get("content") != nil {
		// The server ran the call the ordinary way: that is its answer.
		s.finishTaskResult(ctx, tc, v)
		return
	}
	var created mcp.CreateTaskResult
	if err := json.Unmarshal(raw, &created); err != nil {
		r.Err = &ProtocolError{Op: op, Err: fmt.Errorf("the task-augmented call's answer is not a CreateTaskResult: %w", err)}
		return
	}
	if err := checkTask(created.Task); err != nil {
		r.Err = &ProtocolError{Op: op, Err: fmt.Errorf("the task-augmented call's answer: %w", err)}
		return
	}
	task := created.Task
	r.TaskID, r.TaskStatus = task.TaskId, string(task.Status)
	if ctx.Err() != nil { // cancelled while the task was being made
		s.taskEnded(ctx, tc, task.TaskId)
		return
	}
	var last *ojson.Value // the latest tasks/get answer
	wake, done, known := s.tasks.wait(task.TaskId)
	defer done()
	// A notification that overtook the answer is newer than it: then the
	// session keeps that one, and only the caller hears of the creation.
	s.report(tc, task, !known)

	// tasks/result is where an input_required task's questions
	// (elicitation, sampling) come through, and it blocks until the task
	// ends: it is sent once the task needs input or has ended, and the
	// polling goes on beside it, so the caller still sees the status move.
	// While the server waits for input it is not idle, so the idle timer
	// waits too (the overall deadline does not).
	var result chan taskOutcome
	fetch := func() {
		if result == nil && !tc.c.info.Modern {
			result = make(chan taskOutcome, 1)
			go func() {
				_, v, err := s.taskResult(ctx, tc.c, task.TaskId)
				result <- taskOutcome{v, err}
			}()
		}
	}
	var got *taskOutcome
	for got == nil && !task.Status.IsTerminal() {
		if task.Status == mcp.TaskStatusInputRequired {
			fetch()
			tc.pause()
		}
		t := time.NewTimer(pollEvery(task))
		select {
		case <-ctx.Done():
			t.Stop()
			s.taskEnded(ctx, tc, task.TaskId)
			return
		case <-wake:
			t.Stop()
		case <-t.C:
		case out := <-result:
			t.Stop()
			got = &out
			continue
		}
		next, nraw, err := s.getTask(ctx, tc.c, task.TaskId)
		if err != nil {
			if ctx.Err() != nil {
				s.taskEnded(ctx, tc, task.TaskId)
				return
			}
			r.Err = err
			return
		}
		if next.TaskId != task.TaskId {
			r.Err = &ProtocolError{Op: "tasks/get " + task.TaskId, Err: fmt.Errorf("the answer is about task %q", clipText(next.TaskId, 64))}
			return
		}
		task, last = next, nraw
		r.TaskStatus = string(task.Status)
		s.report(tc, task, true)
	}
	if ctx.Err() != nil {
		// The task ended because the call did (an in-process server runs it
		// under the call's context): that is the call's ending, not the
		// server's.
		s.taskEnded(ctx, tc, task.TaskId)
		return
	}
	if tc.c.info.Modern {
		// 2026-07-28 removed tasks/result: a finished task's tasks/get
		// carries its result (or error) inline.
		s.finishModern(ctx, tc, task, last)
		return
	}
	if got == nil {
		fetch()
		select {
		case out := <-result:
			got = &out
		case <-ctx.Done():
			s.taskEnded(ctx, tc, task.TaskId)
			return
		}
	}
	if !task.Status.IsTerminal() {
		// The result came while the task still said input_required or
		// working: the task has ended, as what?
		if t, _, err := s.getTask(ctx, tc.c, task.TaskId); err == nil && t.TaskId == task.TaskId {
			task = t
			r.TaskStatus = string(task.Status)
			s.report(tc, task, true)
		}
	}
	rraw, err := got.v, got.err
	if err != nil {
		if ctx.Err() != nil {
			s.taskEnded(ctx, tc, task.TaskId)
			return
		}
		var rpc *RPCError
		if errors.As(err, &rpc) && (task.Status == mcp.TaskStatusFailed || task.Status == mcp.TaskStatusCancelled) {
			msg := task.StatusMessage
			if msg == "" {
				msg = rpc.Message
			}
			r.Err = &TaskError{Tool: tc.req.Tool, ID: task.TaskId, Status: task.Status, Message: msg}
			return
		}
		r.Err = err
		return
	}
	if task.Status == mcp.TaskStatusCancelled {
		// Cancelled on the server (tasks/cancel from elsewhere, or the
		// server's own doing): whatever tasks/result says, there is no
		// result.
		r.Cancelled = true
		r.Err = &TaskError{Tool: tc.req.Tool, ID: task.TaskId, Status: task.Status, Message: task.StatusMessage}
		return
	}
	s.finishTaskResult(ctx, tc, rraw)
	switch task.Status {
	case mcp.TaskStatusFailed:
		r.IsError = true
	case mcp.TaskStatusInputRequired, mcp.TaskStatusWorking:
		// tasks/result answered, so the task has ended.
		r.TaskStatus = string(mcp.TaskStatusCompleted)
	}
}

// report shows a task's status to the caller (as a progress-like event)
// and restarts the idle timer, when it changed since the call last saw it.
func (s *Session) report(tc *taskCall, t mcp.Task, note bool) {
	if note {
		s.noteTask(t)
	}
	key := string(t.Status) + "\x00" + t.StatusMessage
	if key == tc.seen {
		return
	}
	tc.seen = key
	tc.idle()
	if tc.req.OnProgress != nil {
		tc.req.OnProgress(Event{Time: time.Now(), Kind: EventTask, Source: "tasks", TaskID: t.TaskId, TaskStatus: string(t.Status), Text: TaskLine(t)})
	}
}

// finishTaskResult fills r from a CallToolResult (tasks/result's answer, or
// a server that ignored the task).
func (s *Session) finishTaskResult(ctx context.Context, tc *taskCall, v *ojson.Value) {
	r := tc.r
	r.Progress = tc.nprog()
	r.Raw = v
	if ie := v.Get("isError"); ie != nil && ie.Kind == ojson.Bool {
		r.IsError = ie.Bool
	}
	var res mcp.CallToolResult
	if err := json.Unmarshal([]byte(v.Compact()), &res); err != nil {
		r.Err = &ProtocolError{Op: "tasks/result " + r.TaskID, Err: err}
		return
	}
	r.Result = &res
	r.IsError = r.IsError || res.IsError
	if !r.IsError {
		r.SchemaErr = s.checkOutput(ctx, tc.req.Tool, r.Raw)
	}
}

// taskEnded is a call that gave up on its task: the task is cancelled on
// the server (when there is one) and r says why the call ended.
func (s *Session) taskEnded(ctx context.Context, tc *taskCall, id string) {
	r := tc.r
	r.Cancelled = true
	r.Progress = tc.nprog()
	where := ""
	if id != "" {
		cctx, cancel := context.WithTimeout(s.ctx, taskCancelWait)
		t, err := s.cancelTask(cctx, tc.c, id)
		cancel()
		if err == nil {
			r.TaskStatus = string(t.Status)
			s.noteTask(t)
			where = "task " + id + " cancelled with tasks/cancel"
		} else {
			where = "task " + id + " left running: " + err.Error()
		}
	}
	op := "tools/call " + tc.req.Tool
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errMaxTime):
		why := "the task never finished"
		if where != "" {
			why += "; " + where
		}
		r.Err = &TimeoutError{Op: op, After: tc.maxTime.String(), Overall: true, Why: why}
	case errors.Is(cause, ErrTimeout):
		after := tc.timeout.String() + " without a task status change or progress"
		if where != "" {
			after += "; " + where
		}
		r.Err = &TimeoutError{Op: op, After: after}
	default:
		if where != "" {
			where = " (" + where + ")"
		}
		r.Err = fmt.Errorf("tools/call %s: cancelled%s: %w", tc.req.Tool, where, context.Canceled)
	}
}

// getTask sends tasks/get and checks the answer, which also comes raw.
func (s *Session) getTask(ctx context.Context, c *conn, id string) (mcp.Task, *ojson.Value, error) {
	op := "tasks/get " + id
	cctx, capt := withCapture(ctx)
	res, err := c.client.GetTask(cctx, mcp.GetTaskRequest{Params: mcp.GetTaskParams{TaskId: id}})
	if err != nil {
		return mcp.Task{}, nil, s.classify(cctx, err, capt, op)
	}
	if err := checkTask(res.Task); err != nil {
		return mcp.Task{}, nil, &ProtocolError{Op: op, Err: err}
	}
	raw, _, _ := capt.result()
	v, _ := ojson.Parse(raw)
	return res.Task, v, nil
}

// finishModern ends a task on a 2026-07-28 connection, from the inline
// result or error of its last tasks/get.
func (s *Session) finishModern(ctx context.Context, tc *taskCall, task mcp.Task, last *ojson.Value) {
	r := tc.r
	if last == nil {
		// The task was terminal from the start: ask once.
		var err error
		if _, last, err = s.getTask(ctx, tc.c, task.TaskId); err != nil {
			r.Err = err
			return
		}
	}
	if res := last.Get("result"); res != nil && res.Kind == ojson.Object {
		s.finishTaskResult(ctx, tc, res)
		if task.Status == mcp.TaskStatusFailed {
			r.IsError = true
		}
		return
	}
	if e := last.Get("error"); e != nil && e.Kind == ojson.Object {
		r.Err = &TaskError{Tool: tc.req.Tool, ID: task.TaskId, Status: task.Status, Message: e.Get("message").StringOr(task.StatusMessage)}
		return
	}
	if task.Status != mcp.TaskStatusCompleted {
		r.Err = &TaskError{Tool: tc.req.Tool, ID: task.TaskId, Status: task.Status, Message: task.StatusMessage}
		return
	}
	r.Err = &ProtocolError{Op: "tasks/get " + task.TaskId, Err: errors.New("the task completed, but on protocol 2026-07-28 (which has no tasks/result) its tasks/get carries no result; pin --protocol 2025-11-25 to fetch it with tasks/result")}
}

// taskResult sends tasks/result; the answer comes raw as well as typed.
func (s *Session) taskResult(ctx context.Context, c *conn, id string) (*mcp.TaskResultResult, *ojson.Value, error) {
	op := "tasks/result " + id
	cctx, capt := withCapture(ctx)
	res, err := c.client.TaskResult(cctx, mcp.TaskResultRequest{Params: mcp.TaskResultParams{TaskId: id}})
	if err != nil {
		return nil, nil, s.classify(cctx, err, capt, op)
	}
	raw, _, _ := capt.result()
	v, perr := ojson.Parse(raw)
	if perr != nil || v.Kind != ojson.Object {
		return nil, nil, &ProtocolError{Op: op, Err: errors.New("the answer is not an object")}
	}
	return res, v, nil
}

func (s *Session) cancelTask(ctx context.Context, c *conn, id string) (mcp.Task, error) {
	op := "tasks/cancel " + id
	cctx, capt := withCapture(ctx)
	res, err := c.client.CancelTask(cctx, mcp.CancelTaskRequest{Params: mcp.CancelTaskParams{TaskId: id}})
	if err != nil {
		return mcp.Task{}, s.classify(cctx, err, capt, op)
	}
	if err := checkTask(res.Task); err != nil {
		return mcp.Task{}, &ProtocolError{Op: op, Err: err}
	}
	return res.Task, nil
}

// Tasks lists the server's tasks (tasks/list, every page, bounded by the
// session's CallTimeout). Tasks that are not tasks are left out and said
// so in the error only when nothing is left.
func (s *Session) Tasks(ctx context.Context) ([]mcp.Task, error) {
	c, err := s.current()
	if err != nil {
		return nil, err
	}
	if tc := c.info.Capabilities.Tasks; tc == nil || tc.List == nil {
		return nil, fmt.Errorf("%w: the server's capabilities have no tasks.list", ErrNoTaskList)
	}
	if c.info.Modern {
		return nil, fmt.Errorf("%w: protocol %s removed it (pin --protocol 2025-11-25)", ErrNoTaskList, c.info.ProtocolVersion)
	}
	ctx, cancel := context.WithTimeoutCause(ctx, s.opts.CallTimeout, ErrTimeout)
	defer cancel()
	// Paged here rather than by mcp-go's ListTasks, which follows a server
	// that always has another page for as long as the timeout lasts.
	var all []mcp.Task
	var req mcp.ListTasksRequest
	seen := map[mcp.Cursor]bool{}
	for page := 0; ; page++ {
		if page == maxTaskPages || len(all) >= maxTasks {
			s.events.publish(Event{Kind: EventNotice, Level: "warning", Source: "tasks/list", Text: fmt.Sprintf("stopped after %d pages and %d tasks", page, len(all))})
			break
		}
		cctx, capt := withCapture(ctx)
		res, err := c.client.ListTasksByPage(cctx, req)
		if err != nil {
			return nil, s.classify(cctx, err, capt, "tasks/list")
		}
		all = append(all, res.Tasks...)
		if res.NextCursor == "" {
			break
		}
		if seen[res.NextCursor] {
			return nil, &ProtocolError{Op: "tasks/list", Err: fmt.Errorf("the cursor %q came twice", clipText(string(res.NextCursor), 64))}
		}
		seen[res.NextCursor] = true
		req.Params.Cursor = res.NextCursor
	}
	out := make([]mcp.Task, 0, len(all))
	var bad error
	for _, t := range all {
		if err := checkTask(t); err != nil {
			bad = err
			continue
		}
		s.noteTask(t)
		out = append(out, t)
	}
	if len(out) == 0 && bad != nil {
		return nil, &ProtocolError{Op: "tasks/list", Err: bad}
	}
	return out, nil
}

// Task asks the server for one task's status (tasks/get).
func (s *Session) Task(ctx context.Context, id string) (mcp.Task, error) {
	c, err := s.current()
	if err != nil {
		return mcp.Task{}, err
	}
	ctx, cancel := context.WithTimeoutCause(ctx, s.opts.CallTimeout, ErrTimeout)
	defer cancel()
	t, _, err := s.getTask(ctx, c, id)
	if err == nil {
		s.noteTask(t)
	}
	return t, err
}

// CancelTask asks the server to cancel a task (tasks/cancel) and returns
// the task as the server then reports it.
func (s *Session) CancelTask(ctx context.Context, id string) (mcp.Task, error) {
	c, err := s.current()
	if err != nil {
		return mcp.Task{}, err
	}
	ctx, cancel := context.WithTimeoutCause(ctx, s.opts.CallTimeout, ErrTimeout)
	defer cancel()
	t, err := s.cancelTask(ctx, c, id)
	if err == nil {
		s.noteTask(t)
	}
	return t, err
}

// TaskResult fetches a task's result (tasks/result) as an ordinary
// CallResult. The server holds the answer until the task ends, so this
// waits, up to the session's MaxCallTime.
func (s *Session) TaskResult(ctx context.Context, id string) *CallResult {
	r := &CallResult{Seq: s.callSeq.Add(1), TaskID: id, Started: time.Now()}
	defer func() { r.Duration = time.Since(r.Started) }()
	c, err := s.current()
	if err != nil {
		r.Err = err
		return r
	}
	ctx, cancel := context.WithTimeoutCause(ctx, s.opts.MaxCallTime, ErrTimeout)
	defer cancel()
	_, v, err := s.taskResult(ctx, c, id)
	if err != nil {
		r.Err = err
		return r
	}
	tc := &taskCall{c: c, r: r, nprog: func() int { return 0 }}
	s.finishTaskResult(ctx, tc, v)
	return r
}
