package safe

import (
	"html"
	"strings"
	"unicode"
)

// Markdown prepares markdown source for a renderer that decodes HTML
// character references after the sanitisers have run — glamour passes every
// text, code span and HTML block through html.UnescapeString, so
// "&#x1b;]8;;http://evil.example/&#x1b;\" in sanitised text came out as a
// raw OSC 8 hyperlink and "&#x202e;" as a raw bidi override. Every
// reference that decodes to a character Text would change or that takes no
// room (a control, C1, bidi control or mark, separator, tag or other
// format character) is replaced by that character spelt as a visible \u
// escape; "&#x1b;" becomes `\u001b`. References to ordinary characters
// ("&amp;", "&lt;", "&nbsp;", "&#233;") are left for the renderer.
//
// References are found the way html.UnescapeString reads them — numeric
// ones with or without the ';', named ones by the longest name it knows —
// so none the renderer decodes is missed. Text without a '&' comes back
// unchanged.
func Markdown(src string) string {
	i := strings.IndexByte(src, '&')
	if i < 0 {
		return src
	}
	var b strings.Builder
	last := 0
	for i >= 0 {
		j := i + 1
		for j < len(src) && refByte(src[j]) {
			j++
		}
		if j < len(src) && src[j] == ';' {
			j++
		}
		if ref := src[i:j]; j > i+1 {
			if dec := html.UnescapeString(ref); dec != ref && strings.ContainsFunc(dec, refUnsafe) {
				if last == 0 {
					b.Grow(len(src) + 16)
				}
				b.WriteString(src[last:i])
				for _, r := range dec {
					if refUnsafe(r) {
						b.WriteString(spell(r))
					} else {
						b.WriteRune(r)
					}
				}
				last = j
			}
		}
		k := strings.IndexByte(src[j:], '&')
		if k < 0 {
			break
		}
		i = j + k
	}
	if last == 0 {
		return src
	}
	b.WriteString(src[last:])
	return b.String()
}

// refByte is a byte that can continue a character reference after '&'.
func refByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '#'
}

// refUnsafe is a character a reference must not be left to decode to.
func refUnsafe(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || isC1(r) || isHidden(r) ||
		unicode.Is(unicode.Cf, r)
}
