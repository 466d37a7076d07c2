package safe

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// JSON makes JSON text fit to print on a terminal without changing what it
// says: the characters JSON may carry raw inside strings but a terminal may
// act on or a reader cannot see — DEL, the C1 controls (U+009B, a CSI,
// included: its "parameters" are the string's own text and stay), the bidi
// controls and marks, the line and paragraph separators, the tag
// characters and the invisible characters of Name (zero-width space, BOM,
// non-ASCII spaces...) — are written as \uXXXX escapes (a surrogate pair
// above U+FFFF), which any JSON reader reads back as the same characters.
// They can only occur inside strings, so the document stays valid JSON and
// nothing a string holds is lost: where Text removes a CSI whole, JSON
// shows "\u009b2J".
//
// Valid JSON cannot hold ESC or the other C0 controls raw; should text
// that is not quite JSON hold them, they are escaped too (CR LF, JSON
// whitespace, and a lone CR become LF), and an invalid UTF-8 byte becomes the escape
// \ufffd. Text without any of those comes back unchanged.
func JSON(s string) string {
	if jsonClean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\ufffd`)
		case r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// CR LF between tokens: the LF alone
		case r == '\r':
			b.WriteByte('\n') // whitespace between tokens either way
		case r > 0xffff && jsonHidden(r):
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, hi, lo)
		case jsonHidden(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// jsonClean reports whether JSON leaves s as it is.
func jsonClean(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonHidden(rune(c)) {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || jsonHidden(r) {
			return false
		}
		i += n
	}
	return true
}

// jsonHidden is what JSON escapes.
func jsonHidden(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f || isHidden(r) || invisible(r)
}
