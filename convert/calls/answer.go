package calls

import (
	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/content"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// ItemAnswer is the AQL response {success, data|error} one item gets: its
// local answer, or the server's result (or failure) wrapped, projected to
// the fields it asked for. When a projection was applied, full is the same
// response without it, so a face can say what the projection saved;
// otherwise full is nil. An item read as MCP-Term or JSON is answered as
// the AQL request for the same call would be. Non-text content is
// referenced, numbered from 1 (aql.Finish).
func (c *Codec) ItemAnswer(it *Item, out Outcome) (resp, full *ojson.Value) {
	return c.itemAnswer(it, out, &content.Blocks{})
}

// itemAnswer is ItemAnswer adding the item's non-text content to b.
func (c *Codec) itemAnswer(it *Item, out Outcome, b *content.Blocks) (resp, full *ojson.Value) {
	if it.IsLocal() {
		return it.Local, nil
	}
	st := it.step
	if st == nil {
		st = &aql.Step{Operation: c.operation(it), Call: &aql.ToolCall{Name: it.Tool, Arguments: it.Arguments}}
	}
	if out.Err != nil {
		return aql.FinishBlocks(*st, nil, out.Err.cause(), b)
	}
	return aql.FinishBlocks(*st, out.Result, nil, b)
}

// operation is the AQL operation an item stands for.
func (c *Codec) operation(it *Item) string {
	if it.Operation != "" {
		return it.Operation
	}
	if a, err := c.Adapter(); err == nil {
		if op := a.ForTool(it.Tool); op != nil {
			return op.Name
		}
	}
	return it.Tool
}

// Answer is the AQL response to the whole plan, as an AQL server answers:
// one item's response, or for a batch every item's by index with a summary
// (BatchAnswer). outs[i] is what became of p.Items[i]; items answered
// locally need none. Non-text content stands in it only as references
// (AnswerBlocks); a face that cannot pass the blocks shows those.
func (c *Codec) Answer(p *Plan, outs []Outcome) *ojson.Value {
	resp, _ := c.AnswerBlocks(p, outs)
	return resp
}

// AnswerBlocks is Answer and the non-text content (images, audio,
// resources, links) of every result, in the order the answer's references
// number them ("block": n is blocks[n-1]): a face passes them as MCP
// content blocks after the answer's text, never as base64 in it.
func (c *Codec) AnswerBlocks(p *Plan, outs []Outcome) (*ojson.Value, []*ojson.Value) {
	var b content.Blocks
	resps := make([]*ojson.Value, len(p.Items))
	for i := range p.Items {
		resps[i], _ = c.itemAnswer(&p.Items[i], outcomeAt(outs, i), &b)
	}
	if !p.Batch && len(resps) == 1 {
		return resps[0], b.Items
	}
	return c.BatchAnswer(p, resps), b.Items
}

// TermBlocks is the non-text content of a term answer's results in order,
// the blocks a face passes after the MCP-Term text (which summarises each
// item: call.ResultToTerm). The same rule picks them as for AQL answers.
func TermBlocks(outs []Outcome) []*ojson.Value {
	var b content.Blocks
	for _, o := range outs {
		b.AddResult(o.Result)
	}
	return b.Items
}

// BatchAnswer is the spec's batch answer from the items' responses: every
// operation's result by index, and a summary. The batch itself succeeds; a
// failed operation fails on its own (operations.md 7.3). It is the shape
// aql.Adapter.Run returns (aql.BatchResponse).
func (c *Codec) BatchAnswer(p *Plan, resps []*ojson.Value) *ojson.Value {
	ops := make([]string, len(resps))
	for i := range ops {
		if i < len(p.Items) {
			ops[i] = c.operation(&p.Items[i])
		}
	}
	return aql.BatchResponse(ops, resps)
}

// RenderAQL prints an AQL response as JSON, or with asTerm as MCP-Term data
// (AQLTerm); width > 0 pretty-prints (JSON indented), width <= 0 writes one
// line (minified JSON, as the gateway sends it).
func RenderAQL(resp *ojson.Value, asTerm bool, width int) string {
	switch {
	case asTerm && width <= 0:
		return sexpr.Print(AQLTerm(resp))
	case asTerm:
		return sexpr.Pretty(AQLTerm(resp), width)
	case resp == nil:
		return "null"
	}
	return jsonText(resp, width)
}

// AQLTerm is an AQL response as MCP-Term data: (ok DATA [:meta META]),
// (err CODE "message" DETAILS), and for a batch (results (0 RESULT) (1
// RESULT) ... (summary :total N :succeeded N :failed N)).
func AQLTerm(resp *ojson.Value) *sexpr.Node {
	if results := resp.Get("results"); results != nil && results.Kind == ojson.Array {
		items := []*sexpr.Node{sexpr.Sym("results")}
		for _, it := range results.Items {
			items = append(items, sexpr.L(DataTerm(it.Get("index")), AQLTerm(it.Get("result"))))
		}
		sum := []*sexpr.Node{sexpr.Sym("summary")}
		if s := resp.Get("summary"); s != nil && s.Kind == ojson.Object {
			for _, m := range s.Members {
				sum = append(sum, keyTerm(m.Key), DataTerm(m.Value))
			}
		}
		return sexpr.L(append(items, sexpr.L(sum...))...)
	}
	if aql.IsSuccess(resp) {
		items := []*sexpr.Node{sexpr.Sym("ok")}
		if d := resp.Get("data"); d != nil && d.Kind != ojson.Null {
			items = append(items, DataTerm(d))
		}
		if m := resp.Get("_meta"); m != nil {
			items = append(items, sexpr.Kw("meta"), DataTerm(m))
		}
		return sexpr.L(items...)
	}
	e := resp.Get("error")
	items := []*sexpr.Node{sexpr.Sym("err"), codeTerm(e.Get("code").StringOr("ERROR")), sexpr.Str(e.Get("message").StringOr(""))}
	if d := e.Get("details"); d != nil {
		items = append(items, DataTerm(d))
	}
	return sexpr.L(items...)
}

// DataTerm writes any JSON value as MCP-Term data ((:key value ...) for
// objects), the way call results show structured content.
func DataTerm(v *ojson.Value) *sexpr.Node {
	if v == nil {
		return sexpr.NilNode()
	}
	n := call.ResultToTerm(ojson.NewObject().Set("structuredContent", v))
	if len(n.Items) == 2 {
		return n.Items[1]
	}
	return sexpr.Str(v.Compact())
}

// keyTerm is a member name as a keyword when it can be one.
func keyTerm(k string) *sexpr.Node {
	if sexpr.IsKeywordText(k) {
		return sexpr.Kw(k)
	}
	return sexpr.Str(k)
}

// codeTerm is an error code as a symbol when it can be one.
func codeTerm(code string) *sexpr.Node {
	if sexpr.IsSymbolText(code) {
		return sexpr.Sym(code)
	}
	return sexpr.Str(code)
}

func outcomeAt(outs []Outcome, i int) Outcome {
	if i < len(outs) {
		return outs[i]
	}
	return Outcome{}
}
