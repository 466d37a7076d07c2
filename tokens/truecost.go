package tokens

import (
	"fmt"
	"strings"

	"github.com/mcpterm/mcpterm/convert"
)

// IsDeferredForm reports whether a report column is a form whose upfront
// document leaves each tool's details for a later call (convert.Deferred):
// the MCP-AQL forms, whose operations a model fetches through introspect,
// and term_lazy, whose declarations it fetches through describe. Counting
// only the upfront text would make them look far cheaper than they are.
// So a tool's cell in these columns is the exchange that fetches the
// tool's details, and every server gets the true cost (TrueCost).
func IsDeferredForm(form string) bool { return convert.Deferred(form) }

// TrueCost is what a deferred form costs a model for one server (or, in a
// grand total, several): the upfront definitions, plus the exchanges
// (request and answer, each counted as minified JSON or as the text a
// model reads) that fetch what the upfront leaves out.
type TrueCost struct {
	Upfront int // the form's whole document, as in Totals
	// OperationsList is AQL's {"query": "operations"} exchange: every
	// operation by name and category (0 for term_lazy, whose upfront
	// listing names every tool already).
	OperationsList int
	// TypesList is AQL's {"query": "types"} exchange, read when a
	// parameter names a type; not part of True.
	TypesList int
	Details   int // every tool's exchange (the tool cells), added up
	Exchanges int // how many tool exchanges Details covers
	// DetailsMin and DetailsMax are the cheapest and dearest single
	// tool's exchange.
	DetailsMin, DetailsMax int
}

// True is the true cost: upfront + the operations list + every tool's
// exchange, what a model that ends up using every tool reads. A task that
// needs k tools costs Upfront + OperationsList + k × (about Details /
// Exchanges).
func (a TrueCost) True() int { return a.Upfront + a.OperationsList + a.Details }

// add sums costs for a grand total.
func (a TrueCost) add(b TrueCost) TrueCost {
	out := TrueCost{
		Upfront: a.Upfront + b.Upfront, OperationsList: a.OperationsList + b.OperationsList,
		TypesList: a.TypesList + b.TypesList, Details: a.Details + b.Details, Exchanges: a.Exchanges + b.Exchanges,
		DetailsMin: a.DetailsMin, DetailsMax: max(a.DetailsMax, b.DetailsMax),
	}
	if a.Exchanges == 0 || b.Exchanges > 0 && b.DetailsMin < a.DetailsMin {
		out.DetailsMin = b.DetailsMin
	}
	return out
}

// trueCost works out a deferred form's true cost for one server: for an
// AQL form the operations and types lists counted here from the
// Renderer's introspect exchanges; for every deferred form the details as
// the sum of the tool cells already in sr (each is the tool's exchange),
// so the details figure and the cells can never disagree. Upfront is the
// form's total.
func trueCost(c *Counter, rd *convert.Renderer, sr *ServerReport, form string) {
	up, ok := sr.Totals[form]
	if !ok {
		sr.TrueErrors[form] = "the upfront document failed to render"
		return
	}
	cost := TrueCost{Upfront: up}
	if mode, isAQL := convert.AQLMode(form); isAQL {
		xs, err := rd.Introspect(mode)
		if err != nil {
			sr.TrueErrors[form] = err.Error()
			return
		}
		for _, x := range xs {
			if x.Operation != "" {
				continue
			}
			n, err := countPair(c, x.Request, x.Answer)
			if err != nil {
				sr.TrueErrors[form] = err.Error()
				return
			}
			if strings.Contains(x.Request, `"types"`) {
				cost.TypesList = n
			} else {
				cost.OperationsList = n
			}
		}
	}
	for _, tc := range sr.Tools {
		n, ok := tc.Counts[form]
		if !ok {
			sr.TrueErrors[form] = fmt.Sprintf("tool %q: %s", tc.Name, tc.Errors[form])
			return
		}
		if cost.Exchanges == 0 || n < cost.DetailsMin {
			cost.DetailsMin = n
		}
		cost.DetailsMax = max(cost.DetailsMax, n)
		cost.Details += n
		cost.Exchanges++
	}
	sr.True[form] = cost
}

func countPair(c *Counter, a, b string) (int, error) {
	n, err := c.Count(a)
	if err != nil {
		return 0, err
	}
	m, err := c.Count(b)
	return n + m, err
}

// TrueGrandTotal adds up the servers' true costs per deferred form. A form
// missing for any server is left out and named in incomplete.
func (r *Report) TrueGrandTotal() (totals map[string]TrueCost, incomplete []string) {
	totals = map[string]TrueCost{}
	for _, f := range r.DeferredForms() {
		var sum TrueCost
		ok := true
		for _, s := range r.Servers {
			c, has := s.True[f]
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

// DeferredForms lists the report's deferred columns in column order.
func (r *Report) DeferredForms() []string {
	var out []string
	for _, f := range r.Forms {
		if IsDeferredForm(f) {
			out = append(out, f)
		}
	}
	return out
}
