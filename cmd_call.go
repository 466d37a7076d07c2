package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/history"
	"github.com/mcpterm/mcpterm/session/policy"
)

// callFlags are call's own flags, on top of the server selection.
type callFlags struct {
	file        string
	dryRun      bool
	printAs     string
	allow, deny listFlag
	readOnly    bool
	yes         bool
	audit       string
	concurrency int
	stopOnError bool
	out         outputFlags
	aql         aqlFlags
}

// runCall runs an S-expression call, a (batch ...), JSON ({"name",
// "arguments"} or a list of them) or an MCP-AQL document against the
// server, with the agent safety rules of package policy, and prints the
// results as MCP-Term data or JSON (AQL answers as AQL responses).
func (c *cli) runCall(args []string) int {
	fs := flag.NewFlagSet("call", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	var sf serverFlags
	sf.register(fs)
	var cf callFlags
	fs.StringVar(&cf.file, "f", "", "read the call from `FILE` (- for stdin) instead of the argument")
	fs.BoolVar(&cf.dryRun, "dry-run", false, "parse and check the call against the tool list, print it, run nothing")
	fs.StringVar(&cf.printAs, "print", "json", "with --dry-run: json (the tools/call requests), term (canonical MCP-Term) or aql (AQL requests)")
	fs.Var(&cf.allow, "allow", "run only tools matching this `PATTERN` (glob; repeatable, or comma-separated)")
	fs.Var(&cf.deny, "deny", "never run tools matching this `PATTERN` (wins over --allow)")
	fs.BoolVar(&cf.readOnly, "read-only", false, "refuse every tool not annotated readOnlyHint: true")
	fs.BoolVar(&cf.yes, "yes", false, "confirm destructive tools (required to run them)")
	fs.StringVar(&cf.audit, "audit", "", "append a JSON line per call (and per refusal) to `FILE`")
	fs.IntVar(&cf.concurrency, "concurrency", -1, "batch calls in flight at once (default: as the batch says, else 1)")
	fs.BoolVar(&cf.stopOnError, "stop-on-error", false, "skip the rest of a batch after a failed call")
	cf.out.register(fs, "sexpr")
	cf.aql.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(c.stderr, "usage: mcpterm call [flags] [server selection] 'EXPR'")
		fmt.Fprintln(c.stderr, "       mcpterm call [flags] [server selection] -f FILE|-")
		fmt.Fprintln(c.stderr, "EXPR: (tool arg ... :name value), (batch (1 CALL) (2 CALL) ...), {\"name\": ..., \"arguments\": {...}} or a JSON list of those,")
		fmt.Fprintln(c.stderr, "      or MCP-AQL: {\"operation\": ..., \"params\": {...}}, {\"operations\": [...]}, {\"operation\": \"introspect\", \"params\": {\"query\": \"operations\"}}")
		fmt.Fprintln(c.stderr, "output: MCP-Term data (ok ...)/(err ...) by default; AQL input prints the AQL response JSON unless --output sexpr")
		fmt.Fprintln(c.stderr, "exit: 0 ok, 1 tool error (AQL: success false from the tool), 2 usage/parse/validation/refused, 3 connection, 4 timeout")
		fs.PrintDefaults()
	}
	pos, code, ok := sf.parse(fs, args)
	if !ok {
		return code
	}
	src, err := c.callSource(cf.file, pos)
	isAQL := err == nil && isAQLSource(src)
	outputSet := false
	fs.Visit(func(f *flag.Flag) { outputSet = outputSet || f.Name == "output" })
	if isAQL && !outputSet {
		cf.out.output = "json" // AQL answers are AQL responses unless asked otherwise
	}
	if err == nil {
		err = cf.out.check()
	}
	if err == nil && cf.concurrency > call.MaxConcurrency {
		err = usagef("--concurrency %d: at most %d", cf.concurrency, call.MaxConcurrency)
	}
	if err == nil && isAQL && cf.concurrency > 1 {
		err = usagef("--concurrency %d: AQL batches run in array order, one operation at a time", cf.concurrency)
	}
	if err == nil && !isAQL && cf.aql.endpoint != "" {
		err = usagef("--aql-endpoint is for AQL input ({\"operation\": ...})")
	}
	var ao aqlOptions
	if err == nil {
		ao, err = cf.aql.options()
	}
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm call:", err)
		return exitUsage
	}
	pol, err := policy.New(policy.Rules{Allow: cf.allow, Deny: cf.deny, ReadOnly: cf.readOnly, Yes: cf.yes})
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm call:", err)
		return exitUsage
	}

	ctx := context.Background()
	rec := &callRecorder{}
	cn, code := c.connect(ctx, "call", &sf, session.Options{OnCall: rec.onCall})
	if cn == nil {
		return code
	}
	defer cn.close()
	set, err := cn.s.Tools(ctx)
	if err != nil {
		fmt.Fprintf(c.stderr, "mcpterm call: listing tools: %s\n", c.clean(cn.redactor, err.Error()))
		return exitFor(err)
	}
	if cf.dryRun {
		return c.dryRunCall(set, src, cf.printAs, ao)
	}
	if isAQL {
		return c.runAQLCall(ctx, cn, set, src, &cf, ao, pol, rec)
	}
	if cn.s.IsOffline() {
		fmt.Fprintln(c.stderr, "mcpterm call: offline: --tools gives a tool list but no server to run it; add --dry-run to check the call, or choose a server")
		return exitUsage
	}
	batch, err := call.NewResolver(set).Parse(src)
	if err != nil {
		c.callError(src, err)
		return exitUsage
	}
	if cf.concurrency >= 0 {
		batch.Concurrency = cf.concurrency
	}
	batch.StopOnError = batch.StopOnError || cf.stopOnError

	rec.init(c, cn, src, batch.IsBatch, cf.audit)

	// The policy sees the whole batch before anything runs, so a refused
	// call never leaves the others half done.
	refused := false
	for _, cl := range batch.Calls {
		d := pol.Check(policy.CallOf(cl.Tool, set.Find(cl.Tool), ""))
		if !d.Allowed() {
			refused = true
			fmt.Fprintf(c.stderr, "mcpterm call: refused: %s\n", d.Reason)
			rec.refusal(cl, d)
		}
	}
	if refused {
		return exitUsage
	}

	reqs := make([]session.CallRequest, len(batch.Calls))
	for i, cl := range batch.Calls {
		reqs[i] = session.CallRequest{ID: cl.ID, Tool: cl.Tool, Arguments: cl.Arguments}
	}
	var results []*session.CallResult
	if batch.IsBatch {
		results = cn.s.Batch(ctx, reqs, session.BatchOptions{Concurrency: batch.Concurrency, StopOnError: batch.StopOnError}).Results
	} else {
		results = []*session.CallResult{cn.s.Call(ctx, reqs[0])}
	}

	text := renderResults(batch.IsBatch, results, cf.out.output)
	cut := c.printCallOutput(cn, text, cf.out.maxOutput)

	exit := exitOK
	for _, r := range results {
		code := resultExit(r)
		if r.SchemaErr != nil {
			fmt.Fprintf(c.stderr, "mcpterm call: %s\n", c.clean(cn.redactor, r.SchemaErr.Error()))
		}
		if severity(code) > severity(exit) {
			exit = code
		}
		rec.ran(r, len(text), cut)
	}
	return exit
}

// printCallOutput prints what a call answered: secrets masked, terminal
// controls removed, capped by --max-output. It returns how many bytes the
// cap left out.
func (c *cli) printCallOutput(cn *connection, text string, maxOutput int) (cut int) {
	printed := safe.Text(cn.redactor.Redact(text))
	if maxOutput > 0 {
		printed, cut = safe.Cut(printed, maxOutput)
	}
	if !strings.HasSuffix(printed, "\n") {
		printed += "\n"
	}
	io.WriteString(c.stdout, printed)
	return cut
}

// callSource reads the call text from the argument or -f.
func (c *cli) callSource(file string, pos []string) (string, error) {
	switch {
	case file != "" && len(pos) > 0:
		return "", usagef("give the call as an argument or with -f, not both")
	case len(pos) > 1:
		return "", usagef("one call expression expected, got %d arguments (quote the expression; a server command goes after --)", len(pos))
	case len(pos) == 1:
		return pos[0], nil
	case file == "":
		return "", usagef("no call given: mcpterm call 'EXPR' or -f FILE")
	}
	var r io.Reader
	if file == "-" {
		r = c.stdin
	} else {
		f, err := os.Open(file)
		if err != nil {
			return "", usagef("-f: %v", err)
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, call.MaxSourceBytes+1))
	if err != nil {
		return "", usagef("-f %s: %v", file, err)
	}
	if len(b) > call.MaxSourceBytes {
		return "", usagef("-f %s: larger than %d bytes", file, call.MaxSourceBytes)
	}
	return string(b), nil
}

// resultExit is the exit code one call earns.
func resultExit(r *session.CallResult) int {
	switch {
	case r.Err != nil:
		return exitFor(r.Err)
	case r.IsError, r.SchemaErr != nil:
		return exitToolError
	}
	return exitOK
}

// renderResults prints results as MCP-Term data ((ok ...), (err ...),
// (results (ID ...) ...)) or JSON (the result objects as the server sent
// them; {"results": [{"id", "result"|"error"|"skipped"}]} for a batch).
func renderResults(isBatch bool, results []*session.CallResult, format string) string {
	if format == "json" {
		if !isBatch {
			if r := results[0]; r.Err == nil && r.Raw != nil {
				return r.Raw.Pretty()
			}
			return resultJSON(results[0]).Pretty()
		}
		arr := ojson.NewArray()
		for _, r := range results {
			o := ojson.NewObject().Set("id", ojson.NewString(r.ID))
			for _, m := range resultJSON(r).Members {
				o.Set(m.Key, m.Value)
			}
			arr.Items = append(arr.Items, o)
		}
		return ojson.NewObject().Set("results", arr).Pretty()
	}
	if !isBatch {
		return sexpr.Pretty(resultTerm(results[0]), 100)
	}
	outcomes := make([]call.Outcome, len(results))
	for i, r := range results {
		outcomes[i] = call.Outcome{ID: r.ID, Result: r.Raw, Err: termErr(r.Err), Skipped: errors.Is(r.Err, session.ErrSkipped)}
		if r.Err != nil {
			outcomes[i].Result = nil
		}
	}
	return sexpr.Pretty(call.BatchResultsToTerm(outcomes), 100)
}

func resultTerm(r *session.CallResult) *sexpr.Node {
	if r.Err != nil {
		return call.ErrorToTerm(termErr(r.Err))
	}
	return call.ResultToTerm(r.Raw)
}

// resultJSON is {"result": RAW} or {"error": {"kind", "code"?, "message"}}
// for a batch entry; a single call prints RAW itself when it has one.
func resultJSON(r *session.CallResult) *ojson.Value {
	if r.Err == nil && r.Raw != nil {
		return ojson.NewObject().Set("result", r.Raw)
	}
	e := ojson.NewObject()
	var rpc *session.RPCError
	kind := "failed"
	switch {
	case errors.Is(r.Err, session.ErrSkipped):
		kind = "skipped"
	case errors.As(r.Err, &rpc):
		kind = "rpc"
		e.Set("code", ojson.NewInt(int64(rpc.Code)))
		if len(rpc.Data) > 0 {
			if d, err := ojson.Parse(rpc.Data); err == nil {
				e.Set("data", d)
			}
		}
	default:
		switch session.Classify(r.Err) {
		case session.ClassTimeout:
			kind = "timeout"
		case session.ClassConnection:
			kind = "connection"
		case session.ClassCancelled:
			kind = "cancelled"
		case session.ClassUsage:
			kind = "usage"
		}
	}
	msg := "no result"
	if r.Err != nil {
		msg = r.Err.Error()
	}
	e.Set("kind", ojson.NewString(kind)).Set("message", ojson.NewString(msg))
	return ojson.NewObject().Set("error", e)
}

// termErr adapts session errors to what call.ErrorToTerm recognises.
func termErr(err error) error {
	var rpc *session.RPCError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &rpc):
		ce := &call.RPCError{Code: int64(rpc.Code), Message: rpc.Message}
		if len(rpc.Data) > 0 {
			ce.Data, _ = ojson.Parse(rpc.Data)
		}
		return ce
	case session.Classify(err) == session.ClassTimeout:
		return deadlineErr{err}
	}
	return err
}

// deadlineErr is a session timeout that call.ErrorToTerm shows as (err timeout ...).
type deadlineErr struct{ err error }

func (d deadlineErr) Error() string        { return d.err.Error() }
func (d deadlineErr) Is(target error) bool { return target == context.DeadlineExceeded }

// callRecorder writes the history (every call, as it finishes) and the
// --audit log (every call and every refusal).
type callRecorder struct {
	c      *cli
	cn     *connection
	src    string
	batch  string
	hist   *history.Log
	audit  *policy.Audit
	server string
}

func (r *callRecorder) init(c *cli, cn *connection, src string, isBatch bool, auditPath string) {
	r.c, r.cn, r.src = c, cn, src
	r.server = cn.s.Info().Name
	if r.server == "" {
		r.server = cn.s.Source().String()
	}
	if isBatch {
		r.batch = clipSource(src)
	}
	home, _ := os.UserHomeDir()
	if path, err := history.DefaultPath(c.getenv, home); err == nil {
		r.hist, err = history.Open(path, history.Options{Redactor: cn.redactor})
		if err != nil {
			fmt.Fprintf(c.stderr, "mcpterm call: warning: history not kept: %v\n", err)
		}
	}
	if auditPath != "" {
		a, err := policy.OpenAudit(auditPath, cn.redactor)
		if err != nil {
			fmt.Fprintf(c.stderr, "mcpterm call: warning: %v\n", err)
		}
		r.audit = a
	}
}

func clipSource(s string) string {
	s, _ = safe.Cut(s, 4096)
	return s
}

// onCall appends a finished call to the history, whatever its outcome.
func (r *callRecorder) onCall(res *session.CallResult) {
	if r.hist == nil {
		return
	}
	e := history.Entry{
		Time: res.Started, Server: r.server, Tool: res.Tool, Duration: res.Duration,
		Outcome: history.OK, Summary: summary(res), Batch: r.batch, BatchID: res.ID,
	}
	if r.batch == "" {
		e.Source = clipSource(r.src)
	}
	if res.Arguments != nil {
		e.Arguments = json.RawMessage(res.Arguments.Compact())
	}
	switch {
	case res.Err != nil:
		e.Outcome, e.Error = history.Failed, res.Err.Error()
	case res.IsError:
		e.Outcome = history.ToolError
	case res.SchemaErr != nil:
		e.Outcome, e.Error = history.ToolError, res.SchemaErr.Error()
	}
	if err := r.hist.Append(e); err != nil {
		fmt.Fprintf(r.c.stderr, "mcpterm call: warning: history: %v\n", err)
	}
}

// summary is the first text of a result, short.
func summary(res *session.CallResult) string {
	if res.Raw == nil {
		return ""
	}
	for _, it := range res.Raw.Get("content").Items {
		if t := it.Get("text"); t != nil && t.Kind == ojson.String {
			s, _ := safe.Cut(t.Str, 200)
			return s
		}
	}
	return ""
}

func (r *callRecorder) refusal(cl call.Call, d policy.Decision) {
	if r.audit == nil {
		return
	}
	rec := policy.AuditRecord{Server: r.server, Tool: cl.Tool, Decision: d.Verdict, Reason: d.Reason}
	if cl.Arguments != nil {
		rec.Arguments = json.RawMessage(cl.Arguments.Compact())
	}
	r.write(rec)
}

// ran audits a call that was run; bytes and cut are the invocation's
// printed output and how much --max-output left out of it.
func (r *callRecorder) ran(res *session.CallResult, bytes, cut int) {
	if r.audit == nil {
		return
	}
	rec := policy.AuditRecord{Time: res.Started, Server: r.server, Tool: res.Tool, Decision: policy.Allow,
		Duration: res.Duration, Bytes: bytes, Cut: cut, Outcome: "ok"}
	if res.Arguments != nil {
		rec.Arguments = json.RawMessage(res.Arguments.Compact())
	}
	switch {
	case res.Err != nil && session.Classify(res.Err) == session.ClassTimeout:
		rec.Outcome, rec.Error = "timeout", res.Err.Error()
	case res.Err != nil:
		rec.Outcome, rec.Error = "error", res.Err.Error()
	case res.IsError:
		rec.Outcome = "tool_error"
	case res.SchemaErr != nil:
		rec.Outcome, rec.Error = "tool_error", res.SchemaErr.Error()
	}
	r.write(rec)
}

func (r *callRecorder) write(rec policy.AuditRecord) {
	if err := r.audit.Record(rec); err != nil {
		fmt.Fprintf(r.c.stderr, "mcpterm call: warning: audit: %v\n", err)
	}
}
