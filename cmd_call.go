package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/history"
	"github.com/mcpterm/mcpterm/session/policy"
)

// callFlags are call's own flags, on top of the server selection.
type callFlags struct {
	expr        string
	file        string
	dryRun      bool
	printAs     string
	allow, deny listFlag
	readOnly    bool
	yes         yesFlag
	audit       string
	concurrency int
	stopOnError bool
	asTask      bool
	out         outputFlags
	aql         aqlFlags
}

// callFlags builds call's flag set: the server selection and call's own
// flags, with the usage --help prints.
func (c *cli) callFlags() (*flag.FlagSet, *serverFlags, *callFlags) {
	fs := newFlagSet("call",
		"usage: mcpterm call [flags] 'EXPR' [server selection]",
		"       mcpterm call [flags] [server selection] -- CMD ARGS... 'EXPR'",
		"       mcpterm call [flags] -e EXPR | -f FILE|- [server selection]",
		"",
		"The expression is one argument, anywhere before --, or -e EXPR, or -f FILE (- for stdin).",
		"After --, everything is the stdio server's command line, except that when no expression",
		"was given otherwise, its last argument is the expression if it reads as one (starts with",
		"( { or [ after blanks and ; comments) and a command is left. Use -e when the server's own",
		"last argument starts so.",
		"",
		"EXPR: (tool arg ... :name value), (batch (1 CALL) (2 CALL) ...), {\"name\": ..., \"arguments\": {...}} or a JSON list of those,",
		"      or MCP-AQL: {\"operation\": ..., \"params\": {...}}, {\"operations\": [...]}, {\"operation\": \"introspect\", \"params\": {\"query\": \"operations\"}}",
		"output: MCP-Term data (ok ...)/(err ...) by default; AQL input prints the AQL response JSON unless --output sexpr",
		"exit: 0 ok, 1 tool error (AQL: success false from the tool), 2 usage/parse/validation/refused, 3 connection, 4 timeout",
		"server selection: nothing (demo), -- CMD ARGS, --url URL, --server NAME, --tools FILE (with --dry-run, or AQL introspect)")
	var sf serverFlags
	sf.register(fs)
	var cf callFlags
	fs.StringVar(&cf.expr, "e", "", "the call `EXPR` (instead of an argument; needed when it could be read as the server's)")
	fs.StringVar(&cf.file, "f", "", "read the call from `FILE` (- for stdin) instead of the argument")
	fs.BoolVar(&cf.dryRun, "dry-run", false, "parse and check the call against the tool list, print it, run nothing")
	enum(fs, &cf.printAs, "print", "json", []string{"json", "term", "aql"}, "with --dry-run: the tools/call requests (json), canonical MCP-Term (term) or AQL requests (aql)")
	fs.Var(&cf.allow, "allow", "run only tools matching this `PATTERN` (glob, any case, against name, short code and AQL operation; repeatable, or comma-separated)")
	fs.Var(&cf.deny, "deny", "never run tools matching this `PATTERN` (as --allow, and its snake_case spellings; wins over --allow)")
	fs.BoolVar(&cf.readOnly, "read-only", false, "refuse every tool not annotated readOnlyHint: true")
	fs.Var(&cf.yes, "yes", "confirm destructive tools (required to run them): bare --yes every one, --yes=PATTERN (repeatable, comma-separated, matched as --allow) only those matching")
	fs.StringVar(&cf.audit, "audit", "", "append a JSON line per call (and per refusal) to `FILE`")
	fs.IntVar(&cf.concurrency, "concurrency", -1, "batch calls in flight at once (default: as the batch says, else 1)")
	fs.BoolVar(&cf.stopOnError, "stop-on-error", false, "skip the rest of a batch after a failed call")
	fs.BoolVar(&cf.asTask, "as-task", false, "run tools that may run as tasks (taskSupport optional) as tasks; tools that require it always are")
	cf.out.register(fs, "sexpr", "json")
	cf.aql.register(fs)
	return fs, &sf, &cf
}

// runCall runs an S-expression call, a (batch ...), JSON ({"name",
// "arguments"} or a list of them) or an MCP-AQL document against the
// server, with the agent safety rules of package policy, and prints the
// results as MCP-Term data or JSON (AQL answers as AQL responses). The call
// is read with convert/calls and run with session.Runner, which checks the
// whole plan with the policy and writes the history and the audit log.
func (c *cli) runCall(args []string) int {
	fs, sf, cf := c.callFlags()
	pos, code, ok := c.parseSelection(fs, sf, args)
	if !ok {
		return code
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	outputSet := given["output"]
	c.jsonErrors(outputSet && cf.out.output == "json")
	if cf.expr == "" && cf.file == "" && len(pos) == 0 && len(sf.Command) > 1 && readsAsCall(sf.Command[len(sf.Command)-1]) {
		// mcpterm call -- node srv.js '(echo "hi")': the expression last.
		pos = sf.Command[len(sf.Command)-1:]
		sf.Command = sf.Command[:len(sf.Command)-1]
	}
	if given["print"] && !cf.dryRun {
		fmt.Fprintln(c.stderr, "mcpterm call: --print is for --dry-run (a call that runs prints its results, see --output)")
		return exitUsage
	}
	src, err := c.callSource(cf.expr, cf.file, pos)
	isAQL := err == nil && calls.SyntaxOf(src) == calls.AQL
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
	var co calls.Options
	if err == nil {
		co, err = cf.aql.options()
	}
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm call:", err)
		return exitUsage
	}
	pol, err := policy.New(policy.Rules{Allow: cf.allow, Deny: cf.deny, ReadOnly: cf.readOnly, Yes: cf.yes.all, YesFor: cf.yes.patterns})
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm call:", err)
		return exitUsage
	}

	ctx, stop := c.runContext()
	defer stop()
	cn, code := c.connect(ctx, "call", sf, session.Options{})
	if cn == nil {
		return code
	}
	defer cn.close()
	set, err := cn.s.Tools(ctx)
	if err != nil {
		if code, ok := c.interrupted(ctx, "call", "listing the tools"); ok {
			return code
		}
		fmt.Fprintf(c.stderr, "mcpterm call: listing tools: %s\n", c.clean(cn.redactor, err.Error()))
		return exitFor(err)
	}
	// No "did you mean" offers a tool the deny list refuses, by any of its
	// names (the codec's own codes and operation names included).
	var codec *calls.Codec
	co.Unsuggest = func(tool string) bool { return pol.Denies(policy.CallFor(codec, tool)) }
	codec = calls.New(set, co)
	if cf.dryRun {
		return c.dryRunCall(codec, src, cf.printAs)
	}
	// The AQL view is checked when it is used: to read AQL, and for the
	// policy's categories when --aql-map corrects them.
	if isAQL || cf.aql.mapFile != "" {
		if err := c.checkAQL(codec); err != nil {
			fmt.Fprintln(c.stderr, "mcpterm call:", err)
			return exitUsage
		}
	}
	if !isAQL && cn.s.IsOffline() {
		fmt.Fprintln(c.stderr, "mcpterm call: offline: --tools gives a tool list but no server to run it; add --dry-run to check the call, or choose a server")
		return exitUsage
	}
	plan, err := codec.Read(src)
	if err != nil {
		var aerr *aql.Error
		switch {
		case errors.As(err, &aerr):
			// A document AQL refuses as a whole is answered as AQL.
			if cf.out.output == "sexpr" {
				c.emit(cn.redactor, cf.out.maxOutput, calls.RenderAQL(aerr.Response(), true, 100))
			} else {
				c.emitJSON(cn.redactor, cf.out.maxOutput, calls.RenderAQL(aerr.Response(), false, 100))
			}
		case isAQL:
			fmt.Fprintln(c.stderr, "mcpterm call:", safeLine(err.Error()))
		default:
			c.callError(src, err)
		}
		return exitUsage
	}
	if plan.NeedsServer() && cn.s.IsOffline() {
		fmt.Fprintln(c.stderr, "mcpterm call: offline: --tools gives a tool list but no server to run it; only introspect is answered offline. Add --dry-run to check the call, or choose a server")
		return exitUsage
	}
	if cf.concurrency >= 0 && plan.Syntax != calls.AQL {
		plan.Concurrency = cf.concurrency
	}
	plan.StopOnError = plan.StopOnError || cf.stopOnError
	return c.runPlan(ctx, cn, codec, plan, pol, cf)
}

// readsAsCall reports an argument that reads as a call expression rather
// than a server's argument: after blanks and ; comment lines it starts with
// "(" (an S-expression), "{" or "[" (JSON or AQL).
func readsAsCall(arg string) bool {
	for {
		arg = strings.TrimLeft(arg, " \t\r\n\f\v")
		if !strings.HasPrefix(arg, ";") {
			break
		}
		_, arg, _ = strings.Cut(arg, "\n")
	}
	return arg != "" && strings.ContainsRune("({[", rune(arg[0]))
}

// runPlan runs a plan that was read and prints what became of it.
func (c *cli) runPlan(ctx context.Context, cn *connection, codec *calls.Codec, plan *calls.Plan, pol *policy.Policy, cf *callFlags) int {
	var mu sync.Mutex // calls finishing at once may both fail to record
	ro := session.RunnerOptions{Policy: pol, Server: cn.s.Info().RecordName(), RecordError: func(err error) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(c.stderr, "mcpterm call: warning: %s\n", c.clean(cn.redactor, err.Error()))
	}}
	home, _ := os.UserHomeDir()
	if path, err := history.DefaultPath(c.getenv, home); err == nil {
		if ro.History, err = history.Open(path, history.Options{Redactor: cn.redactor}); err != nil {
			fmt.Fprintf(c.stderr, "mcpterm call: warning: history not kept: %v\n", err)
		}
	}
	if cf.audit != "" {
		a, err := policy.OpenAudit(cf.audit, cn.redactor)
		if err != nil {
			fmt.Fprintf(c.stderr, "mcpterm call: warning: %v\n", err)
		}
		ro.Audit = a
	}
	runner := session.NewRunner(cn.s, codec, ro)
	// The audit lines wait for the output, so they say how much of it
	// --max-output left out.
	res := runner.Run(ctx, plan, session.RunOptions{HoldAudit: true, OnProgress: c.taskLines(cn), AsTask: cf.asTask})
	if res.Refused {
		for _, it := range res.Items {
			if !it.Decision.Allowed() {
				fmt.Fprintf(c.stderr, "mcpterm call: refused: %s\n", it.Decision.Reason)
			}
		}
		return exitUsage
	}
	outs := res.Outcomes()
	var text string
	switch {
	case plan.Syntax == calls.AQL:
		text = calls.RenderAQL(c.aqlAnswer(codec, plan, outs), cf.out.output == "sexpr", 100)
	case cf.out.output == "json":
		text = calls.RenderJSON(plan, outs)
	default:
		text = calls.RenderTerm(plan, outs, 100)
	}
	emit := c.emit
	if cf.out.output == "json" { // JSON, or AQL answers as JSON: escaped, not stripped
		emit = c.emitJSON
	}
	cut := emit(cn.redactor, cf.out.maxOutput, text)
	runner.WriteAudit(res, len(text), cut)
	if code, ok := c.interruptedRun(ctx, res); ok {
		return code
	}

	exit := exitOK
	for i, it := range res.Items {
		if it.Call != nil && it.Call.SchemaErr != nil {
			fmt.Fprintf(c.stderr, "mcpterm call: %s\n", c.clean(cn.redactor, it.Call.SchemaErr.Error()))
		}
		if code := itemExit(&plan.Items[i], it); severity(code) > severity(exit) {
			exit = code
		}
	}
	return exit
}

// interruptedRun reports a run a signal cut short (cmd_signal.go): the
// calls it cancelled in flight (each already in the history and the audit
// log as cancelled) and those it kept from starting. A run that was
// complete when the signal came ends as it would have.
func (c *cli) interruptedRun(ctx context.Context, res *session.RunResult) (int, bool) {
	if _, ok := interruption(ctx); !ok {
		return 0, false
	}
	inFlight, notRun := 0, 0
	for _, it := range res.Items {
		switch {
		case it.Call != nil && session.Classify(it.Call.Err) == session.ClassCancelled:
			inFlight++
		case it.Call == nil && it.Outcome.Err != nil && it.Outcome.Err.Kind == calls.FailCancelled:
			notRun++
		}
	}
	if inFlight+notRun == 0 {
		return 0, false
	}
	what := plural(inFlight, "call") + " in flight"
	if notRun > 0 {
		what += ", " + plural(notRun, "call") + " not started"
	}
	return c.interrupted(ctx, "call", what)
}

// itemExit is the exit code one item earns: an AQL request answered
// locally fails (exit 2) only when it failed its checks, a mistake in the
// request; a call by what became of it (session.FailureClass buckets a
// failure as the error it came from).
func itemExit(item *calls.Item, it session.ItemResult) int {
	switch {
	case item.IsLocal() && aql.IsSuccess(item.Local):
		return exitOK
	case item.IsLocal():
		return exitUsage
	case it.Outcome.Err != nil:
		return exitForClass(session.FailureClass(it.Outcome.Err))
	case !it.Outcome.OK(), it.Call != nil && it.Call.SchemaErr != nil:
		return exitToolError
	}
	return exitOK
}

// callSource reads the call text from -e, the argument or -f.
func (c *cli) callSource(expr, file string, pos []string) (string, error) {
	given := 0
	for _, g := range []bool{expr != "", file != "", len(pos) > 0} {
		if g {
			given++
		}
	}
	switch {
	case given > 1:
		return "", usagef("give the call once: as an argument, with -e or with -f")
	case len(pos) > 1:
		return "", usagef("one call expression expected, got %d arguments (quote the expression; a server command goes after --)", len(pos))
	case len(pos) == 1:
		return pos[0], nil
	case expr != "":
		return expr, nil
	case file == "":
		return "", usagef("no call given: mcpterm call 'EXPR', -e EXPR or -f FILE (after -- CMD ARGS, the last argument counts only when it starts with ( { or [)")
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
