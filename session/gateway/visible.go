package gateway

import (
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session/policy"
)

// maxHideRounds bounds how often buildVisible rebuilds the gateway's tools
// after leaving more out. One round is the rule: a second is needed only
// when a tool takes over a left-out tool's short code or operation name
// and a pattern names that too.
const maxHideRounds = 4

// buildVisible decides which upstream tools the gateway lists and builds
// its tools (st.visible, st.hidden, st.codec, st.tools) for the mode.
//
// A tool is left out when the policy refuses it outright by any of its
// names (policy.CallFor): as the full list names it (all), and as the
// gateway's own tools name it, since leaving a tool out can hand its
// short code or AQL operation name to another: with `--deny dt`, the tool
// that inherits "dt" is left out too, so no name a client sees reaches a
// tool the policy denies. The runner checks every call against the same
// names (session.Runner.Check), so a tool still reachable after the last
// round is refused, never run.
func (g *Gateway) buildVisible(st *state, all *calls.Codec, mode aql.Mode) error {
	set := st.set
	hidden := map[string]bool{}
	for _, t := range set.Tools {
		if g.refuses(all, t.Name) {
			hidden[t.Name] = true
		}
	}
	for round := 1; ; round++ {
		st.visible = &toolset.Set{Server: label(set.Server), Version: set.Version, Source: set.Source}
		st.hidden, st.tools, st.doc, st.describer = nil, nil, nil, nil
		for _, t := range set.Tools {
			if hidden[t.Name] {
				st.hidden = append(st.hidden, t.Name)
				continue
			}
			st.visible.Tools = append(st.visible.Tools, t)
		}
		var err error
		switch g.opts.Mode {
		case ModeTerm:
			err = g.buildTerm(st)
		case ModeTermLazy:
			err = g.buildLazy(st)
		case ModePass:
			err = g.buildPass(st)
		default:
			err = g.buildAQL(st, mode)
		}
		if err != nil || round == maxHideRounds {
			return err
		}
		more := false
		for _, t := range st.visible.Tools {
			if g.refuses(st.codec, t.Name) {
				hidden[t.Name] = true
				more = true
			}
		}
		if !more {
			return nil
		}
	}
}

// refuses reports whether the policy refuses tool outright (not only
// pending --yes), by any name it has in codec.
func (g *Gateway) refuses(codec *calls.Codec, tool string) bool {
	return g.policy.Check(policy.CallFor(codec, tool)).Verdict == policy.Deny
}

// unsuggest is the codec's Unsuggest: the tools the deny list refuses by
// their names in *codec, which is set once the codec is built (the
// function is only asked when an error is built).
func (g *Gateway) unsuggest(codec **calls.Codec) func(string) bool {
	return func(tool string) bool { return g.policy.Denies(policy.CallFor(*codec, tool)) }
}

// termAnnotations describe the one term tool by its riskiest upstream
// tool, as the AQL endpoints are (aql.Adapter.Tools): read-only only when
// every tool is annotated readOnlyHint: true and mcpterm's rule does not
// call it destructive (a tool named drop_all that says readOnlyHint: true
// is a DELETE, so not read-only); destructive when any tool is by that
// rule (policy.IsDestructive, with its AQL category).
func termAnnotations(st *state) mcp.ToolAnnotation {
	ro, destructive, idempotent, open := true, false, true, false
	for _, t := range st.visible.Tools {
		a := t.Annotations
		d := policy.IsDestructive(policy.CallFor(st.codec, t.Name))
		if !a.ReadOnly() || d {
			ro = false
		}
		if d {
			destructive = true
		}
		if a.IdempotentHint == nil || !*a.IdempotentHint {
			idempotent = false
		}
		if a.OpenWorldHint == nil || *a.OpenWorldHint {
			open = true
		}
	}
	return mcp.ToolAnnotation{ReadOnlyHint: &ro, DestructiveHint: &destructive, IdempotentHint: &idempotent, OpenWorldHint: &open}
}
