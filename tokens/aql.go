package tokens

import (
	"fmt"
	"strings"

	"github.com/mcpterm/mcpterm/convert"
	"github.com/mcpterm/mcpterm/convert/aql"
)

// IsAQLForm reports whether a report column is an MCP-AQL form
// (convert.AQLMode). Their upfront document names the operations but
// leaves out every parameter, which a model fetches later through
// introspect; counting only the upfront text would make AQL look far
// cheaper than it is. So a tool's cell in these columns is the introspect
// exchange for the tool's operation, and every server gets the true cost
// (AQLCost).
func IsAQLForm(form string) bool {
	_, ok := convert.AQLMode(form)
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

// aqlCost works out form's true cost for one server from the Renderer's
// introspect exchanges: the operations and types lists counted here, the
// operations' details as the sum of the tool cells already in sr (each is
// the tool's operation exchange), so the details figure and the cells can
// never disagree. Upfront is the form's total.
func aqlCost(c *Counter, rd *convert.Renderer, sr *ServerReport, form string, mode aql.Mode) {
	xs, err := rd.Introspect(mode)
	if err != nil {
		sr.AQLErrors[form] = err.Error()
		return
	}
	up, ok := sr.Totals[form]
	if !ok {
		sr.AQLErrors[form] = "the upfront document failed to render"
		return
	}
	cost := AQLCost{Upfront: up}
	for _, x := range xs {
		if x.Operation != "" {
			continue
		}
		n, err := countPair(c, x.Request, x.Answer)
		if err != nil {
			sr.AQLErrors[form] = err.Error()
			return
		}
		if strings.Contains(x.Request, `"types"`) {
			cost.TypesList = n
		} else {
			cost.OperationsList = n
		}
	}
	for _, tc := range sr.Tools {
		n, ok := tc.Counts[form]
		if !ok {
			sr.AQLErrors[form] = fmt.Sprintf("tool %q: %s", tc.Name, tc.Errors[form])
			return
		}
		if cost.Operations == 0 || n < cost.DetailsMin {
			cost.DetailsMin = n
		}
		cost.DetailsMax = max(cost.DetailsMax, n)
		cost.Details += n
		cost.Operations++
	}
	sr.AQL[form] = cost
}

func countPair(c *Counter, a, b string) (int, error) {
	n, err := c.Count(a)
	if err != nil {
		return 0, err
	}
	m, err := c.Count(b)
	return n + m, err
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
