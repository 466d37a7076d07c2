package gateway

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/policy"
)

// handleTerm answers a call of the term tool: read expr against the
// upstream schemas, run the call or batch, answer in MCP-Term.
func (g *Gateway) handleTerm(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	defer g.inflight.enter(ctx)()
	st := g.st.Load()
	args, err := rawArguments(req)
	if err != nil {
		return termFailure(errTerm("shape", "the arguments are not JSON: "+err.Error())), nil
	}
	expr := args.Get("expr")
	if expr == nil || expr.Kind != ojson.String {
		return termFailure(errTerm(string(call.ErrMissing),
			`expr is missing: pass {"expr": "(CODE ARG ...)"}, one MCP-Term call or (batch ...) as a string`)), nil
	}
	b, err := st.resolver.Parse(expr.Str)
	if err != nil {
		var ce *call.Error
		if errors.As(err, &ce) && ce.Kind == call.ErrUnknownTool && ce.Expected == "" {
			return termFailure(errTerm(string(ce.Kind), ce.Error()+"; expected one of "+st.codeList())), nil
		}
		return termFailure(call.ErrorToTerm(err)), nil
	}
	p := g.newProgress(ctx, req)
	defer p.flush()
	if !b.IsBatch && len(b.Calls) == 1 {
		c := b.Calls[0]
		raw, err := g.call(ctx, st, upstreamCall{Tool: c.Tool, Arguments: c.Arguments, OnProgress: p.upstream})
		if err != nil {
			return termFailure(termOfError(err)), nil
		}
		return termResult(call.ResultToTerm(raw), isErrorResult(raw), raw), nil
	}
	return g.termBatch(ctx, st, b, p), nil
}

// termBatch runs the calls of a batch as separate upstream calls, in order
// or with the batch's concurrency, each under the policy, and answers
// (results (ID RESULT) ...).
func (g *Gateway) termBatch(ctx context.Context, st *state, b *call.Batch, p *progress) *mcp.CallToolResult {
	n := len(b.Calls)
	outcomes := make([]call.Outcome, n)
	errs := make([]error, n)
	workers := b.Concurrency
	if workers < 1 {
		workers = 1
	}
	var (
		mu      sync.Mutex
		stopped bool
		done    int
		wg      sync.WaitGroup
	)
	sem := make(chan struct{}, workers)
	for i, c := range b.Calls {
		outcomes[i].ID = c.ID
		sem <- struct{}{}
		mu.Lock()
		skip := stopped
		mu.Unlock()
		if skip {
			<-sem
			outcomes[i].Skipped = true
			continue
		}
		if ctx.Err() != nil {
			<-sem
			errs[i] = fmt.Errorf("not run: %w", context.Canceled)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			raw, err := g.call(ctx, st, upstreamCall{Tool: c.Tool, Arguments: c.Arguments})
			mu.Lock()
			outcomes[i].Result, errs[i] = raw, err
			if b.StopOnError && (err != nil || isErrorResult(raw)) {
				stopped = true
			}
			done++
			p.send(float64(done), float64(n), fmt.Sprintf("%d of %d calls done", done, n))
			mu.Unlock()
		}()
	}
	wg.Wait()

	// Render with package call, then put the gateway's own error terms in
	// place of the calls that got no result: they say more than "failed".
	for i := range outcomes {
		if errs[i] != nil {
			outcomes[i].Err = errs[i]
		}
	}
	node := call.BatchResultsToTerm(outcomes)
	failed := 0
	var extra []mcp.Content
	for i, o := range outcomes {
		entry := node.Items[i+1]
		switch {
		case o.Err != nil:
			entry.Items[1] = termOfError(o.Err)
			failed++
		case o.Skipped:
			failed++
		default:
			if isErrorResult(o.Result) {
				failed++
			}
			extra = append(extra, nonText(o.Result)...)
		}
	}
	res := &mcp.CallToolResult{Content: append([]mcp.Content{mcp.NewTextContent(sexpr.Print(node))}, extra...)}
	res.IsError = n > 0 && failed == n
	return res
}

// codeList names the declared tools by the codes a call may use, for an
// unknown-tool error.
func (st *state) codeList() string {
	codes := make([]string, 0, len(st.visible.Tools))
	for _, t := range st.visible.Tools {
		codes = append(codes, st.resolver.Code(t.Name))
	}
	if len(codes) == 0 {
		return "no tool: the policy leaves none"
	}
	return strings.Join(codes, " ")
}

// termResult is a call's answer: the MCP-Term text first, then the
// upstream's non-text content as it sent it (a client can show an image; the
// text only summarises it).
func termResult(node *sexpr.Node, isError bool, raw *ojson.Value) *mcp.CallToolResult {
	content := append([]mcp.Content{mcp.NewTextContent(sexpr.Print(node))}, nonText(raw)...)
	return &mcp.CallToolResult{Content: content, IsError: isError}
}

func termFailure(node *sexpr.Node) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(sexpr.Print(node))}, IsError: true}
}

func errTerm(code, msg string) *sexpr.Node {
	return sexpr.L(sexpr.Sym("err"), sexpr.Sym(code), sexpr.Str(msg))
}

// termOfError names a failure with a code a model can act on: refused and
// needs-confirmation (the policy), the upstream's own JSON-RPC code,
// timeout, canceled, bad-answer (not MCP) and unavailable (connection).
func termOfError(err error) *sexpr.Node {
	var refused *RefusedError
	if errors.As(err, &refused) {
		code := "refused"
		if refused.Decision.Verdict == policy.Confirm {
			code = "needs-confirmation"
		}
		return errTerm(code, err.Error())
	}
	var rpc *session.RPCError
	if errors.As(err, &rpc) {
		ce := &call.RPCError{Code: int64(rpc.Code), Message: rpc.Message}
		if len(rpc.Data) > 0 {
			ce.Data, _ = ojson.Parse(rpc.Data)
		}
		return call.ErrorToTerm(ce)
	}
	var perr *session.ProtocolError
	switch {
	case errors.As(err, &perr):
		return errTerm("bad-answer", err.Error())
	case session.Classify(err) == session.ClassTimeout:
		return errTerm("timeout", err.Error())
	case session.Classify(err) == session.ClassCancelled:
		return errTerm("canceled", err.Error())
	}
	return errTerm("unavailable", err.Error())
}

// isErrorResult reads a CallToolResult's isError.
func isErrorResult(raw *ojson.Value) bool {
	if raw == nil {
		return false
	}
	b := raw.Get("isError")
	return b != nil && b.Kind == ojson.Bool && b.Bool
}

// maxPassedContent bounds how many non-text items one answer passes on.
const maxPassedContent = 64

// nonText returns a result's image, audio and resource items as typed MCP
// content, unchanged. Items of other types, and those mcp-go cannot read,
// are left to the text summary (mcp-go would read an unknown type as text).
func nonText(raw *ojson.Value) []mcp.Content {
	if raw == nil {
		return nil
	}
	items := raw.Get("content")
	if items == nil || items.Kind != ojson.Array {
		return nil
	}
	var out []mcp.Content
	for _, it := range items.Items {
		if it.Kind != ojson.Object {
			continue
		}
		switch it.Get("type").StringOr("") {
		case "image", "audio", "resource", "resource_link":
		default:
			continue
		}
		c, err := mcp.UnmarshalContent([]byte(it.Compact()))
		if err != nil {
			continue
		}
		out = append(out, c)
		if len(out) == maxPassedContent {
			break
		}
	}
	return out
}
