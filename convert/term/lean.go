package term

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// abbreviations whose trailing period does not end a sentence.
var abbreviations = set("e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "Mr", "Mrs", "Dr", "No", "eg", "ie")

// FirstSentence returns s up to the end of its first sentence: a '.', '!'
// or '?' followed by a space or the end, an ideographic full stop, or the
// first line break, whichever comes first.
func FirstSentence(s string) string {
	s = strings.TrimSpace(s)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		next := i + size
		switch r {
		case '\n', '\r':
			return strings.TrimSpace(s[:i])
		case '。', '！', '？':
			return s[:next]
		case '.', '!', '?':
			if next == len(s) {
				return s
			}
			nr, _ := utf8.DecodeRuneInString(s[next:])
			if unicode.IsSpace(nr) && !(r == '.' && abbreviationBefore(s[:i])) {
				return s[:next]
			}
		}
		i = next
	}
	return s
}

func abbreviationBefore(s string) bool {
	j := strings.LastIndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '(' })
	return abbreviations[s[j+1:]]
}

// Summary is the one-line account of what a rendering left out and
// dropped, for a command's stderr. It is empty when nothing was.
func (d *Document) Summary() string {
	var parts []string
	if len(d.LeftOut) > 0 {
		parts = append(parts, "left out (not model-facing): "+omissions(d.LeftOut))
	}
	if len(d.Dropped) > 0 {
		parts = append(parts, "dropped (lean): "+omissions(d.Dropped))
	}
	return strings.Join(parts, "; ")
}

func omissions(os []Omission) string {
	var b strings.Builder
	for i, o := range os {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s ×%d (%d B)", o.What, o.Count, o.Bytes)
	}
	return b.String()
}
