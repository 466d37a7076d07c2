package convert

import (
	"github.com/mcpterm/mcpterm/convert/term"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// PerServer splits a list that merges several servers' tools
// (toolset.Tool.Server, as the fleet sets it) into one Renderer per server,
// in order of first appearance, over the same forms and AQL overrides. A
// view that shows a merged list per server counts each part with
// tokens.BuildFrom over these, so a server's figures are those of its own
// list alone (the merged document adds one header per server and shares
// short codes across the list; a part does neither). It returns nil for a
// single server's list. Tools keep the names the merged list gives them
// (prefixed with the server only where two servers clash).
func (r *Renderer) PerServer() []*Renderer {
	groups := term.Groups(r.set)
	if len(groups) < 2 {
		return nil
	}
	out := make([]*Renderer, len(groups))
	for i, g := range groups {
		sub := &toolset.Set{Server: g.Server, Source: r.set.Source, Tools: make([]*toolset.Tool, len(g.Tools))}
		for j, ti := range g.Tools {
			sub.Tools[j] = r.set.Tools[ti]
		}
		out[i] = NewRendererWith(sub, r.ov, r.forms)
	}
	return out
}
