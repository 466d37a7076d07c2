package gateway

import "github.com/mcpterm/mcpterm/session"

// Task-augmented upstream tools. The gateway offers its client ordinary
// tools only (its tools carry no execution.taskSupport), and the upstream
// session runs a tool that requires a task as one (session/tasks.go): the
// client's plain tools/call waits for the task and gets its final result,
// in every mode. A client that declares tasks gains nothing from seeing
// the upstream's tasks, since the gateway's own tools are not tasks.
//
// What the client does see is the task's progress: each status change
// (working, input_required, the statusMessage) comes as a progress
// notification under the client's token, numbered on from the last value
// sent, since a status has no value of its own.

// task forwards one upstream task status as progress.
func (p *progress) task(e session.Event) {
	if p == nil {
		return
	}
	p.mu.Lock()
	next := p.last + 1
	if !p.sent {
		next = 0
	}
	p.mu.Unlock()
	p.send(next, 0, e.Text)
}
