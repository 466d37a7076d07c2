package tokens

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/mcpterm/mcpterm/convert"
	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/termtool"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// Baseline is the form savings are measured against: what an LLM API
// receives for each tool, {name, description, input_schema} minified.
const Baseline = "json"

// Floor is the form every other form is compared with as a ratio.
const Floor = "floor"

// Report is the token accounting for one or more servers under one encoding.
type Report struct {
	Encoding string
	Forms    []string // column order: convert.Forms() order
	Servers  []*ServerReport
	// Skipped are servers of a whole config (`mcpterm tokens --all`) that
	// could not be counted; set by the caller, shown in every format.
	Skipped []Skipped
}

// ServerReport is one server's counts.
type ServerReport struct {
	Server string // name the server gave, else the file it came from
	// Entry is the config entry the server was listed from (`tokens
	// --all`), which names it in the report; the counts use Server, as
	// every other face does, so they are the same as for the server alone.
	Entry  string
	Source string // where the tool list came from (file, or the server's own source note)
	Tools  []ToolCounts
	// Totals are counts of each form's whole document for the server, exactly
	// the text `mcpterm convert --to FORM` prints, so shared definitions count
	// once; they are not the sum of the per-tool rows.
	Totals map[string]int
	// Errors says why a form's whole document could not be counted.
	Errors map[string]string
	// LeftOut is what compact forms omit, with its cost in json_full tokens.
	LeftOut map[string]LeftOutPart
	// True is the true cost of each deferred form (see TrueCost);
	// TrueErrors says why one could not be worked out.
	True       map[string]TrueCost
	TrueErrors map[string]string
	// Served is the term forms' declarations as the gateway's term mode
	// serves them: one mcp_term tool, how-to included, model-facing
	// (termtool.TermTool); see Report.Gateway.
	Served map[string]int

	index map[string]int // tool name -> first row of that name; see Tool
}

// ToolCounts is one tool: each form rendered for a set holding only it,
// except the deferred forms, whose cell is the exchange that fetches the
// tool's details — AQL's introspect for its operation, term-lazy's
// describe (a one-tool server would be a misleading figure: the upfront
// cost is paid once per server, the details per tool).
type ToolCounts struct {
	Name   string
	Counts map[string]int
	Errors map[string]string
}

// Build counts every form of every set. A form that fails to render (or
// panics) is reported as an error in its cells, never aborting the report;
// Build itself fails only when the tokenizer cannot be loaded. forms nil
// means convert.Forms(), so forms added to the registry appear here without
// any change to this package.
func Build(c *Counter, sets []*toolset.Set, forms []convert.Form) (*Report, error) {
	return BuildWith(c, sets, forms, nil)
}

// BuildWith is Build with AQL overrides (--aql-map) for the introspect
// answers; pass convert.FormsFor(ov) as forms (or nil, which means that) so
// the upfront figures use the same classification. Each set gets one
// convert.Renderer; see BuildFrom.
func BuildWith(c *Counter, sets []*toolset.Set, forms []convert.Form, ov aql.Overrides) (*Report, error) {
	rs := make([]*convert.Renderer, len(sets))
	for i, set := range sets {
		rs[i] = convert.NewRendererWith(set, ov, forms)
	}
	return BuildFrom(c, rs)
}

// BuildFrom counts every form of every renderer's set, one server each. A
// server's totals are the counts of Renderer.Document, a tool's cells the
// summed counts of Renderer.ToolTexts, so whoever shows a tool's texts
// from the same Renderer shows exactly what was counted. The columns are
// the first renderer's forms; a later renderer lacking one has an error in
// that column.
func BuildFrom(c *Counter, rs []*convert.Renderer) (*Report, error) {
	if _, err := c.Count(""); err != nil {
		return nil, err
	}
	r := &Report{Encoding: c.Encoding()}
	if len(rs) > 0 {
		for _, f := range rs[0].Forms() {
			r.Forms = append(r.Forms, f.Name)
		}
	}
	srs, err := serverReports(c, rs, r.Forms)
	if err != nil {
		return nil, err
	}
	r.Servers = srs
	return r, nil
}

// serverReports builds each renderer's ServerReport, in order. The
// servers of one report share nothing but the Counter (safe for concurrent
// use), so they are built concurrently, at most GOMAXPROCS at a time: a
// whole config's report then takes about its largest server's time on a
// machine with the cores for it, not the sum. The first server's error in
// order is returned, as a sequential build would return it.
func serverReports(c *Counter, rs []*convert.Renderer, forms []string) ([]*ServerReport, error) {
	if len(rs) == 0 {
		return nil, nil
	}
	srs := make([]*ServerReport, len(rs))
	errs := make([]error, len(rs))
	slots := make(chan struct{}, max(1, min(runtime.GOMAXPROCS(0), len(rs))))
	var wg sync.WaitGroup
	for i, rd := range rs {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() {
				// On its own goroutine a panic would end the program, not
				// reach the caller: it becomes the report's error instead.
				if p := recover(); p != nil {
					errs[i] = fmt.Errorf("counting %s panicked: %v", rd.Set().Server, p)
				}
				<-slots
			}()
			srs[i], errs[i] = serverReport(c, rd, forms)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return srs, nil
}

func serverReport(c *Counter, rd *convert.Renderer, forms []string) (*ServerReport, error) {
	set := rd.Set()
	sr := &ServerReport{
		Server: set.Server, Source: set.Source,
		Totals: map[string]int{}, Errors: map[string]string{},
		True: map[string]TrueCost{}, TrueErrors: map[string]string{}, Served: map[string]int{},
	}
	for _, f := range forms {
		var text string
		n, err := countText(c, func() (string, error) {
			t, err := rd.Document(f)
			text = t
			return t, err
		})
		if err != nil {
			sr.Errors[f] = err.Error()
			continue
		}
		sr.Totals[f] = n
		if servedAsTermTool(f) {
			if n, err := c.Count(termtool.TermTool(termtool.Name, set.Server, text).ModelFacing()); err == nil {
				sr.Served[f] = n
			}
		}
	}
	sr.Tools = make([]ToolCounts, 0, len(set.Tools))
	for _, t := range set.Tools {
		tc := ToolCounts{Name: t.Name, Counts: make(map[string]int, len(forms)), Errors: map[string]string{}}
		for _, f := range forms {
			n, err := countTexts(c, rd, f, t.Name)
			if err != nil {
				tc.Errors[f] = err.Error()
				continue
			}
			tc.Counts[f] = n
		}
		sr.Tools = append(sr.Tools, tc)
	}
	sr.reindex()
	for _, f := range forms {
		if IsDeferredForm(f) {
			trueCost(c, rd, sr, f)
		}
	}
	lo, err := leftOut(c, set)
	if err != nil {
		return nil, err
	}
	sr.LeftOut = lo
	return sr, nil
}

// countTexts is a tool's figure in a form: the sum of the counts of the
// Renderer's per-tool texts, the one definition every view shares.
func countTexts(c *Counter, rd *convert.Renderer, form, tool string) (int, error) {
	texts, err := rd.ToolTexts(form, tool)
	if err != nil {
		return 0, err
	}
	sum := 0
	for _, x := range texts {
		n, err := c.Count(x.Text)
		if err != nil {
			return 0, err
		}
		sum += n
	}
	return sum, nil
}

// countText counts what render returns, turning a panic into an error (the
// Renderer contains its renderers' panics; this keeps the report whole
// should anything else give way).
func countText(c *Counter, render func() (string, error)) (n int, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("renderer panicked: %v", p)
		}
	}()
	text, err := render()
	if err != nil {
		return 0, err
	}
	return c.Count(text)
}

// Tool is the named tool's row, found through an index built with the
// report (and kept by Sort), so a view can look up every tool of a large
// server without a scan per lookup. In a list that repeats a name the
// first row answers.
func (s *ServerReport) Tool(name string) (ToolCounts, bool) {
	if i, ok := s.index[name]; ok && i < len(s.Tools) && s.Tools[i].Name == name {
		return s.Tools[i], true
	}
	if s.index != nil && len(s.index) == len(s.Tools) {
		return ToolCounts{}, false // the index is whole: no such tool
	}
	for _, t := range s.Tools { // a hand-built or since-edited report
		if t.Name == name {
			return t, true
		}
	}
	return ToolCounts{}, false
}

// reindex rebuilds the name index after the rows are built or reordered.
func (s *ServerReport) reindex() {
	s.index = make(map[string]int, len(s.Tools))
	for i, t := range s.Tools {
		if _, dup := s.index[t.Name]; !dup {
			s.index[t.Name] = i
		}
	}
}

// Saved is how much smaller form is than the json baseline, in percent of
// the baseline (negative when larger). ok is false when either count is
// missing or the baseline is zero.
func Saved(counts map[string]int, form string) (pct float64, ok bool) {
	base, ok1 := counts[Baseline]
	n, ok2 := counts[form]
	if !ok1 || !ok2 {
		return 0, false
	}
	return SavedVs(base, n)
}

// SavedVs is Saved for a figure that is not a column of counts (an AQL
// true cost): how much smaller n is than the baseline's base, in percent
// of base; ok is false when base is not positive.
func SavedVs(base, n int) (pct float64, ok bool) {
	if base <= 0 {
		return 0, false
	}
	return savedPct(base, n), true
}

// FloorRatio is form's count as a multiple of the floor's.
func FloorRatio(counts map[string]int, form string) (ratio float64, ok bool) {
	fl, ok1 := counts[Floor]
	n, ok2 := counts[form]
	if !ok1 || !ok2 || fl == 0 {
		return 0, false
	}
	return float64(n) / float64(fl), true
}

// GrandTotal adds up the server totals. A form missing (failed) for any
// server is left out of the sum and named in incomplete, rather than shown
// as a smaller number than the truth.
func (r *Report) GrandTotal() (totals map[string]int, incomplete []string) {
	totals = map[string]int{}
	for _, f := range r.Forms {
		sum, ok := 0, true
		for _, s := range r.Servers {
			n, has := s.Totals[f]
			ok = ok && has
			sum += n
		}
		if ok {
			totals[f] = sum
		} else {
			incomplete = append(incomplete, f)
		}
	}
	return totals, incomplete
}

// SortFields are the accepted --sort values: the server's own order, the
// tool name, or any form (largest count first).
func (r *Report) SortFields() []string {
	return append([]string{"order", "name"}, r.Forms...)
}

// Sort orders every server's tool rows by field (see SortFields). Rows with
// no count for a form sort last; ties keep the server's order.
func (r *Report) Sort(field string) error {
	if !slices.Contains(r.SortFields(), field) {
		return fmt.Errorf("unknown sort field %q (want one of: %s)", field, strings.Join(r.SortFields(), ", "))
	}
	for _, s := range r.Servers {
		switch field {
		case "order":
		case "name":
			slices.SortStableFunc(s.Tools, func(a, b ToolCounts) int { return strings.Compare(a.Name, b.Name) })
		default:
			key := func(t ToolCounts) int {
				if n, ok := t.Counts[field]; ok {
					return n
				}
				return math.MinInt
			}
			slices.SortStableFunc(s.Tools, func(a, b ToolCounts) int { return cmp.Compare(key(b), key(a)) })
		}
		if s.index != nil {
			s.reindex()
		}
	}
	return nil
}
