package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/history"
	"github.com/mcpterm/mcpterm/themes"
	"github.com/mcpterm/mcpterm/tokens"
	"github.com/mcpterm/mcpterm/ui"
)

// runTUI opens the workbench. The server is chosen as everywhere else
// (nothing = the in-process demo server); the other flags are the UI's own.
func (c *cli) runTUI(args []string) int {
	fs := flag.NewFlagSet("mcpterm", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	var sf serverFlags
	sf.register(fs)
	theme := fs.String("theme", "auto", "colour `THEME`: "+strings.Join(themes.Names(), ", ")+" (NO_COLOR wins)")
	enc := fs.String("encoding", tokens.DefaultEncoding, "tokenizer: "+strings.Join(tokens.Encodings(), ", "))
	noMouse := fs.Bool("no-mouse", false, "leave the mouse to the terminal (for its own text selection)")
	aqlMap := fs.String("aql-map", "", "AQL category and operation-name overrides `FILE`")
	fs.Usage = func() {
		fmt.Fprintln(c.stderr, "usage: mcpterm [--theme T] [--encoding E] [--no-mouse] [--aql-map FILE] [server selection]")
		fmt.Fprintln(c.stderr, "server selection: nothing (demo), -- CMD ARGS, --url URL [--sse] [--header 'K: V'],")
		fmt.Fprintln(c.stderr, "                  --server NAME [--config FILE], --tools FILE (offline)")
		fs.PrintDefaults()
	}
	pos, code, ok := sf.parse(fs, args)
	if !ok {
		return code
	}
	if c.unexpectedArgs("mcpterm", pos) {
		return exitUsage
	}
	choice, err := themes.Parse(*theme, c.getenv("NO_COLOR") != "")
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm:", err)
		return exitUsage
	}
	if !validEncoding(*enc) {
		fmt.Fprintf(c.stderr, "mcpterm: --encoding %s: want one of %s\n", quoteArg(*enc), strings.Join(tokens.Encodings(), ", "))
		return exitUsage
	}
	var ov aql.Overrides
	if *aqlMap != "" {
		if ov, err = loadAQLMap(*aqlMap); err != nil {
			fmt.Fprintln(c.stderr, "mcpterm:", err)
			return exitUsage
		}
	}
	env := c.env()
	env.Cwd, _ = os.Getwd()
	env.Home, _ = os.UserHomeDir()
	target, err := session.Resolve(sf.Selection, env, session.Options{ClientName: "mcpterm"})
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm:", err)
		return exitUsage
	}
	defer target.Close()
	opts := ui.Options{
		Connect:      func(ctx context.Context) (ui.Session, error) { return session.Connect(ctx, target) },
		Target:       target.Redactor.Redact(target.Source.String()),
		Overrides:    ov,
		DraftKey:     target.DraftKey(),
		Sanitize:     func(s string) string { return safe.Text(target.Redactor.Redact(s)) },
		Theme:        choice,
		Encoding:     *enc,
		WorkingDir:   env.Cwd,
		DisableMouse: *noMouse,
	}
	if dir, err := history.StateDir(c.getenv, env.Home); err != nil {
		fmt.Fprintln(c.stderr, "mcpterm: the draft and history are kept in memory only:", err)
	} else if log, err := history.Open(filepath.Join(dir, "history.jsonl"), history.Options{Redactor: target.Redactor}); err != nil {
		fmt.Fprintln(c.stderr, "mcpterm: the draft and history are kept in memory only:", err)
	} else {
		opts.History = log
		opts.Drafts = history.NewDrafts(filepath.Join(dir, "drafts"))
	}
	prog := tea.NewProgram(ui.New(opts))
	if _, err := prog.Run(); err != nil {
		fmt.Fprintln(c.stderr, "mcpterm:", err)
		return exitConnect
	}
	return exitOK
}

func validEncoding(enc string) bool {
	for _, e := range tokens.Encodings() {
		if e == enc {
			return true
		}
	}
	return false
}
