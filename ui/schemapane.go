package ui

import (
	"fmt"
	"strings"

	"github.com/mcpterm/mcpterm/convert"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/tokens"
	"github.com/mcpterm/mcpterm/ui/widget"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

// schemaKey identifies one rendering of the side-by-side pane; results are
// cached by it and a late result for another key is ignored.
type schemaKey struct {
	tool      string
	form      string
	enc       string
	invisible bool
	theme     string
	counted   bool // the tokenizer was ready when it was computed
	width     int  // the right column's width, for laying S-expressions out
}

// schemaPane shows the selected tool as JSON Schema next to a compact form.
type schemaPane struct {
	inbox   // requests of the root
	st      *Styles
	keys    *KeyMap
	w, h    int
	focused bool

	forms     []string
	formIdx   int
	invisible bool

	want   schemaKey // what should be shown
	have   schemaKey // what is shown
	shown  schemaMsg
	cache  map[schemaKey]schemaMsg
	left   widget.Scroller
	right  widget.Scroller
	noTool bool
}

func newSchemaPane(st *Styles, keys *KeyMap) schemaPane {
	return schemaPane{st: st, keys: keys, cache: map[schemaKey]schemaMsg{}, noTool: true}
}

func (p *schemaPane) SetSize(w, h int) {
	p.w, p.h = w, h
	iw, ih := widget.Inner(p.st.Frame, w, h)
	cw := (iw - 1) / 2
	// Rows: titles, the two documents, the note on what the form left out.
	p.left.SetSize(cw, ih-2)
	p.right.SetSize(iw-1-cw, ih-2)
}

func (p *schemaPane) Focus() tea.Cmd { p.focused = true; return nil }
func (p *schemaPane) Blur()          { p.focused = false }

func (p *schemaPane) form() string {
	if len(p.forms) == 0 {
		return "term"
	}
	return p.forms[p.formIdx%len(p.forms)]
}

// reset forgets every rendering: they belong to a tool list now gone.
func (p *schemaPane) reset() {
	p.cache = map[schemaKey]schemaMsg{}
	p.want, p.have = schemaKey{}, schemaKey{}
}

func (p *schemaPane) setForms(forms []string) {
	cur := p.form()
	p.forms = forms
	p.formIdx = 0
	for i, f := range forms {
		if f == cur {
			p.formIdx = i
		}
	}
}

// target computes the key for the current tool and settings and says
// whether a render is needed.
func (p *schemaPane) target(tool *toolset.Tool, enc string, counted bool) (schemaKey, bool) {
	if tool == nil {
		p.noTool = true
		return schemaKey{}, false
	}
	p.noTool = false
	iw, _ := widget.Inner(p.st.Frame, p.w, p.h)
	k := schemaKey{tool: tool.Name, form: p.form(), enc: enc, invisible: p.invisible, theme: p.st.Palette.Name, counted: counted, width: iw - 1 - (iw-1)/2}
	p.want = k
	if m, ok := p.cache[k]; ok {
		p.show(m)
		return k, false
	}
	return k, true
}

// apply takes a render result; stale ones only fill the cache.
func (p *schemaPane) apply(m schemaMsg) {
	if len(p.cache) > 256 {
		p.cache = map[schemaKey]schemaMsg{}
	}
	p.cache[m.key] = m
	if m.key == p.want {
		p.show(m)
	}
}

func (p *schemaPane) show(m schemaMsg) {
	sameTool := p.have.tool == m.key.tool
	p.have = m.key
	p.shown = m
	ly, ry := p.left.YOffset(), p.right.YOffset()
	p.left.SetContent(m.left)
	p.right.SetContent(m.right)
	if sameTool {
		p.left.SetYOffset(ly)
		p.right.SetYOffset(ry)
	} else {
		p.left.GotoTop()
		p.right.GotoTop()
	}
}

// Update scrolls both documents together.
func (p *schemaPane) Update(m tea.Msg) tea.Cmd {
	msg, ok := m.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if key.Matches(msg, p.keys.Copy) {
		return p.copy()
	}
	scrollKey(p.keys, msg, p.scroll, p.left.Height())
	return nil
}

// copy asks for the right-hand form's text, as counted, on the clipboard.
func (p *schemaPane) copy() tea.Cmd {
	if p.noTool || p.shown.copyText == "" {
		return nil
	}
	return p.ask(copyMsg{what: formLabel(firstNonEmpty(p.shown.rightForm, p.shown.key.form)) + " of " + p.shown.title, text: p.shown.copyText})
}

// toggles shared by the tools page: they work with either pane focused.
func (p *schemaPane) cycleForm() {
	if len(p.forms) > 0 {
		p.formIdx = (p.formIdx + 1) % len(p.forms)
	}
}

func (p *schemaPane) toggleInvisible() { p.invisible = !p.invisible }

func (p *schemaPane) scroll(n int) {
	p.left.Scroll(n)
	p.right.Scroll(n)
}

func (p *schemaPane) click(_, _ int) tea.Cmd { return nil }
func (p *schemaPane) wheel(n int) tea.Cmd    { p.scroll(n); return nil }

func (p *schemaPane) Help() []key.Binding {
	return []key.Binding{p.keys.Chart, p.keys.Form, p.keys.Invisible, p.keys.Copy, p.keys.Encoding, p.keys.Up, p.keys.Down}
}

func (p *schemaPane) View() string {
	st := *p.st
	iw, ih := widget.Inner(st.Frame, p.w, p.h)
	if p.noTool {
		return widget.Frame(st.Frame, p.focused, p.w, p.h, "Side by side", "", st.Muted.Render("select a tool"))
	}
	m := p.shown
	cw := p.left.Width()
	leftTitle := "JSON (the baseline)"
	if m.key.invisible {
		leftTitle = "tool as sent"
	}
	rightTitle := formLabel(firstNonEmpty(m.rightForm, m.key.form))
	lt := st.PaneTitle.Render(leftTitle) + " " + countLabel(st, m.leftN, -1)
	rt := st.PaneTitle.Render(rightTitle) + " " + countLabel(st, m.rightN, m.leftN)
	if p.have != p.want {
		rt += st.Muted.Render(" …")
	}
	sep := st.Subtle.Render("│")
	lines := make([]string, 0, ih)
	lines = append(lines, widget.FitLine(lt, cw)+sep+widget.FitLine(rt, iw-cw-1))
	lv := p.left.Visible()
	rv := p.right.Visible()
	for i := 0; i < ih-2; i++ {
		var l, r string
		if i < len(lv) {
			l = lv[i]
		}
		if i < len(rv) {
			r = rv[i]
		}
		lines = append(lines, widget.FitLine(l, cw)+sep+widget.FitLine(r, iw-cw-1))
	}
	lines = append(lines, st.Muted.Render(widget.Truncate(m.note, iw)))
	right := ""
	if m.leftN >= 0 && m.rightN >= 0 {
		right = fmt.Sprintf("Δ %s tok", signed(m.rightN-m.leftN))
	}
	title := "Side by side · " + m.title
	return widget.Frame(st.Frame, p.focused, p.w, p.h, title, right, strings.Join(lines, "\n"))
}

// countLabel renders "812 tok" or "210 tok -74%" (against base), or a hint
// while the tokenizer loads.
func countLabel(st Styles, n, base int) string {
	if n < 0 {
		return st.Muted.Render("counting…")
	}
	s := st.Text.Render(thousands(n) + " tok")
	if base > 0 {
		sv := savings(base, n)
		style := st.Savings
		if strings.HasPrefix(sv, "+") {
			style = st.Cost
		}
		s += " " + style.Render(sv)
	}
	return s
}

func signed(n int) string {
	if n > 0 {
		return "+" + thousands(n)
	}
	if n < 0 {
		return "-" + thousands(-n)
	}
	return "0"
}

// sideForms are the right-hand forms of the side-by-side pane, in
// cycling order (report names, convert.Forms()).
var sideForms = []string{"term", "term_lean", "dts", "floor", "aql_single", "aql_semantic"}

// renderSchema builds both sides for key k. It runs in a Cmd: rendering
// and highlighting a 6 KB schema takes milliseconds. Both sides show the
// per-tool texts of the catalog's renderer — exactly what the report
// counted for the tool — laid out for reading (JSON indented, MCP-Term
// spread over lines; nothing but white space changes), and the counts are
// the report's, never counted again here.
func renderSchema(t ticket, k schemaKey, st Styles, cat *catalog, tool *toolset.Tool, rep *tokens.ServerReport, sanitize func(string) string) schemaMsg {
	m := schemaMsg{t: t, key: k, leftN: -1, rightN: -1, title: safe.Name(sanitize(tool.Name))}
	leftForm, form := "json", k.form
	if k.invisible {
		// The whole tool as sent on the left, against the whole-tool
		// MCP-Term on the right when the right shows MCP-Term.
		leftForm = "json_full"
		if form == "term" {
			form = "term_full"
			m.rightForm = form
		}
	}
	var counts tokens.ToolCounts
	have := false
	if rep != nil {
		counts, have = rep.Tool(tool.Name)
	}
	cell := func(f string) int {
		if n, ok := counts.Counts[f]; have && ok {
			return n
		}
		return -1
	}
	left, err := cat.renderer.ToolTexts(leftForm, tool.Name)
	if err != nil {
		m.left = st.Error.Render(sanitize(err.Error()))
	} else {
		m.left = showTexts(st, leftForm, left, k.width, sanitize)
		m.leftN = cell(leftForm)
	}
	right, err := cat.renderer.ToolTexts(form, tool.Name)
	if err != nil {
		m.rightErr = err
		m.right = st.Error.Render(sanitize(err.Error()))
	} else {
		m.right = showTexts(st, form, right, k.width, sanitize)
		for _, tt := range right {
			m.copyText += tt.Text + "\n"
		}
		m.rightN = cell(form)
		m.note = oneLine(sanitize(cat.renderer.ToolNote(form, tool.Name)))
	}
	return m
}

// showTexts lays out a tool's texts for the screen: each with a label
// when there are several (an AQL exchange's request and answer).
func showTexts(st Styles, form string, texts []convert.ToolText, width int, sanitize func(string) string) string {
	var parts []string
	for _, tt := range texts {
		lexer := textLexer(form, tt.Role)
		shown := layoutText(lexer, tt.Text, width)
		body := widget.Highlight(st.Syntax, lexer, sanitize(shown))
		switch tt.Role {
		case convert.RoleRequest:
			body = st.Muted.Render("→ the model asks") + "\n" + body
		case convert.RoleAnswer:
			body = st.Muted.Render("← and reads back") + "\n" + body
		}
		parts = append(parts, body)
	}
	return strings.Join(parts, "\n\n")
}

// textLexer is the lexer of one of a form's per-tool texts: the form's,
// but JSON for term-lazy's describe request (its answer is MCP-Term).
func textLexer(form string, role convert.TextRole) string {
	if form == convert.LazyForm && role == convert.RoleRequest {
		return "json"
	}
	return lexerFor(form)
}

// layoutText spreads a counted text over lines for reading: JSON indented,
// S-expressions pretty-printed to width, by the text's lexer. Only white
// space outside strings changes, so what is read is what was counted.
func layoutText(lexer, text string, width int) string {
	switch lexer {
	case "json":
		if v, err := ojson.Parse([]byte(text)); err == nil {
			return v.Pretty()
		}
	case "scheme":
		return layoutSexpr(text, width)
	}
	return text
}

// layoutSexpr spreads a one-line-per-form S-expression document over lines
// that fit width, so a declaration reads parameter by parameter. The token
// counts stay those of the canonical text the form renders; only the screen
// gets the layout. Text that does not read as S-expressions is shown as is.
func layoutSexpr(text string, width int) string {
	if width < 20 {
		return text
	}
	forms, err := sexpr.Parse(text)
	if err != nil || len(forms) == 0 {
		return text
	}
	out := make([]string, len(forms))
	for i, f := range forms {
		out[i] = sexpr.Pretty(f, width)
	}
	return strings.Join(out, "\n")
}
