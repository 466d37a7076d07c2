package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session"
)

// promptsOptions are prompts' flags.
type promptsOptions struct {
	sf    serverFlags
	get   string
	pargs listFlag
	of    outputFlags
}

// promptsFlags builds prompts' flag set.
func (c *cli) promptsFlags() (*flag.FlagSet, *promptsOptions) {
	fs := newFlagSet("prompts",
		"usage: mcpterm prompts [--get NAME [--arg k=v]...] [--output text|json] [--max-output N] [server selection]",
		"",
		"Lists a server's prompts, or renders one with --get and its arguments.",
		"server selection: nothing (demo), -- CMD ARGS, --url URL, --server NAME (not --tools: a saved",
		"tool list has no prompts)")
	var o promptsOptions
	o.sf.register(fs)
	refusedOffline(fs, "it has no prompts")
	fs.StringVar(&o.get, "get", "", "render the prompt called `NAME`")
	fs.Var(&o.pargs, "arg", "with --get: a prompt argument `k=v` (repeatable)")
	o.of.register(fs, "text", "json")
	return fs, &o
}

// runPrompts lists a server's prompts, or renders one with --get NAME and
// --arg k=v.
func (c *cli) runPrompts(args []string) int {
	fs, o := c.promptsFlags()
	sf, get, of := &o.sf, &o.get, &o.of
	if code, ok := c.parseListCommand("prompts", fs, sf, of, args); !ok {
		return code
	}
	pargs := o.pargs
	values := map[string]string{}
	for _, a := range pargs {
		k, v, ok := strings.Cut(a, "=")
		if !ok || k == "" {
			fmt.Fprintf(c.stderr, "mcpterm prompts: --arg %s: want k=v\n", quoteArg(a))
			return exitUsage
		}
		values[k] = v
	}
	if len(values) > 0 && *get == "" {
		fmt.Fprintln(c.stderr, "mcpterm prompts: --arg needs --get NAME")
		return exitUsage
	}
	ctx, stop := c.runContext()
	defer stop()
	cn, code := c.connect(ctx, "prompts", sf, session.Options{})
	if cn == nil {
		return code
	}
	defer cn.close()
	fail := func(err error) int {
		if code, ok := c.interrupted(ctx, "prompts", "the request in flight"); ok {
			return code
		}
		fmt.Fprintf(c.stderr, "mcpterm prompts: %s\n", c.clean(cn.redactor, err.Error()))
		return exitFor(err)
	}

	if *get != "" {
		pm, err := cn.s.GetPrompt(ctx, *get, values)
		if err != nil {
			return fail(err)
		}
		if of.output == "json" {
			c.emitJSON(cn.redactor, of.maxOutput, rawOr(pm.Raw, pm.Result))
			return exitOK
		}
		var b strings.Builder
		if pm.Result.Description != "" {
			fmt.Fprintf(&b, "# %s\n\n", pm.Result.Description)
		}
		for i, m := range pm.Result.Messages {
			if i > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "%s: %s\n", m.Role, contentText(m.Content))
		}
		c.emit(cn.redactor, of.maxOutput, b.String())
		return exitOK
	}

	ps, err := cn.s.Prompts(ctx)
	if err != nil {
		return fail(err)
	}
	if of.output == "json" {
		v, _ := ojson.FromAny(orEmpty(ps))
		c.emitJSON(cn.redactor, of.maxOutput, ojson.NewObject().Set("prompts", v).Pretty())
		return exitOK
	}
	// One row per prompt, every cell on one line and every name spelt by
	// safe.Name, as in resources.
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name
	}
	alike := safe.Lookalikes(names)
	c.warnLookalikes("prompts", cn.redactor, "prompts", names, alike)
	var b strings.Builder
	for _, p := range ps {
		var as []string
		for _, a := range p.Arguments {
			if a.Required {
				as = append(as, safe.Name(a.Name))
			} else {
				as = append(as, "["+safe.Name(a.Name)+"]")
			}
		}
		fmt.Fprintf(&b, "%s(%s)", safe.Name(p.Name), strings.Join(as, ", "))
		if d := alikeNote(alike[p.Name]) + safe.Line(firstLine(p.Description)); d != "" {
			fmt.Fprintf(&b, " — %s", d)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "(%d prompts)", len(ps))
	c.emit(cn.redactor, of.maxOutput, b.String())
	return exitOK
}

// contentText shows one message content: text as is, other kinds by type.
func contentText(c mcp.Content) string {
	switch x := c.(type) {
	case mcp.TextContent:
		return x.Text
	case mcp.ImageContent:
		return fmt.Sprintf("[image %s, %d bytes]", x.MIMEType, len(x.Data)*3/4)
	case mcp.AudioContent:
		return fmt.Sprintf("[audio %s, %d bytes]", x.MIMEType, len(x.Data)*3/4)
	case mcp.EmbeddedResource:
		switch r := x.Resource.(type) {
		case mcp.TextResourceContents:
			return fmt.Sprintf("[resource %s]\n%s", r.URI, r.Text)
		case mcp.BlobResourceContents:
			return fmt.Sprintf("[resource %s, binary %s]", r.URI, orDash(r.MIMEType))
		}
	case mcp.ResourceLink:
		return fmt.Sprintf("[link %s]", x.URI)
	}
	return fmt.Sprintf("[%T]", c)
}
