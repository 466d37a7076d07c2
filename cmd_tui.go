package main

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/mcpterm/mcpterm/convert/safe"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/history"
	"github.com/mcpterm/mcpterm/themes"
	"github.com/mcpterm/mcpterm/tokens"
	"github.com/mcpterm/mcpterm/ui"
	"github.com/mcpterm/mcpterm/ui/live"
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
	p, err := c.prepare(&sf, session.Options{ClientName: "mcpterm"})
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm:", err)
		return exitUsage
	}
	if p.trace != nil {
		defer p.trace.Close()
	}
	home, _ := os.UserHomeDir()
	store, err := live.NewStore(c.getenv, home, draftKey(p.sel.src), history.Options{Redactor: p.redactor})
	co := live.ConnectOptions{RetrySSE: p.sel.retrySSE}
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm: the draft and history are kept in memory only:", err)
	} else {
		co.History = store.Log()
	}
	wd, _ := os.Getwd()
	redactor := p.redactor
	opts := ui.Options{
		Connect:      live.Connect(p.sel.src, p.opts, co),
		Counter:      live.NewCounter(),
		Codec:        &live.Codec{Overrides: ov},
		Renderer:     &live.Renderer{Overrides: ov},
		Classifier:   &live.Classifier{Overrides: ov},
		Sanitize:     func(s string) string { return safe.Text(redactor.Redact(s)) },
		Theme:        choice,
		Encoding:     *enc,
		WorkingDir:   wd,
		DisableMouse: *noMouse,
		WriteFile:    func(path string, data []byte) error { return history.WriteFileAtomic(path, data, 0o644) },
	}
	if store != nil {
		opts.Store = store
	}
	prog := tea.NewProgram(ui.New(opts))
	if _, err := prog.Run(); err != nil {
		fmt.Fprintln(c.stderr, "mcpterm:", err)
		return exitConnect
	}
	return exitOK
}

// draftKey names the composer's draft after the server, so each server
// keeps its own (the source's description holds no secrets).
func draftKey(src session.Source) string {
	if src.Kind == session.InProcess {
		return "demo"
	}
	k := src.String()
	if len(k) > 80 { // a file name; long command lines are shortened by a hash
		k = fmt.Sprintf("%s-%x", k[:60], sha256.Sum256([]byte(k)))[:80]
	}
	return k
}

func validEncoding(enc string) bool {
	for _, e := range tokens.Encodings() {
		if e == enc {
			return true
		}
	}
	return false
}
