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
)

// maxConvertInput bounds what convert reads: far above any real tool list,
// low enough that a runaway pipe cannot exhaust memory.
const maxConvertInput = 64 << 20

// runConvert renders a saved tool list (or an MCP-Term document) in another
// form. What a form leaves out or drops is said on stderr in one line, so
// stdout stays exactly the document.
func (c *cli) runConvert(args []string) int {
	fs := flag.NewFlagSet("convert", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	to := fs.String("to", "term", "output `FORM`: "+strings.Join(formNames(), ", ")+", aql-introspect")
	aqlMap := fs.String("aql-map", "", "AQL overrides `FILE` (categories, operation names) for the aql forms")
	aqlMode := fs.String("aql-mode", "single", "endpoint `MODE` of aql-introspect: single or semantic")
	fs.Usage = func() {
		fmt.Fprintln(c.stderr, "usage: mcpterm convert [--to FORM] [FILE|-]")
		fmt.Fprintln(c.stderr, "  FILE is a tools/list result (a bare array, {\"tools\": [...]}, a JSON-RPC response)")
		fmt.Fprintln(c.stderr, "  or an MCP-Term document; without FILE, or with -, it is read from stdin.")
		fs.PrintDefaults()
	}
	var pos []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return exitOK
			}
			return exitUsage
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(pos) > 1 {
		fmt.Fprintf(c.stderr, "mcpterm convert: one input at a time, got %d (%s)\n", len(pos), safe.Line(strings.Join(pos, " ")))
		return exitUsage
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
	name, data, err := c.readConvertInput(pos)
	if err != nil {
		fmt.Fprintf(c.stderr, "mcpterm convert: %s\n", safe.Line(err.Error()))
		return exitUsage
	}
	set, err := loadConvertInput(data)
	if err != nil {
		fmt.Fprintf(c.stderr, "mcpterm convert: %s: %s\n", safe.Line(name), safe.Line(positioned(err)))
		return exitUsage
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
