package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// dryRunCall parses src against set and prints the resulting tools/call
// requests (printAs "json") or canonical S-expressions ("term") without
// contacting any server.
func (c *cli) dryRunCall(set *toolset.Set, src, printAs string) int {
	if printAs != "" && printAs != "json" && printAs != "term" {
		fmt.Fprintf(c.stderr, "mcpterm call: unknown --print %q (want json or term)\n", printAs)
		return exitUsage
	}
	r := call.NewResolver(set)
	b, err := r.Parse(src)
	if err != nil {
		c.callError(src, err)
		return exitUsage
	}
	if printAs == "term" {
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
	}
	for i, cl := range b.Calls {
		fmt.Fprintln(c.stdout, terminalSafeJSON(call.Request(int64(i+1), cl).Compact()))
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
