package calls

import (
	"strings"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/term"
)

// Complete says what may be typed at the cursor of a half-written call in
// any syntax, given the text before the cursor: the composer's one entry
// point, called on every keystroke. It tells the syntax as SyntaxOf does,
// but from the first character alone (past ; comment lines), so that a
// keystroke does not parse the document: text that starts with { or [ is
// JSON or AQL, told apart by the keys written so far.
//
// An MCP-Term call or batch is completed by the resolver (tools, batch
// options, parameters, nested fields, enum values, variant tags; see
// call.Resolver's Complete). A JSON {"name", "arguments"} call or an
// MCP-AQL {"operation", "params"} document gets its keys, tool or
// operation names, the parameter names of its arguments or params and the
// values of the parameter being filled, as JSON text. Those slots are
// asked of the resolver as the same call written in MCP-Term, so both
// syntaxes offer the same parameters and values. Nested values inside a
// JSON parameter are not completed.
func (c *Codec) Complete(before string) call.Completion {
	if !jsonish(before) {
		return c.r.Complete(before)
	}
	j := scanJSON(before)
	out := call.Completion{Word: j.word, Start: j.start}
	x := c.jsonContext(j)
	if x.ci < 0 || j.role == roleNone {
		return out
	}
	out.Items = call.Filter(j.word, c.jsonCandidates(j, x))
	return out
}

// Signature is signature help at the cursor in any syntax: the resolver's
// for MCP-Term; for JSON and AQL, the tool being called and the top-level
// parameter whose value the cursor is in, as for the same call in
// MCP-Term. ok is false outside a call, or before its tool is named.
func (c *Codec) Signature(before string) (call.Signature, bool) {
	if !jsonish(before) {
		return c.r.Signature(before)
	}
	x := c.jsonContext(scanJSON(before))
	if x.tool == "" {
		return call.Signature{}, false
	}
	// At a key, or before one is written, the cursor is on no parameter:
	// the call's head stands for that.
	text := c.termSlot(x.tool, x.param)
	if x.param == "" {
		text = strings.TrimSuffix(text, " ")
	}
	return c.r.Signature(text)
}

// jsonish reports whether SyntaxOf would read src as JSON or AQL: it
// starts, past white space and ; comment lines, with { or [.
func jsonish(src string) bool {
	body := aqlBody(src)
	return body != "" && (body[0] == '{' || body[0] == '[')
}

// jsonContext is the call a JSON cursor is in.
type jsonContext struct {
	ci     int    // the frame of the call's object; -1 when the cursor is in none
	aql    bool   // an AQL request ({"operation"} or inside {"operations"})
	json   bool   // a JSON call ({"name"}, {"arguments"}, a JSON-RPC request's params)
	opName string // the operation an AQL request names, as written
	op     *aql.Operation
	tool   string // the real tool name, once the call names one
	args   bool   // the cursor is directly in the call's arguments (JSON) or params (AQL)
	param  string // the real name of the parameter whose value holds the cursor
}

func (c *Codec) jsonContext(j *jsonCursor) jsonContext {
	x := jsonContext{ci: -1}
	fs := j.frames
	switch {
	case len(fs) == 0:
		return x
	case fs[0].obj && len(fs) >= 3 && !fs[1].obj && fs[1].via == "operations" && fs[2].obj:
		x.ci, x.aql = 2, true
	case fs[0].obj && (len(fs) < 2 || fs[1].via != "operations"):
		x.ci = 0
	case !fs[0].obj && len(fs) >= 2 && fs[1].obj:
		x.ci = 1
	default:
		return x
	}
	// A JSON-RPC tools/call request holds the call in its params.
	if f := fs[x.ci]; (f.has("jsonrpc") || f.has("method")) && len(fs) > x.ci+1 && fs[x.ci+1].obj && fs[x.ci+1].via == "params" {
		x.ci++
		x.json = true
	}
	f := &fs[x.ci]
	if op, ok := f.str("operation"); ok {
		x.aql, x.opName = true, op
		if a, err := c.Adapter(); err == nil {
			if x.op = a.Operation(op); x.op != nil {
				x.tool = x.op.Tool.Name
			}
		}
	}
	if name, ok := f.str("name"); ok && !x.aql {
		x.json = true
		if t := c.r.Lookup(name); t != nil {
			x.tool = t.Name
		}
	}
	x.aql = x.aql || f.has("params") && !x.json || x.ci == 0 && f.has("operations")
	x.json = x.json || f.has("arguments")
	if len(fs) > x.ci+1 {
		a := &fs[x.ci+1]
		into := "arguments"
		if x.aql {
			into = "params"
		}
		if a.obj && a.via == into {
			x.args = len(fs) == x.ci+2
			key := a.key
			if x.args && j.role != roleValue {
				key = ""
			}
			x.param = c.realParam(x, key)
		}
	}
	return x
}

// realParam is the schema's name of a parameter as an AQL request or a
// JSON call writes it; "" when it names none.
func (c *Codec) realParam(x jsonContext, key string) string {
	if key == "" || x.tool == "" {
		return ""
	}
	if x.op == nil {
		return key
	}
	for _, p := range x.op.Params {
		if p.Name == key || p.Real == key {
			return p.Real
		}
	}
	return ""
}

// jsonCandidates is everything that may go at a JSON cursor, unfiltered.
func (c *Codec) jsonCandidates(j *jsonCursor, x jsonContext) []call.Candidate {
	fs := j.frames
	f := &fs[len(fs)-1]
	var out []call.Candidate
	key := func(k, detail string) {
		if !f.has(k) {
			out = append(out, call.Candidate{Text: ojson.Quote(k), Kind: call.KindKey, Detail: detail})
		}
	}
	switch {
	case len(fs) == x.ci+1 && j.role == roleKey:
		if !x.json {
			key("operation", "the operation to run")
			key("params", "the operation's parameters")
			if x.ci == 0 && !x.aql {
				key("operations", "a batch: a list of requests")
			}
		}
		if !x.aql {
			key("name", "the tool to call")
			key("arguments", "the tool's arguments")
		}
	case len(fs) == x.ci+1 && f.key == "operation" && !x.json:
		out = c.operations()
	case len(fs) == x.ci+1 && f.key == "name" && !x.aql:
		for _, t := range c.set.Tools {
			out = append(out, call.Candidate{Text: ojson.Quote(t.Name), Kind: call.KindToolName, Detail: term.FirstSentence(t.Description)})
		}
	case x.args && j.role == roleKey:
		out = c.paramKeys(f, x)
	case x.args && j.role == roleValue:
		out = c.paramValues(f, x)
	}
	return out
}

// operations are the AQL operation names the codec's endpoint takes, then
// introspect.
func (c *Codec) operations() []call.Candidate {
	a, err := c.Adapter()
	if err != nil {
		return nil
	}
	var out []call.Candidate
	for _, op := range a.Ops {
		if c.o.Endpoint != "" && op.Category().Tool() != c.o.Endpoint {
			continue
		}
		out = append(out, call.Candidate{Text: ojson.Quote(op.Name), Kind: call.KindOperation,
			Detail: string(op.Category()) + ": " + term.FirstSentence(op.Tool.Description)})
	}
	if c.o.Endpoint == "" || c.o.Endpoint == aql.Read.Tool() {
		out = append(out, call.Candidate{Text: `"introspect"`, Kind: call.KindOperation, Detail: "READ: discover operations and types"})
	}
	return out
}

// introspectParams are introspect's own parameters.
var introspectParams = []call.Candidate{
	{Text: `"query"`, Kind: call.KindParam, Detail: `"operations" or "types"`},
	{Text: `"name"`, Kind: call.KindParam, Detail: "an operation or type to describe"},
}

// paramKeys are the parameters an arguments or params object may still
// take: for a tool, what its MCP-Term call may still name.
func (c *Codec) paramKeys(f *jsonFrame, x jsonContext) []call.Candidate {
	var out []call.Candidate
	if x.aql && x.opName == "introspect" {
		for _, p := range introspectParams {
			if !f.has(p.Text[1 : len(p.Text)-1]) {
				out = append(out, p)
			}
		}
		return out
	}
	if x.tool == "" {
		return nil
	}
	// The MCP-Term call with the given parameters named: the resolver
	// offers the rest, with their types.
	var b strings.Builder
	b.WriteString(c.termSlot(x.tool, ""))
	for _, m := range f.members() {
		if real := c.realParam(x, m.keyIn(f.c)); sexpr.IsKeywordText(real) {
			b.WriteString(":" + real + " nil ")
		}
	}
	aqlName := map[string]string{}
	if x.op != nil {
		for _, p := range x.op.Params {
			aqlName[p.Real] = p.Name
		}
	}
	for _, cand := range c.r.Complete(b.String()).Items {
		if cand.Kind != call.KindParam {
			continue
		}
		name := termText(cand.Text)
		if n, ok := aqlName[name]; ok {
			name = n
		}
		if !f.has(name) {
			out = append(out, call.Candidate{Text: ojson.Quote(name), Kind: call.KindParam, Detail: cand.Detail})
		}
	}
	if x.op != nil {
		if x.op.Input && !f.has("input") {
			out = append(out, call.Candidate{Text: `"input"`, Kind: call.KindParam, Detail: "object: the fields to change"})
		}
		if x.op.Fields && !f.has("fields") {
			out = append(out, call.Candidate{Text: `"fields"`, Kind: call.KindParam, Detail: "(list string): the result fields to keep"})
		}
	}
	return out
}

// paramValues are the values of the parameter being filled, as JSON: the
// resolver's for the same slot of the MCP-Term call, :utf8 as "utf8", nil
// as null.
func (c *Codec) paramValues(f *jsonFrame, x jsonContext) []call.Candidate {
	if x.aql && x.opName == "introspect" {
		switch f.key {
		case "query":
			return []call.Candidate{{Text: `"operations"`, Kind: call.KindEnum}, {Text: `"types"`, Kind: call.KindEnum}}
		case "name":
			return c.operations()
		}
		return nil
	}
	if x.param == "" || !sexpr.IsKeywordText(x.param) {
		return nil
	}
	var out []call.Candidate
	for _, cand := range c.r.Complete(c.termSlot(x.tool, x.param)).Items {
		if cand.Kind != call.KindEnum && cand.Kind != call.KindLiteral {
			continue
		}
		if text, ok := jsonLiteral(cand.Text); ok {
			cand.Text = text
			out = append(out, cand)
		}
	}
	return out
}

// termSlot is the MCP-Term call of tool cut where param's value goes
// ("(fr :enc "), or just after the tool's head when param is "".
func (c *Codec) termSlot(tool, param string) string {
	head := c.r.Code(tool)
	if !sexpr.IsSymbolText(head) || head == "batch" || head == "json" {
		head = sexpr.Str(head).String()
	}
	if param == "" || !sexpr.IsKeywordText(param) {
		return "(" + head + " "
	}
	return "(" + head + " :" + param + " "
}

// termText is a parameter's name as an MCP-Term candidate writes it.
func termText(s string) string {
	if strings.HasPrefix(s, ":") {
		return s[1:]
	}
	if n, err := sexpr.ParseOne(s); err == nil && n.Kind == sexpr.String {
		return n.Text
	}
	return s
}

// jsonLiteral writes an MCP-Term scalar as JSON.
func jsonLiteral(s string) (string, bool) {
	switch {
	case s == "nil":
		return "null", true
	case s == "true" || s == "false":
		return s, true
	case strings.HasPrefix(s, ":"):
		return ojson.Quote(s[1:]), true
	case strings.HasPrefix(s, `"`):
		if n, err := sexpr.ParseOne(s); err == nil && n.Kind == sexpr.String {
			return ojson.Quote(n.Text), true
		}
		return "", false
	}
	return s, true // a number
}
