package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpterm/mcpterm/convert"
	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/tokens"
)

// tokensMaxFile bounds a saved tool list read from disk.
const tokensMaxFile = 64 << 20

// toolSetSource yields the tool lists a report covers, one per server. The
// report only ever sees *toolset.Set values, so saved lists (--tools, any
// number) and a live server (demo, -- CMD, --url, --server) differ only in
// the source tokensSource returns.
type toolSetSource func() ([]*toolset.Set, error)

// exitCodeError is a failure already reported on stderr, carrying the exit
// code to end with (3 for a server that cannot be reached, say).
type exitCodeError struct{ code int }

func (e *exitCodeError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// tokensFileList is a repeatable string flag.
type tokensFileList []string

func (l *tokensFileList) String() string     { return strings.Join(*l, ",") }
func (l *tokensFileList) Set(v string) error { *l = append(*l, v); return nil }

// tokensOptions are tokens' flags.
type tokensOptions struct {
	sf                        serverFlags
	files                     tokensFileList
	enc, format, aqlMap, sort string
	// servers and all count config entries, each on its own (a config's
	// whole bill), as serve's flags of the same names choose them.
	servers string
	all     bool
}

// tokensFlags builds tokens' flag set.
func (c *cli) tokensFlags() (*flag.FlagSet, *tokensOptions) {
	fs := newFlagSet("tokens",
		"usage: mcpterm tokens [--encoding E] [--format table|md|json|csv|svg|html] [--sort FIELD] [server selection | --tools FILE ... | [--config FILE] --servers a,b | --all]",
		"",
		"Token counts of every rendering (convert --to FORM) per tool and per server, with savings",
		"against the json baseline and the floor, and the AQL forms' true cost (upfront plus the",
		"introspect answers a model reads later). No selection: the built-in demo server. --all (or",
		"--servers) counts every server of your MCP clients' configs at once, each with its own timeout,",
		"and what they take together of a 200k context window. See docs/tokens.md.",
		"With --format json, errors are JSON objects on stderr.")
	var o tokensOptions
	o.sf.registerLive(fs)
	fs.Var(&o.files, "tools", "offline: a saved tools/list result `FILE` instead of a server (repeatable: one section per server plus a grand total)")
	fs.StringVar(&o.servers, "servers", "", "count these config entries (`NAMES`, comma-separated), each on its own, plus a grand total")
	fs.BoolVar(&o.all, "all", false, "count every server of the config (not marked disabled): the whole bill; one that fails is reported and skipped")
	enum(fs, &o.enc, "encoding", tokens.DefaultEncoding, tokens.Encodings(), "tokenizer")
	enum(fs, &o.format, "format", "table", tokensFormats(), "output")
	fs.StringVar(&o.aqlMap, "aql-map", "", "AQL overrides `FILE` (categories, operation names) for the aql columns")
	enum(fs, &o.sort, "sort", "order", tokensSortFields(), "tool order `FIELD`: order (as the server lists them), name, or a form name (largest first)")
	return fs, &o
}

func (c *cli) runTokens(args []string) int {
	fs, o := c.tokensFlags()
	sf, enc, format, aqlMap, sortBy := &o.sf, &o.enc, &o.format, &o.aqlMap, &o.sort
	pos, code, ok := c.parseSelection(fs, sf, args)
	if !ok {
		return code
	}
	files := o.files
	c.jsonErrors(*format == "json")
	if c.unexpectedArgs("mcpterm tokens", pos) {
		return exitUsage
	}
	if !slices.Contains(tokensFormats(), *format) {
		fmt.Fprintf(c.stderr, "mcpterm tokens: unknown --format %q (want one of: %s)\n", *format, strings.Join(tokensFormats(), ", "))
		return exitUsage
	}
	if fields := tokensSortFields(); !slices.Contains(fields, *sortBy) {
		fmt.Fprintf(c.stderr, "mcpterm tokens: unknown --sort %q (want one of: %s)\n", *sortBy, strings.Join(fields, ", "))
		return exitUsage
	}
	// One report, each text counted once: the segment cache would cut and
	// store every text for recounts that never come (tokens.WholeTexts).
	counter, err := tokens.NewCounter(*enc, tokens.WholeTexts())
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm tokens: --encoding:", err)
		return exitUsage
	}
	counter.Load() // the ranks load while the tool lists are read
	var skipped []tokens.Skipped
	var entries []string
	src, err := c.tokensSource(files, sf)
	if o.all || o.servers != "" {
		src, err = c.tokensConfig(o, &skipped, &entries)
	}
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm tokens:", err)
		return exitUsage
	}
	sets, err := src()
	if err != nil {
		var ec *exitCodeError
		if errors.As(err, &ec) {
			return ec.code
		}
		fmt.Fprintln(c.stderr, "mcpterm tokens:", err)
		return exitUsage
	}
	var ov aql.Overrides
	if *aqlMap != "" {
		if ov, err = loadAQLMap(*aqlMap); err != nil {
			fmt.Fprintf(c.stderr, "mcpterm tokens: %s\n", safe.Line(err.Error()))
			return exitUsage
		}
	}
	report, err := tokens.BuildWith(counter, sets, convert.FormsFor(ov), ov)
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm tokens:", err)
		return exitUsage
	}
	report.Skipped = skipped
	for i, e := range entries {
		report.Servers[i].Entry = e
	}
	if err := report.Sort(*sortBy); err != nil {
		fmt.Fprintln(c.stderr, "mcpterm tokens: --sort:", err)
		return exitUsage
	}
	wo := tokens.WriteOptions{} // names whole when piped
	if _, terminal := c.stdoutTerminal(); terminal {
		wo.MaxName = tokens.MaxNameCells
	}
	if err := c.writeTokensReport(c.stdout, report, *format, wo); err != nil {
		fmt.Fprintln(c.stderr, "mcpterm tokens:", err)
		return exitUsage
	}
	if *format != "table" && *format != "md" {
		// Machine formats carry errors in their own fields (json) or not at
		// all (csv); say so on stderr too.
		for _, s := range report.Servers {
			for _, f := range report.Forms {
				if msg, ok := s.Errors[f]; ok {
					fmt.Fprintf(c.stderr, "mcpterm tokens: %s: %s failed: %s\n", s.Server, f, tokensFirstLine(msg))
				}
			}
		}
	}
	return exitOK
}

// tokensSortFields are the --sort values: the report's own list for the
// registered forms, known before anything is loaded.
func tokensSortFields() []string {
	fields := []string{"order", "name"}
	for _, f := range convert.Forms() {
		fields = append(fields, f.Name)
	}
	return fields
}

// tokensSource picks where the tool lists come from: the --tools files, or
// the one server the selection flags name (the demo server when none).
func (c *cli) tokensSource(files []string, sf *serverFlags) (toolSetSource, error) {
	if len(files) == 0 {
		return func() ([]*toolset.Set, error) { return c.tokensLive(sf) }, nil
	}
	if len(sf.Command) > 0 || sf.URL != "" || sf.Server != "" {
		return nil, usagef("choose one server: -- CMD ARGS, --url, --server or --tools")
	}
	return func() ([]*toolset.Set, error) {
		var sets []*toolset.Set
		for _, f := range files {
			set, err := tokensReadFile(f)
			if err != nil {
				return nil, err
			}
			sets = append(sets, set)
		}
		return sets, nil
	}, nil
}

// tokensLive lists the selected server's tools. Failures are reported here,
// with the exit codes every subcommand uses.
func (c *cli) tokensLive(sf *serverFlags) ([]*toolset.Set, error) {
	ctx, stop := c.runContext()
	defer stop()
	cn, code := c.connect(ctx, "tokens", sf, session.Options{})
	if cn == nil {
		return nil, &exitCodeError{code}
	}
	defer cn.close()
	set, err := cn.s.Tools(ctx)
	if err != nil {
		if code, ok := c.interrupted(ctx, "tokens", "listing the tools"); ok {
			return nil, &exitCodeError{code}
		}
		fmt.Fprintf(c.stderr, "mcpterm tokens: listing tools: %s\n", c.clean(cn.redactor, err.Error()))
		return nil, &exitCodeError{exitFor(err)}
	}
	for _, w := range cn.s.ToolWarnings() {
		fmt.Fprintf(c.stderr, "mcpterm tokens: warning: %s\n", c.clean(cn.redactor, w))
	}
	// The session keeps the list it returned; the report gets a copy whose
	// source note cannot carry a secret from the command line.
	cp := *set
	cp.Source = c.clean(cn.redactor, set.Source)
	if cp.Server == "" {
		cp.Server = cp.Source
	}
	return []*toolset.Set{&cp}, nil
}

// tokensReadFile loads one saved tool list, naming the server after the file
// when the list does not say which server it came from.
func tokensReadFile(path string) (*toolset.Set, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, tokensMaxFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > tokensMaxFile {
		return nil, fmt.Errorf("%s: larger than %d MiB", path, tokensMaxFile>>20)
	}
	set, err := toolset.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if set.Server == "" {
		set.Server = strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".json"), ".tools")
	}
	if set.Source == "" {
		set.Source = path
	}
	return set, nil
}

func tokensFirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
