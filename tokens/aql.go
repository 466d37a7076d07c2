package tokens

import (
	"fmt"
	"strings"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// aqlForms are the registry's MCP-AQL forms and the adapter mode behind
// each. Their upfront document names the operations but leaves out every
// parameter, which a model fetches later through introspect; counting only
// the upfront text would make AQL look far cheaper than it is. So for these
// forms a tool's cell is the introspect exchange for that tool's operation,
// and every server gets the true cost (AQLCost).
var aqlForms = map[string]aql.Mode{"aql_single": aql.Single, "aql_semantic": aql.Semantic}

// IsAQLForm reports whether a report column is an AQL form, whose tool
// cells are introspect exchanges rather than one-tool renderings.
func IsAQLForm(form string) bool {
	_, ok := aqlForms[form]
	return ok
}

// AQLCost is what an AQL form costs a model for one server (or, in a grand
// total, several): the upfront definitions, plus the introspect exchanges
// (request and answer, each counted as minified JSON) a model reads back.
type AQLCost struct {
	Upfront        int // the form's whole document, as in Totals
	OperationsList int // {"query": "operations"}: every operation by name and category
	TypesList      int // {"query": "types"}: read when a parameter names a type
	Details        int // every operation's details exchange, added up
	Operations     int // how many operations Details covers
	// DetailsMin and DetailsMax are the cheapest and dearest single
	// operation's details exchange.
	DetailsMin, DetailsMax int
}

// True is the true cost: upfront + the operations list + every
// operation's details, what a model that ends up using every operation
// reads. A task that needs k operations costs Upfront + OperationsList +
// k × (about Details / Operations).
func (a AQLCost) True() int { return a.Upfront + a.OperationsList + a.Details }

// add sums costs for a grand total.
func (a AQLCost) add(b AQLCost) AQLCost {
	out := AQLCost{
		Upfront: a.Upfront + b.Upfront, OperationsList: a.OperationsList + b.OperationsList,
		TypesList: a.TypesList + b.TypesList, Details: a.Details + b.Details, Operations: a.Operations + b.Operations,
		DetailsMin: a.DetailsMin, DetailsMax: max(a.DetailsMax, b.DetailsMax),
	}
	if a.Operations == 0 || b.Operations > 0 && b.DetailsMin < a.DetailsMin {
		out.DetailsMin = b.DetailsMin
	}
	return out
}

// introspectCosts counts the exchanges behind an AQL form: the server-wide
// figures (without Upfront, which is the form's total) and each tool's
// operation details by tool name.
func introspectCosts(c *Counter, set *toolset.Set, mode aql.Mode, ov aql.Overrides) (cost AQLCost, perTool map[string]int, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("introspect answers panicked: %v", p)
		}
	}()
	exchanges, err := aql.IntrospectCostsFor(set, ov, mode)
	if err != nil {
		return cost, nil, err
	}
	perTool = map[string]int{}
	for _, x := range exchanges {
		req, err := c.Count(x.Request)
		if err != nil {
			return cost, nil, err
		}
		ans, err := c.Count(x.Answer)
		if err != nil {
			return cost, nil, err
		}
		n := req + ans
		switch {
		case x.Operation == "" && strings.Contains(x.Request, `"types"`):
			cost.TypesList = n
		case x.Operation == "":
			cost.OperationsList = n
		default:
			perTool[x.Tool] = n
			if cost.Operations == 0 || n < cost.DetailsMin {
				cost.DetailsMin = n
			}
			cost.DetailsMax = max(cost.DetailsMax, n)
			cost.Details += n
			cost.Operations++
		}
	}
	return cost, perTool, nil
}

// AQLGrandTotal adds up the servers' AQL costs per form. A form missing for
// any server is left out and named in incomplete.
func (r *Report) AQLGrandTotal() (totals map[string]AQLCost, incomplete []string) {
	totals = map[string]AQLCost{}
	for _, f := range r.AQLForms() {
		var sum AQLCost
		ok := true
		for _, s := range r.Servers {
			c, has := s.AQL[f]
			ok = ok && has
			sum = sum.add(c)
		}
		if ok {
			totals[f] = sum
		} else {
			incomplete = append(incomplete, f)
		}
	}
	return totals, incomplete
}

// AQLForms lists the report's AQL columns in column order.
func (r *Report) AQLForms() []string {
	var out []string
	for _, f := range r.Forms {
		if IsAQLForm(f) {
			out = append(out, f)
		}
	}
	return out
}
