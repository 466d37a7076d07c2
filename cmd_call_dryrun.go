package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// dryRunCall parses src against set and prints, without contacting any
// server, the resulting tools/call requests (printAs "json"), the canonical
// S-expressions ("term") or the AQL requests ("aql"). AQL input is checked
// by the AQL adapter as a live call would be; introspect needs no request.
func (c *cli) dryRunCall(set *toolset.Set, src, printAs string, o aqlOptions) int {
	if printAs != "" && printAs != "json" && printAs != "term" && printAs != "aql" {
		fmt.Fprintf(c.stderr, "mcpterm call: unknown --print %q (want json, term or aql)\n", printAs)
		return exitUsage
	}
	if isAQLSource(src) {
		return c.dryRunAQL(set, src, printAs, o)
	}
	r := call.NewResolver(set)
	b, err := r.Parse(src)
	if err != nil {
		c.callError(src, err)
		return exitUsage
	}
	switch printAs {
	case "term":
		n, err := r.FormatBatch(b)
		if err != nil {
			c.callError(src, err)
			return exitUsage
		}
		if b.IsBatch {
			fmt.Fprintln(c.stdout, sexpr.Pretty(n, 100))
		} else {
			fmt.Fprintln(c.stdout, n.String())
		}
		return exitOK
	case "aql":
		a, err := c.aqlAdapter(set, o)
		if err != nil {
			fmt.Fprintln(c.stderr, "mcpterm call:", err)
			return exitUsage
		}
		calls := make([]aql.ToolCall, len(b.Calls))
		for i, cl := range b.Calls {
			calls[i] = aql.ToolCall{Name: cl.Tool, Arguments: cl.Arguments}
		}
		var v *ojson.Value
		if b.IsBatch {
			v, err = a.BatchToAQL(calls)
		} else {
			v, err = a.ToAQL(calls[0])
		}
		if err != nil {
			fmt.Fprintf(c.stderr, "mcpterm call: %s\n", safeLine(err.Error()))
			return exitUsage
		}
		if b.IsBatch && (b.Concurrency > 1 || b.StopOnError) {
			fmt.Fprintln(c.stderr, "mcpterm call: note: an AQL batch runs in order and does not stop on errors; :concurrency and :stop-on-error have no AQL spelling")
		}
		fmt.Fprintln(c.stdout, terminalSafeJSON(v.Compact()))
		return exitOK
	}
	for i, cl := range b.Calls {
		fmt.Fprintln(c.stdout, terminalSafeJSON(call.Request(int64(i+1), cl).Compact()))
	}
	return exitOK
}

// dryRunAQL checks an AQL document as a live call would and prints it in
// the asked form. Any request that fails its checks fails the dry run
// (exit 2) with its AQL error on stderr, and nothing is printed: a dry run
// says whether the whole input is good.
func (c *cli) dryRunAQL(set *toolset.Set, src, printAs string, o aqlOptions) int {
	a, err := c.aqlAdapter(set, o)
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm call:", err)
		return exitUsage
	}
	p, err := prepareAQL(a, o, src)
	if err != nil {
		var aerr *aql.Error
		if errors.As(err, &aerr) {
			fmt.Fprintf(c.stderr, "mcpterm call: %s\n", terminalSafeJSON(aerr.Response().Compact()))
		} else {
			fmt.Fprintln(c.stderr, "mcpterm call:", safeLine(err.Error()))
		}
		return exitUsage
	}
	if bad := p.failed(); len(bad) > 0 {
		for _, i := range bad {
			fmt.Fprintf(c.stderr, "mcpterm call: %s: %s\n", p.label(i), terminalSafeJSON(p.steps[i].Local.Compact()))
		}
		return exitUsage
	}
	local := func(i int) {
		fmt.Fprintf(c.stderr, "mcpterm call: note: %s is answered locally; it sends no tools/call\n", p.label(i))
	}
	fieldsNote := func(i int) {
		if fs := p.steps[i].Fields; len(fs) > 0 {
			fmt.Fprintf(c.stderr, "mcpterm call: note: %s: fields %s are applied to the result client-side; they are not sent\n", p.label(i), safeLine(strings.Join(fs, ", ")))
		}
	}
	switch printAs {
	case "aql":
		reqs := make([]*ojson.Value, len(p.steps))
		for i, st := range p.steps {
			if st.Call == nil {
				reqs[i] = ojson.NewObject().Set("operation", ojson.NewString(st.Operation)).Set("params", p.reqs[i].Params)
				continue
			}
			v, err := a.ToAQL(*st.Call)
			if err != nil {
				fmt.Fprintf(c.stderr, "mcpterm call: %s: %s\n", p.label(i), safeLine(err.Error()))
				return exitUsage
			}
			if len(st.Fields) > 0 {
				fields := ojson.NewArray()
				for _, f := range st.Fields {
					fields.Items = append(fields.Items, ojson.NewString(f))
				}
				v.Get("params").Set("fields", fields)
			}
			reqs[i] = v
		}
		var out *ojson.Value
		if p.in.IsBatch() {
			out = ojson.NewObject().Set("operations", ojson.NewArray(reqs...))
		} else {
			out = reqs[0]
		}
		fmt.Fprintln(c.stdout, terminalSafeJSON(out.Compact()))
	case "term":
		r := call.NewResolver(set)
		b := &call.Batch{IsBatch: p.in.IsBatch()}
		for i, st := range p.steps {
			if st.Call == nil {
				local(i)
				continue
			}
			fieldsNote(i)
			cl := call.Call{Tool: st.Call.Name, Arguments: st.Call.Arguments}
			if b.IsBatch {
				cl.ID = strconv.Itoa(i)
			}
			b.Calls = append(b.Calls, cl)
		}
		if len(b.Calls) == 0 {
			return exitOK
		}
		n, err := r.FormatBatch(b)
		if err != nil {
			fmt.Fprintln(c.stderr, "mcpterm call:", safeLine(err.Error()))
			return exitUsage
		}
		if b.IsBatch {
			fmt.Fprintln(c.stdout, sexpr.Pretty(n, 100))
		} else {
			fmt.Fprintln(c.stdout, n.String())
		}
	default:
		id := int64(0)
		for i, st := range p.steps {
			if st.Call == nil {
				local(i)
				continue
			}
			fieldsNote(i)
			id++
			fmt.Fprintln(c.stdout, terminalSafeJSON(call.Request(id, call.Call{Tool: st.Call.Name, Arguments: st.Call.Arguments}).Compact()))
		}
	}
	return exitOK
}

// callError prints a call error with the source line it points at and a
// caret under the column, the way compilers do.
func (c *cli) callError(src string, err error) {
	fmt.Fprintf(c.stderr, "mcpterm call: %v\n", err)
	var ce *call.Error
	if !errors.As(err, &ce) || ce.Pos.Line < 1 {
		return
	}
	lines := strings.Split(src, "\n")
	if ce.Pos.Line > len(lines) {
		return
	}
	line := []rune(lines[ce.Pos.Line-1])
	if len(line) > 200 || ce.Pos.Col-1 > len(line) {
		return // a caret under a huge line helps nobody
	}
	for i, r := range line {
		if r < ' ' || (r >= 0x7f && r <= 0x9f) {
			line[i] = ' '
		}
	}
	fmt.Fprintf(c.stderr, "  %s\n  %s^\n", string(line), strings.Repeat(" ", ce.Pos.Col-1))
}

// terminalSafeJSON escapes DEL and the C1 controls, which JSON allows raw in
// strings but some terminals obey; the text stays the same JSON.
func terminalSafeJSON(s string) string {
	if !strings.ContainsFunc(s, isC1) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isC1(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isC1(r rune) bool { return r >= 0x7f && r <= 0x9f }
