package bpe

import (
	"sync"
	"unicode"
	"unicode/utf8"
)

// The pre-tokenizers. tiktoken cuts text into pieces with a regular
// expression before merging, and a piece never merges with its neighbour,
// so the pieces must be exactly the expression's matches. These scanners
// follow the two expressions alternative by alternative, in their order,
// with the backtracking each one does worked out by hand (comments below);
// the character classes are Unicode's, from Go's tables.
//
// o200k_base:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// cl100k_base:
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// (?i) is Unicode simple case folding, as in the reference's Rust regex:
// 's also matches 'S and 'ſ (U+017F LATIN SMALL LETTER LONG S), which
// regexp2, lower-casing instead, misses.
//
// Every character starts a match of some alternative, so the pieces tile
// the text; each scanner returns the end of the piece that starts at i.
// Text must be valid UTF-8 (the caller replaces invalid bytes).

// Character class bits.
const (
	cU  = 1 << iota // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	cW              // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	cL              // \p{L}
	cN              // \p{N}
	cS              // \s (White_Space)
	cNL             // [\r\n]
)

// asciiClass is the class of each ASCII byte; it is filled once and only read.
var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := range utf8.RuneSelf {
		t[c] = classOf(rune(c))
	}
	return t
}()

// bmpClass is classOf for every character of the Basic Multilingual Plane,
// built on first use and only read after. Asking Go's Unicode tables
// character by character (a binary search per category) was a fifth of the
// time on non-Latin text. It is filled from the same tables, range by range,
// in classOf's order of precedence; TestBMPClass checks it against classOf
// for every character.
var bmpClass = sync.OnceValue(buildBMPClass)

func buildBMPClass() *[1 << 16]uint8 {
	var t [1 << 16]uint8
	set := func(tab *unicode.RangeTable, c uint8, onlyUnset bool) {
		for _, r := range tab.R16 {
			for x := uint32(r.Lo); x <= uint32(r.Hi); x += uint32(r.Stride) {
				if !onlyUnset || t[x] == 0 {
					t[x] = c
				}
			}
		}
	}
	// The general categories are disjoint, so only White_Space (a property
	// over separators and controls) can meet another class; classOf puts
	// every category before it.
	set(unicode.Lu, cU|cL, false)
	set(unicode.Lt, cU|cL, false)
	set(unicode.Ll, cW|cL, false)
	set(unicode.Lm, cU|cW|cL, false)
	set(unicode.Lo, cU|cW|cL, false)
	set(unicode.M, cU|cW, false)
	set(unicode.N, cN, false)
	set(unicode.White_Space, cS, true)
	t['\r'], t['\n'] = cS|cNL, cS|cNL
	return &t
}

func classOf(r rune) uint8 {
	switch {
	case 0x4e00 <= r && r <= 0x9fff || 0xac00 <= r && r <= 0xd7a3 || 0x3041 <= r && r <= 0x3096 || 0x30a1 <= r && r <= 0x30fa:
		// CJK ideographs, Hangul syllables, kana: all Lo, looked up often.
		return cU | cW | cL
	case unicode.IsLetter(r):
		switch {
		case unicode.Is(unicode.Lo, r):
			return cU | cW | cL
		case unicode.IsLower(r):
			return cW | cL
		case unicode.IsUpper(r) || unicode.IsTitle(r):
			return cU | cL
		}
		return cU | cW | cL // Lm
	case unicode.Is(unicode.M, r):
		return cU | cW
	case unicode.IsNumber(r):
		return cN
	case r == '\r' || r == '\n':
		return cS | cNL
	case unicode.IsSpace(r):
		return cS
	}
	return 0
}

// at is the class and size of the character at i (i < len(s)).
func at(s string, i int) (uint8, int) {
	if b := s[i]; b < utf8.RuneSelf {
		return asciiClass[b], 1
	}
	return atRune(s, i)
}

// atRune is at for a character outside ASCII.
func atRune(s string, i int) (uint8, int) {
	r, size := utf8.DecodeRuneInString(s[i:])
	if r < 1<<16 {
		return bmpClass()[r], size
	}
	return classOf(r), size
}

// span is the end of the run of characters at i whose class has a bit of
// want. It is the scanners' inner loop (letters, mostly), so ASCII is read
// here rather than through a call to at per character.
func span(s string, i int, want uint8) int {
	for i < len(s) {
		if b := s[i]; b < utf8.RuneSelf {
			if asciiClass[b]&want == 0 {
				break
			}
			i++
			continue
		}
		c, n := atRune(s, i)
		if c&want == 0 {
			break
		}
		i += n
	}
	return i
}

// isPrefix is [^\r\n\p{L}\p{N}]; isPunct is [^\s\p{L}\p{N}].
func isPrefix(c uint8) bool { return c&(cNL|cL|cN) == 0 }
func isPunct(c uint8) bool  { return c&(cS|cL|cN) == 0 }

// NextO200k is the end of the o200k piece starting at i.
func NextO200k(s string, i int) int {
	c0, n0 := at(s, i)
	// The two letter alternatives, each first with the optional leading
	// character, then without it (which only matters when that character
	// is a mark, in both the prefix class and the letter classes).
	if isPrefix(c0) {
		if e := o200kLower(s, i+n0); e > 0 {
			return contraction(s, e)
		}
	}
	if c0&(cU|cW) != 0 {
		if e := o200kLower(s, i); e > 0 {
			return contraction(s, e)
		}
	}
	if isPrefix(c0) {
		if e := o200kUpper(s, i+n0); e > 0 {
			return contraction(s, e)
		}
	}
	if c0&cU != 0 {
		if e := o200kUpper(s, i); e > 0 {
			return contraction(s, e)
		}
	}
	if c0&cN != 0 {
		return digits(s, i+n0)
	}
	if e := punct(s, i, c0); e > 0 {
		for e < len(s) && (s[e] == '\r' || s[e] == '\n' || s[e] == '/') {
			e++
		}
		return e
	}
	return spaces(s, i)
}

// o200kLower matches [U]*[W]+ at i and returns its end, or 0. U* is greedy
// and gives characters back until W+ can start: if the character after the
// U run is in W, W+ runs on from there; otherwise W+ is the last character
// of the U run that is also in W (Lm, Lo or a mark), alone.
func o200kLower(s string, i int) int {
	lastW := 0
	for i < len(s) {
		c, n := at(s, i)
		if c&cU == 0 {
			if c&cW == 0 {
				break
			}
			return lettersW(s, i)
		}
		i += n
		if c&cW != 0 {
			lastW = i
		}
	}
	return lastW
}

// o200kUpper matches [U]+[W]* at i and returns its end, or 0.
func o200kUpper(s string, i int) int {
	e := span(s, i, cU)
	if e == i {
		return 0
	}
	return lettersW(s, e)
}

// lettersW is the end of the run of W characters at i.
func lettersW(s string, i int) int { return span(s, i, cW) }

// contraction extends e over a following (?i:'s|'t|'re|'ve|'m|'ll|'d).
func contraction(s string, e int) int {
	if n := contractionLen(s, e); n > 0 {
		return e + n
	}
	return e
}

// contractionLen is the length of (?i:'s|'t|'re|'ve|'m|'ll|'d) at i, or 0.
func contractionLen(s string, i int) int {
	if i+1 >= len(s) || s[i] != '\'' {
		return 0
	}
	switch s[i+1] | 0x20 {
	case 's':
		return 2
	case 't', 'm', 'd':
		return 2
	case 'r', 'v':
		if i+2 < len(s) && s[i+2]|0x20 == 'e' {
			return 3
		}
	case 'l':
		if i+2 < len(s) && s[i+2]|0x20 == 'l' {
			return 3
		}
	}
	// U+017F LATIN SMALL LETTER LONG S folds to s.
	if i+2 < len(s) && s[i+1] == 0xc5 && s[i+2] == 0xbf {
		return 3
	}
	return 0
}

// digits is the end of \p{N}{1,3} whose first character ends at i.
func digits(s string, i int) int {
	for k := 1; k < 3 && i < len(s); k++ {
		c, n := at(s, i)
		if c&cN == 0 {
			break
		}
		i += n
	}
	return i
}

// punct matches " ?[^\s\p{L}\p{N}]+" at i and returns its end, or 0. The
// optional space is tried first; without it the piece would have to start
// with the space, which the class excludes.
func punct(s string, i int, c0 uint8) int {
	if s[i] == ' ' && i+1 < len(s) {
		if c, _ := at(s, i+1); isPunct(c) {
			i++
			c0 = c
		}
	}
	if !isPunct(c0) {
		return 0
	}
	for i < len(s) {
		c, n := at(s, i)
		if !isPunct(c) {
			break
		}
		i += n
	}
	return i
}

// spaces is the whitespace piece at i: "\s*[\r\n]+" runs to the last CR or
// LF of the whitespace run when it has one; otherwise "\s+(?!\S)" takes the
// run but its last character (all of it at the end of text), and "\s+"
// takes a single character followed by a non-space.
func spaces(s string, i int) int {
	lastNL, last, j := 0, 0, i
	for j < len(s) {
		c, n := at(s, j)
		if c&cS == 0 {
			break
		}
		last = j
		j += n
		if c&cNL != 0 {
			lastNL = j
		}
	}
	switch {
	case j == i:
		// Not reached for valid input (every character starts some
		// alternative); one byte keeps callers moving regardless.
		return i + 1
	case lastNL > 0:
		return lastNL
	case j == len(s) || last == i:
		return j
	}
	return last
}

// NextCl100k is the end of the cl100k piece starting at i.
func NextCl100k(s string, i int) int {
	if n := contractionLen(s, i); n > 0 {
		return i + n
	}
	c0, n0 := at(s, i)
	if isPrefix(c0) && i+n0 < len(s) {
		if c, _ := at(s, i+n0); c&cL != 0 {
			return letters(s, i+n0)
		}
	}
	if c0&cL != 0 {
		return letters(s, i)
	}
	if c0&cN != 0 {
		return digits(s, i+n0)
	}
	if e := punct(s, i, c0); e > 0 {
		for e < len(s) && (s[e] == '\r' || s[e] == '\n') {
			e++
		}
		return e
	}
	return spaces(s, i)
}

// letters is the end of the \p{L} run at i.
func letters(s string, i int) int { return span(s, i, cL) }
