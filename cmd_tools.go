package main

import (
	"context"
	"flag"
	"fmt"
	"sort"
	"strings"

	"github.com/mcpterm/mcpterm/convert"
	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/policy"
)

// runTools lists a server's tools: a readable summary by default, the tool
// definitions as the server sent them with --format json, or any rendering
// of package convert (term, dts, ...) by name.
func (c *cli) runTools(args []string) int {
	fs := flag.NewFlagSet("tools", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	var sf serverFlags
	sf.register(fs)
	format := fs.String("format", "list", "list, json (as the server sent them), term, dts, or any `FORM` of mcpterm convert")
	maxOutput := fs.Int("max-output", 0, "print at most `N` bytes, saying what was cut (0: no limit)")
	fs.Usage = func() {
		fmt.Fprintln(c.stderr, "usage: mcpterm tools [--format list|json|term|dts] [server selection]")
		fs.PrintDefaults()
	}
	pos, code, ok := sf.parse(fs, args)
	if !ok {
		return code
	}
	if c.unexpectedArgs("mcpterm tools", pos) {
		return exitUsage
	}
	render, err := toolsRenderer(*format)
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm tools:", err)
		return exitUsage
	}
	ctx := context.Background()
	cn, code := c.connect(ctx, "tools", &sf, session.Options{})
	if cn == nil {
		return code
	}
	defer cn.close()
	set, err := cn.s.Tools(ctx)
	if err != nil {
		fmt.Fprintf(c.stderr, "mcpterm tools: %s\n", c.clean(cn.redactor, err.Error()))
		return exitFor(err)
	}
	for _, w := range cn.s.ToolWarnings() {
		fmt.Fprintf(c.stderr, "mcpterm tools: warning: %s\n", c.clean(cn.redactor, w))
	}
	out, err := render(set)
	if err != nil {
		fmt.Fprintf(c.stderr, "mcpterm tools: %s\n", c.clean(cn.redactor, err.Error()))
		return exitUsage
	}
	c.emit(cn.redactor, *maxOutput, out)
	return exitOK
}

// toolsRenderer picks the rendering for --format.
func toolsRenderer(format string) (func(*toolset.Set) (string, error), error) {
	switch format {
	case "list":
		return toolList, nil
	case "json":
		// The definitions exactly as the server sent them.
		return func(s *toolset.Set) (string, error) { return s.Result().Pretty(), nil }, nil
	}
	if f, ok := convert.FormByName(format); ok {
		return f.Render, nil
	}
	var names []string
	for _, f := range convert.Forms() {
		names = append(names, f.CLIName)
	}
	sort.Strings(names)
	return nil, fmt.Errorf("--format %s: not a known format (list, json, %s)", quoteArg(format), strings.Join(names, ", "))
}

// toolList is the readable summary: one line per tool with its behaviour
// hint and the first line of its description. The hint is the policy's
// (policy.IsDestructive, with the tool's AQL category): "destruct" is what
// `mcpterm call` runs only with --yes.
func toolList(s *toolset.Set) (string, error) {
	var b strings.Builder
	width := 4
	for _, t := range s.Tools {
		width = max(width, min(len(t.Name), 40))
	}
	codec := calls.New(s, calls.Options{})
	for _, t := range s.Tools {
		hint := "write   "
		switch {
		case policy.IsDestructive(policy.CallFor(codec, t.Name)):
			hint = "destruct"
		case t.Annotations.ReadOnly():
			hint = "readonly"
		}
		desc := shorten(safe.Line(firstLine(t.Description)), 100)
		fmt.Fprintf(&b, "%-*s  %s  %s\n", width, safe.Line(t.Name), hint, desc)
	}
	fmt.Fprintf(&b, "(%d tools", len(s.Tools))
	if s.Server != "" {
		fmt.Fprintf(&b, " from %s", safe.Line(s.Server))
		if s.Version != "" {
			fmt.Fprintf(&b, " %s", safe.Line(s.Version))
		}
	}
	b.WriteString(")\n")
	return b.String(), nil
}

// shorten cuts s to at most n runes, marking the cut with "…".
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
