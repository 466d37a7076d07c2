package main

import (
	"io"

	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session"
)

// What cmd_tui.go (the workbench's owner's file) still reads from the old
// selection code. Every value comes from session.Resolve; this file goes
// when cmd_tui.go takes a *session.Target itself.

// prepared is a resolved selection as cmd_tui.go reads it.
type prepared struct {
	sel      selection
	opts     session.Options
	redactor *safe.Redactor
	trace    io.Closer // the --trace file, if any; close it when done
}

// selection is the source and whether Connect may fall back to SSE.
type selection struct {
	src      session.Source
	retrySSE bool
}

// prepare is session.Resolve over the selection flags.
func (c *cli) prepare(sf *serverFlags, base session.Options) (*prepared, error) {
	t, err := session.Resolve(sf.Selection, c.env(), base)
	if err != nil {
		return nil, err
	}
	return &prepared{sel: selection{src: t.Source, retrySSE: t.RetrySSE}, opts: t.Options, redactor: t.Redactor, trace: t.Trace}, nil
}
