package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// run is one press of the run key: a call or a batch, as read (plan) and
// as run (result, once done).
type run struct {
	id        int64
	src       string
	started   time.Time
	plan      *calls.Plan
	codec     *calls.Codec // the codec that read plan (its tool list's)
	result    *session.RunResult
	done      bool
	cancelled bool
	duration  time.Duration

	progress, total float64
	progressText    string
}

// item is what became of item i of a finished run.
func (r *run) item(i int) (calls.Item, session.ItemResult) {
	var res session.ItemResult
	if r.result != nil && i < len(r.result.Items) {
		res = r.result.Items[i]
	}
	return r.plan.Items[i], res
}

// failed reports whether item i did not succeed: no result, or isError.
func (r *run) failed(i int) bool {
	it, res := r.item(i)
	if res.Outcome.Err != nil {
		return true
	}
	if r.plan.Syntax == calls.AQL {
		resp, _ := r.codec.ItemAnswer(&it, res.Outcome)
		return !aql.IsSuccess(resp)
	}
	return isErrorResult(res.Outcome.Result)
}

// copyText is what copying item i gives: its AQL response, or its result
// in the (ok ...) form when that is shown, else its text content (the raw
// result when it has none).
func (r *run) copyText(i int, term bool) (what, text string) {
	if i >= len(r.plan.Items) {
		return "", ""
	}
	it, res := r.item(i)
	what = "the result of " + firstNonEmpty(it.Tool, it.Operation)
	switch {
	case term:
		return what, sexpr.Pretty(calls.OutcomeTerm(&it, res.Outcome), 100)
	case r.plan.Syntax == calls.AQL:
		resp, _ := r.codec.ItemAnswer(&it, res.Outcome)
		return what, resp.Pretty()
	case res.Outcome.Err != nil:
		return what, res.Outcome.Err.Message
	}
	var texts []string
	for _, b := range resultBlocks(res.Outcome.Result) {
		if b.Type == "text" {
			texts = append(texts, b.Text)
		}
	}
	if len(texts) == 0 {
		return what, res.Outcome.Result.Pretty()
	}
	return what, strings.Join(texts, "\n")
}

// isErrorResult reads a CallToolResult's isError.
func isErrorResult(raw *ojson.Value) bool {
	e := raw.Get("isError")
	return e != nil && e.Kind == ojson.Bool && e.Bool
}

// renderKey identifies one rendering of a run's results.
type renderKey struct {
	runID int64
	width int
	term  bool
	theme string
	enc   string
}

// resultsPane shows the outcome of runs, newest first in [ ] order.
type resultsPane struct {
	inbox   // requests of the root
	st      *Styles
	keys    *KeyMap
	w, h    int
	focused bool

	runs    []*run
	cur     int // index into runs
	term    bool
	vp      widget.Scroller
	want    renderKey
	have    renderKey
	spinner spinner.Model

	// For the run shown: the item selected in a batch's table, and from its
	// rendering each item's first line in vp and result tokens.
	sel     int
	offsets []int
	tokens  []int
}

// tableRows is how many rows a batch's table takes: its items, at most a
// third of the pane, plus its heading.
func (p *resultsPane) tableRows(r *run) int {
	if r == nil || !r.done || len(r.plan.Items) < 2 {
		return 0
	}
	_, ih := widget.Inner(p.st.Frame, p.w, p.h)
	return min(len(r.plan.Items), max(ih/3, 3)) + 1
}

// The pane keeps the newest maxRuns runs, and fewer when they hold more
// than maxRunItems calls between them (the newest run is always kept):
// each item holds its result, so fifty batches of fifty would otherwise
// keep 2,500 results alive.
const (
	maxRuns     = 50
	maxRunItems = 200
)

func newResultsPane(st *Styles, keys *KeyMap) resultsPane {
	var vp widget.Scroller
	sp := spinner.New(spinner.WithSpinner(spinner.MiniDot), spinner.WithStyle(st.Info))
	return resultsPane{st: st, keys: keys, vp: vp, spinner: sp}
}

func (p *resultsPane) SetSize(w, h int) {
	p.w, p.h = w, h
	iw, ih := widget.Inner(p.st.Frame, w, h)
	p.vp.SetSize(iw, max(ih-1-p.tableRows(p.current()), 1))
}

func (p *resultsPane) Focus() tea.Cmd { p.focused = true; return nil }
func (p *resultsPane) Blur()          { p.focused = false }

func (p *resultsPane) current() *run {
	if p.cur < 0 || p.cur >= len(p.runs) {
		return nil
	}
	return p.runs[p.cur]
}

// add shows a new run at once (with its spinner).
func (p *resultsPane) add(r *run) {
	p.runs = append(p.runs, r)
	if from := keepFrom(p.runs); from > 0 {
		// A fresh slice, so the dropped runs are not kept alive by the
		// old one's backing array.
		p.runs = append([]*run(nil), p.runs[from:]...)
	}
	p.cur = len(p.runs) - 1
	p.sel, p.offsets, p.tokens = 0, nil, nil
	p.vp.SetContent("")
}

// keepFrom is the index of the oldest run the pane keeps of runs: at most
// maxRuns of them and maxRunItems items, the newest always.
func keepFrom(runs []*run) int {
	items := 0
	for i := len(runs) - 1; i >= 0; i-- {
		items += len(runs[i].plan.Items)
		if i < len(runs)-1 && (len(runs)-i > maxRuns || items > maxRunItems) {
			return i + 1
		}
	}
	return 0
}

func (p *resultsPane) find(id int64) *run {
	for _, r := range p.runs {
		if r.id == id {
			return r
		}
	}
	return nil
}

// target is the rendering the pane needs now; ok false when none.
func (p *resultsPane) target(enc string) (renderKey, bool) {
	r := p.current()
	if r == nil || !r.done {
		return renderKey{}, false
	}
	k := renderKey{runID: r.id, width: p.vp.Width(), term: p.term, theme: p.st.Palette.Name, enc: enc}
	p.want = k
	return k, k != p.have
}

func (p *resultsPane) apply(m resultsRenderedMsg) {
	if m.key != p.want {
		return
	}
	sameRun := p.have.runID == m.key.runID
	y := p.vp.YOffset()
	p.have = m.key
	p.tokens = m.tokens
	p.SetSize(p.w, p.h) // a batch's table takes its rows now
	p.vp.SetContent(m.text)
	p.offsets = p.offsets[:0]
	for _, line := range m.offsets {
		p.offsets = append(p.offsets, p.vp.RowOf(line))
	}
	if sameRun {
		p.vp.SetYOffset(y)
	} else {
		p.sel = 0
		p.vp.GotoTop()
	}
}

// selectItem moves the table's cursor and scrolls to that item's result.
func (p *resultsPane) selectItem(i int) {
	r := p.current()
	if r == nil || len(r.plan.Items) == 0 {
		return
	}
	p.sel = clamp(i, 0, len(r.plan.Items)-1)
	if p.sel < len(p.offsets) {
		p.vp.SetYOffset(p.offsets[p.sel])
	}
}

// Update scrolls the results and switches between runs and forms.
func (p *resultsPane) Update(m tea.Msg) tea.Cmd {
	msg, ok := m.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	k := p.keys
	r := p.current()
	if p.tableRows(r) > 0 { // a batch: ↑↓ move through its items
		switch {
		case key.Matches(msg, k.Up):
			p.selectItem(p.sel - 1)
			return nil
		case key.Matches(msg, k.Down):
			p.selectItem(p.sel + 1)
			return nil
		}
	}
	if scrollKey(k, msg, p.vp.Scroll, p.vp.Height()) {
		return nil
	}
	switch {
	case key.Matches(msg, k.Copy):
		if r != nil && r.done {
			what, text := r.copyText(p.sel, p.term)
			return p.ask(copyMsg{what: what, text: text})
		}
	case key.Matches(msg, k.Rerun):
		if r != nil && r.done {
			return p.ask(rerunMsg{run: r, items: []int{p.sel}})
		}
	case key.Matches(msg, k.RerunFailed):
		if r != nil && r.done {
			var failed []int
			for i := range r.plan.Items {
				if r.failed(i) {
					failed = append(failed, i)
				}
			}
			if len(failed) > 0 {
				return p.ask(rerunMsg{run: r, items: failed})
			}
		}
	case key.Matches(msg, k.TermForm):
		p.term = !p.term
		return p.ask(rerenderMsg{})
	case key.Matches(msg, k.PrevRun):
		if p.cur > 0 {
			p.cur--
			p.sel = 0
			p.SetSize(p.w, p.h)
			return p.ask(rerenderMsg{})
		}
	case key.Matches(msg, k.NextRun):
		if p.cur < len(p.runs)-1 {
			p.cur++
			p.sel = 0
			p.SetSize(p.w, p.h)
			return p.ask(rerenderMsg{})
		}
	case key.Matches(msg, k.SaveResult):
		if r := p.current(); r != nil && r.done {
			return p.ask(saveResultMsg{})
		}
	case key.Matches(msg, k.ResultsEdit):
		return p.ask(focusMsg{focusComposer})
	}
	return nil
}

func (p *resultsPane) click(_, _ int) tea.Cmd { return nil }
func (p *resultsPane) wheel(n int) tea.Cmd    { p.vp.Scroll(n); return nil }

func (p *resultsPane) Help() []key.Binding {
	k := p.keys
	return []key.Binding{k.TermForm, k.Rerun, k.RerunFailed, k.Copy, k.SaveResult, k.PrevRun, k.NextRun, k.ResultsEdit, k.Down}
}

func (p *resultsPane) View() string {
	st := *p.st
	iw, _ := widget.Inner(st.Frame, p.w, p.h)
	r := p.current()
	title := "Results"
	if r == nil {
		return widget.Frame(st.Frame, p.focused, p.w, p.h, title, "", st.Muted.Render("ctrl+g in the composer runs the call; results show here"))
	}
	right := fmt.Sprintf("%d/%d", p.cur+1, len(p.runs))
	var head string
	switch {
	case !r.done:
		head = p.spinner.View() + " " + st.Info.Render("running")
		if r.total > 0 {
			head += " " + progressBar(st, r.progress/r.total, 12) + fmt.Sprintf(" %.0f/%.0f", r.progress, r.total)
		} else if r.progress > 0 {
			head += fmt.Sprintf(" %.0f", r.progress)
		}
		if r.progressText != "" {
			head += " " + st.Muted.Render(r.progressText)
		}
		head += st.Muted.Render("  esc cancels")
	case r.cancelled:
		head = st.Warn.Render("cancelled") + st.Muted.Render(" after "+fmtDuration(r.duration))
	case r.result != nil && r.result.Refused:
		head = st.Error.Render("✗ refused: nothing was sent")
	default:
		okN, failN := 0, 0
		for i := range r.plan.Items {
			if r.failed(i) {
				failN++
			} else {
				okN++
			}
		}
		if failN == 0 {
			head = st.OK.Render(fmt.Sprintf("✓ %d ok", okN))
		} else {
			head = st.OK.Render(fmt.Sprintf("%d ok", okN)) + " " + st.Error.Render(fmt.Sprintf("%d failed", failN))
		}
		head += st.Muted.Render(" · " + fmtDuration(r.duration))
		if p.term {
			head += st.Muted.Render(" · (ok ...) form")
		}
	}
	body := widget.FitLine(head, iw)
	if rows := p.tableRows(r); rows > 0 {
		body += "\n" + p.table(r, iw, rows)
	}
	if r.done {
		body += "\n" + p.vp.View()
	}
	if p.vp.TotalLines() > p.vp.Height() && r.done {
		right = fmt.Sprintf("%d%% · %s", p.vp.Percent(), right)
	}
	return widget.Frame(st.Frame, p.focused, p.w, p.h, title, right, body)
}

// table is a batch's items, one row each — id, tool, outcome, latency,
// result tokens — with the selected one marked, in rows lines (its heading
// included), scrolled to keep the selection in view.
func (p *resultsPane) table(r *run, w, rows int) string {
	st := *p.st
	n := len(r.plan.Items)
	visible := rows - 1
	from := clamp(p.sel-visible/2, 0, max(n-visible, 0))
	idW := 4
	for _, it := range r.plan.Items {
		idW = max(idW, len(it.ID)+2)
	}
	toolW := max(w-idW-14-9-9-4, 8)
	lines := []string{st.Muted.Render(widget.PadRight("id", idW) + " " + widget.PadRight("tool", toolW) + " " + widget.PadRight("outcome", 14) + " " + fmt.Sprintf("%8s %8s", "time", "tokens"))}
	for i := from; i < min(from+visible, n); i++ {
		it, res := r.item(i)
		status, style := "✓ ok", st.OK
		switch f := res.Outcome.Err; {
		case f != nil:
			status, style = "✗ "+string(f.Kind), st.Error
		case r.failed(i):
			status, style = "✗ failed", st.Error
		case it.IsLocal():
			status = "✓ local"
		}
		lat := ""
		if res.Call != nil && res.Call.Duration > 0 {
			lat = fmtDuration(res.Call.Duration)
		}
		tok := ""
		if i < len(p.tokens) && p.tokens[i] >= 0 {
			tok = thousands(p.tokens[i])
		}
		line := widget.PadRight(widget.Truncate(oneLine(it.ID), idW), idW) + " " +
			widget.PadRight(widget.Truncate(oneLine(firstNonEmpty(it.Tool, it.Operation)), toolW), toolW) + " " +
			style.Render(widget.PadRight(widget.Truncate(status, 14), 14)) + " " + fmt.Sprintf("%8s %8s", lat, tok)
		if i == p.sel {
			line = st.Selected.Render(widget.FitLine(ansi.Strip(line), w))
			if !p.focused {
				line = st.Bold.Render(widget.FitLine(ansi.Strip(line), w))
			}
		}
		lines = append(lines, line)
	}
	for len(lines) < rows {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

func progressBar(st Styles, frac float64, w int) string {
	frac = max(0, min(frac, 1))
	n := int(frac*float64(w) + 0.5)
	return st.Info.Render(strings.Repeat("█", n)) + st.Subtle.Render(strings.Repeat("░", w-n))
}

func fmtDuration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	default:
		return fmt.Sprintf("%.2fs", d.Seconds())
	}
}
