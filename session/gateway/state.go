package gateway

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/term"
	"github.com/mcpterm/mcpterm/convert/termtool"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session"
)

// state is everything built from one upstream tool list. It is immutable
// once built; a list change builds a new one, so a call in flight keeps the
// view it started with.
type state struct {
	set     *toolset.Set // as the upstream listed it
	visible *toolset.Set // what the policy does not deny outright
	hidden  []string     // tools left out, by name

	doc       *term.Document      // term mode
	describer *termtool.Describer // term-lazy mode
	// codec reads the clients' calls against the visible tools (with the
	// term mode's model-facing codes, or as the mode's AQL endpoints), and
	// runner runs them: the one reader and runner of every face.
	codec  *calls.Codec
	runner *session.Runner

	tools       []server.ServerTool
	fingerprint string // of the tools as listed, to skip no-op rebuilds
}

func (st *state) summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d upstream tools", len(st.set.Tools))
	if len(st.hidden) > 0 {
		fmt.Fprintf(&b, " (%d left out by the policy: %s)", len(st.hidden), strings.Join(st.hidden, ", "))
	}
	names := make([]string, len(st.tools))
	for i, t := range st.tools {
		names[i] = t.Tool.Name
	}
	fmt.Fprintf(&b, " as %s", strings.Join(names, ", "))
	if st.doc != nil {
		if s := st.doc.Summary(); s != "" {
			b.WriteString("; " + s)
		}
	}
	return b.String()
}

// build turns an upstream tool list into the gateway's tools for its mode.
func (g *Gateway) build(set *toolset.Set) (*state, error) {
	st := &state{set: set}
	mode := aql.Single
	if g.opts.Mode == ModeAQLSemantic {
		mode = aql.Semantic
	}
	// The policy sees each tool as every face sees it (policy.CallFor): its
	// annotations and the CRUDE category the AQL classification and the
	// overrides give it, so a DELETE is destructive whatever its hints say,
	// in every mode, as in `mcpterm call`.
	all := calls.New(set, calls.Options{Overrides: g.opts.Overrides, Mode: mode})
	if g.opts.Mode != ModeTerm && g.opts.Mode != ModeTermLazy || len(g.opts.Overrides) > 0 {
		if _, err := all.Adapter(); err != nil {
			return nil, fmt.Errorf("gateway: %w", err)
		}
	}
	if err := g.buildVisible(st, all, mode); err != nil {
		return nil, err
	}
	st.runner = session.NewRunner(upstreamCaller{g}, st.codec, session.RunnerOptions{
		Policy: g.policy, Audit: g.opts.Audit, Server: g.up.Info().RecordName(),
		RecordError: func(err error) { g.notef("audit log: %v", err) },
	})
	h := fnv.New64a()
	for _, t := range st.tools {
		b, _ := json.Marshal(t.Tool)
		h.Write(b)
	}
	st.fingerprint = fmt.Sprintf("%x", h.Sum64())
	return st, nil
}

func (g *Gateway) buildTerm(st *state) error {
	doc, err := term.Render(st.visible, term.Options{Lean: g.opts.Lean, ModelFacing: true})
	if err != nil {
		return fmt.Errorf("gateway: rendering MCP-Term: %w", err)
	}
	st.doc = doc
	st.codec = calls.New(st.visible, calls.Options{Overrides: g.opts.Overrides, Codes: doc.Codes, Unsuggest: g.unsuggest(&st.codec)})
	// The tool is termtool's, which `mcpterm tokens` counts as this mode's
	// gateway figure.
	st.tools = []server.ServerTool{{Tool: termTool(st, termtool.TermTool(g.opts.TermTool, st.visible.Server, doc.Text)), Handler: g.handleTerm}}
	return nil
}

// termTool is t as an MCP tool, with the annotations of the visible tools.
func termTool(st *state, t termtool.Tool) mcp.Tool {
	tool := mcp.NewToolWithRawSchema(t.Name, t.Description, json.RawMessage(termtool.InputSchema))
	tool.Annotations = termAnnotations(st)
	return tool
}

func (g *Gateway) buildAQL(st *state, mode aql.Mode) error {
	st.codec = calls.New(st.visible, calls.Options{Overrides: g.opts.Overrides, Mode: mode, Unsuggest: g.unsuggest(&st.codec)})
	a, err := st.codec.Adapter()
	if err != nil {
		return fmt.Errorf("gateway: %w", err)
	}
	for _, w := range a.Warnings {
		g.notef("aql: %s", w)
	}
	for _, def := range a.Tools() {
		name := def.Get("name").StringOr("")
		tool := mcp.NewToolWithRawSchema(name, def.Get("description").StringOr(""), json.RawMessage(def.Get("inputSchema").Compact()))
		if ann := def.Get("annotations"); ann != nil {
			tool.Annotations = annotationsOf(ann)
		}
		st.tools = append(st.tools, server.ServerTool{Tool: tool, Handler: g.handleAQL(name)})
	}
	return nil
}

func annotationsOf(v *ojson.Value) mcp.ToolAnnotation {
	var a mcp.ToolAnnotation
	flag := func(key string) *bool {
		if x := v.Get(key); x != nil && x.Kind == ojson.Bool {
			b := x.Bool
			return &b
		}
		return nil
	}
	a.Title = v.Get("title").StringOr("")
	a.ReadOnlyHint = flag("readOnlyHint")
	a.DestructiveHint = flag("destructiveHint")
	a.IdempotentHint = flag("idempotentHint")
	a.OpenWorldHint = flag("openWorldHint")
	return a
}
