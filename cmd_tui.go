package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
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

// tuiOptions are the workbench's own flags.
type tuiOptions struct {
	theme, encoding, aqlMap string
	// servers and all open the workbench on config entries as one list
	// (a session/fleet), as serve's flags of the same names choose them.
	servers string
	all     bool
	noMouse bool
}

// tuiFlags builds the workbench's flag set: the server selection and the
// UI's own flags, with the usage mcpterm --help prints (and completion
// reads).
func (c *cli) tuiFlags() (*flag.FlagSet, *serverFlags, *tuiOptions) {
	fs := newFlagSet("mcpterm",
		"usage: mcpterm [--theme T] [--encoding E] [--no-mouse] [--aql-map FILE] [server selection]",
		"server selection: nothing (demo), -- CMD ARGS, --url URL [--sse] [--header 'K: V'],",
		"                  --server NAME [--config FILE], --tools FILE (offline),",
		"                  or many config entries as one list: --servers a,b,c | --all [--config FILE]")
	var sf serverFlags
	sf.register(fs)
	var o tuiOptions
	enum(fs, &o.theme, "theme", "auto", themes.Names(), "colour `THEME` (NO_COLOR wins)")
	enum(fs, &o.encoding, "encoding", tokens.DefaultEncoding, tokens.Encodings(), "tokenizer")
	fs.BoolVar(&o.noMouse, "no-mouse", false, "leave the mouse to the terminal (for its own text selection)")
	fs.StringVar(&o.aqlMap, "aql-map", "", "AQL category and operation-name overrides `FILE`")
	fs.StringVar(&o.servers, "servers", "", "open these config entries (`NAMES`, comma-separated) as one tool list, charted per server")
	fs.BoolVar(&o.all, "all", false, "open every entry of the config (not marked disabled) as one tool list")
	return fs, &sf, &o
}

// runTUI opens the workbench. The server is chosen as everywhere else
// (nothing = the in-process demo server); the other flags are the UI's own.
func (c *cli) runTUI(args []string) int {
	fs, sf, o := c.tuiFlags()
	pos, code, ok := c.parseSelection(fs, sf, args)
	if !ok {
		return code
	}
	if c.unexpectedArgs("mcpterm", pos) {
		return exitUsage
	}
	var opts ui.Options
	if o.servers != "" || o.all {
		var closeFn func()
		if opts, closeFn, code = c.workbenchFleet(sf, o); closeFn == nil {
			return code
		}
		defer closeFn()
	} else {
		var target *session.Target
		if opts, target, code = c.workbench(sf, o); target == nil {
			return code
		}
		defer target.Close()
	}
	c.workbenchGC()
	opts.Settled = debug.FreeOSMemory
	// The signals are the workbench's (cmd_signal.go), not Bubble Tea's,
	// whose SIGTERM ends the program without its quit: the first signal
	// quits as the user would (the calls cancelled, the draft written, the
	// session closed), a second kills the program, and either way the
	// draft is written again once it has stopped, in case the terminal
	// closing (SIGHUP) ended it before its quit could.
	prog := tea.NewProgram(ui.New(opts), tea.WithoutSignalHandler())
	ctx, stop := c.signalContext(func(os.Signal) { prog.Kill() })
	defer stop()
	go func() {
		<-ctx.Done()
		if _, ok := interruption(ctx); ok {
			prog.Send(ui.ShutdownMsg{})
		}
	}()
	final, err := prog.Run()
	if m, ok := final.(*ui.Model); ok {
		if ferr := m.FlushDraft(); ferr != nil {
			fmt.Fprintln(c.stderr, "mcpterm: the draft could not be written:", ferr)
		}
	}
	if sig, ok := interruption(ctx); ok {
		return signalExit(sig)
	}
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm:", err)
		return exitConnect
	}
	return exitOK
}

// workbenchGCPercent is the workbench's garbage-collector target, chosen
// by measurement (testdata/wbmem/measure.sh; figures in docs/tokens.md): a
// long-lived interactive process whose live heap is small (5 MB on the
// demo server, ~20 MB after a thousand calls) pays for Go's default of 100
// with as much again in resident memory, while collecting more often costs
// it little. 30 took the demo from 44.5 to 40.4 MB and a thousand calls
// from 61.5 to 51 MB; a soft memory limit (GOMEMLIMIT 16–40 MiB) on top
// saved under 1 MB and would make the collector run flat out while a
// large result is counted, so there is none.
const workbenchGCPercent = 30

// workbenchGC sets the workbench's GC target unless GOGC says otherwise.
func (c *cli) workbenchGC() {
	if c.getenv("GOGC") == "" {
		debug.SetGCPercent(workbenchGCPercent)
	}
}

// workbench makes the workbench's options from its flags: the theme,
// tokenizer and AQL map checked, the server resolved (the client named and
// versioned as on every connection the command line makes), the history
// and drafts opened. target is nil when the flags say no, with the exit
// code.
func (c *cli) workbench(sf *serverFlags, o *tuiOptions) (ui.Options, *session.Target, int) {
	var opts ui.Options
	wb, ok := c.workbenchCommon(o)
	if !ok {
		return opts, nil, exitUsage
	}
	choice, ov, env, ask, notice := wb.theme, wb.ov, wb.env, wb.ask, wb.notice
	resolve := func() (*session.Target, error) {
		return session.Resolve(sf.Selection, env, session.Options{ClientName: "mcpterm", ClientVersion: c.clientVersion(), Asker: ask, OAuthNotify: notice.Notify})
	}
	target, err := resolve()
	// An untrusted project config's server is asked about in the
	// workbench (cmd_tui_trust.go) rather than refused.
	trust, err := c.workbenchTrust(env, target, err, resolve)
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm:", safe.Text(err.Error()))
		return opts, nil, exitUsage
	}
	target = trust.target
	opts = ui.Options{
		Connect:      func(ctx context.Context) (ui.Session, error) { return session.Connect(ctx, target) },
		Target:       target.Redactor.Redact(target.Source.String()),
		Trust:        trust.prompt,
		Notices:      trust.notices,
		Overrides:    ov,
		DraftKey:     target.DraftKey(),
		Sanitize:     trust.sanitize,
		Theme:        choice,
		Encoding:     o.encoding,
		WorkingDir:   env.Cwd,
		DisableMouse: o.noMouse,
		Ask:          ask,
		Notice:       notice,
		Roots:        target.Options.Roots,
	}
	c.workbenchHistory(&opts, target.Redactor, env.Home)
	return opts, target, exitOK
}

// workbenchSetup is what every workbench needs from its flags before a
// server is chosen.
type workbenchSetup struct {
	theme  themes.Choice
	ov     aql.Overrides
	env    session.Env
	ask    *ui.AskBridge
	notice *ui.NoticeBridge
}

// workbenchCommon checks the theme, tokenizer and AQL map, reporting a
// mistake on stderr (ok false: exit 2).
func (c *cli) workbenchCommon(o *tuiOptions) (workbenchSetup, bool) {
	var wb workbenchSetup
	choice, err := themes.Parse(o.theme, c.getenv("NO_COLOR") != "")
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm:", err)
		return wb, false
	}
	if !validEncoding(o.encoding) {
		fmt.Fprintf(c.stderr, "mcpterm: --encoding %s: want one of %s\n", quoteArg(o.encoding), strings.Join(tokens.Encodings(), ", "))
		return wb, false
	}
	if o.aqlMap != "" {
		if wb.ov, err = loadAQLMap(o.aqlMap); err != nil {
			fmt.Fprintln(c.stderr, "mcpterm:", err)
			return wb, false
		}
	}
	wb.theme = choice
	wb.env = c.env()
	wb.env.Cwd, _ = os.Getwd()
	wb.env.Home, _ = os.UserHomeDir()
	wb.ask = ui.NewAskBridge()
	wb.notice = ui.NewNoticeBridge() // the OAuth flow's URL, while connecting
	return wb, true
}

// workbenchHistory opens the call history and drafts in the state
// directory, or says why they stay in memory.
func (c *cli) workbenchHistory(opts *ui.Options, r *safe.Redactor, home string) {
	if dir, err := history.StateDir(c.getenv, home); err != nil {
		fmt.Fprintln(c.stderr, "mcpterm: the draft and history are kept in memory only:", err)
	} else if log, err := history.Open(filepath.Join(dir, "history.jsonl"), history.Options{Redactor: r}); err != nil {
		fmt.Fprintln(c.stderr, "mcpterm: the draft and history are kept in memory only:", err)
	} else {
		opts.History = log
		opts.Drafts = history.NewDrafts(filepath.Join(dir, "drafts"))
	}
}

func validEncoding(enc string) bool {
	for _, e := range tokens.Encodings() {
		if e == enc {
			return true
		}
	}
	return false
}
