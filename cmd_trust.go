package main

import (
	"fmt"

	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session"
)

// trustNotices prints what the config lookup said about project configs
// (a project entry set aside for the user's own, a file newly trusted with
// --trust-project, a trust store that cannot be used) on stderr, one line
// each, before the command connects: the rule is session/config's, the
// command line only says it.
func (c *cli) trustNotices(cmd string, t *session.Target) {
	if t.Trust == nil {
		return
	}
	for _, n := range t.Trust.Notices {
		fmt.Fprintf(c.stderr, "mcpterm %s: %s\n", cmd, safe.Line(t.Redactor.Redact(n)))
	}
}
