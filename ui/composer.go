package ui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// composerCheck is the live verdict on the composer's text.
type composerCheck struct {
	parsed  *Parsed
	err     error
	pos     sexpr.Pos // of the first error, zero when unknown
	srcN    int       // tokens of the text as written
	jsonN   int       // tokens of the equivalent tools/call params as JSON
	rpc     string    // the JSON-RPC request(s) it becomes
	summary string
}

// composerPane is the call editor. While it has focus it takes every key
// except ctrl+c (and esc while a call runs), as a text input must.
type composerPane struct {
	st      *Styles
	keys    *KeyMap
	w, h    int
	focused bool

	editor  widget.Editor
	seq     int // edit sequence: a check answers one seq
	check   composerCheck
	checked int // seq of check
	counted bool

	preview bool
	syntax  string // syntax of the last successful parse

	history []string
	histIdx int    // len(history) = editing the current text
	stash   string // the current text while browsing history

	dirty    bool // changed since last saved to a file or run
	saveSeq  int  // autosave sequence
	path     string
	template string // the text last inserted as a template

	completions []string // the last candidates, shown under the editor
	compNote    string

	comp    *completer // for the tool list shown; nil before one arrives
	running bool       // a call is running (the title says so)
}

func newComposerPane(st *Styles, keys *KeyMap) composerPane {
	ed := widget.NewEditor()
	ed.Placeholder = "enter on a tool starts a call; (batch (1 (code ...)) (2 ...)) runs several"
	ed.SetStyles(st.EditorText, st.EditorCursor, st.Muted)
	return composerPane{st: st, keys: keys, editor: ed}
}

func (p *composerPane) SetSize(w, h int) {
	p.w, p.h = w, h
	iw, ih := widget.Inner(p.st.Frame, w, h)
	p.editor.SetWidth(iw)
	p.editor.SetHeight(max(p.editorHeight(ih), 1))
}

// editorHeight leaves room for the status lines (and the preview).
func (p *composerPane) editorHeight(ih int) int {
	n := ih - 2
	if p.preview {
		n = max(ih/2-1, 2)
	}
	return n
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
	return nil
}

func (p *composerPane) Blur() {
	p.focused = false
	p.editor.Blur()
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

// placeInTemplate puts the cursor in the first empty string placeholder, so
// typing fills in the first required parameter.
func (p *composerPane) placeInTemplate(from int) {
	v := p.editor.Value()
	if from < len(v) {
		if i := strings.Index(v[from:], `""`); i >= 0 {
			p.placeCursor(from + i + 1)
			return
		}
	}
	p.editor.MoveToEnd()
}

// guessSyntax names the syntax of text that does not parse (yet).
func guessSyntax(src string) string {
	t := strings.TrimSpace(src)
	switch {
	case strings.HasPrefix(t, "("), strings.HasPrefix(t, ";"):
		return "sexpr"
	case strings.Contains(t, `"operation`):
		return "aql"
	case strings.HasPrefix(t, "{"), strings.HasPrefix(t, "["):
		return "json"
	}
	return ""
}

func (p *composerPane) edited() {
	p.seq++
	p.dirty = strings.TrimSpace(p.editor.Value()) != "" && p.editor.Value() != p.template
	p.completions = nil
	p.compNote = ""
}

// Update handles a key while the editor has focus.
func (p *composerPane) Update(msg tea.Msg) tea.Cmd {
	k := p.keys
	edited := ask(composerEditedMsg{})
	if km, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(km, k.Run):
			return ask(runMsg{})
		case key.Matches(km, k.LeaveEdit):
			return ask(focusMsg{focusResults})
		case key.Matches(km, k.SaveFile):
			return ask(saveComposerMsg{})
		case key.Matches(km, k.OpenFile):
			return ask(openComposerMsg{})
		case key.Matches(km, k.Template):
			return ask(composeMsg{})
		case key.Matches(km, k.Syntax):
			return ask(switchSyntaxMsg{})
		case key.Matches(km, k.Preview):
			p.preview = !p.preview
			p.SetSize(p.w, p.h)
			if p.preview {
				p.seq++ // recheck, now with the preview
				return edited
			}
			return nil
		case key.Matches(km, k.Complete):
			if p.completeAtCursor() {
				return edited
			}
			return nil
		case key.Matches(km, k.HistPrev) && p.editor.Line() == 0 && len(p.history) > 0:
			if p.histIdx == len(p.history) {
				p.stash = p.editor.Value()
			}
			if p.histIdx > 0 {
				p.histIdx--
				p.setText(p.history[p.histIdx])
				return edited
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
			return edited
		}
	}
	if p.editor.Update(msg) {
		p.edited()
		return edited
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

// completeAtCursor replaces the word before the cursor with the only
// candidate, or with the candidates' common prefix and lists them.
func (p *composerPane) completeAtCursor() bool {
	if p.comp == nil {
		return false
	}
	before := p.textBeforeCursor()
	cands, word := p.comp.complete(before)
	p.completions = nil
	p.compNote = ""
	if len(cands) == 0 {
		p.compNote = "no completion"
		return false
	}
	repl := cands[0]
	if len(cands) > 1 {
		repl = commonPrefix(cands)
	} else if !strings.HasSuffix(repl, " ") && !strings.HasSuffix(repl, "(") {
		repl += " "
	}
	changed := len([]rune(repl)) > len([]rune(word)) && repl != word
	if changed {
		p.replaceBeforeCursor(len([]rune(word)), repl)
	}
	if len(cands) > 1 {
		p.completions = cands // shown under the editor until the next edit
	}
	return changed
}

// replaceBeforeCursor deletes n runes before the cursor and inserts s.
func (p *composerPane) replaceBeforeCursor(n int, s string) {
	lines := strings.Split(p.editor.Value(), "\n")
	row := min(p.editor.Line(), len(lines)-1)
	r := []rune(lines[row])
	col := min(p.editor.Column(), len(r))
	start := max(col-n, 0)
	lines[row] = string(r[:start]) + s + string(r[col:])
	newCol := start + len([]rune(s))
	p.editor.SetValue(strings.Join(lines, "\n"))
	p.editor.MoveToBegin()
	for i := 0; i < row; i++ {
		p.editor.CursorDown()
	}
	p.editor.SetCursorColumn(newCol)
	p.edited()
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
	return []key.Binding{k.Run, k.Complete, k.LeaveEdit, k.Preview, k.Syntax, k.SaveFile, k.OpenFile, k.HistPrev}
}

// View draws the editor and the live verdict under it.
func (p *composerPane) View() string {
	st := *p.st
	iw, ih := widget.Inner(st.Frame, p.w, p.h)
	var b strings.Builder
	b.WriteString(p.editor.View())
	b.WriteByte('\n')
	b.WriteString(widget.FitLine(p.statusLine(), iw))
	b.WriteByte('\n')
	b.WriteString(widget.FitLine(p.countLine(), iw))
	if p.preview {
		b.WriteByte('\n')
		label := "─ JSON-RPC request (the session adds its own id and _meta) "
		b.WriteString(st.Muted.Render(widget.Truncate(label+strings.Repeat("─", max(iw-len([]rune(label)), 0)), iw)))
		rest := ih - p.editor.Height() - 3
		rpc := p.check.rpc
		if rpc == "" {
			rpc = st.Muted.Render("(no valid call yet)")
		} else {
			rpc = widget.Highlight(st.Syntax, "json", rpc)
		}
		b.WriteByte('\n')
		b.WriteString(widget.FitBlock(rpc, iw, max(rest, 1)))
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
	case "sexpr":
		right = "S-expr"
	case "json":
		right = "JSON"
	case "aql":
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
	if len(p.completions) > 0 {
		return st.Info.Render("tab: ") + st.Muted.Render(strings.Join(p.completions, "  "))
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
		return st.Error.Render("✗ ") + st.Error.UnsetBold().Render(oneLine(msg))
	}
	return st.OK.Render("✓ ") + st.Text.Render(p.check.summary)
}

func (p *composerPane) countLine() string {
	st := *p.st
	c := p.check
	if p.checked != p.seq || strings.TrimSpace(p.editor.Value()) == "" {
		return ""
	}
	if !p.counted {
		return st.Muted.Render("tokens: loading tokenizer…")
	}
	label := "as written"
	switch p.syntax {
	case "sexpr":
		label = "S-expr"
	case "aql":
		label = "AQL"
	case "json":
		label = "JSON"
	}
	s := st.Muted.Render(label+" ") + st.Text.Render(thousands(c.srcN)+" tok")
	if c.parsed != nil && p.syntax != "json" {
		sv := savings(c.jsonN, c.srcN)
		style := st.Savings
		if strings.HasPrefix(sv, "+") {
			style = st.Cost
		}
		s += st.Muted.Render(" · JSON args ") + st.Text.Render(thousands(c.jsonN)+" tok ") + style.Render(sv)
	}
	return s
}

// checkComposer parses, validates and counts src. It runs in a Cmd after
// every edit; the result is tagged with the edit's seq.
func checkComposer(set *toolset.Set, codec Codec, c Counter, enc, src string, nextID int64, preview bool) (composerCheck, bool) {
	var ck composerCheck
	parsed, err := codec.Parse(set, src)
	if err != nil {
		ck.err = err
		var se *sexpr.Error
		var pe ErrorPosition
		if errors.As(err, &pe) {
			ck.pos = pe.Position()
		} else if errors.As(err, &se) {
			ck.pos = se.Pos
		}
	} else {
		ck.parsed = parsed
		ck.summary = summarize(parsed)
		if preview {
			ck.rpc = rpcPreview(parsed, nextID)
		}
	}
	counted := c != nil && c.Ready(enc)
	if counted {
		ck.srcN = c.Count(enc, src)
		if parsed != nil {
			ck.jsonN = c.Count(enc, jsonParams(parsed))
		}
	}
	return ck, counted
}

func summarize(p *Parsed) string {
	if !p.Batch && len(p.Calls) == 1 {
		return "call " + p.Calls[0].Tool + argSummary(p.Calls[0].Arguments)
	}
	s := fmt.Sprintf("batch of %d calls", len(p.Calls))
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

// jsonParams is the JSON a client would send for the same calls: the
// tools/call params, one per call, as a model would have to write them.
func jsonParams(p *Parsed) string {
	var parts []string
	for _, c := range p.Calls {
		parts = append(parts, callParams(c).Compact())
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func callParams(c ParsedCall) *ojson.Value {
	args := c.Arguments
	if args == nil {
		args = ojson.NewObject()
	}
	return ojson.NewObject().Set("name", ojson.NewString(c.Tool)).Set("arguments", args)
}

// rpcPreview shows the JSON-RPC requests a run would send.
func rpcPreview(p *Parsed, nextID int64) string {
	var b strings.Builder
	for i, c := range p.Calls {
		if i > 0 {
			b.WriteByte('\n')
		}
		if c.Direct != nil {
			b.WriteString("// " + c.Tool + ": answered locally, nothing is sent\n")
			continue
		}
		req := ojson.NewObject().
			Set("jsonrpc", ojson.NewString("2.0")).
			Set("id", ojson.NewInt(nextID+int64(i))).
			Set("method", ojson.NewString("tools/call")).
			Set("params", callParams(c))
		b.WriteString(req.Pretty())
	}
	return b.String()
}

// autosaveDelay batches keystrokes into one draft write.
const autosaveDelay = 400 * time.Millisecond
