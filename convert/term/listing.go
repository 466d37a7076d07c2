package term

import (
	"strings"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

// Listing is the upfront text of lazy discovery (the gateway's term-lazy
// mode, the term_lazy form): one line per tool, its short code, its name
// and the first sentence of its description, grouped per server in a list
// that merges several ("# SERVER" before each group's lines). A model reads
// what each tool is for here and asks for the full declarations of only
// the tools it means to call, so a large list costs a line per tool until
// then. codes, when set, gives tools their codes (as Options.Codes); the
// names are written as declarations write them (bare when a plain symbol,
// else quoted), the code left out when it is the name itself, and hidden
// characters escaped as everywhere in MCP-Term.
func Listing(set *toolset.Set, codes map[string]string) string {
	names := make([]string, len(set.Tools))
	for i, t := range set.Tools {
		names[i] = t.Name
	}
	all := ShortCodes(names)
	for name, code := range codes {
		if _, ok := all[name]; ok {
			all[name] = code
		}
	}
	var b strings.Builder
	for _, g := range Groups(set) {
		if g.Server != "" {
			b.WriteString("# ")
			b.WriteString(nameNode(g.Server).String())
			b.WriteByte('\n')
		}
		for _, i := range g.Tools {
			b.WriteString(ListingLine(set.Tools[i], all[set.Tools[i].Name]))
			b.WriteByte('\n')
		}
	}
	return EscapeHidden(b.String())
}

// ListingLine is one tool's line of Listing, without its newline: "CODE
// NAME: first sentence", "NAME: ..." when the code is the name, and no
// colon when the tool has no description.
func ListingLine(t *toolset.Tool, code string) string {
	name := nameNode(t.Name).String()
	line := name
	if code != "" && code != t.Name {
		line = code + " " + name
	}
	if s := FirstSentence(t.Description); s != "" {
		line += ": " + s
	}
	return line
}
