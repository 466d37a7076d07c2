package term

import (
	"strings"
	"unicode/utf8"
)

// hiddenRune reports characters a terminal acts on or a reader cannot see
// as written: C0 controls other than \n and \t, DEL, C1 controls, zero-width
// and bidi controls, the line and paragraph separators, the byte-order mark
// and the Unicode tag characters.
func hiddenRune(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\n' && r != '\t'
	case r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x200b && r <= 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2060 && r <= 0x2064,
		r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029, r == 0xfeff:
		return true
	case r >= 0xe0000 && r <= 0xe007f:
		return true
	}
	return false
}

// plain reports whether s may be printed bare (as a symbol or keyword):
// every hidden character must sit inside a string, where EscapeHidden can
// write it as an escape without changing what it reads back as.
func plain(s string) bool {
	for _, r := range s {
		if hiddenRune(r) || r == utf8.RuneError {
			return false
		}
	}
	return true
}

// EscapeHidden writes every hidden character (see hiddenRune) as a \uXXXX
// escape, a surrogate pair above U+FFFF. Inside MCP-Term and JSON strings
// that escape reads back as the same character, so a document stays exactly
// what it was while no control sequence from a server reaches a terminal;
// in TypeScript comments it shows that something was there.
func EscapeHidden(s string) string {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if hiddenRune(r) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	const hex = "0123456789abcdef"
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	u := func(x rune) {
		b.WriteString(`\u`)
		b.WriteByte(hex[x>>12&0xf])
		b.WriteByte(hex[x>>8&0xf])
		b.WriteByte(hex[x>>4&0xf])
		b.WriteByte(hex[x&0xf])
	}
	for _, r := range s[i:] {
		switch {
		case !hiddenRune(r):
			b.WriteRune(r)
		case r > 0xffff:
			r -= 0x10000
			u(0xd800 + r>>10)
			u(0xdc00 + r&0x3ff)
		default:
			u(r)
		}
	}
	return b.String()
}
