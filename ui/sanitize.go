package ui

import (
	"strings"
	"unicode/utf8"
)

// stripControls is the fallback sanitiser used until convert/safe is wired in
// by the caller (Options.Sanitize). Everything a server sends is untrusted: an
// OSC 52 sequence in a tool description could write the user's clipboard, a
// cursor move could overdraw the UI and fake a confirmation. It removes whole
// escape sequences (CSI, OSC, DCS, SOS, PM, APC, and two-byte ESC forms), C1
// controls, and every C0 control except newline and tab (tab becomes spaces so
// widths stay predictable). Invalid UTF-8 becomes U+FFFD.
func stripControls(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\n' || c == 0x7f || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune('\uFFFD')
			i++
		case r == 0x1b:
			i += escapeLen(s[i:])
		case r == 0x9b || r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f:
			// C1 introducers (CSI, OSC, DCS, SOS, PM, APC) as single code points.
			i += size + c1BodyLen(s[i+size:], r == 0x9b)
		case r == '\t':
			b.WriteString("    ")
			i += size
		case r == '\n':
			b.WriteByte('\n')
			i += size
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			i += size
		case r == 0x2028 || r == 0x2029 || r == 0x202e || r == 0x202d || r == 0x2066 || r == 0x2067 || r == 0x2068 || r == 0x2069:
			// Line separators and bidi overrides can reorder what the user
			// reads; keep the text, drop the control.
			i += size
		default:
			b.WriteString(s[i : i+size])
			i += size
		}
	}
	return b.String()
}

// escapeLen is the byte length of the escape sequence at the start of s
// (which begins with ESC), including unterminated ones up to the end.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[': // CSI: parameters and intermediates, then one final byte 0x40-0x7e
		return 2 + c1BodyLen(s[2:], true)
	case ']', 'P', 'X', '^', '_': // OSC, DCS, SOS, PM, APC: up to BEL or ST
		return 2 + c1BodyLen(s[2:], false)
	default:
		// ESC followed by intermediates (0x20-0x2f) and one final byte.
		i := 1
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
			i++
		}
		if i < len(s) {
			i++
		}
		return i
	}
}

// c1BodyLen measures the body of a CSI (csi true) or a string sequence after
// its introducer.
func c1BodyLen(s string, csi bool) int {
	if csi {
		for i := 0; i < len(s); i++ {
			c := s[i]
			if c >= 0x40 && c <= 0x7e {
				return i + 1
			}
			if c < 0x20 || c > 0x7e { // malformed: stop before it
				return i
			}
		}
		return len(s)
	}
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c: // ST as U+009C
			return i + 2
		}
	}
	return len(s)
}

// oneLine flattens untrusted text for a single table cell.
func oneLine(s string) string {
	if strings.ContainsAny(s, "\n") {
		s = strings.Join(strings.Fields(s), " ")
	}
	return s
}
