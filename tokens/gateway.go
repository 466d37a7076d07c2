package tokens

import "slices"

// GatewayMode is one way `mcpterm serve` can put a server in front of a
// client, and the report column behind its figure.
type GatewayMode struct {
	Mode string // as `mcpterm serve` spells it
	Form string // the report column
}

// GatewayModes lists the gateway's modes in the order the report shows
// them: passthrough serves the server's own tools (the json baseline),
// the term modes one mcp_term tool with the how-to, the AQL modes their
// endpoints.
func GatewayModes() []GatewayMode {
	return []GatewayMode{
		{"passthrough", Baseline},
		{"term", "term"},
		{"term --descriptions lean", "term_lean"},
		{"term-lazy", "term_lazy"},
		{"aql-single", "aql_single"},
		{"aql-semantic", "aql_semantic"},
	}
}

// servedAsTermTool says whether form is the declarations of a term-mode
// gateway, served inside the mcp_term tool's description.
func servedAsTermTool(form string) bool { return form == "term" || form == "term_lean" }

// GatewayFigure is what a client of `mcpterm serve` over one server pays
// for the tool definitions in one mode.
type GatewayFigure struct {
	GatewayMode
	Tokens int
}

// Gateway is, for each of the report's forms a gateway mode serves, what
// a client of `mcpterm serve` over s pays for the tool definitions, as a
// model receives them ({name, description, input_schema}), the how-to
// preamble included: passthrough the json baseline; term the mcp_term tool
// as served (Served); term-lazy and AQL their true cost, since their
// upfront leaves the rest for later calls. Each figure is one the report
// already holds, never worked out again. A mode whose figure failed is
// left out, and a report with no gateway form but the baseline has none.
func (r *Report) Gateway(s *ServerReport) []GatewayFigure {
	var out []GatewayFigure
	for _, m := range GatewayModes() {
		if !slices.Contains(r.Forms, m.Form) {
			continue
		}
		var n int
		var ok bool
		switch {
		case IsDeferredForm(m.Form):
			var c TrueCost
			c, ok = s.True[m.Form]
			n = c.True()
		case servedAsTermTool(m.Form):
			n, ok = s.Served[m.Form]
		default:
			n, ok = s.Totals[m.Form]
		}
		if ok {
			out = append(out, GatewayFigure{GatewayMode: m, Tokens: n})
		}
	}
	if len(out) == 1 && out[0].Form == Baseline {
		return nil
	}
	return out
}
