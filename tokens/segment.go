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
// to end where no match could have read on past the cut. Three kinds of cut
// satisfy both:
//
//   - after '\n', before a letter, digit, mark, punctuation or symbol other
//     than '/'. No piece holds a newline followed by such a character
//     (o200k's punctuation piece may swallow "\n/", hence the '/'), and every
//     alternative that reaches the newline stops there whether the next
//     character or the end of text follows.
//   - before ' ', after a letter, digit, mark, punctuation or symbol. No
//     piece ends in such a character followed by a space (a space only
//     starts pieces or sits in whitespace runs), and every alternative that
//     reaches the character before stops on a space just as on the end.
//   - before the last ' ' of a whitespace run that ends at a letter, digit,
//     mark, punctuation or symbol (an indentation, "a   b"). Whatever the
//     run holds, the expression splits it as: newlines up to the last one,
//     then the remaining blanks but one (the "\s+(?!\S)" alternative), then
//     that last space with what follows; at the end of text the blanks
//     before the cut come out the same.
//   - before an ASCII letter or digit, after two of " : , { } [ ] ( ). The
//     piece holding those two is always a punctuation run (a letter piece
//     takes at most one leading non-letter, and only right before letters),
//     which ends at the letter or digit just as at the end of text. This is
//     what cuts minified JSON, which has no newlines and few spaces.
//
// The property test in segment_test.go and FuzzSegments check the claim on
// random texts and edits against whole-text counts.
//
// Cuts at the start of a line (after the newline, or before the indentation's
// last space) are always taken, so an edit recounts one line. Of the other
// candidates, a cut is taken where the bytes since the previous candidate
// hash to 0 mod 8: segments of about eight words or JSON tokens that depend
// on local content alone, so an edit inside a long line (minified JSON, a
// description) moves no cut outside its own neighbourhood.

const fnvOffset, fnvPrime = 2166136261, 16777619

// segments calls fn with each segment of text, in order.
func segments(text string, fn func(seg string)) { cutText(text, false, fn) }

// exactPieces calls fn with the text between every exact cut, taken or not
// (words, JSON tokens): the finest split whose counts add up, for counting a
// big text in chunks whatever its repetitions (periodic text may hash to no
// taken cut at all).
func exactPieces(text string, fn func(seg string)) { cutText(text, true, fn) }

// cutText cuts text at the segment cuts, or with every at each candidate too.
func cutText(text string, every bool, fn func(seg string)) {
	start := 0
	h := uint32(fnvOffset)         // FNV-1a of the bytes since the previous candidate
	inBlank, sawNL := false, false // the ASCII whitespace run ending at i-1
	for i := 1; i < len(text); i++ {
		c, next := text[i-1], text[i]
		switch c {
		case ' ', '\t', '\v', '\f':
			if !inBlank {
				inBlank, sawNL = true, false
			}
		case '\n', '\r':
			inBlank, sawNL = true, true
		default:
			inBlank = false
		}
		h = (h ^ uint32(c)) * fnvPrime
		cut, candidate := false, false
		switch {
		case c == '\n' && startsSafe(text[i:]):
			cut = true
		case next == ' ' && inBlank:
			if i+1 < len(text) && startsVisible(text[i+1:]) {
				cut, candidate = sawNL, !sawNL
			}
		case next == ' ':
			candidate = endsSafe(text[:i])
		case i >= 2 && isJSONPunct(c) && isJSONPunct(text[i-2]):
			candidate = 'a' <= next && next <= 'z' || 'A' <= next && next <= 'Z' || '0' <= next && next <= '9'
		}
		if candidate {
			cut = every || h%8 == 0
			h = fnvOffset
		}
		if cut {
			fn(text[start:i])
			start = i
			h = fnvOffset
		}
	}
	if start < len(text) {
		fn(text[start:])
	}
}

func isJSONPunct(c byte) bool {
	switch c {
	case '"', ':', ',', '{', '}', '[', ']', '(', ')':
		return true
	}
	return false
}

// startsSafe reports whether s begins with a letter, digit, mark,
// punctuation or symbol other than '/': a character no pre-tokenizer piece
// continues into from a newline.
func startsSafe(s string) bool { return s[0] != '/' && startsVisible(s) }

// startsVisible reports whether s begins with a letter, digit, mark,
// punctuation or symbol.
func startsVisible(s string) bool {
	c := s[0]
	if c < utf8.RuneSelf {
		return c > ' ' && c < 0x7f
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
