package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// syntax colours as Styles: the highlighter maps chroma token types onto the
// palette's syntax roles instead of using a chroma theme, so highlighting
// follows --theme and NO_COLOR like everything else.
type syntaxStyles struct {
	key, str, num, kw, punct, comment, text lipgloss.Style
}

func (s Styles) syntax() syntaxStyles {
	p := s.Palette
	ns := lipgloss.NewStyle
	ss := syntaxStyles{
		key: ns().Foreground(p.SynKey), str: ns().Foreground(p.SynString),
		num: ns().Foreground(p.SynNumber), kw: ns().Foreground(p.SynKeyword),
		punct: ns().Foreground(p.SynPunct), comment: ns().Foreground(p.SynComment).Italic(true),
		text: ns().Foreground(p.Fg),
	}
	if p.Mono {
		ss.key = ns().Bold(true)
		ss.comment = ns().Faint(true)
		ss.punct = ns()
	}
	return ss
}

// lexerFor names the chroma lexer for a form.
func lexerFor(form string) string {
	switch form {
	case "json", "json_pretty", "json_full", "aql_introspect", "aql_single", "aql_semantic":
		return "json"
	case "dts":
		return "typescript"
	default:
		return "scheme" // MCP-Term and (ok ...) results are S-expressions
	}
}

// highlight colours text (already sanitised) with the named lexer. It falls
// back to plain text when chroma has no lexer or fails, never to nothing.
func highlight(st Styles, lexer, text string) string {
	l := lexers.Get(lexer)
	if l == nil {
		return text
	}
	l = chroma.Coalesce(l)
	it, err := l.Tokenise(nil, text)
	if err != nil {
		return text
	}
	ss := st.syntax()
	sexpr := lexer == "scheme"
	var b strings.Builder
	b.Grow(len(text) * 2)
	afterParen := false
	for tok := it(); tok != chroma.EOF; tok = it() {
		style := ss.text
		t := tok.Type
		switch {
		case t == chroma.NameTag || t == chroma.NameAttribute:
			style = ss.key
		case sexpr && t == chroma.StringSymbol, sexpr && strings.HasPrefix(tok.Value, ":"):
			style = ss.kw
		case t.InCategory(chroma.LiteralString):
			style = ss.str
		case t.InCategory(chroma.LiteralNumber):
			style = ss.num
		case t.InCategory(chroma.Keyword), t == chroma.NameBuiltin, t == chroma.NameConstant:
			style = ss.kw
			if sexpr && afterParen {
				style = ss.key
			}
		case t.InCategory(chroma.Comment):
			style = ss.comment
		case t == chroma.Punctuation || t == chroma.Operator:
			style = ss.punct
		case sexpr && afterParen && (t.InCategory(chroma.Name)):
			style = ss.key
		}
		if strings.TrimSpace(tok.Value) != "" {
			afterParen = sexpr && strings.HasSuffix(tok.Value, "(")
		}
		writeStyled(&b, style, tok.Value)
	}
	return b.String()
}

// writeStyled styles each line of s separately: lipgloss pads multi-line
// blocks to a rectangle, which would insert spaces into the document.
func writeStyled(b *strings.Builder, style lipgloss.Style, s string) {
	for i, part := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		if part != "" {
			b.WriteString(style.Render(part))
		}
	}
}

// highlightPositions underlines the runes at the byte offsets pos of s
// (plain text) for the fuzzy filter.
func highlightPositions(s string, pos []int, style lipgloss.Style) string {
	if len(pos) == 0 {
		return s
	}
	set := make(map[int]bool, len(pos))
	for _, p := range pos {
		set[p] = true
	}
	var b strings.Builder
	for i, r := range s {
		if set[i] {
			b.WriteString(style.Render(string(r)))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}
