package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mcpterm/mcpterm/convert"
	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/term"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session"
)

// maxConvertInput bounds what convert reads: far above any real tool list,
// low enough that a runaway pipe cannot exhaust memory.
const maxConvertInput = 64 << 20

// convertOptions are convert's flags.
type convertOptions struct {
	to, aqlMap, aqlMode string
}

// convertForms are the --to values: every form, and the introspect
// answers.
func convertForms() []string { return append(formNames(), "aql-introspect") }

// convertFlags builds convert's flag set: its own flags and the server
// selection, for reading the tool list from a server instead of a file.
func (c *cli) convertFlags() (*flag.FlagSet, *serverFlags, *convertOptions) {
	fs := newFlagSet("convert",
		"usage: mcpterm convert [--to FORM] [FILE|-]",
		"       mcpterm convert [--to FORM] -- CMD ARGS | --url URL | --server NAME | --tools FILE",
		"",
		"  FILE is a tools/list result (a bare array, {\"tools\": [...]}, a JSON-RPC response)",
		"  or an MCP-Term document; without FILE, or with -, it is read from stdin. With a server",
		"  chosen, its tools/list is converted. Without FILE and without a server, convert reads",
		"  stdin: it does not fall back to the demo server (write -- mcpterm demo-server for that).")
	var sf serverFlags
	sf.register(fs)
	var o convertOptions
	enum(fs, &o.to, "to", "term", convertForms(), "output `FORM`")
	fs.StringVar(&o.aqlMap, "aql-map", "", "AQL overrides `FILE` (categories, operation names) for the aql forms")
	enum(fs, &o.aqlMode, "aql-mode", "single", []string{"single", "semantic"}, "endpoint `MODE` of aql-introspect")
	return fs, &sf, &o
}

// runConvert renders a saved tool list, an MCP-Term document or a server's
// tool list in another form. What a form leaves out or drops is said on
// stderr in one line, so stdout stays exactly the document.
func (c *cli) runConvert(args []string) int {
	fs, sf, o := c.convertFlags()
	to, aqlMap, aqlMode := &o.to, &o.aqlMap, &o.aqlMode
	pos, code, ok := c.parseSelection(fs, sf, args)
	if !ok {
		return code
	}
	if len(pos) > 1 {
		fmt.Fprintf(c.stderr, "mcpterm convert: one input at a time, got %d (%s)\n", len(pos), safe.Line(strings.Join(pos, " ")))
		return exitUsage
	}
	live := len(sf.Command) > 0 || sf.URL != "" || sf.Server != ""
	switch {
	case (live || sf.ToolsFile != "") && len(pos) > 0:
		fmt.Fprintf(c.stderr, "mcpterm convert: give a FILE or choose a server, not both (%s)\n", quoteArg(pos[0]))
		return exitUsage
	case sf.ToolsFile != "" && !live:
		pos = []string{sf.ToolsFile}
		sf.ToolsFile = ""
	}
	if !live {
		// Flags that only make sense with a server: let the selection's own
		// check say what they need (--sse needs --url, ...).
		sel := sf.Selection
		sel.Trace = ""
		if sel.SSE || len(sel.Headers) > 0 || sel.BearerTokenEnv != "" || len(sel.Configs) > 0 {
			if _, err := session.Resolve(sel, c.env(), session.Options{}); err != nil {
				fmt.Fprintf(c.stderr, "mcpterm convert: %s\n", safe.Line(err.Error()))
				return exitUsage
			}
		}
	}
	mode, err := parseAQLMode(*aqlMode)
	if err != nil {
		fmt.Fprintf(c.stderr, "mcpterm convert: %s\n", safe.Line(err.Error()))
		return exitUsage
	}
	introspect := *to == "aql-introspect" || *to == "aql_introspect"
	form, known := convert.FormByName(*to)
	if _, isAQL := convert.AQLMode(form.Name); *aqlMap != "" && !introspect && !(known && isAQL) {
		fmt.Fprintf(c.stderr, "mcpterm convert: --aql-map applies to the aql forms only, not --to %s\n", safe.Line(*to))
		return exitUsage
	}
	var ov aql.Overrides
	if *aqlMap != "" {
		if ov, err = loadAQLMap(*aqlMap); err != nil {
			fmt.Fprintf(c.stderr, "mcpterm convert: %s\n", safe.Line(err.Error()))
			return exitUsage
		}
	}
	if !known && !introspect {
		fmt.Fprintf(c.stderr, "mcpterm convert: unknown form %q; choose one of %s\n", safe.Line(*to), strings.Join(formNames(), ", "))
		return exitUsage
	}
	name, set, code := c.convertInput(sf, live, pos)
	if set == nil {
		return code
	}
	var out, note string
	opts, isTerm := convert.TermOptions(form.Name)
	switch {
	case introspect:
		// Not a form of the registry: the introspect answers a model
		// fetches later, in either endpoint mode.
		out, err = aql.RenderIntrospectSet(set, ov, mode)
	case isTerm:
		// The whole document, for its summary of what was left out.
		var doc *term.Document
		if doc, err = term.Render(set, opts); err == nil {
			out, note = doc.Text, doc.Summary()
		}
	default:
		out, err = convert.NewRenderer(set, ov).Document(form.Name)
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "mcpterm convert: %s: %s\n", safe.Line(name), safe.Line(err.Error()))
		return exitUsage
	}
	// The document goes out unchanged except that control and invisible
	// characters from the server are written as \u escapes, which read back
	// as the same characters in every form that quotes them.
	out = term.EscapeHidden(out)
	if !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	if _, err := io.WriteString(c.stdout, out); err != nil {
		fmt.Fprintf(c.stderr, "mcpterm convert: writing output: %v\n", err)
		return exitUsage
	}
	if note != "" {
		fmt.Fprintf(c.stderr, "mcpterm convert: %s\n", safe.Line(note))
	}
	return exitOK
}

// convertInput reads the tool list: from the chosen server, or from FILE
// or stdin. It returns the exit code to end with when the set is nil.
func (c *cli) convertInput(sf *serverFlags, live bool, pos []string) (string, *toolset.Set, int) {
	if live {
		ctx, stop := c.runContext()
		defer stop()
		cn, code := c.connect(ctx, "convert", sf, session.Options{})
		if cn == nil {
			return "", nil, code
		}
		defer cn.close()
		set, err := cn.s.Tools(ctx)
		if err != nil {
			if code, ok := c.interrupted(ctx, "convert", "listing the tools"); ok {
				return "", nil, code
			}
			fmt.Fprintf(c.stderr, "mcpterm convert: listing tools: %s\n", c.clean(cn.redactor, err.Error()))
			return "", nil, exitFor(err)
		}
		for _, w := range cn.s.ToolWarnings() {
			fmt.Fprintf(c.stderr, "mcpterm convert: warning: %s\n", c.clean(cn.redactor, w))
		}
		return c.clean(cn.redactor, cn.t.Source.String()), set, exitOK
	}
	name, data, err := c.readConvertInput(pos)
	if err != nil {
		fmt.Fprintf(c.stderr, "mcpterm convert: %s\n", safe.Line(err.Error()))
		return "", nil, exitUsage
	}
	set, err := loadConvertInput(data)
	if err != nil {
		fmt.Fprintf(c.stderr, "mcpterm convert: %s: %s\n", safe.Line(name), safe.Line(positioned(err)))
		return "", nil, exitUsage
	}
	return name, set, exitOK
}

func formNames() []string {
	var out []string
	for _, f := range convert.Forms() {
		out = append(out, f.CLIName)
	}
	return out
}

func (c *cli) readConvertInput(pos []string) (string, []byte, error) {
	name, r := "<stdin>", c.stdin
	if len(pos) == 1 && pos[0] != "-" {
		f, err := os.Open(pos[0])
		if err != nil {
			return "", nil, err
		}
		defer f.Close()
		name, r = pos[0], f
	}
	if r == nil {
		return "", nil, fmt.Errorf("no input: give a FILE or pipe a tool list to stdin")
	}
	data, err := io.ReadAll(io.LimitReader(r, maxConvertInput+1))
	if err != nil {
		return "", nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(data) > maxConvertInput {
		return "", nil, fmt.Errorf("%s: larger than %d MiB", name, maxConvertInput>>20)
	}
	return name, data, nil
}

// loadConvertInput reads an MCP-Term document when the first character
// that is not space or part of a ; comment is '(', and a JSON tool list
// otherwise.
func loadConvertInput(data []byte) (*toolset.Set, error) {
	if isTermDocument(data) {
		return term.Parse(string(data))
	}
	return toolset.Parse(data)
}

func isTermDocument(data []byte) bool {
	s := string(data)
	for {
		s = strings.TrimLeft(s, " \t\r\n\f\v\ufeff")
		if !strings.HasPrefix(s, ";") {
			break
		}
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		} else {
			s = ""
		}
	}
	return strings.HasPrefix(s, "(")
}

// positioned formats reader errors as LINE:COL: message.
func positioned(err error) string {
	var se *sexpr.Error
	if errors.As(err, &se) {
		return se.Error()
	}
	return err.Error()
}
