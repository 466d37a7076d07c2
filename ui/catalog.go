package ui

import (
	"github.com/mcpterm/mcpterm/convert"
	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/policy"
)

// catalog is everything the workbench builds from one tool list: the
// renderer the side-by-side pane and the token report share, the codec the
// composer reads calls with, the runner that runs them, the completer, and
// each tool's CRUDE category and destructive flag (by the policy's rule, as
// every face decides it). It is built in the Cmd that fetched the list and
// replaced whole when the list changes; nothing in it is mutated after.
type catalog struct {
	gen      int    // tool-list generation (ticket.list)
	server   string // the server's name in history entries
	set      *toolset.Set
	renderer *convert.Renderer
	codec    *calls.Codec
	runner   *session.Runner
	codes    map[string]string // tool name -> short code
	tools    map[string]toolFacts
	// alike holds the tools whose names a reader cannot tell apart
	// (safe.Lookalikes), each with the names it looks like.
	alike map[string][]string
}

// toolFacts are what the tool list shows about a tool besides its name.
type toolFacts struct {
	category    string // CRUDE category as policy spells it ("delete"), "" when AQL cannot classify
	destructive bool   // policy.IsDestructive with that category
}

// newCatalog builds the catalog of set, calling tools through s.
func newCatalog(gen int, s Session, set *toolset.Set, o Options) *catalog {
	c := &catalog{
		gen:      gen,
		set:      set,
		renderer: convert.NewRenderer(set, o.Overrides),
		codec:    calls.New(set, calls.Options{Overrides: o.Overrides}),
		codes:    make(map[string]string, len(set.Tools)),
		tools:    make(map[string]toolFacts, len(set.Tools)),
	}
	c.alike = safe.Lookalikes(toolNames(c))
	for _, t := range set.Tools {
		c.codes[t.Name] = c.codec.Code(t.Name)
		cat := c.codec.Category(t.Name)
		c.tools[t.Name] = toolFacts{
			category:    cat,
			destructive: policy.IsDestructive(policy.CallOf(t.Name, t, policy.Category(cat))),
		}
	}
	c.server = o.Server
	if c.server == "" && s != nil {
		c.server = s.Info().RecordName()
	}
	c.runner = session.NewRunner(s, c.codec, session.RunnerOptions{
		Policy:  o.Policy,
		History: o.History,
		Server:  c.server,
	})
	return c
}
