package ui

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/tokens"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// sortMode orders the tool list.
type sortMode int

const (
	sortServer sortMode = iota // the server's order
	sortName
	sortTokens  // most expensive (json) first
	sortSavings // biggest saving first
)

func (s sortMode) String() string {
	return [...]string{"server order", "name", "tokens", "savings"}[s]
}

// toolRow is what the list knows about one tool, sanitised once when the set
// arrives so View never touches untrusted text.
type toolRow struct {
	tool     *toolset.Tool
	name     string // safe, one line, invisible characters spelt out (safe.Name)
	alike    bool   // another tool's name looks the same (safe.Lookalikes)
	title    string
	code     string
	category string
	ro, del  bool
	open     bool
}

// toolsPane lists the server's tools with their codes, badges and counts.
type toolsPane struct {
	inbox   // requests of the root
	st      *Styles
	keys    *KeyMap
	w, h    int // outer size
	focused bool

	rows   []toolRow
	report *tokens.ServerReport // nil while counting

	filter    textinput.Model
	filtering bool // the filter input has focus
	sort      sortMode

	view    []int         // indexes into rows after filter and sort
	matches map[int][]int // row -> matched byte offsets in name
	nav     widget.List

	// cache holds drawn rows that are not selected; anything that changes
	// how a row looks (tools, report, filter, width, theme) clears it, so a
	// frame of a 1,000-tool list only draws the selected row afresh.
	cache    map[int]string
	cacheKey rowCacheKey
}

type rowCacheKey struct {
	width  int
	theme  string
	report *tokens.ServerReport
	filter string
	focus  bool
}

func newToolsPane(st *Styles, keys *KeyMap) toolsPane {
	in := textinput.New()
	in.Prompt = "/"
	in.Placeholder = "filter"
	in.SetStyles(st.Input)
	in.CharLimit = 200
	return toolsPane{st: st, keys: keys, filter: in}
}

func (p *toolsPane) SetSize(w, h int) {
	p.w, p.h = w, h
	iw, ih := widget.Inner(p.st.Frame, w, h)
	p.filter.SetWidth(max(iw-2, 4))
	p.nav.SetHeight(p.listHeight(ih))
}

func (p *toolsPane) listHeight(ih int) int {
	// One line of column headings, one for the filter when it is shown.
	n := ih - 1
	if p.filtering || p.filter.Value() != "" {
		n--
	}
	return max(n, 1)
}

func (p *toolsPane) Focus() tea.Cmd { p.focused = true; return nil }
func (p *toolsPane) Blur() {
	p.focused = false
	p.filtering = false
	p.filter.Blur()
}

// capturesKeys reports that the filter input takes every key.
func (p *toolsPane) capturesKeys() bool { return p.focused && p.filtering }

// primaryForm is the compact form the list compares with JSON.
const primaryForm = "term"

// setTools replaces the list, keeping the selection by name. The badges
// and the category are the catalog's: the destructive flag is the policy's
// rule, the one that decides whether a run asks first.
func (p *toolsPane) setTools(c *catalog, sanitize func(string) string) {
	sel := p.selectedName()
	p.rows = p.rows[:0]
	for _, t := range c.set.Tools {
		facts := c.tools[t.Name]
		p.rows = append(p.rows, toolRow{
			tool:     t,
			name:     safe.Name(sanitize(t.Name)),
			alike:    c.alike[t.Name] != nil,
			title:    oneLine(sanitize(firstNonEmpty(t.Title, t.Annotations.Title))),
			code:     oneLine(sanitize(c.codes[t.Name])),
			category: strings.ToUpper(facts.category),
			ro:       t.Annotations.ReadOnly(),
			del:      facts.destructive,
			open:     t.Annotations.OpenWorldHint == nil || *t.Annotations.OpenWorldHint,
		})
	}
	p.cache = nil
	p.refresh()
	p.selectName(sel)
}

// longestName is the width of the longest tool name shown.
func (p *toolsPane) longestName() int {
	n := 0
	for _, r := range p.rows {
		n = max(n, ansi.StringWidth(r.name))
	}
	return n
}

func (p *toolsPane) setReport(r *tokens.ServerReport) {
	p.report = r
	if p.sort == sortTokens || p.sort == sortSavings {
		sel := p.selectedName()
		p.refresh()
		p.selectName(sel)
	}
}

// refresh recomputes the visible rows from the filter and the sort.
func (p *toolsPane) refresh() {
	pat := strings.TrimSpace(p.filter.Value())
	p.view = p.view[:0]
	p.matches = map[int][]int{}
	scores := map[int]int{}
	for i, r := range p.rows {
		if pat == "" {
			p.view = append(p.view, i)
			continue
		}
		s, pos, ok := widget.FuzzyMatch(pat, r.name)
		if r.code != "" && strings.EqualFold(r.code, pat) {
			s, ok = s+100, true
		}
		if !ok {
			if s2, _, ok2 := widget.FuzzyMatch(pat, r.title); ok2 && r.title != "" {
				s, ok = s2-5, true
			}
		}
		if ok {
			p.view = append(p.view, i)
			p.matches[i] = pos
			scores[i] = s
		}
	}
	less := func(a, b int) bool { return a < b }
	switch p.sort {
	case sortName:
		less = func(a, b int) bool { return p.rows[a].name < p.rows[b].name }
	case sortTokens:
		less = func(a, b int) bool { return p.count(a, "json") > p.count(b, "json") }
	case sortSavings:
		less = func(a, b int) bool { return p.saving(a) > p.saving(b) }
	}
	sort.SliceStable(p.view, func(i, j int) bool {
		a, b := p.view[i], p.view[j]
		if pat != "" && p.sort == sortServer && scores[a] != scores[b] {
			return scores[a] > scores[b]
		}
		return less(a, b)
	})
	p.nav.SetLen(len(p.view))
}

func (p *toolsPane) saving(i int) float64 {
	return savingsRatio(p.count(i, "json"), p.count(i, primaryForm))
}

// count is row i's tokens in form, from the report; -1 when not counted.
func (p *toolsPane) count(i int, form string) int {
	if p.report == nil {
		return -1
	}
	tc, ok := p.report.Tool(p.rows[i].tool.Name)
	if !ok {
		return -1
	}
	if n, ok := tc.Counts[form]; ok {
		return n
	}
	return -1
}

func (p *toolsPane) selected() *toolset.Tool {
	if p.nav.Cursor < 0 || p.nav.Cursor >= len(p.view) {
		return nil
	}
	return p.rows[p.view[p.nav.Cursor]].tool
}

func (p *toolsPane) selectedName() string {
	if t := p.selected(); t != nil {
		return t.Name
	}
	return ""
}

func (p *toolsPane) selectName(name string) {
	for vi, ri := range p.view {
		if p.rows[ri].tool.Name == name {
			p.nav.Cursor = vi
			p.nav.Move(0)
			return
		}
	}
}

// Update handles a key while the list (or its filter) has focus.
func (p *toolsPane) Update(m tea.Msg) tea.Cmd {
	msg, ok := m.(tea.KeyPressMsg)
	if !ok {
		if p.filtering { // a paste into the filter
			var cmd tea.Cmd
			p.filter, cmd = p.filter.Update(m)
			p.refresh()
			return cmd
		}
		return nil
	}
	k := p.keys
	before := p.selectedName()
	if p.filtering {
		switch {
		case key.Matches(msg, k.FilterAccept):
			p.filtering = false
			p.filter.Blur()
			p.SetSize(p.w, p.h)
			return p.moved(before)
		case key.Matches(msg, k.FilterClear):
			p.filtering = false
			p.filter.Blur()
			p.filter.SetValue("")
			p.refresh()
			p.selectName(before)
			p.SetSize(p.w, p.h)
			return p.moved(before)
		case msg.Code == tea.KeyUp && msg.Mod == 0:
			p.nav.Move(-1)
			return p.moved(before)
		case msg.Code == tea.KeyDown && msg.Mod == 0:
			p.nav.Move(1)
			return p.moved(before)
		}
		var cmd tea.Cmd
		old := p.filter.Value()
		p.filter, cmd = p.filter.Update(msg)
		if p.filter.Value() != old {
			p.refresh()
			p.nav.Top()
		}
		return tea.Batch(cmd, p.moved(before))
	}
	switch {
	case key.Matches(msg, k.Up):
		p.nav.Move(-1)
	case key.Matches(msg, k.Down):
		p.nav.Move(1)
	case key.Matches(msg, k.PageUp):
		p.nav.Move(-p.nav.Height())
	case key.Matches(msg, k.PageDown):
		p.nav.Move(p.nav.Height())
	case key.Matches(msg, k.Top):
		p.nav.Top()
	case key.Matches(msg, k.Bottom):
		p.nav.Bottom()
	case key.Matches(msg, k.Filter):
		p.filtering = true
		p.SetSize(p.w, p.h)
		return p.filter.Focus()
	case key.Matches(msg, k.Sort):
		p.sort = (p.sort + 1) % 4
		p.refresh()
		p.selectName(before)
	case key.Matches(msg, k.Compose):
		if p.selected() != nil {
			return p.ask(composeMsg{})
		}
	case key.Matches(msg, k.Copy):
		return p.ask(copyDeclarationMsg{})
	}
	return p.moved(before)
}

// moved asks for the selection to be shown when it changed.
func (p *toolsPane) moved(before string) tea.Cmd {
	if p.selectedName() != before {
		return p.ask(selectionMsg{})
	}
	return nil
}

// click selects the row under the mouse (y relative to the pane's top).
func (p *toolsPane) click(_, y int) tea.Cmd {
	before := p.selectedName()
	row := y - 2 // border and headings
	if p.filtering || p.filter.Value() != "" {
		row--
	}
	p.nav.Click(row)
	return p.moved(before)
}

func (p *toolsPane) wheel(delta int) tea.Cmd {
	before := p.selectedName()
	p.nav.Scroll(delta)
	return p.moved(before)
}

func (p *toolsPane) Help() []key.Binding {
	if p.filtering {
		return []key.Binding{p.keys.FilterAccept, p.keys.FilterClear}
	}
	return []key.Binding{p.keys.Compose, p.keys.CallForm, p.keys.Filter, p.keys.Sort, p.keys.Copy, p.keys.Up, p.keys.Down}
}

// View draws the pane at its outer size.
func (p *toolsPane) View() string {
	st := *p.st
	iw, _ := widget.Inner(st.Frame, p.w, p.h)
	var b strings.Builder
	if p.filtering || p.filter.Value() != "" {
		b.WriteString(p.filter.View())
		b.WriteByte('\n')
	}
	cols := p.columns(iw)
	key := rowCacheKey{width: iw, theme: st.Palette.Name, report: p.report, filter: p.filter.Value(), focus: p.focused}
	if key != p.cacheKey || p.cache == nil {
		p.cache = map[int]string{}
		p.cacheKey = key
	}
	b.WriteString(st.Muted.Render(cols.heading()))
	from, to := p.nav.Visible()
	for vi := from; vi < to; vi++ {
		b.WriteByte('\n')
		b.WriteString(p.row(cols, vi))
	}
	if len(p.view) == 0 {
		b.WriteByte('\n')
		if len(p.rows) == 0 {
			b.WriteString(st.Muted.Render("no tools"))
		} else {
			b.WriteString(st.Muted.Render("no tool matches " + p.filter.Value()))
		}
	}
	title := fmt.Sprintf("Tools %d", len(p.rows))
	if len(p.view) != len(p.rows) {
		title = fmt.Sprintf("Tools %d/%d", len(p.view), len(p.rows))
	}
	return widget.Frame(st.Frame, p.focused, p.w, p.h, title, "sort: "+p.sort.String(), b.String())
}

// toolColumns are the widths of the list's columns for an inner width.
type toolColumns struct {
	code, name, cat, badges, counts int
	primary                         string
}

func (p *toolsPane) columns(iw int) toolColumns {
	c := toolColumns{code: 4, badges: 3, counts: 16, primary: primaryForm}
	for _, r := range p.rows {
		if r.category != "" {
			c.cat = 1
			break
		}
	}
	if iw < 44 {
		c.counts = 11
	}
	c.name = iw - c.code - c.badges - c.counts - 3 - c.cat
	if c.cat > 0 {
		c.name--
	}
	if c.name < 8 {
		c.counts = 0
		c.name = iw - c.code - c.badges - 2 - c.cat
	}
	return c
}

func (c toolColumns) heading() string {
	s := widget.PadRight("code", c.code) + " " + widget.PadRight("name", c.name) + " "
	if c.cat > 0 {
		s += "c "
	}
	s += widget.PadRight("ro!", c.badges)
	if c.counts > 0 {
		h := "json→" + shortForm(c.primary)
		if c.counts < 16 || c.primary == "" {
			h = "json tok"
		}
		s += " " + fmt.Sprintf("%*s", c.counts, h)
	}
	return s
}

func shortForm(f string) string {
	switch f {
	case "term":
		return "term"
	case "term_lean":
		return "lean"
	case "json_full":
		return "full"
	}
	return f
}

func (p *toolsPane) row(c toolColumns, vi int) string {
	ri := p.view[vi]
	selected := vi == p.nav.Cursor
	if !selected {
		if s, ok := p.cache[ri]; ok {
			return s
		}
		s := p.drawRow(c, vi)
		p.cache[ri] = s
		return s
	}
	return p.drawRow(c, vi)
}

func (p *toolsPane) drawRow(c toolColumns, vi int) string {
	st := *p.st
	ri := p.view[vi]
	r := p.rows[ri]
	selected := vi == p.nav.Cursor
	room := c.name
	if r.alike {
		room--
	}
	name := widget.Truncate(r.name, room)
	if pos := p.matches[ri]; len(pos) > 0 && !selected {
		name = widget.HighlightPositions(name, pos, st.Match)
	}
	if r.alike {
		name = st.Warn.Render("≈") + name // told apart only by invisible characters or case
	}
	line := widget.PadRight(st.Muted.Render(widget.Truncate(r.code, c.code)), c.code) + " " + widget.PadRight(name, c.name) + " "
	if c.cat > 0 {
		cat := " "
		if r.category != "" {
			cat = r.category[:1]
		}
		line += st.Category.Render(cat) + " "
	}
	badge := func(on bool, s string, style func(...string) string) string {
		if !on {
			return " "
		}
		return style(s)
	}
	line += badge(r.ro, "r", st.BadgeRO.Render) + badge(r.del, "!", st.BadgeDel.Render) + badge(r.open, "o", st.BadgeOpen.Render)
	if c.counts > 0 {
		line += " " + p.countCell(ri, c.counts)
	}
	if selected {
		w := c.code + c.name + c.badges + 2 + c.cat + boolInt(c.cat > 0)
		if c.counts > 0 {
			w += c.counts + 1
		}
		plain := widget.FitLine(ansi.Strip(line), w)
		if p.focused {
			return st.Selected.Render(plain)
		}
		return st.Bold.Render(plain)
	}
	return line
}

func (p *toolsPane) countCell(ri int, w int) string {
	st := *p.st
	base := p.count(ri, "json")
	n := p.count(ri, primaryForm)
	if base < 0 {
		return fmt.Sprintf("%*s", w, "…")
	}
	if w < 16 {
		return fmt.Sprintf("%*s", w, thousands(base))
	}
	cell := thousands(base) + "→"
	if n >= 0 {
		cell += thousands(n)
	} else {
		cell += "?"
	}
	sv := savings(base, n)
	style := st.Savings
	if strings.HasPrefix(sv, "+") {
		style = st.Cost
	}
	pad := w - len([]rune(cell)) - 1 - len(sv)
	if pad < 0 {
		return fmt.Sprintf("%*s", w, widget.Truncate(cell, w))
	}
	return strings.Repeat(" ", pad) + st.Text.Render(cell) + " " + style.Render(sv)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
