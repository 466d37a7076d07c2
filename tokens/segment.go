package tokens

import (
	"unicode"
	"unicode/utf8"
)

// Cutting text into segments whose token counts add up to the count of the
// whole text. tiktoken first splits text into pieces with a regular
// expression and then encodes each piece on its own, so a cut is exact when
// (1) it falls between two pieces of the whole text and (2) the expression
// finds the same pieces on each side when the other side is absent. Both
// encodings' expressions have no look-behind, so (2) only needs the left side
// to end where no match could have read on past the cut. Two kinds of cut
// satisfy both:
//
//   - after '\n', before a letter, digit, punctuation or symbol other than
//     '/'. No piece holds a newline followed by such a character (o200k's
//     punctuation piece may swallow "\n/", hence the '/'), and every
//     alternative that reaches the newline stops there whether the next
//     character or the end of text follows.
//   - before ' ', after a letter, digit, mark, punctuation or symbol. No
//     piece ends in such a character followed by a space (a space only
//     starts pieces or sits in whitespace runs), and every alternative that
//     reaches the character before stops on a space just as on the end.
//
// The property test in segment_test.go checks the claim on random texts and
// edits against whole-text counts.
//
// Newline cuts are always taken, so an edit recounts one line. Space cuts
// are taken only where the word before the space hashes to 0 mod 8, which
// gives segments of about eight words that depend on local content alone:
// an edit inside a long line (minified JSON, a description) moves no cut
// outside its own neighbourhood.

// segments calls fn with each segment of text, in order.
func segments(text string, fn func(seg string)) {
	start := 0
	wordHash := uint32(2166136261) // FNV-1a of the bytes since the last space or newline
	for i := 1; i < len(text); i++ {
		c := text[i-1]
		if c == '\n' {
			if startsSafe(text[i:]) {
				fn(text[start:i])
				start = i
			}
			wordHash = 2166136261
			continue
		}
		if c == ' ' {
			wordHash = 2166136261
			continue
		}
		wordHash = (wordHash ^ uint32(c)) * 16777619
		if text[i] == ' ' && wordHash%8 == 0 && endsSafe(text[:i]) {
			fn(text[start:i])
			start = i
		}
	}
	if start < len(text) {
		fn(text[start:])
	}
}

// startsSafe reports whether s begins with a letter, digit, mark,
// punctuation or symbol other than '/': a character no pre-tokenizer piece
// continues into from a newline.
func startsSafe(s string) bool {
	c := s[0]
	if c < utf8.RuneSelf {
		return c > ' ' && c < 0x7f && c != '/'
	}
	r, _ := utf8.DecodeRuneInString(s)
	return r != utf8.RuneError && visible(r)
}

// endsSafe reports whether s ends with a letter, digit, mark, punctuation or
// symbol: a character that no piece extends from into a following space.
func endsSafe(s string) bool {
	c := s[len(s)-1]
	if c < utf8.RuneSelf {
		return c > ' ' && c < 0x7f
	}
	r, _ := utf8.DecodeLastRuneInString(s)
	return r != utf8.RuneError && visible(r)
}

// visible is the categories L, M, N, P and S: never whitespace under any
// regular-expression flavour's \s.
func visible(r rune) bool {
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S)
}
