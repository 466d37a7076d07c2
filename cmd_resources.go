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

// resourcesOptions are resources' flags.
type resourcesOptions struct {
	sf   serverFlags
	read string
	of   outputFlags
}

// resourcesFlags builds resources' flag set.
func (c *cli) resourcesFlags() (*flag.FlagSet, *resourcesOptions) {
	fs := newFlagSet("resources",
		"usage: mcpterm resources [--read URI] [--output text|json] [--max-output N] [server selection]",
		"",
		"Lists a server's resources and resource templates, or reads one resource with --read.",
		"server selection: nothing (demo), -- CMD ARGS, --url URL, --server NAME (not --tools: a saved",
		"tool list has no resources)")
	var o resourcesOptions
	o.sf.register(fs)
	refusedOffline(fs, "it has no resources")
	fs.StringVar(&o.read, "read", "", "read the resource at `URI` (a listed URI or one made from a template)")
	o.of.register(fs, "text", "json")
	return fs, &o
}

// refusedOffline rewrites --tools' help for a command that needs a live
// server: the flag is kept, so using it gets a plain refusal rather than
// "flag provided but not defined".
func refusedOffline(fs *flag.FlagSet, why string) {
	fs.Lookup("tools").Usage = "refused here: `FILE` would be a saved tool list, and " + why
}

// runResources lists a server's resources and resource templates, or reads
// one resource with --read URI.
func (c *cli) runResources(args []string) int {
	fs, o := c.resourcesFlags()
	sf, read, of := &o.sf, &o.read, &o.of
	if code, ok := c.parseListCommand("resources", fs, sf, of, args); !ok {
		return code
	}
	ctx, stop := c.runContext()
	defer stop()
	cn, code := c.connect(ctx, "resources", sf, session.Options{})
	if cn == nil {
		return code
	}
	defer cn.close()
	fail := func(err error) int {
		if code, ok := c.interrupted(ctx, "resources", "the request in flight"); ok {
			return code
		}
		fmt.Fprintf(c.stderr, "mcpterm resources: %s\n", c.clean(cn.redactor, err.Error()))
		return exitFor(err)
	}

	if *read != "" {
		rc, err := cn.s.ReadResource(ctx, *read)
		if err != nil {
			return fail(err)
		}
		if of.output == "json" {
			c.emitJSON(cn.redactor, of.maxOutput, rawOr(rc.Raw, rc.Result))
			return exitOK
		}
		var b strings.Builder
		for i, content := range rc.Result.Contents {
			if i > 0 {
				b.WriteString("\n")
			}
			switch x := content.(type) {
			case mcp.TextResourceContents:
				if len(rc.Result.Contents) > 1 {
					fmt.Fprintf(&b, "--- %s (%s)\n", safe.Name(x.URI), safe.Line(orDash(x.MIMEType)))
				}
				b.WriteString(x.Text)
			case mcp.BlobResourceContents:
				fmt.Fprintf(&b, "%s: binary %s, %d bytes (use --output json for the base64)\n", safe.Name(x.URI), safe.Line(orDash(x.MIMEType)), len(x.Blob)*3/4)
			}
		}
		c.emit(cn.redactor, of.maxOutput, b.String())
		return exitOK
	}

	rs, err := cn.s.Resources(ctx)
	if err != nil {
		return fail(err)
	}
	ts, err := cn.s.ResourceTemplates(ctx)
	if err != nil {
		return fail(err)
	}
	if of.output == "json" {
		out := ojson.NewObject()
		rv, _ := ojson.FromAny(orEmpty(rs))
		tv, _ := ojson.FromAny(orEmpty(ts))
		out.Set("resources", rv).Set("resourceTemplates", tv)
		c.emitJSON(cn.redactor, of.maxOutput, out.Pretty())
		return exitOK
	}
	// One row per resource: every cell on one line (safe.Name for URIs and
	// names, the description's first line by any line break), so a CR in
	// a description cannot fake a row, and a name that looks like
	// another's says so.
	names := make([]string, len(rs))
	for i, r := range rs {
		names[i] = r.Name
	}
	alike := safe.Lookalikes(names)
	c.warnLookalikes("resources", cn.redactor, "resources", names, alike)
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "%s  %s  %s", safe.Name(r.URI), safe.Line(orDash(r.MIMEType)), safe.Name(r.Name))
		if d := alikeNote(alike[r.Name]) + safe.Line(safe.FirstLine(r.Description)); d != "" {
			fmt.Fprintf(&b, " — %s", d)
		}
		b.WriteString("\n")
	}
	for _, t := range ts {
		uri := ""
		if t.URITemplate != nil {
			uri = t.URITemplate.Raw()
		}
		fmt.Fprintf(&b, "%s  (template)  %s", safe.Name(uri), safe.Name(t.Name))
		if d := safe.Line(safe.FirstLine(t.Description)); d != "" {
			fmt.Fprintf(&b, " — %s", d)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "(%d resources, %d templates)", len(rs), len(ts))
	c.emit(cn.redactor, of.maxOutput, b.String())
	return exitOK
}

// rawOr prints the raw answer when there is one, else the typed one.
func rawOr(raw *ojson.Value, typed any) string {
	if raw != nil {
		return raw.Pretty()
	}
	v, err := ojson.FromAny(typed)
	if err != nil {
		return fmt.Sprint(typed)
	}
	return v.Pretty()
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// firstLine is a description's first line by any line break
// (safe.FirstLine).
func firstLine(s string) string { return safe.FirstLine(s) }
