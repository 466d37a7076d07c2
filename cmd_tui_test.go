package main

import (
	"bytes"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/session"
)

// The workbench's options come from its flags, and its connections name
// and version the client as the command line's do.
func TestWorkbenchOptions(t *testing.T) {
	state := t.TempDir()
	var errOut bytes.Buffer
	c := &cli{stdout: &bytes.Buffer{}, stderr: &errOut, getenv: func(k string) string {
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	}, buildInfo: func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{Main: debug.Module{Path: "github.com/mcpterm/mcpterm", Version: "v1.2.3"}}, true
	}}
	fs, sf, o := c.tuiFlags()
	if _, code, ok := c.parseSelection(fs, sf, []string{"--theme", "light", "--encoding", "cl100k_base", "--no-mouse"}); !ok {
		t.Fatalf("parse: %d %s", code, errOut.String())
	}
	opts, target, code := c.workbench(sf, o)
	if target == nil {
		t.Fatalf("workbench: %d %s", code, errOut.String())
	}
	defer target.Close()
	if target.Options.ClientName != "mcpterm" || target.Options.ClientVersion != "v1.2.3" {
		t.Errorf("the client is %q %q, want mcpterm v1.2.3", target.Options.ClientName, target.Options.ClientVersion)
	}
	if opts.Encoding != "cl100k_base" || !opts.DisableMouse || opts.History == nil || opts.Drafts == nil || opts.Connect == nil {
		t.Errorf("options: %+v", opts)
	}
	// The workbench asks the person (its AskBridge is the session's Asker)
	// and shows the session's own roots (the current directory by default).
	if opts.Ask == nil || target.Options.Asker != session.Asker(opts.Ask) {
		t.Errorf("the session's Asker %T is not the workbench's bridge", target.Options.Asker)
	}
	if opts.Roots == nil || opts.Roots != target.Options.Roots || len(opts.Roots.List()) != 1 {
		t.Errorf("roots: workbench %v, session %v", opts.Roots, target.Options.Roots)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--theme", "nope"}, `unknown theme "nope"`},
		{[]string{"--encoding", "p50k"}, `--encoding "p50k": want one of o200k_base, cl100k_base`},
	} {
		errOut.Reset()
		fs, sf, o := c.tuiFlags()
		if _, _, ok := c.parseSelection(fs, sf, tc.args); !ok {
			t.Fatalf("%v: not parsed", tc.args)
		}
		if _, target, code := c.workbench(sf, o); target != nil || code != exitUsage || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 saying %q", tc.args, code, errOut.String(), tc.want)
		}
	}
}

// A bad workbench flag is one line on stderr and a pointer to --help.
func TestWorkbenchBadFlag(t *testing.T) {
	code, out, errOut := testCLI(t, nil, "--bogus")
	if code != exitUsage || out != "" || errOut != "mcpterm: flag provided but not defined: --bogus\nmcpterm: run 'mcpterm --help' for its flags\n" {
		t.Errorf("--bogus: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
