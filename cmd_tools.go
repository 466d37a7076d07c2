package main

import (
	"flag"
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpterm/mcpterm/convert"
	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/policy"
)

// toolsOptions are tools' own flags.
type toolsOptions struct {
	sf        serverFlags
	format    string
	maxOutput int
}

// toolsFormats are the --format values: the list, the definitions as sent,
// and every form of mcpterm convert.
func toolsFormats() []string { return append([]string{"list", "json"}, formNames()...) }

// toolsFlags builds tools' flag set.
func (c *cli) toolsFlags() (*flag.FlagSet, *toolsOptions) {
	fs := newFlagSet("tools",
		"usage: mcpterm tools [--format FORMAT] [--max-output N] [server selection]",
		"",
		"Lists a server's tools: one line each by default (name, read-only/write/destructive hint and",
		"the first line of the description, cut to the width on a terminal, whole when piped), the",
		"definitions as the server sent them with --format json, or any form of mcpterm convert.",
		"With --format json, errors are JSON objects on stderr.",
		"server selection: nothing (demo), -- CMD ARGS, --url URL, --server NAME, --tools FILE (offline)")
	var o toolsOptions
	o.sf.register(fs)
	enum(fs, &o.format, "format", "list", toolsFormats(), "output `FORMAT`")
	fs.IntVar(&o.maxOutput, "max-output", 0, "print at most `N` bytes, saying what was cut (0: no limit)")
	return fs, &o
}

// runTools lists a server's tools: a readable summary by default, the tool
// definitions as the server sent them with --format json, or any rendering
// of package convert (term, dts, ...) by name.
func (c *cli) runTools(args []string) int {
	fs, o := c.toolsFlags()
	pos, code, ok := c.parseSelection(fs, &o.sf, args)
	if !ok {
		return code
	}
	c.jsonErrors(o.format == "json")
	if c.unexpectedArgs("mcpterm tools", pos) {
		return exitUsage
	}
	width, terminal := c.stdoutTerminal()
	render, err := toolsRenderer(o.format, width, terminal)
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm tools:", err)
		return exitUsage
	}
	ctx, stop := c.runContext()
	defer stop()
	cn, code := c.connect(ctx, "tools", &o.sf, session.Options{})
	if cn == nil {
		return code
	}
	defer cn.close()
	set, err := cn.s.Tools(ctx)
	if err != nil {
		if code, ok := c.interrupted(ctx, "tools", "listing the tools"); ok {
			return code
		}
		fmt.Fprintf(c.stderr, "mcpterm tools: %s\n", c.clean(cn.redactor, err.Error()))
		return exitFor(err)
	}
	for _, w := range cn.s.ToolWarnings() {
		fmt.Fprintf(c.stderr, "mcpterm tools: warning: %s\n", c.clean(cn.redactor, w))
	}
	names := toolNames(set)
	c.warnLookalikes("tools", cn.redactor, "tools", names, safe.Lookalikes(names))
	out, err := render(set)
	if err != nil {
		fmt.Fprintf(c.stderr, "mcpterm tools: %s\n", c.clean(cn.redactor, err.Error()))
		return exitUsage
	}
	if o.format == "json" {
		c.emitJSON(cn.redactor, o.maxOutput, out)
	} else {
		c.emit(cn.redactor, o.maxOutput, out)
	}
	return exitOK
}

// toolsRenderer picks the rendering for --format; the list is fitted to
// width columns on a terminal, and whole otherwise.
func toolsRenderer(format string, width int, terminal bool) (func(*toolset.Set) (string, error), error) {
	switch format {
	case "list":
		return func(s *toolset.Set) (string, error) { return toolList(s, width, terminal), nil }, nil
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
// hint and its description. The hint is the policy's (policy.IsDestructive,
// with the tool's AQL category): "destruct" is what `mcpterm call` runs only
// with --yes. The name is spelt by safe.Name (file_read\u200b), and a name
// that looks like another's says so before the description. The
// description is its first line by any line break (safe.FirstLine: a CR
// never starts a row; --format json has all of it): on a terminal cut with
// "…" to fit width (100 columns when the width is unknown), and whole
// otherwise, so a pipe or a file gets every word.
func toolList(s *toolset.Set, width int, terminal bool) string {
	var b strings.Builder
	alike := safe.Lookalikes(toolNames(s))
	nameWidth := 4
	for _, t := range s.Tools {
		nameWidth = max(nameWidth, min(ansi.StringWidth(safe.Name(t.Name)), 40))
	}
	room := 100
	if width > 0 {
		room = max(20, width-nameWidth-12) // the name, the hint and their gaps
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
		desc := alikeNote(alike[t.Name]) + safe.Line(safe.FirstLine(t.Description))
		if terminal {
			desc = shorten(desc, room)
		}
		name := safe.Name(t.Name)
		fmt.Fprintf(&b, "%s%s  %s  %s\n", name, strings.Repeat(" ", max(nameWidth-ansi.StringWidth(name), 0)), hint, desc)
	}
	fmt.Fprintf(&b, "(%d tools", len(s.Tools))
	if s.Server != "" {
		fmt.Fprintf(&b, " from %s", safe.Name(s.Server))
		if s.Version != "" {
			fmt.Fprintf(&b, " %s", safe.Line(s.Version))
		}
	}
	b.WriteString(")\n")
	return b.String()
}

// toolNames are a list's tool names, in order.
func toolNames(s *toolset.Set) []string {
	names := make([]string, len(s.Tools))
	for i, t := range s.Tools {
		names[i] = t.Name
	}
	return names
}

// shorten cuts s to at most n runes, marking the cut with "…".
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
