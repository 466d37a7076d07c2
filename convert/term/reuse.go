package term

import (
	"sort"
	"strings"

	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// minReuseBytes is the smallest record worth naming: below it a deftype
// costs more than the repetition it saves.
const minReuseBytes = 40

type recSite struct {
	parent *sexpr.Node
	idx    int
	hint   string
	body   string // name of the deftype whose whole body this is, or ""
	node   *sexpr.Node
}

// extractReused names records that occur more than once (the same entity
// object in several tools' inputs and outputs): each becomes a deftype and
// every occurrence refers to it. A record equal to an existing deftype's
// body refers to that deftype. Largest records go first, so a nested record
// is only named if it still repeats outside the ones already named.
func (r *renderer) extractReused(tools, deftypes []*sexpr.Node) []*sexpr.Node {
	used := map[string]bool{}
	for _, d := range deftypes {
		used[d.Items[1].Text] = true
	}
	var sites []recSite
	var walk func(parent *sexpr.Node, hint string, depth int)
	walk = func(parent *sexpr.Node, hint string, depth int) {
		if depth > 400 {
			return
		}
		if len(parent.Items) > 0 {
			if h := parent.Items[0]; (h.Kind == sexpr.Symbol || h.Kind == sexpr.String) && !typeHeads[h.Text] && h.Text != "" {
				hint = h.Text
			}
			if parent.Head() == "list" || parent.Head() == "map" {
				hint = singular(hint)
			}
		}
		for i, it := range parent.Items {
			if it.Kind != sexpr.List {
				continue
			}
			if it.Head() == "rec" {
				sites = append(sites, recSite{parent: parent, idx: i, hint: hint, node: it})
			}
			walk(it, hint, depth+1)
		}
	}
	for _, t := range tools {
		// A tool's parameters are named by the walk; its result type is
		// named after the tool.
		name := t.Items[1].Text
		for i := 2; i < len(t.Items); i++ {
			it := t.Items[i]
			if it.IsSym("->") && i+1 < len(t.Items) {
				out := t.Items[i+1]
				if out.Head() == "rec" {
					sites = append(sites, recSite{parent: t, idx: i + 1, hint: name + "_result", node: out})
				}
				if out.Kind == sexpr.List {
					walk(out, name+"_result", 0)
				}
				i++
				continue
			}
			if it.Kind == sexpr.List {
				walk(it, name, 0)
			}
		}
	}
	for _, d := range deftypes {
		body := d.Items[2]
		if body.Head() == "rec" {
			sites = append(sites, recSite{parent: d, idx: 2, hint: d.Items[1].Text, body: d.Items[1].Text, node: body})
		}
		walk(body, d.Items[1].Text, 0)
	}
	groups := map[string][]int{}
	var order []string
	for i := range sites {
		text := sites[i].node.String()
		if _, ok := groups[text]; !ok {
			order = append(order, text)
		}
		groups[text] = append(groups[text], i)
	}
	sort.SliceStable(order, func(i, j int) bool { return len(order[i]) > len(order[j]) })
	dead := map[*sexpr.Node]bool{}
	var kill func(n *sexpr.Node, depth int)
	kill = func(n *sexpr.Node, depth int) {
		if n.Kind != sexpr.List || depth > 400 {
			return
		}
		dead[n] = true
		for _, it := range n.Items {
			kill(it, depth+1)
		}
	}
	for _, text := range order {
		var live []int
		bodies, others := 0, 0
		name := ""
		for _, i := range groups[text] {
			if dead[sites[i].node] {
				continue
			}
			live = append(live, i)
			if sites[i].body != "" {
				bodies++
				if name == "" {
					name = sites[i].body
				}
			} else {
				others++
			}
		}
		if !((bodies > 0 && others > 0) || (others > 1 && len(text) >= minReuseBytes)) {
			continue
		}
		first := true
		if name == "" {
			s := sites[live[0]]
			hint := s.hint
			if hint == "" {
				hint = "Record"
			}
			name = uniqueName(typeName(hint, false), used)
			deftypes = append(deftypes, sexpr.L(sexpr.Sym("deftype"), sexpr.Sym(name), s.node))
		} else {
			first = false
		}
		for _, i := range live {
			s := sites[i]
			if s.body != "" {
				continue
			}
			s.parent.Items[s.idx] = sexpr.Sym(name)
			if first {
				first = false // moved into the new deftype, still alive there
				continue
			}
			kill(s.node, 0)
		}
	}
	return deftypes
}

// orderByUse sorts deftypes by first use: those the tools name, in tool
// order, then the ones those name, and so on. The order then depends only
// on the final text, not on how each type was found, which keeps
// render -> parse -> render a fixed point.
func orderByUse(tools, deftypes []*sexpr.Node) []*sexpr.Node {
	byName := make(map[string]*sexpr.Node, len(deftypes))
	for _, d := range deftypes {
		byName[d.Items[1].Text] = d
	}
	seen := map[string]bool{}
	var out []*sexpr.Node
	var walk func(n *sexpr.Node, depth int)
	note := func(name string) {
		if d, ok := byName[name]; ok && !seen[name] {
			seen[name] = true
			out = append(out, d)
		}
	}
	walk = func(n *sexpr.Node, depth int) {
		if depth > 400 {
			return
		}
		switch n.Kind {
		case sexpr.Symbol:
			note(n.Text)
		case sexpr.List:
			if n.Head() == "json" && len(n.Items) == 2 && n.Items[1].Kind == sexpr.String {
				for _, name := range escapeRefs(n.Items[1].Text) {
					note(name)
				}
				return
			}
			for _, it := range n.Items {
				walk(it, depth+1)
			}
		}
	}
	for _, t := range tools {
		walk(t, 0)
	}
	for i := 0; i < len(out); i++ {
		for _, it := range out[i].Items[2:] {
			walk(it, 0)
		}
	}
	for _, d := range deftypes {
		if !seen[d.Items[1].Text] {
			out = append(out, d)
		}
	}
	return out
}

// escapeRefs finds the deftype names a raw JSON escape refers to.
func escapeRefs(s string) []string {
	const p = `"#/$defs/`
	var out []string
	for {
		i := strings.Index(s, p)
		if i < 0 {
			return out
		}
		s = s[i+len(p):]
		j := strings.IndexByte(s, '"')
		if j < 0 {
			return out
		}
		out = append(out, unescapePointer(s[:j]))
		s = s[j:]
	}
}
