package term

import "github.com/mcpterm/mcpterm/convert/toolset"

// Group is the tools of one upstream server in a list that merges several
// (toolset.Tool.Server), as indexes into the set's Tools in list order.
type Group struct {
	Server string // "" when the list is one server's
	Tools  []int
}

// Groups splits a list by server: one group per distinct Tool.Server, in
// order of first appearance, when the tools name at least two; otherwise
// one unnamed group holding every tool, so a single server's document is
// written as it always was. Grouping is what makes a merged list readable
// (a model sees which server a tool belongs to) at the price of one header
// per server; short codes stay unique across the whole list, since a call
// names a tool by its code alone.
func Groups(set *toolset.Set) []Group {
	idx := map[string]int{}
	var out []Group
	for i, t := range set.Tools {
		g, ok := idx[t.Server]
		if !ok {
			g = len(out)
			idx[t.Server] = g
			out = append(out, Group{Server: t.Server})
		}
		out[g].Tools = append(out[g].Tools, i)
	}
	if len(out) < 2 {
		all := Group{Tools: make([]int, len(set.Tools))}
		for i := range set.Tools {
			all.Tools[i] = i
		}
		return []Group{all}
	}
	return out
}
