package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/demo"
	"github.com/mcpterm/mcpterm/themes"
	"github.com/mcpterm/mcpterm/tokens"
	"github.com/mcpterm/mcpterm/ui"
	"github.com/mcpterm/mcpterm/ui/live"
)

// runTUI opens the workbench. The server is chosen as everywhere else
// (nothing = the in-process demo server); the flags here are the UI's own.
func (c *cli) runTUI(args []string) int {
	fs := flag.NewFlagSet("mcpterm", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	theme := fs.String("theme", "auto", "colour theme: "+strings.Join(themes.Names(), ", "))
	enc := fs.String("encoding", tokens.DefaultEncoding, "tokenizer: "+strings.Join(tokens.Encodings(), ", "))
	noMouse := fs.Bool("no-mouse", false, "leave the mouse to the terminal (its own text selection)")
	toolsFile := fs.String("tools", "", "offline: a saved tools/list result instead of a server")
	url := fs.String("url", "", "a streamable HTTP server")
	sse := fs.Bool("sse", false, "with --url: the legacy HTTP+SSE transport")
	fs.Usage = func() {
		fmt.Fprintln(c.stderr, "usage: mcpterm [--theme T] [--encoding E] [--no-mouse] [server selection]")
		fmt.Fprintln(c.stderr, "server selection: nothing (demo), -- CMD ARGS, --url URL [--sse], --tools FILE")
		fs.PrintDefaults()
	}
	var cmdline []string
	for i, a := range args {
		if a == "--" {
			cmdline = args[i+1:]
			args = args[:i]
			break
		}
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(c.stderr, "mcpterm: unexpected argument %q (a server command goes after --)\n", fs.Arg(0))
		return exitUsage
	}
	choice, err := themes.Parse(*theme, c.getenv("NO_COLOR") != "")
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm:", err)
		return exitUsage
	}
	src, err := tuiSource(cmdline, *url, *sse, *toolsFile)
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm:", err)
		return exitUsage
	}
	store, err := live.NewStore(c.getenv)
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm: history:", err)
	}
	wd, _ := os.Getwd()
	opts := ui.Options{
		Connect:      live.Connector(src, session.Options{ClientName: "mcpterm"}),
		Counter:      live.NewCounter(),
		Codec:        live.NewCodec(),
		Renderer:     &live.Renderer{},
		Classifier:   &live.Classifier{},
		Sanitize:     live.Sanitize,
		Theme:        choice,
		Encoding:     *enc,
		WorkingDir:   wd,
		DisableMouse: *noMouse,
	}
	if store != nil {
		opts.Store = store
	}
	p := tea.NewProgram(ui.New(opts))
	if _, err := p.Run(); err != nil {
		fmt.Fprintln(c.stderr, "mcpterm:", err)
		return exitConnect
	}
	return exitOK
}

// tuiSource builds the session source from the flags; the demo server is
// the default so a first run needs nothing.
func tuiSource(cmdline []string, url string, sse bool, toolsFile string) (session.Source, error) {
	n := 0
	for _, set := range []bool{len(cmdline) > 0, url != "", toolsFile != ""} {
		if set {
			n++
		}
	}
	if n > 1 {
		return session.Source{}, errors.New("choose one server: -- CMD, --url or --tools")
	}
	switch {
	case len(cmdline) > 0:
		return session.Source{Kind: session.Stdio, Name: cmdline[0], Command: cmdline[0], Args: cmdline[1:]}, nil
	case url != "":
		kind := session.HTTP
		if sse {
			kind = session.SSE
		}
		return session.Source{Kind: kind, URL: url}, nil
	case toolsFile != "":
		return session.Source{Kind: session.Offline, ToolsFile: toolsFile}, nil
	}
	return session.Source{Kind: session.InProcess, Name: "demo", Server: demo.New(demo.Options{})}, nil
}
