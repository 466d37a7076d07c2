package widget

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// SyntaxStyles are the roles a highlighter paints tokens in. Tokens are
// mapped onto these roles instead of a chroma theme, so highlighting
// follows the workbench's theme and NO_COLOR like everything else.
type SyntaxStyles struct {
	Key, String, Number, Keyword, Punct, Comment, Text lipgloss.Style
}

// Highlight colours text (already sanitised) with the named chroma lexer
// ("json", "typescript", "scheme" for S-expressions). It falls back to
// plain text when chroma has no lexer or fails, never to nothing.
func Highlight(ss SyntaxStyles, lexer, text string) string {
	l := lexers.Get(lexer)
	if l == nil {
		return text
	}
	l = chroma.Coalesce(l)
	it, err := l.Tokenise(nil, text)
	if err != nil {
		return text
	}
	sexpr := lexer == "scheme"
	var b strings.Builder
	b.Grow(len(text) * 2)
	afterParen := false
	for tok := it(); tok != chroma.EOF; tok = it() {
		style := ss.Text
		t := tok.Type
		switch {
		case t == chroma.NameTag || t == chroma.NameAttribute:
			style = ss.Key
		case sexpr && t == chroma.StringSymbol, sexpr && strings.HasPrefix(tok.Value, ":"):
			style = ss.Keyword
		case t.InCategory(chroma.LiteralString):
			style = ss.String
		case t.InCategory(chroma.LiteralNumber):
			style = ss.Number
		case t.InCategory(chroma.Keyword), t == chroma.NameBuiltin, t == chroma.NameConstant:
			style = ss.Keyword
			if sexpr && afterParen {
				style = ss.Key
			}
		case t.InCategory(chroma.Comment):
			style = ss.Comment
		case t == chroma.Punctuation || t == chroma.Operator:
			style = ss.Punct
		case sexpr && afterParen && (t.InCategory(chroma.Name)):
			style = ss.Key
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

// HighlightPositions styles the runes at the byte offsets pos of s
// (plain text) for the fuzzy filter.
func HighlightPositions(s string, pos []int, style lipgloss.Style) string {
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
