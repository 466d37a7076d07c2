package session

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/mcpterm/mcpterm/convert/calls"
)

// taskServer is an in-process mcp-go server with task-augmented tools: a
// required one that answers, an optional one, a failing one and one that
// runs until it is cancelled (started says it has begun; cancelled says
// the server saw it end).
type taskServer struct {
	srv       *server.MCPServer
	release   chan struct{}
	started   chan string
	cancelled chan struct{}
}

func newTaskServer(t testing.TB) *taskServer {
	ts := &taskServer{started: make(chan string, 4), cancelled: make(chan struct{}, 4), release: make(chan struct{})}
	hooks := &server.TaskHooks{}
	hooks.AddOnTaskCancelled(func(context.Context, server.TaskMetrics) { ts.cancelled <- struct{}{} })
	s := server.NewMCPServer("tasks", "1.0.0", server.WithTaskCapabilities(true, true, true), server.WithToolCapabilities(false), server.WithTaskHooks(hooks))
	s.AddTaskTool(mcp.NewTool("research", mcp.WithTaskSupport(mcp.TaskSupportRequired), mcp.WithString("topic", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CreateTaskResult, error) {
			return &mcp.CreateTaskResult{Content: []mcp.Content{mcp.NewTextContent("report on " + req.GetString("topic", ""))}}, nil
		})
	s.AddTool(mcp.NewTool("echo", mcp.WithTaskSupport(mcp.TaskSupportOptional), mcp.WithString("text")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("echo " + req.GetString("text", "")), nil
		})
	s.AddTaskTool(mcp.NewTool("doomed", mcp.WithTaskSupport(mcp.TaskSupportRequired)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CreateTaskResult, error) {
			return nil, errors.New("the disk is on fire")
		})
	// mcp-go v1.2.1 runs a task under the context of the request that
	// made it, which ends as soon as the task is created: a handler that
	// watched ctx would be cancelled at once. This one runs until the test
	// ends; tasks/cancel reaches the server's task store (the hook).
	s.AddTaskTool(mcp.NewTool("forever", mcp.WithTaskSupport(mcp.TaskSupportRequired)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CreateTaskResult, error) {
			ts.started <- "forever"
			<-ts.release
			return nil, errors.New("released")
		})
	ts.srv = s
	t.Cleanup(func() { close(ts.release) })
	return ts
}

// legacy is the revision with tasks/result and tasks/list; mcp-go serves
// 2026-07-28 without them.
const legacy = "2025-11-25"

func (ts *taskServer) source(testing.TB) Source {
	return Source{Kind: InProcess, Name: "tasks", Server: ts.srv}
}

func TestTaskRequiredTool(t *testing.T) {
	s := open(t, newTaskServer(t).source(t), Options{ProtocolVersion: legacy})
	ctx := ctxT(t, 30*time.Second)
	if got := s.TaskSupport(ctx, "research"); got != mcp.TaskSupportRequired {
		t.Fatalf("TaskSupport(research) = %q", got)
	}
	var mu sync.Mutex
	var seen []string
	r := s.Call(ctx, CallRequest{Tool: "research", Arguments: obj(t, `{"topic":"tides"}`), OnProgress: func(e Event) {
		mu.Lock()
		defer mu.Unlock()
		if e.Kind == EventTask {
			seen = append(seen, e.TaskStatus)
		}
	}})
	if !r.OK() || resultText(r) != "report on tides" {
		t.Fatalf("research: err %v isError %v text %q", r.Err, r.IsError, resultText(r))
	}
	if r.TaskID == "" || r.TaskStatus != string(mcp.TaskStatusCompleted) {
		t.Errorf("task %q status %q", r.TaskID, r.TaskStatus)
	}
	mu.Lock()
	if len(seen) == 0 || seen[0] != "working" || seen[len(seen)-1] != "completed" {
		t.Errorf("status changes seen by the caller: %v", seen)
	}
	mu.Unlock()
	// The wire shows the dance: a task-augmented call, then tasks/result.
	var methods []string
	for _, m := range s.Tap().Messages() {
		if m.Kind == KindRequest {
			methods = append(methods, m.Method)
		}
	}
	if got := strings.Join(methods, " "); !strings.Contains(got, "tools/call") || !strings.Contains(got, "tasks/result") {
		t.Errorf("requests: %s", got)
	}
	// The server still knows the task.
	tasks, err := s.Tasks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tk := range tasks {
		found = found || tk.TaskId == r.TaskID && tk.Status == mcp.TaskStatusCompleted
	}
	if !found {
		t.Errorf("tasks/list %v has no completed %s", tasks, r.TaskID)
	}
	if tk, err := s.Task(ctx, r.TaskID); err != nil || tk.Status != mcp.TaskStatusCompleted {
		t.Errorf("Task(%s) = %v, %v", r.TaskID, tk, err)
	}
	if again := s.TaskResult(ctx, r.TaskID); !again.OK() || resultText(again) != "report on tides" {
		t.Errorf("TaskResult: %v %q", again.Err, resultText(again))
	}
}

func TestTaskOptionalTool(t *testing.T) {
	s := open(t, newTaskServer(t).source(t), Options{ProtocolVersion: legacy})
	ctx := ctxT(t, 30*time.Second)
	plain := s.Call(ctx, CallRequest{Tool: "echo", Arguments: obj(t, `{"text":"a"}`)})
	if !plain.OK() || plain.TaskID != "" || resultText(plain) != "echo a" {
		t.Errorf("optional, not asked: err %v task %q text %q", plain.Err, plain.TaskID, resultText(plain))
	}
	asTask := s.Call(ctx, CallRequest{Tool: "echo", Arguments: obj(t, `{"text":"b"}`), AsTask: true})
	if !asTask.OK() || asTask.TaskID == "" || resultText(asTask) != "echo b" {
		t.Errorf("optional, asked: err %v task %q text %q", asTask.Err, asTask.TaskID, resultText(asTask))
	}
}

func TestTaskFails(t *testing.T) {
	s := open(t, newTaskServer(t).source(t), Options{ProtocolVersion: legacy})
	ctx := ctxT(t, 30*time.Second)
	r := s.Call(ctx, CallRequest{Tool: "doomed"})
	var te *TaskError
	if !errors.As(r.Err, &te) || te.Status != mcp.TaskStatusFailed || !strings.Contains(r.Err.Error(), "the disk is on fire") {
		t.Fatalf("err = %v", r.Err)
	}
	if r.TaskStatus != string(mcp.TaskStatusFailed) {
		t.Errorf("status %q", r.TaskStatus)
	}
}

func TestTaskCancelledByCaller(t *testing.T) {
	ts := newTaskServer(t)
	s := open(t, ts.source(t), Options{ProtocolVersion: legacy})
	ctx, cancel := context.WithCancel(ctxT(t, 30*time.Second))
	done := make(chan *CallResult, 1)
	go func() { done <- s.Call(ctx, CallRequest{Tool: "forever"}) }()
	<-ts.started
	cancel()
	r := <-done
	if !r.Cancelled || !errors.Is(r.Err, context.Canceled) || !strings.Contains(r.Err.Error(), "tasks/cancel") {
		t.Fatalf("cancelled: %v (cancelled %v)", r.Err, r.Cancelled)
	}
	<-ts.cancelled // the server's handler saw its context end
	tk, err := s.Task(ctxT(t, 10*time.Second), r.TaskID)
	if err != nil || tk.Status != mcp.TaskStatusCancelled {
		t.Errorf("after cancel: %v %v", tk.Status, err)
	}
}

func TestTaskCancelTaskByID(t *testing.T) {
	ts := newTaskServer(t)
	s := open(t, ts.source(t), Options{ProtocolVersion: legacy})
	ctx := ctxT(t, 30*time.Second)
	done := make(chan *CallResult, 1)
	go func() { done <- s.Call(ctx, CallRequest{Tool: "forever"}) }()
	<-ts.started
	var id string
	waitFor(t, 10*time.Second, "the task in tasks/list", func() bool {
		tasks, err := s.Tasks(ctx)
		if err == nil && len(tasks) == 1 {
			id = tasks[0].TaskId
		}
		return id != ""
	})
	if tk, err := s.CancelTask(ctx, id); err != nil || tk.Status != mcp.TaskStatusCancelled {
		t.Fatalf("CancelTask: %v %v", tk.Status, err)
	}
	r := <-done
	if !errors.Is(r.Err, context.Canceled) || !r.Cancelled {
		t.Errorf("the waiting call: %v (cancelled %v)", r.Err, r.Cancelled)
	}
}

func TestTaskNeverEndsBoundedByDeadline(t *testing.T) {
	ts := newTaskServer(t)
	s := open(t, ts.source(t), Options{ProtocolVersion: legacy})
	ctx := ctxT(t, 30*time.Second)
	r := s.Call(ctx, CallRequest{Tool: "forever", Timeout: 30 * time.Second, MaxTime: 300 * time.Millisecond})
	var te *TimeoutError
	if !errors.As(r.Err, &te) || !te.Overall || !strings.Contains(r.Err.Error(), "never finished") {
		t.Fatalf("err = %v", r.Err)
	}
	<-ts.cancelled // and the task was cancelled on the server
}

func TestTaskForbiddenToolUntouched(t *testing.T) {
	// A server without the tasks capability gets ordinary calls.
	s := open(t, inProcess(nil), Options{})
	ctx := ctxT(t, 30*time.Second)
	set, err := s.Tools(ctx)
	if err != nil || len(set.Tools) == 0 {
		t.Fatal(err)
	}
	if got := s.TaskSupport(ctx, set.Tools[0].Name); got != mcp.TaskSupportForbidden {
		t.Errorf("TaskSupport = %q", got)
	}
}

func TestCheckTask(t *testing.T) {
	ok := mcp.Task{TaskId: "t-1", Status: mcp.TaskStatusWorking}
	if err := checkTask(ok); err != nil {
		t.Errorf("good task: %v", err)
	}
	for name, tk := range map[string]mcp.Task{
		"no id":      {Status: mcp.TaskStatusWorking},
		"long id":    {TaskId: strings.Repeat("x", maxTaskID+1), Status: mcp.TaskStatusWorking},
		"control":    {TaskId: "a\x1b[2Jb", Status: mcp.TaskStatusWorking},
		"bad status": {TaskId: "t", Status: "exploded"},
	} {
		if err := checkTask(tk); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	for ms, want := range map[int64]time.Duration{1: taskPollMin, 250: 250 * time.Millisecond, 1 << 40: taskPollMax, -5: taskPollDefault} {
		if got := pollEvery(mcp.Task{PollInterval: &ms}); got != want {
			t.Errorf("pollEvery(%d) = %v, want %v", ms, got, want)
		}
	}
}

// On 2026-07-28, which removed tasks/result, mcp-go's tasks/get carries no
// result: the call ends with an error saying so, not a hang.
func TestTaskModernWithoutResult(t *testing.T) {
	s := open(t, newTaskServer(t).source(t), Options{})
	if !s.Info().Modern {
		t.Skip("the in-process server no longer negotiates 2026-07-28")
	}
	r := s.Call(ctxT(t, 30*time.Second), CallRequest{Tool: "research", Arguments: obj(t, `{"topic":"x"}`)})
	if r.Err == nil || !strings.Contains(r.Err.Error(), "--protocol 2025-11-25") {
		t.Fatalf("err = %v", r.Err)
	}
}

// TestTaskEverything: server-everything's simulate-research-query (task
// support required) over a real stdio subprocess, ambiguous so that the
// task goes input_required and asks its question through tasks/result.
func TestTaskEverything(t *testing.T) {
	s, _, asker := everythingClientSide(t)
	ctx := ctxT(t, 90*time.Second)
	if got := s.TaskSupport(ctx, "simulate-research-query"); got != mcp.TaskSupportRequired {
		t.Fatalf("TaskSupport = %q", got)
	}
	var mu sync.Mutex
	var lines []string
	r := s.Call(ctx, CallRequest{Tool: "simulate-research-query", Arguments: obj(t, `{"topic":"python","ambiguous":true}`),
		OnProgress: func(e Event) {
			mu.Lock()
			defer mu.Unlock()
			if e.Kind == EventTask {
				lines = append(lines, e.TaskStatus+" "+e.Text)
			}
		}})
	if !r.OK() || !strings.Contains(resultText(r), "Research Report") || r.TaskID == "" {
		t.Fatalf("err %v isError %v task %q text %.200q", r.Err, r.IsError, r.TaskID, resultText(r))
	}
	mu.Lock()
	got := strings.Join(lines, "\n")
	mu.Unlock()
	// The polling goes on beside the blocked tasks/result, so the status
	// after the question shows too.
	if !strings.Contains(got, "working") || !strings.Contains(got, "input_required") || !strings.Contains(got, "Continuing with interpretation") {
		t.Errorf("status lines:\n%s", got)
	}
	asker.mu.Lock()
	n := len(asker.elicits)
	asker.mu.Unlock()
	if n != 1 {
		t.Errorf("the task's question reached the asker %d times", n)
	}
	tasks, err := s.Tasks(ctx)
	if err != nil || len(tasks) == 0 {
		t.Errorf("tasks/list: %v %v", tasks, err)
	}
}

// FuzzTaskStatus: whatever a server sends as notifications/tasks/status
// params, reading it never panics, and what is accepted is a valid task.
func FuzzTaskStatus(f *testing.F) {
	f.Add(`{"taskId":"t1","status":"working","statusMessage":"Gathering sources...","createdAt":"2025-11-25T00:00:00Z","lastUpdatedAt":"2025-11-25T00:00:00Z","ttl":null,"pollInterval":1000}`)
	f.Add(`{"taskId":"","status":"working"}`)
	f.Add(`{"taskId":"t","status":"exploded"}`)
	f.Add(`{"taskId":7,"status":"completed"}`)
	f.Fuzz(func(t *testing.T, data string) {
		var p map[string]any
		if json.Unmarshal([]byte(data), &p) != nil {
			return
		}
		tk, err := taskFromAny(p)
		if err == nil && checkTask(tk) != nil {
			t.Fatalf("accepted an invalid task %+v", tk)
		}
		_ = pollEvery(tk)
	})
}

// The runner asks for tasks where the tool allows them when told to
// (mcpterm call --as-task), and not otherwise.
func TestTaskRunnerAsTask(t *testing.T) {
	s := open(t, newTaskServer(t).source(t), Options{ProtocolVersion: legacy})
	ctx := ctxT(t, 30*time.Second)
	set, err := s.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	codec := calls.New(set, calls.Options{})
	for _, asTask := range []bool{false, true} {
		plan, err := codec.Read(`(echo "x")`)
		if err != nil {
			t.Fatal(err)
		}
		res := NewRunner(s, codec, RunnerOptions{}).Run(ctx, plan, RunOptions{Confirmed: true, AsTask: asTask})
		cr := res.Items[0].Call
		if cr == nil || !cr.OK() || (cr.TaskID != "") != asTask {
			t.Errorf("AsTask %v: %+v", asTask, cr)
		}
	}
}
