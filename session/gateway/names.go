package gateway

import "github.com/mcpterm/mcpterm/convert/safe"

// maxLabel bounds an upstream's name where the gateway writes it into its
// own text (tool descriptions, its title, error messages).
const maxLabel = 200

// label is an upstream-chosen name as the gateway writes it into its own
// text: one line, no escapes or hidden characters (safe.Line), bounded. A
// server named "\x1b]8;;http://evil.example/\x1b\\…" must not put a
// hyperlink or a bidi override into what the gateway tells its clients,
// which show it to people.
func label(s string) string { return safe.Sanitize(s, safe.Options{SingleLine: true, Max: maxLabel}) }
