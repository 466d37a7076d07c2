package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/tokens"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// composerCheck is the live verdict on the composer's text.
type composerCheck struct {
	plan    *calls.Plan
	err     error
	pos     sexpr.Pos // of the first error, zero when unknown
	cost    tokens.CallCost
	counted bool   // cost holds counts (the tokenizer was ready)
	rpc     string // the JSON-RPC request(s) it becomes
	summary string
}

// composerPane is the call editor. While it has focus it takes every key
// except ctrl+c (and esc while a call runs), as a text input must.
type composerPane struct {
	inbox   // requests of the root
	st      *Styles
	keys    *KeyMap
	w, h    int
	focused bool

	editor  widget.Editor
	seq     int // edit sequence: a check answers one seq
	check   composerCheck
	checked int // seq of check

	preview    bool
	previewTop int          // first line of the preview shown
	syntax     calls.Syntax // syntax of the last text read

	history []string
	histIdx int    // len(history) = editing the current text
	stash   string // the current text while browsing history

	dirty    bool // changed since last saved to a file or run
	path     string
	template string // the text last inserted as a template

	cycle    *completion // the completion being cycled through
	compNote string      // why tab did nothing
	sig      sigCache

	codec    *calls.Codec // of the tool list shown; nil before one arrives
	lex      *composerLex
	running  bool // a call is running (the title says so)
	sanitize func(string) string
}

func newComposerPane(st *Styles, keys *KeyMap, sanitize func(string) string) composerPane {
	ed := widget.NewEditor()
	ed.Placeholder = "enter on a tool starts a call; (batch (1 (code ...)) (2 ...)) runs several"
	ed.SetStyles(st.EditorText, st.EditorCursor, st.Muted)
	return composerPane{st: st, keys: keys, editor: ed, sanitize: sanitize}
}

func (p *composerPane) SetSize(w, h int) {
	p.w, p.h = w, h
	iw, ih := widget.Inner(p.st.Frame, w, h)
	p.editor.SetWidth(iw)
	p.editor.SetHeight(max(p.editorHeight(ih), 1))
}

// editorHeight leaves room for the signature help while editing, the
// status lines and the preview.
func (p *composerPane) editorHeight(ih int) int {
	if p.preview {
		return max(ih/3, 2)
	}
	return ih - 2 - p.sigLines(ih)
}

// previewRows is the height of the JSON-RPC preview.
func (p *composerPane) previewRows() int {
	_, ih := widget.Inner(p.st.Frame, p.w, p.h)
	return max(ih-p.editor.Height()-p.sigLines(ih)-3, 1)
}

// sigLines is how many lines the signature help takes: two while editing
// where there is room, one in a short pane, none otherwise (nor with the
// preview, which wants the room).
func (p *composerPane) sigLines(ih int) int {
	switch {
	case !p.focused || p.preview || ih < 6:
		return 0
	case ih < 8:
		return 1
	}
	return 2
}

func (p *composerPane) click(_, _ int) tea.Cmd { return nil }

// wheel pages the editor: its text is all it has to scroll.
func (p *composerPane) wheel(delta int) tea.Cmd {
	if delta < 0 {
		p.editor.PageUp()
	} else {
		p.editor.PageDown()
	}
	return nil
}

func (p *composerPane) Focus() tea.Cmd {
	p.focused = true
	p.editor.Focus()
	p.SetSize(p.w, p.h) // room for the signature help
	return nil
}

func (p *composerPane) Blur() {
	p.focused = false
	p.editor.Blur()
	p.SetSize(p.w, p.h)
}

func (p *composerPane) capturesKeys() bool { return p.focused }

func (p *composerPane) Value() string { return p.editor.Value() }

// setText replaces the content (template, history, file) and counts as an edit.
func (p *composerPane) setText(s string) {
	p.editor.SetValue(s)
	p.editor.MoveToBegin()
	p.edited()
}

// placeCursor puts the cursor at byte offset off of the text.
func (p *composerPane) placeCursor(off int) {
	v := p.editor.Value()
	off = clamp(off, 0, len(v))
	before := v[:off]
	row := strings.Count(before, "\n")
	col := len([]rune(before[strings.LastIndexByte(before, '\n')+1:]))
	p.editor.MoveToBegin()
	for i := 0; i < row; i++ {
		p.editor.CursorDown()
	}
	p.editor.SetCursorColumn(col)
}

// cursorOffset is the cursor's byte offset in the text.
func (p *composerPane) cursorOffset() int { return len(p.textBeforeCursor()) }

func (p *composerPane) edited() {
	p.seq++
	p.editor.SetCaret(nil) // the error it pointed at is of the old text
	p.dirty = strings.TrimSpace(p.editor.Value()) != "" && p.editor.Value() != p.template
	p.compNote = ""
}

// Update handles a key while the editor has focus.
func (p *composerPane) Update(msg tea.Msg) tea.Cmd {
	k := p.keys
	edited := func() tea.Cmd { return p.ask(composerEditedMsg{}) }
	if km, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(km, k.Run):
			return p.ask(runMsg{})
		case key.Matches(km, k.LeaveEdit):
			return p.ask(focusMsg{focusResults})
		case key.Matches(km, k.SaveFile):
			return p.ask(saveComposerMsg{})
		case key.Matches(km, k.OpenFile):
			return p.ask(openComposerMsg{})
		case key.Matches(km, k.Template):
			return p.ask(composeMsg{})
		case key.Matches(km, k.Syntax):
			return p.ask(switchSyntaxMsg{})
		case key.Matches(km, k.HistSearch):
			return p.ask(historySearchMsg{})
		case key.Matches(km, k.CopyCall):
			if p.preview && p.check.rpc != "" {
				return p.ask(copyMsg{what: "the JSON-RPC requests", text: p.check.rpc})
			}
			return p.ask(copyMsg{what: "the call", text: p.editor.Value()})
		case p.preview && (key.Matches(km, k.PreviewUp) || key.Matches(km, k.PreviewDown)):
			rows := p.previewRows()
			step := max(rows-1, 1)
			if key.Matches(km, k.PreviewUp) {
				step = -step
			}
			last := max(strings.Count(p.check.rpc, "\n")+1-rows, 0)
			p.previewTop = clamp(clamp(p.previewTop, 0, last)+step, 0, last)
			return nil
		case key.Matches(km, k.Preview):
			p.preview = !p.preview
			p.SetSize(p.w, p.h)
			if p.preview {
				p.seq++ // recheck, now with the preview
				return edited()
			}
			return nil
		case key.Matches(km, k.Complete), key.Matches(km, k.CompletePrev):
			dir := 1
			if key.Matches(km, k.CompletePrev) {
				dir = -1
			}
			if p.complete(dir) {
				return edited()
			}
			return nil
		case key.Matches(km, k.HistPrev) && p.editor.Line() == 0 && len(p.history) > 0:
			if p.histIdx == len(p.history) {
				p.stash = p.editor.Value()
			}
			if p.histIdx > 0 {
				p.histIdx--
				p.setText(p.history[p.histIdx])
				return edited()
			}
			return nil
		case key.Matches(km, k.HistNext) && p.editor.Line() == p.editor.LineCount()-1 && p.histIdx < len(p.history):
			p.histIdx++
			if p.histIdx == len(p.history) {
				p.setText(p.stash)
			} else {
				p.setText(p.history[p.histIdx])
			}
			p.editor.MoveToEnd()
			return edited()
		}
	}
	if km, ok := msg.(tea.KeyPressMsg); ok && p.focused {
		typed := km.Text
		if km.Code == tea.KeyBackspace && km.Mod == 0 {
			typed = "backspace"
		}
		if handled, changed := p.autoClose(typed); handled {
			if changed {
				p.edited()
				return edited()
			}
			return nil
		}
	}
	if p.editor.Update(msg) {
		p.edited()
		return edited()
	}
	return nil
}

// textBeforeCursor is the buffer up to the cursor.
func (p *composerPane) textBeforeCursor() string {
	lines := strings.Split(p.editor.Value(), "\n")
	row := min(p.editor.Line(), len(lines)-1)
	var b strings.Builder
	for i := 0; i < row; i++ {
		b.WriteString(lines[i])
		b.WriteByte('\n')
	}
	r := []rune(lines[row])
	b.WriteString(string(r[:min(p.editor.Column(), len(r))]))
	return b.String()
}

func commonPrefix(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	pre := []rune(ss[0])
	for _, s := range ss[1:] {
		r := []rune(s)
		n := 0
		for n < len(pre) && n < len(r) && pre[n] == r[n] {
			n++
		}
		pre = pre[:n]
	}
	return string(pre)
}

func (p *composerPane) Help() []key.Binding {
	k := p.keys
	return []key.Binding{k.Run, k.Complete, k.LeaveEdit, k.CallForm, k.Preview, k.Syntax, k.HistSearch, k.CopyCall, k.SaveFile, k.OpenFile, k.HistPrev}
}

// View draws the editor and the live verdict under it.
func (p *composerPane) View() string {
	st := *p.st
	iw, ih := widget.Inner(st.Frame, p.w, p.h)
	var b strings.Builder
	p.editor.Paint = p.paintLine
	b.WriteString(p.editor.View())
	b.WriteByte('\n')
	if n := p.sigLines(ih); n > 0 {
		decl, slot := p.signatureLines(iw)
		if n == 1 {
			decl = slot
		}
		b.WriteString(widget.FitLine(decl, iw))
		b.WriteByte('\n')
		if n == 2 {
			b.WriteString(widget.FitLine(slot, iw))
			b.WriteByte('\n')
		}
	}
	b.WriteString(widget.FitLine(p.statusLine(), iw))
	b.WriteByte('\n')
	b.WriteString(widget.FitLine(p.countLine(), iw))
	if p.preview {
		b.WriteByte('\n')
		label := "─ JSON-RPC request (the session adds its own id and _meta) "
		rest := p.previewRows()
		rpc := p.check.rpc
		if rpc == "" {
			rpc = st.Muted.Render("(no valid call yet)")
		} else {
			lines := strings.Split(rpc, "\n")
			top := clamp(p.previewTop, 0, max(len(lines)-rest, 0))
			if len(lines) > rest {
				label = fmt.Sprintf("─ JSON-RPC request · lines %d–%d of %d (alt+↑↓) ", top+1, min(top+rest, len(lines)), len(lines))
			}
			rpc = widget.Highlight(st.Syntax, "json", strings.Join(lines[top:min(top+rest, len(lines))], "\n"))
		}
		b.WriteString(st.Muted.Render(widget.Truncate(label+strings.Repeat("─", max(iw-ansi.StringWidth(label), 0)), iw)))
		b.WriteByte('\n')
		b.WriteString(widget.FitBlock(rpc, iw, rest))
	}
	title := "Composer"
	if p.path != "" {
		title += " · " + p.path
	}
	if p.focused {
		title += fmt.Sprintf(" · %d:%d", p.editor.Line()+1, p.editor.Column()+1)
	}
	right := ""
	switch p.syntax {
	case calls.SExpr:
		right = "S-expr"
	case calls.JSON:
		right = "JSON"
	case calls.AQL:
		right = "AQL JSON"
	}
	if p.running {
		right = "running… " + right
	}
	if p.dirty {
		right += " ●"
	}
	return widget.Frame(st.Frame, p.focused, p.w, p.h, title, right, b.String())
}

func (p *composerPane) statusLine() string {
	st := *p.st
	if line := p.completionLine(p.w); line != "" {
		return line
	}
	if p.compNote != "" {
		return st.Muted.Render(p.compNote)
	}
	if strings.TrimSpace(p.editor.Value()) == "" {
		return st.Muted.Render("empty")
	}
	if p.checked != p.seq {
		return st.Muted.Render("checking…")
	}
	if p.check.err != nil {
		msg := p.check.err.Error()
		if p.check.pos.Line > 0 && !strings.HasPrefix(msg, p.check.pos.String()) {
			msg = p.check.pos.String() + " " + msg
		}
		return st.Error.Render("✗ ") + st.Error.UnsetBold().Render(oneLine(p.sanitize(msg)))
	}
	return st.OK.Render("✓ ") + st.Text.Render(oneLine(p.sanitize(p.check.summary)))
}

func (p *composerPane) countLine() string {
	st := *p.st
	c := p.check
	if p.checked != p.seq || strings.TrimSpace(p.editor.Value()) == "" {
		return ""
	}
	if !c.counted {
		return st.Muted.Render("tokens: loading tokenizer…")
	}
	label := "as written"
	switch p.syntax {
	case calls.SExpr:
		label = "S-expr"
	case calls.AQL:
		label = "AQL"
	case calls.JSON:
		label = "JSON as written"
	}
	s := st.Muted.Render(label+" ") + st.Text.Render(thousands(c.cost.Written)+" tok")
	if c.plan != nil && c.cost.JSON >= 0 {
		sv := savings(c.cost.JSON, c.cost.Written)
		style := st.Savings
		if strings.HasPrefix(sv, "+") {
			style = st.Cost
		}
		s += st.Muted.Render(" · as JSON calls ") + st.Text.Render(thousands(c.cost.JSON)+" tok ") + style.Render(sv)
	}
	return s
}

// takeCheck takes the check of edit seq, if it is still the current one,
// and points the caret at its error.
func (p *composerPane) takeCheck(seq int, ck composerCheck) {
	if seq != p.seq {
		return
	}
	p.check, p.checked = ck, seq
	p.editor.SetCaret(p.caret())
}

// checkComposer reads, validates and counts src with the tool list's
// codec, as `mcpterm call --dry-run` does. It runs in a Cmd after every
// edit; the reply is tagged with the edit's seq. c is nil while the
// tokenizer loads.
func checkComposer(codec *calls.Codec, c *tokens.Counter, src string, preview bool) composerCheck {
	var ck composerCheck
	p, err := codec.Read(src)
	if err != nil {
		ck.err = err
		ck.pos, _ = calls.ErrorPos(err)
	} else {
		ck.plan = p
		ck.summary = summarize(p)
		if preview {
			ck.rpc = rpcPreview(codec, p)
		}
	}
	if c != nil {
		if cost, err := tokens.CountCall(c, src, p); err == nil {
			ck.cost, ck.counted = cost, true
		}
	}
	return ck
}

func summarize(p *calls.Plan) string {
	if !p.Batch && len(p.Items) == 1 {
		it := p.Items[0]
		if it.IsLocal() {
			return "AQL " + firstNonEmpty(it.Operation, "request") + ", answered locally"
		}
		return "call " + it.Tool + argSummary(it.Arguments)
	}
	s := fmt.Sprintf("batch of %d calls", len(p.Items))
	if p.Concurrency > 1 {
		s += fmt.Sprintf(", %d at a time", p.Concurrency)
	}
	if p.StopOnError {
		s += ", stop on error"
	}
	return s
}

func argSummary(a *ojson.Value) string {
	if a == nil || a.Kind != ojson.Object || len(a.Members) == 0 {
		return ""
	}
	return " (" + strings.Join(a.Keys(), ", ") + ")"
}

// rpcPreview shows the JSON-RPC requests a run would send, as the dry run
// prints them, and says which items need none.
func rpcPreview(codec *calls.Codec, p *calls.Plan) string {
	var parts []string
	for _, r := range codec.Requests(p) {
		parts = append(parts, r.Pretty())
	}
	for _, n := range codec.Notes(p, p.Syntax) {
		parts = append(parts, "// "+n)
	}
	return strings.Join(parts, "\n")
}
