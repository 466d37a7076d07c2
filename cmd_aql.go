package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/policy"
	"github.com/mcpterm/mcpterm/tokens"
)

// aqlFlags are the MCP-AQL options of `mcpterm call`, as typed.
type aqlFlags struct {
	mode     string
	endpoint string
	mapFile  string
}

func (af *aqlFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&af.mode, "aql-mode", "single", "AQL input `MODE`: single (every operation through mcp_aql) or semantic (mcp_aql_create|read|update|delete|execute)")
	fs.StringVar(&af.endpoint, "aql-endpoint", "", "AQL input, semantic mode: the `ENDPOINT` the request goes to (mcp_aql_read or read, ...); operations of another category are refused (default: each operation's own)")
	fs.StringVar(&af.mapFile, "aql-map", "", "correct AQL tool categories or operation names from this JSON `FILE` (see docs/aql.md)")
}

// aqlOptions are the AQL options checked and loaded.
type aqlOptions struct {
	mode     aql.Mode
	endpoint string // "" or an endpoint tool name (mcp_aql_read)
	ov       aql.Overrides
}

// options checks the flags and reads the --aql-map file.
func (af *aqlFlags) options() (aqlOptions, error) {
	var o aqlOptions
	switch af.mode {
	case "single":
		o.mode = aql.Single
	case "semantic":
		o.mode = aql.Semantic
	default:
		return o, usagef("--aql-mode %s: want single or semantic", quoteArg(af.mode))
	}
	if af.endpoint != "" {
		if o.mode != aql.Semantic {
			return o, usagef("--aql-endpoint is for --aql-mode semantic (single mode has one endpoint, %s)", aql.SingleTool)
		}
		cat, ok := aql.ParseCategory(strings.TrimPrefix(af.endpoint, "mcp_aql_"))
		if !ok {
			return o, usagef("--aql-endpoint %s: want mcp_aql_create, mcp_aql_read, mcp_aql_update, mcp_aql_delete or mcp_aql_execute", quoteArg(af.endpoint))
		}
		o.endpoint = cat.Tool()
	}
	if af.mapFile != "" {
		ov, err := loadAQLMap(af.mapFile)
		if err != nil {
			return o, err
		}
		o.ov = ov
	}
	return o, nil
}

// loadAQLMap reads and checks an --aql-map file.
func loadAQLMap(path string) (aql.Overrides, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usagef("--aql-map: %v", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, aql.MaxOverrideFile+1))
	if err != nil {
		return nil, usagef("--aql-map %s: %v", path, err)
	}
	ov, err := aql.ParseOverrides(data)
	if err != nil {
		return nil, usagef("--aql-map %s: %v", path, err)
	}
	return ov, nil
}

// adapter builds the AQL view of set, passing its warnings (map entries for
// tools the server lacks) to stderr.
func (c *cli) aqlAdapter(set *toolset.Set, o aqlOptions) (*aql.Adapter, error) {
	a, err := aql.New(set, o.ov, o.mode)
	if err != nil {
		return nil, usagef("%v", err)
	}
	for _, w := range a.Warnings {
		fmt.Fprintf(c.stderr, "mcpterm call: warning: %s\n", safeLine(w))
	}
	return a, nil
}

// via is the endpoint a request arrives through: the one --aql-endpoint
// names, else mcp_aql in single mode, else the operation's own endpoint (an
// unknown operation goes to mcp_aql_read, which answers "not found" with
// suggestions).
func (o aqlOptions) via(a *aql.Adapter, operation string) string {
	switch {
	case o.endpoint != "":
		return o.endpoint
	case a.Mode == aql.Single:
		return aql.SingleTool
	}
	if v := a.Via(operation); v != "" {
		return v
	}
	return aql.Read.Tool()
}

// isAQLSource tells AQL input from S-expressions and JSON calls, after the
// ; comment lines a saved call file may start with (aql.LooksLikeAQL).
func isAQLSource(src string) bool { return aql.LooksLikeAQL([]byte(aqlBody(src))) }

// aqlBody is the JSON of an AQL source: without the white space and the
// ; comment lines that may precede it, as they may precede any JSON call.
func aqlBody(src string) string {
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case ' ', '\t', '\r', '\n', '\f', '\v':
		case ';':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		default:
			return strings.TrimSpace(src[i:])
		}
	}
	return ""
}

// aqlPrepared is an AQL document read and prepared: one step per request.
type aqlPrepared struct {
	in    *aql.Input
	reqs  []*aql.Request
	steps []aql.Step
}

// prepareAQL reads src and prepares every request. A document-level AQL
// failure (payload limits, encoding, a malformed batch envelope) comes back
// as *aql.Error; malformed JSON as a plain error.
func prepareAQL(a *aql.Adapter, o aqlOptions, src string) (*aqlPrepared, error) {
	in, err := aql.ParseInput([]byte(aqlBody(src)))
	if err != nil {
		return nil, err
	}
	p := &aqlPrepared{in: in, reqs: in.Batch}
	if !in.IsBatch() {
		p.reqs = []*aql.Request{in.Request}
	}
	for _, r := range p.reqs {
		p.steps = append(p.steps, a.Prepare(o.via(a, r.Operation), r))
	}
	return p, nil
}

// needsServer reports whether any step calls a tool.
func (p *aqlPrepared) needsServer() bool {
	for _, st := range p.steps {
		if st.Call != nil {
			return true
		}
	}
	return false
}

// failed lists the requests answered locally with a failure.
func (p *aqlPrepared) failed() []int {
	var out []int
	for i, st := range p.steps {
		if st.Local != nil && !aql.IsSuccess(st.Local) {
			out = append(out, i)
		}
	}
	return out
}

// label names request i in messages: operations[1] (create_todo).
func (p *aqlPrepared) label(i int) string {
	op := p.reqs[i].Operation
	if !p.in.IsBatch() {
		if op == "" {
			return "request"
		}
		return op
	}
	if op == "" {
		return fmt.Sprintf("operations[%d]", i)
	}
	return fmt.Sprintf("operations[%d] (%s)", i, clipArg(op))
}

// policyCategory is an AQL category as the policy package spells it; the
// policy treats it as one more hint, and only ever a stricter one.
func policyCategory(a *aql.Adapter, tool string) policy.Category {
	if op := a.ForTool(tool); op != nil {
		return policy.Category(strings.ToLower(string(op.Category())))
	}
	return ""
}

// aqlLocalExit is the exit code of a failure found before any I/O: every
// such code (validation, unknown operation, wrong endpoint) is a mistake in
// the request.
func aqlLocalExit(resp *ojson.Value) int {
	if aql.IsSuccess(resp) {
		return exitOK
	}
	return exitUsage
}

// runAQLCall runs an AQL document live: introspect and validation failures
// are answered locally, the rest become tools/call requests that go through
// the policy, the session, the history and the audit log like any other
// call. It prints the AQL responses ({success, data|error}, a batch with
// results and summary) as JSON, or as (ok ...)/(err ...) with --output sexpr.
func (c *cli) runAQLCall(ctx context.Context, cn *connection, set *toolset.Set, src string, cf *callFlags, o aqlOptions, pol *policy.Policy, rec *callRecorder) int {
	a, err := c.aqlAdapter(set, o)
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm call:", err)
		return exitUsage
	}
	p, err := prepareAQL(a, o, src)
	if err != nil {
		var aerr *aql.Error
		if errors.As(err, &aerr) {
			c.printCallOutput(cn, renderAQL(aerr.Response(), cf.out.output), cf.out.maxOutput)
			return exitUsage
		}
		fmt.Fprintln(c.stderr, "mcpterm call:", safeLine(err.Error()))
		return exitUsage
	}
	if p.needsServer() && cn.s.IsOffline() {
		fmt.Fprintln(c.stderr, "mcpterm call: offline: --tools gives a tool list but no server to run it; only introspect is answered offline. Add --dry-run to check the call, or choose a server")
		return exitUsage
	}

	rec.init(c, cn, src, p.in.IsBatch(), cf.audit)
	// As for S-expressions, the policy sees every call before any runs. It
	// sees the real tool and the AQL category, so an operation the adapter
	// (or --aql-map) calls DELETE needs --yes whatever its annotations say.
	refused := false
	for _, st := range p.steps {
		if st.Call == nil {
			continue
		}
		d := pol.Check(policy.CallOf(st.Call.Name, set.Find(st.Call.Name), policyCategory(a, st.Call.Name)))
		if !d.Allowed() {
			refused = true
			fmt.Fprintf(c.stderr, "mcpterm call: refused: %s\n", d.Reason)
			rec.refusal(call.Call{Tool: st.Call.Name, Arguments: st.Call.Arguments}, d)
		}
	}
	if refused {
		return exitUsage
	}

	// AQL batches run in array order, one operation at a time.
	results := make([]*session.CallResult, len(p.steps))
	stop := false
	for i, st := range p.steps {
		if st.Call == nil {
			continue
		}
		req := session.CallRequest{Tool: st.Call.Name, Arguments: st.Call.Arguments}
		if p.in.IsBatch() {
			req.ID = strconv.Itoa(i)
		}
		if stop {
			results[i] = &session.CallResult{ID: req.ID, Tool: req.Tool, Arguments: req.Arguments, Err: session.ErrSkipped}
			continue
		}
		r := cn.s.Call(ctx, req)
		results[i] = r
		if !r.OK() && cf.stopOnError {
			stop = true
		}
	}

	resps := make([]*ojson.Value, len(p.steps))
	// Loaded at most once, and only when some operation asked for fields.
	counter := sync.OnceValues(func() (*tokens.Counter, error) { return tokens.NewCounter(tokens.DefaultEncoding) })
	exit := exitOK
	worse := func(code int) {
		if severity(code) > severity(exit) {
			exit = code
		}
	}
	for i, st := range p.steps {
		r := results[i]
		if r == nil {
			resps[i] = st.Local
			worse(aqlLocalExit(st.Local))
			continue
		}
		var raw *ojson.Value
		if r.Err == nil {
			raw = r.Raw
		}
		var full *ojson.Value
		resps[i], full = aql.Finish(st, raw, r.Err)
		if full != nil {
			c.noteProjection(i, p.in.IsBatch(), resps[i], full, counter)
		}
		worse(resultExit(r))
	}
	var resp *ojson.Value
	if p.in.IsBatch() {
		resp = aqlBatchResponse(p.reqs, resps)
	} else {
		resp = resps[0]
	}
	text := renderAQL(resp, cf.out.output)
	cut := c.printCallOutput(cn, text, cf.out.maxOutput)
	for _, r := range results {
		if r == nil || errors.Is(r.Err, session.ErrSkipped) {
			continue
		}
		if r.SchemaErr != nil {
			fmt.Fprintf(c.stderr, "mcpterm call: %s\n", c.clean(cn.redactor, r.SchemaErr.Error()))
		}
		rec.ran(r, len(text), cut)
	}
	return exit
}

// aqlBatchResponse is the spec's batch answer: every operation's result by
// index, and a summary. It is the shape aql.Adapter.Run returns; the command
// line builds it itself because in semantic mode each operation goes to its
// own endpoint.
func aqlBatchResponse(reqs []*aql.Request, resps []*ojson.Value) *ojson.Value {
	results := ojson.NewArray()
	ok := 0
	for i, res := range resps {
		if aql.IsSuccess(res) {
			ok++
		}
		results.Items = append(results.Items, ojson.NewObject().
			Set("index", ojson.NewInt(int64(i))).
			Set("operation", ojson.NewString(reqs[i].Operation)).
			Set("result", res))
	}
	return ojson.NewObject().
		Set("success", ojson.NewBool(true)).
		Set("data", ojson.NewNull()).
		Set("results", results).
		Set("summary", ojson.NewObject().
			Set("total", ojson.NewInt(int64(len(resps)))).
			Set("succeeded", ojson.NewInt(int64(ok))).
			Set("failed", ojson.NewInt(int64(len(resps)-ok))))
}

// renderAQL prints an AQL response as indented JSON, or as MCP-Term data:
// (ok DATA [:meta META]), (err CODE "message" DETAILS), and for a batch
// (results (0 RESULT) (1 RESULT) ... (summary :total N :succeeded N :failed N)).
func renderAQL(resp *ojson.Value, format string) string {
	if format == "json" {
		return resp.Pretty()
	}
	return sexpr.Pretty(aqlTerm(resp), 100)
}

func aqlTerm(resp *ojson.Value) *sexpr.Node {
	if results := resp.Get("results"); results != nil && results.Kind == ojson.Array {
		items := []*sexpr.Node{sexpr.Sym("results")}
		for _, it := range results.Items {
			items = append(items, sexpr.L(sexpr.Num(it.Get("index").Compact()), aqlTerm(it.Get("result"))))
		}
		sum := []*sexpr.Node{sexpr.Sym("summary")}
		for _, m := range resp.Get("summary").Members {
			sum = append(sum, sexpr.Kw(m.Key), sexpr.Num(m.Value.Compact()))
		}
		return sexpr.L(append(items, sexpr.L(sum...))...)
	}
	if aql.IsSuccess(resp) {
		items := []*sexpr.Node{sexpr.Sym("ok")}
		if d := resp.Get("data"); d != nil && d.Kind != ojson.Null {
			items = append(items, dataTerm(d))
		}
		if m := resp.Get("_meta"); m != nil {
			items = append(items, sexpr.Kw("meta"), dataTerm(m))
		}
		return sexpr.L(items...)
	}
	e := resp.Get("error")
	items := []*sexpr.Node{sexpr.Sym("err"), sexpr.Sym(e.Get("code").StringOr("ERROR")), sexpr.Str(e.Get("message").StringOr(""))}
	if d := e.Get("details"); d != nil {
		items = append(items, dataTerm(d))
	}
	return sexpr.L(items...)
}

// dataTerm writes any JSON value as MCP-Term data ((:key value ...) for
// objects), the way call results show structured content.
func dataTerm(v *ojson.Value) *sexpr.Node {
	n := call.ResultToTerm(ojson.NewObject().Set("structuredContent", v))
	if len(n.Items) == 2 {
		return n.Items[1]
	}
	return sexpr.Str(v.Compact())
}

// safeLine is untrusted text fit for one line of stderr.
func safeLine(s string) string { return safe.Sanitize(s, safe.Options{SingleLine: true, Max: 2000}) }

// noteProjection says on stderr what params.fields saved: the tokens of the
// projected answer next to the full one, so field selection is never silent.
func (c *cli) noteProjection(index int, batch bool, projected, full *ojson.Value, loadCounter func() (*tokens.Counter, error)) {
	where := ""
	if batch {
		where = fmt.Sprintf(" (operation %d)", index)
	}
	counter, err := loadCounter()
	if err != nil {
		fmt.Fprintf(c.stderr, "mcpterm call: fields projected the result%s: %d of %d bytes\n", where, len(projected.Compact()), len(full.Compact()))
		return
	}
	p, err1 := counter.Count(projected.Compact())
	f, err2 := counter.Count(full.Compact())
	if err1 != nil || err2 != nil {
		fmt.Fprintf(c.stderr, "mcpterm call: fields projected the result%s: %d of %d bytes\n", where, len(projected.Compact()), len(full.Compact()))
		return
	}
	fmt.Fprintf(c.stderr, "mcpterm call: fields projected the result%s: %d of %d tokens (%s), %d of %d bytes\n",
		where, p, f, tokens.DefaultEncoding, len(projected.Compact()), len(full.Compact()))
}
