package safe

import (
	"unicode/utf8"
)

// Terminal is the last step before the terminal: it filters a whole frame
// of already rendered text — mcpterm's own styling around text that every
// renderer (markdown, the highlighter, tables, JSON) has had its hands on —
// so that no renderer can re-create a control sequence the sanitisers
// removed from the server's text. glamour, for one, turns the character
// reference "&#x1b;" in a server's markdown into a raw ESC after Text has
// run, and "&#x202e;" into a raw bidi override.
//
// It keeps printable text, \n, \t and SGR sequences (ESC [ digits, ';' and
// ':' then 'm': colours and attributes, all mcpterm's styling writes) and
// removes everything else whole: other CSI (cursor moves, erases, modes),
// OSC (titles, OSC 8 hyperlinks, OSC 52 clipboard writes), DCS, SOS, PM and
// APC, every other ESC sequence and a lone ESC, the C1 controls
// (U+0080–U+009F, with the parameters of a U+009B CSI or the body of a C1
// string), the other C0 controls (CR included: it would let one line
// overwrite another) and DEL, the bidi embedding, override and isolate
// controls and the bidi marks (U+200E, U+200F, U+061C), the line and
// paragraph separators and the tag characters. Invalid UTF-8 becomes
// U+FFFD. What it removes takes no columns, so the layout the frame was cut
// to stays as it was; the sanitisers upstream (Text, Line, Name, Styled)
// are where hidden characters are shown as visible escapes — Terminal is
// the guarantee behind them, not the place readers learn what was there.
//
// The cursor and screen sequences the program needs are not in a frame:
// Bubble Tea's renderer reads a frame into cells (SGR into styles) and
// writes its own cursor moves and erases around them. The clipboard is
// written by the program too (tea.SetClipboard), never from a frame.
//
// A frame with nothing to remove comes back unchanged and unallocated,
// after one pass over its bytes.
func Terminal(frame string) string {
	i := frameRun(frame, 0)
	if i == len(frame) {
		return frame
	}
	out := make([]byte, 0, len(frame))
	out = append(out, frame[:i]...)
	sc := scanner{s: frame}
	for i < len(frame) {
		i = sc.drop(i, &out)
		j := frameRun(frame, i)
		out = append(out, frame[i:j]...)
		i = j
	}
	return string(out)
}

// frameRun returns the end of the run of bytes starting at i that
// Terminal keeps as they are: printable text, \n, \t and SGR sequences.
func frameRun(s string, i int) int {
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c >= 0x20 && c != 0x7f, c == '\n', c == '\t':
				i++
			case c == 0x1b:
				n := sgrLen(s, i)
				if n == 0 {
					return i
				}
				i += n
			default:
				return i
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || frameDrops(r) {
			return i
		}
		i += n
	}
	return i
}

// frameDrops reports the characters Terminal removes although they are
// not ASCII controls.
func frameDrops(r rune) bool { return isC1(r) || isHidden(r) }

// sgrLen is the length of the SGR sequence at i (s[i] == ESC), 0 when
// there is none: ESC [, parameter digits and separators, then 'm'.
func sgrLen(s string, i int) int {
	j := i + 1
	if j >= len(s) || s[j] != '[' {
		return 0
	}
	for j++; j < len(s); j++ {
		switch c := s[j]; {
		case c >= '0' && c <= '9', c == ';', c == ':':
		case c == 'm':
			return j + 1 - i
		default:
			return 0
		}
	}
	return 0
}

// drop removes what frameRun stopped at (s[i]), appending to out only
// U+FFFD for an invalid byte, and returns where the removed part ends.
func (sc *scanner) drop(i int, out *[]byte) int {
	s := sc.s
	c := s[i]
	if c == 0x1b {
		return sc.escape(i)
	}
	if c < utf8.RuneSelf {
		return i + 1 // C0 or DEL
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && n == 1:
		*out = append(*out, "\uFFFD"...)
		return i + 1
	case r == 0x9b:
		return sc.csi(i + n)
	case r == 0x9d:
		return sc.stringSeq(i+n, kindOSC)
	case r == 0x90, r == 0x98, r == 0x9e, r == 0x9f:
		return sc.stringSeq(i+n, kindSTR)
	}
	return i + n
}

// Styled is Text for text that carries its own styling — a renderer's
// output, such as glamour's markdown or the highlighter's — keeping its SGR
// sequences: every other escape sequence is removed, stray controls are
// shown as control pictures and hidden characters as \u escapes, exactly as
// Text does. Text without anything to change comes back unchanged.
func Styled(s string) string {
	if styledClean(s) {
		return s
	}
	sc := scanner{s: s, sgr: true}
	out := make([]byte, 0, len(s)+16)
	for i := 0; i < len(s); {
		next, piece, _ := sc.token(i, false)
		out = append(out, piece...)
		i = next
	}
	return string(out)
}

// styledClean reports whether Styled would leave s as it is.
func styledClean(s string) bool {
	for i := 0; ; {
		i = printableRun(s, i)
		switch {
		case i == len(s):
			return true
		case s[i] == '\n' || s[i] == '\t':
			i++
		case s[i] == 0x1b && sgrLen(s, i) > 0:
			i += sgrLen(s, i)
		default:
			return false
		}
	}
}
