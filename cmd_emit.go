package main

import (
	"fmt"
	"strings"

	"github.com/mcpterm/mcpterm/convert/safe"
)

// emitJSON prints JSON output (--output json, --format json) as emit
// prints text — secrets masked, capped by --max-output — but made safe by
// safe.JSON instead of safe.Text: Text removes a CSI whole, so a string's
// U+009B and the characters after it vanished from the JSON; safe.JSON
// writes it as \u009b and keeps the rest, and the document reads back as
// the same JSON.
func (c *cli) emitJSON(r *safe.Redactor, maxOutput int, text string) (cut int) {
	return c.write(safe.JSON(r.Redact(text)), maxOutput)
}

// warnLookalikes says on stderr which names of a list look alike
// (safe.LookalikeNotes), so a tool that passes for another is not missed
// even when the table scrolls by.
func (c *cli) warnLookalikes(cmd string, r *safe.Redactor, what string, names []string, alike map[string][]string) {
	for _, note := range safe.LookalikeNotes(what, names, alike) {
		fmt.Fprintf(c.stderr, "mcpterm %s: warning: %s\n", cmd, c.clean(r, note))
	}
}

// alikeNote is the table's marker for a name that looks like others.
func alikeNote(others []string) string {
	if len(others) == 0 {
		return ""
	}
	q := make([]string, len(others))
	for i, o := range others {
		q[i] = safe.Name(o)
	}
	return "[looks like " + strings.Join(q, ", ") + "] "
}
