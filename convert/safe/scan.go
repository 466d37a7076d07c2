package safe

import (
	"unicode/utf8"
)

// scanner walks untrusted text token by token. Its only state is what it has
// learnt about where string sequences cannot end, which keeps hostile input
// such as a million unterminated OSC introducers linear instead of quadratic.
type scanner struct {
	s string
	// noEnd[k] is an offset from which a string sequence of kind k is known
	// to have no terminator; 0 means not yet known.
	noEnd [2]int
	// sgr keeps SGR sequences (Styled) instead of removing them.
	sgr bool
}

const (
	kindOSC = iota // ended by BEL or ST
	kindSTR        // DCS, SOS, PM, APC: ended by ST
)

// control pictures for C0 (U+2400 + c) and DEL (U+2421), as UTF-8 strings
var pictures = func() (p [0x21]string) {
	for c := range 0x20 {
		p[c] = string(rune(0x2400 + c))
	}
	p[0x20] = "\u2421"
	return p
}()

const hexDigits = "0123456789abcdef"

// token reads the token at i and returns where it ends and what to print for
// it. Runs of harmless text come back as one piece, a substring of the
// input, with plain set.
func (sc *scanner) token(i int, single bool) (next int, piece string, plain bool) {
	s := sc.s
	if j := printableRun(s, i); j > i {
		return j, s[i:j], true
	}
	c := s[i]
	switch {
	case c == '\n':
		if single {
			return i + 1, `\n`, false
		}
		return i + 1, "\n", false
	case c == '\t':
		if single {
			return i + 1, `\t`, false
		}
		return i + 1, "\t", false
	case c == '\r':
		n := i + 1
		if n < len(s) && s[n] == '\n' {
			n++
		}
		if single {
			return n, `\n`, false
		}
		return n, "\n", false
	case c == 0x1b:
		if sc.sgr {
			if n := sgrLen(s, i); n > 0 {
				return i + n, s[i : i+n], false
			}
		}
		return sc.escape(i), "", false
	case c < 0x20:
		return i + 1, pictures[c], false
	case c == 0x7f:
		return i + 1, pictures[0x20], false
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && n == 1:
		return i + 1, "\uFFFD", false
	case isC1(r):
		switch r {
		case 0x9b:
			return sc.csi(i + n), "", false
		case 0x9d:
			return sc.stringSeq(i+n, kindOSC), "", false
		case 0x90, 0x98, 0x9e, 0x9f:
			return sc.stringSeq(i+n, kindSTR), "", false
		}
		return i + n, visible(r), false
	}
	return i + n, visible(r), false // a hidden character: printableRun stopped here
}

// printableRun returns the end of the run of harmless text starting at i
// (i itself when there is none).
func printableRun(s string, i int) int {
	j := i
	for j < len(s) {
		c := s[j]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				break
			}
			j++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[j:])
		if r == utf8.RuneError && n == 1 || isC1(r) || isHidden(r) {
			break
		}
		j += n
	}
	return j
}

// visible spells a C1 control or hidden character as a \uXXXX (or
// \UXXXXXXXX) escape.
func visible(r rune) string {
	switch {
	case isC1(r):
		return visibleC1[r-0x80]
	case r >= 0x202a && r <= 0x202e:
		return visibleBidi[r-0x202a]
	case r >= 0x2066 && r <= 0x2069:
		return visibleBidi[5+r-0x2066]
	}
	return spell(r)
}

func spell(r rune) string {
	if r > 0xffff {
		b := []byte{'\\', 'U'}
		for shift := 28; shift >= 0; shift -= 4 {
			b = append(b, hexDigits[r>>shift&0xf])
		}
		return string(b)
	}
	return string([]byte{'\\', 'u',
		hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf]})
}

// the escapes, spelt once so hostile text does not cost an allocation each
var (
	visibleC1 = func() (v [0x20]string) {
		for i := range v {
			v[i] = spell(rune(0x80 + i))
		}
		return v
	}()
	visibleBidi = func() (v [9]string) {
		for i := range 5 {
			v[i] = spell(rune(0x202a + i))
		}
		for i := range 4 {
			v[5+i] = spell(rune(0x2066 + i))
		}
		return v
	}()
)

// escape skips the ESC sequence at i (s[i] == ESC) and returns where it ends.
// A malformed sequence loses only what was read of it.
func (sc *scanner) escape(i int) int {
	s := sc.s
	if i+1 >= len(s) {
		return i + 1
	}
	switch c := s[i+1]; {
	case c == '[':
		return sc.csi(i + 2)
	case c == ']':
		return sc.stringSeq(i+2, kindOSC)
	case c == 'P' || c == 'X' || c == '^' || c == '_':
		return sc.stringSeq(i+2, kindSTR)
	case c >= 0x20 && c <= 0x2f: // nF: intermediates, then a final byte
		j := i + 2
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
			j++
		}
		if j < len(s) && s[j] >= 0x30 && s[j] <= 0x7e {
			j++
		}
		return j
	case c >= 0x30 && c <= 0x7e: // Fp, Fe, Fs: ESC 7, ESC c, ESC M, stray ESC \ ...
		return i + 2
	}
	return i + 1 // ESC before a control or non-ASCII: drop the ESC alone
}

// csi skips a control sequence whose parameters start at j: parameter and
// intermediate bytes, then a final byte. Anything else ends it early, as a
// terminal would.
func (sc *scanner) csi(j int) int {
	s := sc.s
	for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
		j++
	}
	if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
		j++
	}
	return j
}

// stringSeq skips a control string (OSC, DCS, SOS, PM, APC) whose introducer
// ends at body. It ends at ST (ESC \ or U+009C), at BEL for OSC, at
// CAN/SUB (which abort it), or just before any other ESC (which starts a new
// sequence). Unterminated, only the introducer goes.
func (sc *scanner) stringSeq(body, kind int) int {
	s := sc.s
	if sc.noEnd[kind] > 0 && body >= sc.noEnd[kind] {
		return body
	}
	for j := body; j < len(s); j++ {
		switch s[j] {
		case 0x07:
			if kind == kindOSC {
				return j + 1
			}
		case 0x18, 0x1a:
			return j + 1
		case 0x1b:
			if j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
			return j
		case 0xc2:
			if j+1 < len(s) && s[j+1] == 0x9c {
				return j + 2
			}
		}
	}
	if sc.noEnd[kind] == 0 || body < sc.noEnd[kind] {
		sc.noEnd[kind] = body
	}
	return body
}
