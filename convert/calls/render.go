package calls

import (
	"strconv"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// RenderTerm prints what became of a plan's items as MCP-Term data: (ok
// ...) or (err CODE "message" ...) for one call, (results (ID ...) ...) for
// a batch, each failure with its kind as the code (Failure.Term). width > 0
// pretty-prints to that many columns; width <= 0 writes one line (the
// gateway's answers). An item answered locally shows its AQL answer as data
// when outs has nothing for it.
func RenderTerm(p *Plan, outs []Outcome, width int) string {
	var n *sexpr.Node
	if !p.Batch && len(p.Items) == 1 {
		n = OutcomeTerm(&p.Items[0], outcomeAt(outs, 0))
	} else {
		// call.BatchResultsToTerm writes the ids as they were read; the
		// entries are then this package's, failures by kind.
		entries := make([]call.Outcome, len(p.Items))
		for i := range p.Items {
			entries[i].ID = itemID(p, i)
		}
		n = call.BatchResultsToTerm(entries)
		for i := range p.Items {
			n.Items[i+1].Items[1] = OutcomeTerm(&p.Items[i], outcomeAt(outs, i))
		}
	}
	if width <= 0 {
		return sexpr.Print(n)
	}
	return sexpr.Pretty(n, width)
}

// OutcomeTerm is one item's outcome as (ok ...) or (err ...).
func OutcomeTerm(it *Item, o Outcome) *sexpr.Node {
	if o.Err != nil {
		return o.Err.Term()
	}
	return call.ResultToTerm(resultOf(it, o))
}

// resultOf is the CallToolResult an outcome holds, or an item's local one.
func resultOf(it *Item, o Outcome) *ojson.Value {
	if o.Result == nil && it.IsLocal() {
		return it.LocalResult()
	}
	return o.Result
}

// itemID is item i's batch id, its 1-based place when it has none.
func itemID(p *Plan, i int) string {
	if id := p.Items[i].ID; id != "" {
		return id
	}
	return strconv.Itoa(i + 1)
}

// RenderJSON prints what became of a plan's items as indented JSON: one
// call's result as the server sent it (or {"error": ...} when there is
// none), and for a batch {"results": [{"id", "result"|"error"}, ...]}, each
// error {"kind", "code"?, "data"?, "message"} (Failure.JSON).
func RenderJSON(p *Plan, outs []Outcome) string {
	if !p.Batch && len(p.Items) == 1 {
		it, o := &p.Items[0], outcomeAt(outs, 0)
		if r := resultOf(it, o); o.Err == nil && r != nil {
			return r.Pretty()
		}
		return entryJSON(it, o).Pretty()
	}
	arr := ojson.NewArray()
	for i := range p.Items {
		e := ojson.NewObject().Set("id", ojson.NewString(itemID(p, i)))
		for _, m := range entryJSON(&p.Items[i], outcomeAt(outs, i)).Members {
			e.Set(m.Key, m.Value)
		}
		arr.Items = append(arr.Items, e)
	}
	return ojson.NewObject().Set("results", arr).Pretty()
}

// entryJSON is {"result": RAW} or {"error": {...}}.
func entryJSON(it *Item, o Outcome) *ojson.Value {
	if r := resultOf(it, o); o.Err == nil && r != nil {
		return ojson.NewObject().Set("result", r)
	}
	f := o.Err
	if f == nil {
		f = &Failure{Kind: FailOther, Message: "no result"}
	}
	return ojson.NewObject().Set("error", f.JSON())
}

// OK reports whether the item got a result that is not a tool error.
func (o Outcome) OK() bool {
	if o.Err != nil || o.Result == nil {
		return false
	}
	b := o.Result.Get("isError")
	return b == nil || b.Kind != ojson.Bool || !b.Bool
}

// LocalResult is the CallToolResult an item answered locally stands for:
// its AQL answer as structured content and as JSON text, an error when the
// answer is a failure. nil for an item that is sent.
func (it *Item) LocalResult() *ojson.Value {
	if !it.IsLocal() {
		return nil
	}
	text := ojson.NewObject().Set("type", ojson.NewString("text")).Set("text", ojson.NewString(it.Local.Compact()))
	r := ojson.NewObject().Set("content", ojson.NewArray(text)).Set("structuredContent", it.Local)
	if !aql.IsSuccess(it.Local) {
		r.Set("isError", ojson.NewBool(true))
	}
	return r
}

// Term is the failure as (err CODE "message" ...): the JSON-RPC error's
// numeric code (and its data) for FailRPC, the kind otherwise.
func (f *Failure) Term() *sexpr.Node {
	if f.Kind == FailRPC {
		return call.ErrorToTerm(f.cause())
	}
	return sexpr.L(sexpr.Sym("err"), codeTerm(string(f.kind())), sexpr.Str(f.text()))
}

// JSON is the failure as {"kind", "code"?, "data"?, "message"}, code and
// data for FailRPC only.
func (f *Failure) JSON() *ojson.Value {
	e := ojson.NewObject().Set("kind", ojson.NewString(string(f.kind())))
	if f.Kind == FailRPC {
		e.Set("code", ojson.NewInt(f.Code))
		if f.Data != nil {
			e.Set("data", f.Data)
		}
	}
	return e.Set("message", ojson.NewString(f.text()))
}

func (f *Failure) kind() FailureKind {
	if f.Kind == "" {
		return FailOther
	}
	return f.Kind
}

// text is the failure's message, or when it came without one what a
// failure of its kind means.
func (f *Failure) text() string {
	if f.Message != "" || f.Kind == FailRPC {
		return f.Message
	}
	switch f.Kind {
	case FailTimeout:
		return "no answer in time"
	case FailCancelled:
		return "the call was cancelled"
	case FailConnection:
		return "the server could not be reached"
	case FailRefused:
		return "refused by the policy; nothing was sent"
	case FailConfirm:
		return "destructive: it runs only when confirmed; nothing was sent"
	case FailSkipped:
		return "skipped: not run, an earlier call failed and the batch stops on error"
	case FailBadAnswer:
		return "the server's answer is not MCP"
	case FailUsage:
		return "the call cannot be run as written"
	}
	return "no result"
}

// cause is the failure as the error package call and package aql render: a
// JSON-RPC error keeps its code.
func (f *Failure) cause() error {
	if f.Kind == FailRPC {
		return &call.RPCError{Code: f.Code, Message: f.Message, Data: f.Data}
	}
	return f
}
