package safe

import (
	"fmt"
	"strings"
	"unicode/utf16"
)

// JSON makes JSON text fit to print on a terminal without changing what it
// says: the characters JSON may carry raw inside strings but a terminal may
// act on or a reader cannot see — DEL, the C1 controls, the bidi controls,
// the line and paragraph separators and the tag characters (the hidden
// characters of Text) — are written as \uXXXX escapes (a surrogate pair
// above U+FFFF), which any JSON reader reads back as the same characters.
// They can only occur inside strings, so the document stays valid JSON.
// ESC and the other C0 controls cannot occur raw in valid JSON; JSON does
// not look for them. Text without any of those comes back unchanged.
func JSON(s string) string {
	if !strings.ContainsFunc(s, jsonHidden) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for _, r := range s {
		if !jsonHidden(r) {
			b.WriteRune(r)
			continue
		}
		if r > 0xffff {
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, hi, lo)
			continue
		}
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

// jsonHidden is what JSON escapes.
func jsonHidden(r rune) bool {
	return r >= 0x7f && r <= 0x9f || isHidden(r)
}
