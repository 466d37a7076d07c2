package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/session"
)

// taskLines prints a call's task status changes on stderr as they come
// ("mcpterm call: task ID working: Gathering sources..."), so a call that
// runs as a task (session/tasks.go) shows it is alive while it waits. Only
// task statuses are printed: the output of ordinary calls stays as it was.
func (c *cli) taskLines(cn *connection) func(int, session.Event) {
	var mu sync.Mutex // calls of a batch report at once
	return func(_ int, e session.Event) {
		if e.Kind != session.EventTask {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(c.stderr, "mcpterm call: %s\n", c.clean(cn.redactor, e.Text))
	}
}

// tasksOptions are tasks' flags.
type tasksOptions struct {
	sf serverFlags
	of outputFlags
}

func (c *cli) tasksFlags() (*flag.FlagSet, *tasksOptions) {
	fs := newFlagSet("tasks",
		"usage: mcpterm tasks [list | get ID | cancel ID | result ID] [--output text|json] [server selection]",
		"",
		"Lists a server's tasks (protocol 2025-11-25: tools that run as tasks), shows one, cancels one,",
		"or waits for one's result. `mcpterm call` runs task tools itself and prints their result; this",
		"is for servers that keep tasks across connections (over HTTP).",
		"server selection: nothing (demo), -- CMD ARGS, --url URL, --server NAME (not --tools)")
	var o tasksOptions
	o.sf.register(fs)
	refusedOffline(fs, "it has no tasks")
	o.of.register(fs, "text", "json")
	return fs, &o
}

// runTasks is `mcpterm tasks`: tasks/list, tasks/get, tasks/cancel and
// tasks/result through the session.
func (c *cli) runTasks(args []string) int {
	fs, o := c.tasksFlags()
	pos, code, ok := c.parseSelection(fs, &o.sf, args)
	if !ok {
		return code
	}
	c.jsonErrors(o.of.output == "json")
	if err := o.of.check(); err != nil {
		fmt.Fprintf(c.stderr, "mcpterm tasks: %v\n", err)
		return exitUsage
	}
	verb, id := "list", ""
	if len(pos) > 0 {
		verb = pos[0]
	}
	switch {
	case verb == "list" && len(pos) <= 1:
	case (verb == "get" || verb == "cancel" || verb == "result") && len(pos) == 2 && pos[1] != "":
		id = pos[1]
	default:
		fmt.Fprintf(c.stderr, "mcpterm tasks: want list, get ID, cancel ID or result ID, not %s (a server command goes after --)\n", quoteArg(strings.Join(pos, " ")))
		return exitUsage
	}
	ctx, stop := c.runContext()
	defer stop()
	cn, code := c.connect(ctx, "tasks", &o.sf, session.Options{})
	if cn == nil {
		return code
	}
	defer cn.close()
	return c.tasksVerb(ctx, cn, verb, id, &o.of)
}

func (c *cli) tasksVerb(ctx context.Context, cn *connection, verb, id string, of *outputFlags) int {
	fail := func(err error) int {
		if code, ok := c.interrupted(ctx, "tasks", "the request in flight"); ok {
			return code
		}
		fmt.Fprintf(c.stderr, "mcpterm tasks: %s\n", c.clean(cn.redactor, err.Error()))
		return exitFor(err)
	}
	var tasks []mcp.Task
	switch verb {
	case "list":
		ts, err := cn.s.Tasks(ctx)
		if err != nil {
			return fail(err)
		}
		tasks = ts
	case "get", "cancel":
		do := cn.s.Task
		if verb == "cancel" {
			do = cn.s.CancelTask
		}
		t, err := do(ctx, id)
		if err != nil {
			return fail(err)
		}
		tasks = []mcp.Task{t}
	case "result":
		r := cn.s.TaskResult(ctx, id)
		if r.Err != nil {
			return fail(r.Err)
		}
		if of.output == "json" {
			c.emitJSON(cn.redactor, of.maxOutput, rawOr(r.Raw, r.Result))
		} else {
			var b strings.Builder
			if r.Result != nil {
				for _, ct := range r.Result.Content {
					b.WriteString(contentText(ct))
					b.WriteString("\n")
				}
			}
			c.emit(cn.redactor, of.maxOutput, b.String())
		}
		if r.IsError {
			return exitToolError
		}
		return exitOK
	}
	if of.output == "json" {
		v, _ := ojson.FromAny(orEmpty(tasks))
		key := "tasks"
		if verb != "list" {
			v, key = v.Items[0], "task"
		}
		c.emitJSON(cn.redactor, of.maxOutput, ojson.NewObject().Set(key, v).Pretty())
		return exitOK
	}
	var b strings.Builder
	for _, t := range tasks {
		fmt.Fprintf(&b, "%s  %s  created %s  updated %s", t.TaskId, t.Status, orDash(t.CreatedAt), orDash(t.LastUpdatedAt))
		if t.StatusMessage != "" {
			fmt.Fprintf(&b, "  %s", firstLine(t.StatusMessage))
		}
		b.WriteString("\n")
	}
	if len(tasks) == 0 {
		b.WriteString("no tasks\n")
	}
	c.emit(cn.redactor, of.maxOutput, b.String())
	return exitOK
}
