package main

import (
	"errors"
	"fmt"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/safe"
)

// dryRunCall reads src with the codec and prints, without contacting any
// server, the tools/call requests it sends (printAs "json"), the canonical
// MCP-Term ("term") or the AQL requests ("aql"), and on stderr the notes
// the printed form cannot say (calls.Codec.Notes). AQL input is checked as
// a live call would check it: any request that fails its checks fails the
// dry run (exit 2) with its AQL error on stderr, and nothing is printed, so
// a dry run says whether the whole input is good.
func (c *cli) dryRunCall(codec *calls.Codec, src, printAs string) int {
	syntax, ok := map[string]calls.Syntax{"": calls.JSON, "json": calls.JSON, "term": calls.SExpr, "aql": calls.AQL}[printAs]
	if !ok {
		fmt.Fprintf(c.stderr, "mcpterm call: unknown --print %q (want json, term or aql)\n", printAs)
		return exitUsage
	}
	isAQL := calls.SyntaxOf(src) == calls.AQL
	if isAQL || syntax == calls.AQL {
		if err := c.checkAQL(codec); err != nil {
			fmt.Fprintln(c.stderr, "mcpterm call:", err)
			return exitUsage
		}
	}
	p, err := codec.Read(src)
	if err != nil {
		var aerr *aql.Error
		switch {
		case errors.As(err, &aerr):
			fmt.Fprintf(c.stderr, "mcpterm call: %s\n", safe.JSON(aerr.Response().Compact()))
		case isAQL:
			fmt.Fprintln(c.stderr, "mcpterm call:", safeLine(err.Error()))
		default:
			c.callError(src, err)
		}
		return exitUsage
	}
	if bad := p.Failed(); len(bad) > 0 {
		for _, i := range bad {
			fmt.Fprintf(c.stderr, "mcpterm call: %s: %s\n", p.Label(i), safe.JSON(p.Items[i].Local.Compact()))
		}
		return exitUsage
	}
	for _, n := range codec.Notes(p, syntax) {
		fmt.Fprintf(c.stderr, "mcpterm call: note: %s\n", n)
	}
	switch syntax {
	case calls.JSON:
		for _, req := range codec.Requests(p) {
			fmt.Fprintln(c.stdout, safe.JSON(req.Compact()))
		}
		return exitOK
	case calls.SExpr:
		width := 0 // one call on one line, a batch pretty-printed
		if p.Batch {
			width = 100
		}
		out, err := codec.Print(p, calls.SExpr, width)
		switch {
		case errors.Is(err, calls.ErrLocalOnly):
			return exitOK
		case err != nil && isAQL:
			fmt.Fprintln(c.stderr, "mcpterm call:", safeLine(err.Error()))
			return exitUsage
		case err != nil:
			c.callError(src, err)
			return exitUsage
		}
		fmt.Fprintln(c.stdout, out)
		return exitOK
	}
	out, err := codec.Print(p, calls.AQL, 0)
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm call:", safeLine(err.Error()))
		return exitUsage
	}
	fmt.Fprintln(c.stdout, safe.JSON(out))
	return exitOK
}

// callError prints a call error with the source line it points at and a
// caret under the column (calls.Caret), the way compilers do.
func (c *cli) callError(src string, err error) {
	fmt.Fprintf(c.stderr, "mcpterm call: %v\n", err)
	if caret := calls.Caret(src, err); caret != "" {
		fmt.Fprintln(c.stderr, caret)
	}
}
