package calls

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// ErrLocalOnly is Print's answer when every item of a plan is answered
// locally (AQL introspect, or requests that fail their checks): there is no
// call to write as MCP-Term or JSON. A dry run prints nothing for it; a
// composer says so.
var ErrLocalOnly = errors.New("nothing to convert: the request is answered locally")

// Print writes a plan in syntax s: canonical MCP-Term (short codes, the
// batch's options), JSON calls ({"name", "arguments"}, a list for a batch)
// or AQL requests (snake_case names, fields restored; requests answered
// locally as they were read). width > 0 pretty-prints to that many columns;
// width <= 0 writes one line. Whatever Print writes, Read reads back to the
// same tools and arguments; what the printed form cannot say is in Notes.
func (c *Codec) Print(p *Plan, s Syntax, width int) (string, error) {
	switch s {
	case SExpr:
		return c.printTerm(p, width)
	case JSON:
		v := jsonCalls(p)
		if v == nil {
			return "", ErrLocalOnly
		}
		return jsonText(v, width), nil
	case AQL:
		v, err := c.aqlDocument(p)
		if err != nil {
			return "", err
		}
		return jsonText(v, width), nil
	}
	return "", fmt.Errorf("unknown syntax %q (want sexpr, json or aql)", s)
}

func jsonText(v *ojson.Value, width int) string {
	if width <= 0 {
		return v.Compact()
	}
	return v.Pretty()
}

// live lists the items a server must answer, in plan order.
func (p *Plan) live() []*Item {
	out := make([]*Item, 0, len(p.Items))
	for i := range p.Items {
		if !p.Items[i].IsLocal() {
			out = append(out, &p.Items[i])
		}
	}
	return out
}

// printsAsBatch: a batch stays one when only one of its items is sent, and
// a single AQL request is one call.
func printsAsBatch(p *Plan, live int) bool { return p.Batch || live > 1 }

func (c *Codec) printTerm(p *Plan, width int) (string, error) {
	live := p.live()
	if len(live) == 0 {
		return "", ErrLocalOnly
	}
	b := &call.Batch{IsBatch: printsAsBatch(p, len(live)), Concurrency: p.Concurrency, StopOnError: p.StopOnError}
	for _, it := range live {
		b.Calls = append(b.Calls, call.Call{ID: it.ID, Tool: it.Tool, Arguments: it.Arguments, Pos: it.Pos})
	}
	n, err := c.r.FormatBatch(b)
	if err != nil {
		return "", err
	}
	if width <= 0 {
		return n.String(), nil
	}
	return sexpr.Pretty(n, width), nil
}

// jsonCall is {"name", "arguments"}, the call as MCP's tools/call params.
func jsonCall(it *Item) *ojson.Value {
	args := it.Arguments
	if args == nil {
		args = ojson.NewObject()
	}
	return ojson.NewObject().Set("name", ojson.NewString(it.Tool)).Set("arguments", args)
}

// jsonCalls is the plan's calls as JSON, nil when there are none.
func jsonCalls(p *Plan) *ojson.Value {
	live := p.live()
	switch {
	case len(live) == 0:
		return nil
	case !printsAsBatch(p, len(live)):
		return jsonCall(live[0])
	}
	arr := ojson.NewArray()
	for _, it := range live {
		arr.Items = append(arr.Items, jsonCall(it))
	}
	return arr
}

// ModelJSON is the JSON a model would write for the plan's calls, minified:
// {"name", "arguments"}, a list for a batch; "" when every item is answered
// locally. Package tokens counts it for the composer's JSON figure, so the
// figure has one definition.
func ModelJSON(p *Plan) string {
	if v := jsonCalls(p); v != nil {
		return v.Compact()
	}
	return ""
}

// Requests are the JSON-RPC tools/call requests a run of the plan sends, ids
// counting from 1; items answered locally send none. `mcpterm call
// --dry-run` prints them, and so does the composer's preview.
func (c *Codec) Requests(p *Plan) []*ojson.Value { return c.RequestsFrom(p, 1) }

// RequestsFrom is Requests with ids counting from first (a live session's
// next request id).
func (c *Codec) RequestsFrom(p *Plan, first int64) []*ojson.Value {
	var out []*ojson.Value
	for _, it := range p.live() {
		out = append(out, call.Request(first, call.Call{Tool: it.Tool, Arguments: it.Arguments}))
		first++
	}
	return out
}

// aqlDocument is the plan as one AQL document.
func (c *Codec) aqlDocument(p *Plan) (*ojson.Value, error) {
	a, err := c.Adapter()
	if err != nil {
		return nil, err
	}
	reqs := make([]*ojson.Value, 0, len(p.Items))
	for i := range p.Items {
		v, err := aqlRequest(a, &p.Items[i])
		if err != nil {
			if p.Syntax == AQL {
				return nil, fmt.Errorf("%s: %w", p.Label(i), err)
			}
			return nil, err
		}
		reqs = append(reqs, v)
	}
	if p.Batch || len(reqs) != 1 {
		return ojson.NewObject().Set("operations", ojson.NewArray(reqs...)), nil
	}
	return reqs[0], nil
}

// aqlRequest writes one item as an AQL request: a call through aql.ToAQL
// with its fields put back; a request read as AQL that ToAQL cannot spell
// (an argument AQL would read as its own) as it was read; one answered
// locally as it was read, or, when it failed, as it was written.
func aqlRequest(a *aql.Adapter, it *Item) (*ojson.Value, error) {
	asRead := func() *ojson.Value {
		return ojson.NewObject().Set("operation", ojson.NewString(it.Operation)).Set("params", it.req.Params)
	}
	if it.IsLocal() {
		switch {
		case it.req != nil && aql.IsSuccess(it.Local):
			return asRead(), nil
		case it.raw != nil:
			return it.raw, nil
		}
		return nil, errors.New("answered locally, it has no request to print")
	}
	v, err := a.ToAQL(aql.ToolCall{Name: it.Tool, Arguments: it.Arguments})
	if err == nil {
		err = undeclared(a, it)
	}
	if err != nil {
		if it.req != nil {
			return asRead(), nil
		}
		return nil, err
	}
	if len(it.Fields) > 0 {
		fields := ojson.NewArray()
		for _, f := range it.Fields {
			fields.Items = append(fields.Items, ojson.NewString(f))
		}
		v.Get("params").Set("fields", fields)
	}
	return v, nil
}

// undeclared refuses what aql.ToAQL would pass through but Prepare then
// refuses: an argument the tool's schema does not declare, for an operation
// whose schema does not say it takes undeclared ones. JSON Schema lets such
// arguments through; AQL reads them as typos.
func undeclared(a *aql.Adapter, it *Item) error {
	op := a.ForTool(it.Tool)
	if op == nil || op.Open || it.Arguments == nil {
		return nil
	}
	for _, m := range it.Arguments.Members {
		known := false
		for _, p := range op.Params {
			known = known || p.Real == m.Key || p.Name == m.Key
		}
		if !known {
			return fmt.Errorf("aql: argument %q of %q has no AQL spelling: the tool does not declare it, and AQL refuses undeclared parameters", m.Key, it.Tool)
		}
	}
	return nil
}

// Notes are what a reader of the plan printed in syntax s (or of its
// tools/call requests, for JSON) must be told because the printed form
// cannot say it: requests answered locally, fields applied client-side,
// batch options that have no spelling there. Every face prints the same
// sentences; the text is safe for one terminal line.
func (c *Codec) Notes(p *Plan, s Syntax) []string {
	var out []string
	options := p.Batch && (p.Concurrency > 1 || p.StopOnError)
	switch s {
	case SExpr, JSON:
		for i := range p.Items {
			it := &p.Items[i]
			switch {
			case it.IsLocal():
				out = append(out, p.Label(i)+" is answered locally; it sends no tools/call")
			case len(it.Fields) > 0:
				out = append(out, fmt.Sprintf("%s: fields %s are applied to the result client-side; they are not sent",
					p.Label(i), safeLine(strings.Join(it.Fields, ", "))))
			}
		}
		if s == JSON && options {
			out = append(out, "JSON calls carry no batch options; :concurrency and :stop-on-error have no JSON spelling")
		}
	case AQL:
		if options {
			out = append(out, "an AQL batch runs in order and does not stop on errors; :concurrency and :stop-on-error have no AQL spelling")
		}
	}
	return out
}

// Label names item i in messages: operations[1] (create_todo) in an AQL
// batch, the operation of a single request, the tool of a single call, and
// call ID (tool) in a batch of calls. It is safe for one terminal line.
func (p *Plan) Label(i int) string {
	it := &p.Items[i]
	if p.Syntax == AQL {
		switch {
		case !p.Batch && it.Operation == "":
			return "request"
		case !p.Batch:
			return clipName(it.Operation)
		case it.Operation == "":
			return fmt.Sprintf("operations[%d]", i)
		}
		return fmt.Sprintf("operations[%d] (%s)", i, clipName(it.Operation))
	}
	if !p.Batch {
		return clipName(it.Tool)
	}
	return fmt.Sprintf("call %s (%s)", clipName(it.ID), clipName(it.Tool))
}

// Failed lists the items answered locally with an AQL failure: requests
// that failed their checks before any I/O. A dry run fails on them.
func (p *Plan) Failed() []int {
	var out []int
	for i := range p.Items {
		if it := &p.Items[i]; it.IsLocal() && !aql.IsSuccess(it.Local) {
			out = append(out, i)
		}
	}
	return out
}

// LocalErr is the first request answered locally with a failure, as an
// error naming it ("operations[1] (delete_todo): VALIDATION_UNKNOWN_PARAM:
// ..."), which unwraps to its *aql.Error; nil when there is none. A
// composer that will not run a plan with a broken request shows it.
func (p *Plan) LocalErr() error {
	failed := p.Failed()
	if len(failed) == 0 {
		return nil
	}
	return &localError{label: p.Label(failed[0]), err: p.Items[failed[0]].LocalFailure()}
}

type localError struct {
	label string
	err   *aql.Error
}

func (e *localError) Error() string { return e.label + ": " + safeLine(e.err.Error()) }
func (e *localError) Unwrap() error { return e.err }

// NeedsServer reports whether any item must be sent to a server.
func (p *Plan) NeedsServer() bool { return len(p.live()) > 0 }

// LocalFailure is the AQL failure an item is answered with locally, nil
// when it is sent or answered with success.
func (it *Item) LocalFailure() *aql.Error {
	if !it.IsLocal() || aql.IsSuccess(it.Local) {
		return nil
	}
	e := it.Local.Get("error")
	return &aql.Error{Code: e.Get("code").StringOr("ERROR"), Message: e.Get("message").StringOr("invalid request"), Details: e.Get("details")}
}

func clipName(s string) string {
	s, _ = safe.Cut(safe.Line(s), 80)
	return s
}

// safeLine is untrusted text fit for one line of a terminal.
func safeLine(s string) string { return safe.Sanitize(s, safe.Options{SingleLine: true, Max: 2000}) }
