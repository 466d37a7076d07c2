package safe

import (
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Name shows a name — of a tool, resource, prompt, argument or server — on
// one line the way a reader must see it to tell it from another: what Line
// does, and every character that takes no visible room or looks like a
// plain space spelt as a \u escape, so "file_read\u200b" does not pass for
// "file_read". Those are the format characters (Unicode category Cf: the
// zero-width space, joiners, word joiner, BOM, soft hyphen, bidi controls
// and marks, tags), the other default-ignorable code points (the Hangul
// fillers, the combining grapheme joiner), the variation selectors, the
// braille blank and every space but U+0020. A name without any comes back
// as Line gives it.
func Name(s string) string {
	s = Line(s)
	if !strings.ContainsFunc(s, invisible) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 12)
	for _, r := range s {
		if invisible(r) {
			b.WriteString(spell(r))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// invisible reports the characters Name spells out (see Name).
func invisible(r rune) bool {
	if r < 0x80 {
		return false // Line has dealt with the ASCII controls
	}
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		unicode.Is(unicode.Variation_Selector, r) || unicode.IsSpace(r) || r == 0x2800
}

// NameKey is what two names are compared by when asking whether a reader
// can tell them apart: the invisible characters of Name dropped, then
// compatibility forms folded (NFKC: full-width letters, ligatures,
// superscripts) and case folded. Names with the same key look alike.
func NameKey(s string) string { return nameKey(cases.Fold(), s) }

// nameKey is NameKey with a folder made once per list (a cases.Caser is
// not safe for concurrent use, and making one per name dominated the cost
// on big lists). Printable ASCII, what nearly every name is, folds by
// lowering it.
func nameKey(fold cases.Caser, s string) string {
	ascii := true
	for i := 0; i < len(s) && ascii; i++ {
		ascii = s[i] >= 0x20 && s[i] < 0x7f
	}
	if ascii {
		return strings.ToLower(s)
	}
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || isC1(r) || invisible(r) {
			return -1
		}
		return r
	}, s)
	return fold.String(norm.NFKC.String(s))
}

// Lookalikes finds the names in a list that a reader cannot tell apart —
// the same NameKey, different spellings — and gives for each such name the
// others it looks like, in list order. A server listing "file_read" and
// "file_read\u200b" (or "Delete_File" and "delete_file") gets both flagged,
// since either could be the one a user meant. Exact duplicates are not
// lookalikes. It is nil when there are none.
func Lookalikes(names []string) map[string][]string {
	byKey := make(map[string][]string, len(names))
	keys := make([]string, len(names))
	fold := cases.Fold()
	for i, n := range names {
		k := nameKey(fold, n)
		keys[i] = k
		dup := false
		for _, o := range byKey[k] {
			dup = dup || o == n
		}
		if !dup {
			byKey[k] = append(byKey[k], n)
		}
	}
	var out map[string][]string
	for i, n := range names {
		group := byKey[keys[i]]
		if len(group) < 2 || out[n] != nil {
			continue
		}
		if out == nil {
			out = map[string][]string{}
		}
		for _, o := range group {
			if o != n {
				out[n] = append(out[n], o)
			}
		}
	}
	return out
}

// FirstLine is the first line of s after leading and trailing space, by
// every line break a terminal or a Unicode-aware reader honours — LF, CR,
// VT, FF, NEL (U+0085) and the line and paragraph separators (U+2028,
// U+2029) — so that a description's first line never carries a break into
// a table row ("a\rforged row" would otherwise start a row of its own once
// Text turns the CR into a newline).
func FirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexFunc(s, isLineBreak); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}

func isLineBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

// LookalikeNotes says, one sentence per group, which names of a list
// (what: "tools", "resources", "prompts") look alike, each spelt by Name:
// `tools "file_read", "file_read\u200b" look alike: ...`. The groups come
// in list order; alike is what Lookalikes gave for names.
func LookalikeNotes(what string, names []string, alike map[string][]string) []string {
	var notes []string
	told := map[string]bool{}
	for _, n := range names {
		others := alike[n]
		if others == nil || told[n] {
			continue
		}
		group := []string{`"` + Name(n) + `"`}
		told[n] = true
		for _, o := range others {
			group = append(group, `"`+Name(o)+`"`)
			told[o] = true
		}
		notes = append(notes, what+" "+strings.Join(group, ", ")+
			" look alike: they differ only by invisible characters, case or compatibility forms")
	}
	return notes
}
