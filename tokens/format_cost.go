package tokens

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// writeTrue prints the true cost of the deferred forms under a counts
// table: the upfront definitions the total row shows, plus what a model
// reads back through AQL's introspect or term-lazy's describe. base is the
// json baseline's total.
func writeTrue(w io.Writer, r *Report, costs map[string]TrueCost, base int, md bool) {
	forms := r.DeferredForms()
	if len(forms) == 0 {
		return
	}
	fmt.Fprintf(w, "%s%s\n", bullet(md), TrueCostNote(forms))
	if md {
		fmt.Fprintln(w)
	}
	t := &table{}
	t.add(false, TrueCostColumns()...)
	for _, f := range forms {
		c, ok := costs[f]
		t.add(false, append([]string{f}, TrueCostCells(c, ok, base)...)...)
	}
	t.write(w, md)
	if md {
		fmt.Fprintln(w)
	}
}

// TrueCostNote is the sentence above a true-cost table of forms, the same
// in every format (the text and Markdown tables, the HTML page).
func TrueCostNote(forms []string) string {
	return strings.Join(forms, ", ") + ": a tool's cell is the exchange that fetches its details (request + answer: AQL's introspect, term-lazy's describe); the total row is the upfront definitions only. True cost = upfront + operations list (AQL) + all details:"
}

// TrueCostColumns are a true-cost table's headers, the form's first.
func TrueCostColumns() []string {
	return []string{"deferred", "upfront", "ops list", "all details", "true cost", "saved vs json", "types list", "per tool"}
}

// TrueCostCells are the cells after the form's name in its row of a
// true-cost table (ok false: the cost could not be worked out). base is
// the json baseline's total.
func TrueCostCells(c TrueCost, ok bool, base int) []string {
	if !ok {
		return []string{"err", "err", "err", "err", "–", "err", "–"}
	}
	perTool := "–"
	if c.Exchanges > 0 {
		perTool = strconv.Itoa(c.DetailsMin) + "–" + strconv.Itoa(c.DetailsMax)
	}
	return []string{strconv.Itoa(c.Upfront), strconv.Itoa(c.OperationsList), strconv.Itoa(c.Details),
		strconv.Itoa(c.True()), savedText(base, c.True()), strconv.Itoa(c.TypesList), perTool}
}

// writeGateway prints what a client of `mcpterm serve` pays per mode, one
// row of figures under the modes, with the saving against the server's own
// json beside each.
func writeGateway(w io.Writer, r *Report, s *ServerReport, md bool) {
	g := r.Gateway(s)
	if len(g) == 0 {
		return
	}
	fmt.Fprintf(w, "%sgateway: what a client of `mcpterm serve --mode M` pays for the tool definitions, the how-to included (term-lazy and AQL at their true cost):\n", bullet(md))
	if md {
		fmt.Fprintln(w)
	}
	head, tok, saved := []string{"mode"}, []string{"tokens"}, []string{"saved vs json"}
	for _, f := range g {
		head = append(head, f.Mode)
		tok = append(tok, strconv.Itoa(f.Tokens))
		saved = append(saved, savedText(s.Totals[Baseline], f.Tokens))
	}
	t := &table{}
	t.add(false, head...)
	t.add(false, tok...)
	t.add(false, saved...)
	t.write(w, md)
	if md {
		fmt.Fprintln(w)
	}
}

// savedText is n against the baseline base in percent, "–" without one.
func savedText(base, n int) string {
	if base <= 0 {
		return "–"
	}
	return strconv.FormatFloat(savedPct(base, n), 'f', 1, 64) + "%"
}

func savedPct(base, n int) float64 { return 100 * float64(base-n) / float64(base) }

// trueJSON is {FORM: {"upfront", "operations_list", "details",
// "true_cost", "true_saved_vs_json_pct", "types_list", "exchanges",
// "per_exchange_min", "per_exchange_max"}} for the deferred forms that
// have a cost.
func trueJSON(r *Report, costs map[string]TrueCost, base int) *ojson.Value {
	o := ojson.NewObject()
	for _, f := range r.DeferredForms() {
		c, ok := costs[f]
		if !ok {
			continue
		}
		co := ojson.NewObject().
			Set("upfront", ojson.NewInt(int64(c.Upfront))).
			Set("operations_list", ojson.NewInt(int64(c.OperationsList))).
			Set("details", ojson.NewInt(int64(c.Details))).
			Set("true_cost", ojson.NewInt(int64(c.True())))
		if base > 0 {
			co.Set("true_saved_vs_json_pct", pctJSON(savedPct(base, c.True())))
		}
		co.Set("types_list", ojson.NewInt(int64(c.TypesList))).
			Set("exchanges", ojson.NewInt(int64(c.Exchanges))).
			Set("per_exchange_min", ojson.NewInt(int64(c.DetailsMin))).
			Set("per_exchange_max", ojson.NewInt(int64(c.DetailsMax)))
		o.Set(f, co)
	}
	return o
}

// gatewayJSON is {FORM: {"mode", "tokens", "saved_vs_json_pct"}}, keyed
// by the form each mode serves.
func gatewayJSON(g []GatewayFigure, base int) *ojson.Value {
	o := ojson.NewObject()
	for _, f := range g {
		fo := ojson.NewObject().Set("mode", ojson.NewString(f.Mode)).Set("tokens", ojson.NewInt(int64(f.Tokens)))
		if base > 0 {
			fo.Set("saved_vs_json_pct", pctJSON(savedPct(base, f.Tokens)))
		}
		o.Set(f.Form, fo)
	}
	return o
}

func pctJSON(p float64) *ojson.Value { return ojson.NewNumber(strconv.FormatFloat(p, 'f', 1, 64)) }
