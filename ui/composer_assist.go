package ui

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// The composer's assistance: completion that cycles, and signature help.
// Both read the codec (calls.Codec's Complete and Signature, the one place
// that knows what may stand where in any syntax); the composer only keeps
// the state of a cycle and draws.

// completion is a cycle through candidates: the word they replace starts
// at start; the text from start to end is the candidate inserted last
// (none yet when idx is -1). It lasts while the text is as it left it.
type completion struct {
	items      []call.Candidate
	idx        int
	start, end int // byte offsets in the text
	seq        int // the edit it left the text at
}

// complete is tab (dir 1) and shift+tab (-1). A new cycle first completes
// the candidates' common prefix (all of a lone candidate, with the space
// that follows it); pressed again it steps through the candidates, each
// replacing the last. It reports whether the text changed.
func (p *composerPane) complete(dir int) bool {
	c := p.cycle
	if c == nil || c.seq != p.seq || p.codec == nil {
		if dir < 0 || p.codec == nil {
			return false
		}
		return p.startCompletion()
	}
	n := len(c.items)
	switch {
	case c.idx < 0 && dir > 0:
		c.idx = 0
	case c.idx < 0:
		c.idx = n - 1
	default:
		c.idx = (c.idx + dir + n) % n
	}
	p.replaceCycle(c, c.items[c.idx].Text)
	return true
}

func (p *composerPane) startCompletion() bool {
	before := p.textBeforeCursor()
	cp := p.codec.Complete(before)
	p.cycle, p.compNote = nil, ""
	if len(cp.Items) == 0 {
		p.compNote = "no completion here"
		return false
	}
	start := clamp(cp.Start, 0, len(before))
	c := &completion{items: cp.Items, idx: -1, start: start, end: len(before)}
	if len(cp.Items) == 1 {
		c.idx = 0
		p.replaceCycle(c, cp.Items[0].Text+p.spaceAfter(cp.Items[0]))
		p.cycle = nil // nothing to cycle through
		return true
	}
	p.cycle = c
	// The common prefix, when it adds a word's worth (a lone ':' or '"'
	// would only leave the text broken).
	if pre := commonPrefix(texts(cp.Items)); len(pre) > len(cp.Word) && strings.HasPrefix(strings.ToLower(pre), strings.ToLower(cp.Word)) &&
		strings.IndexFunc(pre[len(cp.Word):], func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
		p.replaceCycle(c, pre)
		return true
	}
	// Nothing to add: the first tab already steps into the list.
	c.idx = 0
	p.replaceCycle(c, cp.Items[0].Text)
	return true
}

// spaceAfter is what follows a lone completion: a space, unless one is
// there already or a value is completed right before a closer.
func (p *composerPane) spaceAfter(c call.Candidate) string {
	switch after := p.editor.RuneAfter(); {
	case after == ' ' || after == '\n':
		return ""
	case (after == ')' || after == '}' || after == ']' || after == ',') &&
		(c.Kind == call.KindEnum || c.Kind == call.KindLiteral || c.Kind == call.KindOperation):
		return ""
	case c.Kind == call.KindKey || c.Kind == call.KindOperation:
		return "" // JSON text: the quote, colon or comma is the user's
	}
	return " "
}

// replaceCycle puts s in place of the cycle's text and the cursor after it.
func (p *composerPane) replaceCycle(c *completion, s string) {
	text := p.editor.Value()
	c.start, c.end = clamp(c.start, 0, len(text)), clamp(c.end, c.start, len(text))
	text = text[:c.start] + s + text[c.end:]
	c.end = c.start + len(s)
	p.editor.SetValue(text)
	p.placeCursor(c.end)
	p.edited()
	c.seq = p.seq
}

func texts(items []call.Candidate) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Text
	}
	return out
}

// completionLine shows a cycle's candidates, the current one marked, as
// many as fit around it, and the current one's detail.
func (p *composerPane) completionLine(w int) string {
	st := *p.st
	c := p.cycle
	if c == nil || c.seq != p.seq {
		return ""
	}
	cur := max(c.idx, 0)
	parts := make([]string, len(c.items))
	for i, it := range c.items {
		t := oneLine(p.sanitize(it.Text))
		if i == c.idx {
			parts[i] = st.Selected.Render(t)
		} else {
			parts[i] = st.Muted.Render(t)
		}
	}
	// A window of candidates holding the current one.
	from, to := cur, cur+1
	width := func() int { return ansi.StringWidth(strings.Join(parts[from:to], "  ")) }
	for width() < w-16 && (from > 0 || to < len(parts)) {
		if to < len(parts) {
			to++
		}
		if width() < w-16 && from > 0 {
			from--
		}
	}
	head := st.Info.Render("tab ")
	if c.idx >= 0 {
		head = st.Info.Render(strconv.Itoa(c.idx+1) + "/" + strconv.Itoa(len(c.items)) + " ")
	}
	line := head + strings.Join(parts[from:to], "  ")
	if to < len(parts) {
		line += st.Muted.Render(" …")
	}
	return line
}

// signature is signature help for the cursor, cached per edit and cursor
// place.
func (p *composerPane) signature() (call.Signature, bool) {
	if p.codec == nil {
		return call.Signature{}, false
	}
	off := p.cursorOffset()
	if p.sig.version == p.editor.Version() && p.sig.off == off && p.sig.codec == p.codec {
		return p.sig.sig, p.sig.ok
	}
	sig, ok := p.codec.Signature(p.textBeforeCursor())
	p.sig = sigCache{version: p.editor.Version(), off: off, codec: p.codec, sig: sig, ok: ok}
	return sig, ok
}

type sigCache struct {
	version, off int
	codec        *calls.Codec
	sig          call.Signature
	ok           bool
}

// signatureLines are the two lines of signature help: the tool's
// declaration, at the parameter the cursor is on (lit), and what that
// parameter (or the nested field) takes. Empty outside a call.
func (p *composerPane) signatureLines(w int) (string, string) {
	sig, ok := p.signature()
	if !ok {
		return "", ""
	}
	st := *p.st
	decl := sig.Decl // offsets are of the raw text; pieces are sanitised as drawn
	// The tool's own line of the declaration, and the parameter in it.
	lineStart, lineEnd := 0, len(decl)
	span := sig.ParamDecl
	if at := strings.Index(decl, "("+sig.Code+" "); at >= 0 && span.End == 0 {
		lineStart = at
	}
	if span.End > 0 {
		lineStart = strings.LastIndexByte(decl[:span.Start], '\n') + 1
	} else if nl := strings.LastIndexByte(decl[:lineStart], '\n'); nl >= 0 {
		lineStart = nl + 1
	}
	if nl := strings.IndexByte(decl[lineStart:], '\n'); nl >= 0 {
		lineEnd = lineStart + nl
	}
	line := strings.TrimLeft(decl[lineStart:lineEnd], " ")
	trim := lineEnd - lineStart - len(line)
	var first string
	if span.End > span.Start && span.Start >= lineStart && span.End <= lineEnd {
		s, e := span.Start-lineStart-trim, span.End-lineStart-trim
		first = window(st, line, s, e, w, func(s string) string { return oneLine(p.sanitize(s)) })
	} else {
		first = st.Syntax.Key.Render(widget.Truncate(oneLine(p.sanitize(line)), w))
	}
	// What the slot at the cursor takes.
	clean := func(s string) string { return oneLine(p.sanitize(s)) }
	var b strings.Builder
	switch {
	case len(sig.Path) > 0:
		b.WriteString(st.Bold.Render(clean(strings.Join(sig.Path, "."))))
		if sig.Variant != "" {
			b.WriteString(st.Muted.Render(" in " + clean(sig.Variant)))
		}
		if len(sig.Enum) > 0 {
			b.WriteString(" " + st.Syntax.Keyword.Render(clean(strings.Join(sig.Enum, " | "))))
		} else if sig.Type != "" {
			b.WriteString(" " + st.Syntax.Key.Render(clean(sig.Type)))
		}
		if sig.Required {
			b.WriteString(st.Warn.Render(" required"))
		}
		if sig.Description != "" {
			b.WriteString(st.Muted.Render(" — " + clean(sig.Description)))
		}
	case sig.Entry != "":
		b.WriteString(st.Muted.Render("entry " + clean(sig.Entry) + " · " + clean(sig.Tool)))
	default:
		b.WriteString(st.Muted.Render(clean(sig.Tool)))
	}
	return first, widget.FitLine(b.String(), w)
}

// window shows line cut to w cells around its bytes [s, e), which are
// lit; clean makes each piece safe to draw.
func window(st Styles, line string, s, e, w int, clean func(string) string) string {
	s, e = clamp(s, 0, len(line)), clamp(e, 0, len(line))
	pre, mid, post := clean(line[:s]), clean(line[s:e]), clean(line[e:])
	if ansi.StringWidth(mid) >= w {
		return st.Selected.Render(widget.Truncate(mid, w))
	}
	room := w - ansi.StringWidth(mid)
	// Keep up to a third of the room before the lit part.
	if pw := ansi.StringWidth(pre); pw > room/3 {
		pre = "…" + ansi.TruncateLeft(pre, pw-room/3+1, "")
	}
	room -= ansi.StringWidth(pre)
	post = widget.Truncate(post, max(room, 0))
	return st.Muted.Render(pre) + st.Selected.Render(mid) + st.Muted.Render(post)
}
