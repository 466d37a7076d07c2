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
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/tokens"
)

// tokensMaxFile bounds a saved tool list read from disk.
const tokensMaxFile = 64 << 20

// toolSetSource yields the tool lists a report covers, one per server. The
// report only ever sees *toolset.Set values, so the live server selection
// (demo, -- CMD, --url, --server) plugs in by returning another source from
// tokensSource, without touching the counting or the formats.
type toolSetSource func() ([]*toolset.Set, error)

// tokensFileList is a repeatable string flag.
type tokensFileList []string

func (l *tokensFileList) String() string     { return strings.Join(*l, ",") }
func (l *tokensFileList) Set(v string) error { *l = append(*l, v); return nil }

func (c *cli) runTokens(args []string) int {
	fs := flag.NewFlagSet("mcpterm tokens", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	var files tokensFileList
	fs.Var(&files, "tools", "a saved tools/list result (repeatable: one section per server plus a grand total)")
	enc := fs.String("encoding", tokens.DefaultEncoding, "tokenizer: "+strings.Join(tokens.Encodings(), " or "))
	format := fs.String("format", "table", "output: "+strings.Join(tokens.Formats(), ", "))
	sortBy := fs.String("sort", "order", "tool order: order (as the server lists them), name, or a form name (largest first)")
	fs.Usage = func() {
		fmt.Fprintln(c.stderr, "usage: mcpterm tokens [--tools FILE ...] [--encoding E] [--format table|md|json|csv] [--sort FIELD]")
		fmt.Fprintln(c.stderr, "\nToken counts of every rendering (convert --to FORM) per tool and per server, with savings")
		fmt.Fprintln(c.stderr, "against the json baseline and the floor. See docs/tokens.md.")
		fmt.Fprintln(c.stderr)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(c.stderr, "mcpterm tokens: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if !slices.Contains(tokens.Formats(), *format) {
		fmt.Fprintf(c.stderr, "mcpterm tokens: unknown --format %q (want one of: %s)\n", *format, strings.Join(tokens.Formats(), ", "))
		return exitUsage
	}
	if fields := tokensSortFields(); !slices.Contains(fields, *sortBy) {
		fmt.Fprintf(c.stderr, "mcpterm tokens: unknown --sort %q (want one of: %s)\n", *sortBy, strings.Join(fields, ", "))
		return exitUsage
	}
	counter, err := tokens.NewCounter(*enc)
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm tokens: --encoding:", err)
		return exitUsage
	}
	counter.Load() // the ranks load while the tool lists are read
	src, err := c.tokensSource(files)
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm tokens:", err)
		return exitUsage
	}
	sets, err := src()
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm tokens:", err)
		return exitUsage
	}
	report, err := tokens.Build(counter, sets, nil)
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm tokens:", err)
		return exitUsage
	}
	if err := report.Sort(*sortBy); err != nil {
		fmt.Fprintln(c.stderr, "mcpterm tokens: --sort:", err)
		return exitUsage
	}
	if err := tokens.Write(c.stdout, report, *format); err != nil {
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

// tokensSource picks where the tool lists come from. Live servers (the
// shared server selection from the session package) will be chosen here.
func (c *cli) tokensSource(files []string) (toolSetSource, error) {
	if len(files) == 0 {
		return nil, errors.New("give one or more --tools FILE (a saved tools/list result); live servers are not wired into tokens yet")
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
