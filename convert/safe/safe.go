// Package safe makes untrusted text fit to print on a terminal.
//
// Everything an MCP server sends (tool names, descriptions, results, log
// messages, stderr) may carry terminal control sequences: a hostile server can
// set the clipboard (OSC 52), plant hyperlinks (OSC 8), retitle the window,
// move the cursor to overwrite what was printed, hide text, or reorder it with
// bidi overrides. Nothing from a server may reach the terminal without
// passing through this package first.
//
// The API:
//
//   - Text(s): multi-line text; keeps \n and \t, removes escape sequences,
//     shows stray controls as visible symbols.
//   - Line(s): the same for one line of a table or status bar; \n, \t and \r
//     become the visible escapes `\n`, `\t`, `\r`.
//   - Sanitize(s, Options{SingleLine, Max}): both of the above, with a byte
//     bound that ends the text with "…(cut N bytes)".
//   - Cut(s, max): only the bound, for text that is already safe (or not meant
//     for a terminal), cutting on a UTF-8 boundary.
//   - JSON(s): JSON text with the characters above written as \u escapes,
//     so it stays the same JSON.
//   - Name(s): a name (tool, resource, prompt, server) on one line with the
//     invisible characters spelt out too, "file_read\u200b";
//     Lookalikes(names) and NameKey(s) find the names a reader cannot tell
//     apart; FirstLine(s) cuts at every kind of line break, for table rows.
//   - Markdown(src): markdown source with the character references that
//     would decode to a control or hidden character ("&#x1b;", "&#x202e;")
//     spelt out, for renderers that decode them after sanitising.
//   - Styled(s): Text for a renderer's output, keeping its SGR styling.
//   - Terminal(frame): the last step, over a whole rendered frame: only
//     SGR escapes and printable text survive, whatever a renderer made.
//   - NewRedactor(secrets), Redact(text, secrets), (*Redactor).JSON(raw):
//     hide secret values (tokens, env values, header values) as "***".
//   - IsSecretName(name): whether a header or variable name looks like it
//     holds a credential (Authorization, *TOKEN*, *SECRET*, *KEY*, ...);
//     IsSecretArg(name), the narrower rule for tool-argument names that
//     (*Redactor).JSON masks whole (password, api_key, access_token, ...).
//
// What the sanitiser does, exactly:
//
//   - Escape sequences are removed whole: CSI (ESC [ and U+009B), OSC (ESC ]
//     and U+009D, ended by BEL or ST; this covers OSC 8 hyperlinks, whose link
//     text survives, and OSC 52 clipboard writes), DCS, SOS, PM and APC (ESC P
//     X ^ _ and their C1 forms, ended by ST), and every two- and three-byte
//     ESC sequence (ESC 7, ESC c, ESC ( B, ESC # 8 ...). A string sequence that
//     is never terminated loses only its introducer, so its payload shows as
//     plain text instead of silently hiding the rest of the output.
//   - Other C0 controls and DEL become Unicode control pictures (BEL → ␇,
//     BS → ␈, NUL → ␀): visible, one column wide, and inert. A lone CR becomes
//     a newline, so "safe\rEVIL" shows both words instead of letting the
//     second overwrite the first; CR LF becomes LF.
//   - C1 controls (U+0080–U+009F), the bidi embedding, override and isolate
//     characters (U+202A–U+202E, U+2066–U+2069) and marks (U+200E, U+200F,
//     U+061C), the line and paragraph
//     separators (U+2028, U+2029) and the invisible Unicode tag characters
//     (U+E0000–U+E007F, used to smuggle instructions past human readers) are
//     shown as `\u0085` / `\u202e` / `\U000e0041` escapes, so a reader sees
//     that something was there.
//   - Invalid UTF-8 becomes U+FFFD, one per bad byte.
//
// The output never contains ESC, any C0 or C1 control other than \n and \t
// (none at all from Line), DEL, any of the hidden characters above, or
// invalid UTF-8. Text
// without any of those comes back unchanged and unallocated.
package safe

import (
	"strconv"
	"unicode/utf8"
)

// Options tune Sanitize.
type Options struct {
	// SingleLine shows \n, \t and \r as the visible escapes `\n`, `\t`, `\r`,
	// for table cells, titles and status lines.
	SingleLine bool
	// Max bounds the output in bytes, marker included; 0 means no bound.
	// When the text does not fit, it ends with "…(cut N bytes)", where N is
	// the number of input bytes not shown. A Max smaller than the marker
	// yields the marker alone.
	Max int
}

// Text sanitises multi-line text for the terminal, keeping \n and \t.
func Text(s string) string { return Sanitize(s, Options{}) }

// Line sanitises text for a single terminal line.
func Line(s string) string { return Sanitize(s, Options{SingleLine: true}) }

// Sanitize is Text or Line with a length bound; see the package comment for
// what it removes and how.
func Sanitize(s string, o Options) string {
	if (o.Max <= 0 || len(s) <= o.Max) && clean(s, o.SingleLine) {
		return s
	}
	w := writer{max: o.Max}
	if o.Max > 0 {
		w.budget = o.Max - len(marker(len(s)))
		if w.budget < 0 {
			w.budget = 0
		}
		w.out = make([]byte, 0, min(len(s), o.Max)+8)
	} else {
		w.out = make([]byte, 0, len(s)+16)
	}
	sc := scanner{s: s}
	for i := 0; i < len(s); {
		next, piece, plain := sc.token(i, o.SingleLine)
		if w.max > 0 && plain {
			// a run of input text: keep as much of it as the budget allows
			if k := w.budget - len(w.out); k > 0 && k < len(piece) {
				for k > 0 && !utf8.RuneStart(piece[k]) {
					k--
				}
				w.emit(piece[:k], i+k)
				piece = piece[k:]
			}
		}
		if !w.emit(piece, next) {
			return string(w.out[:w.keptOut]) + marker(len(s)-w.keptIn)
		}
		i = next
	}
	return string(w.out)
}

// marker is the visible end of a cut text.
func marker(cut int) string { return "…(cut " + strconv.Itoa(cut) + " bytes)" }

// writer accumulates output and remembers the last token boundary that still
// leaves room for the cut marker.
type writer struct {
	out     []byte
	max     int
	budget  int
	keptOut int // output length at the last boundary within budget
	keptIn  int // input consumed at that boundary
}

// emit appends piece, which ends at input offset in. It reports false once the
// output is known not to fit in max, so the caller stops scanning.
func (w *writer) emit(piece string, in int) bool {
	w.out = append(w.out, piece...)
	if w.max <= 0 {
		return true
	}
	if len(w.out) > w.max {
		return false
	}
	if len(w.out) <= w.budget {
		w.keptOut, w.keptIn = len(w.out), in
	}
	return true
}

// clean reports whether s needs no change at all.
func clean(s string, single bool) bool {
	for i := 0; ; i++ {
		i = printableRun(s, i)
		if i == len(s) {
			return true
		}
		if single || (s[i] != '\n' && s[i] != '\t') {
			return false
		}
	}
}

// Cut bounds s to max bytes, marker included, cutting on a UTF-8 boundary
// and ending with "…(cut N bytes)". It returns the bytes of s left out (0 when
// s fits). Unlike Sanitize it does not touch the content, so it suits text
// that is already safe or is headed for a file rather than a terminal.
func Cut(s string, max int) (string, int) {
	if max <= 0 || len(s) <= max {
		return s, 0
	}
	keep := max - len(marker(len(s)))
	if keep < 0 {
		keep = 0
	}
	for keep > 0 && !utf8.RuneStart(s[keep]) {
		keep--
	}
	return s[:keep] + marker(len(s)-keep), len(s) - keep
}

func isC1(r rune) bool { return r >= 0x80 && r <= 0x9f }

// isBidi reports the embedding, override and isolate controls that reorder
// text ("Trojan Source"), and the marks (U+200E LRM, U+200F RLM, U+061C
// ALM), which move neutral characters such as the dots and slashes of a
// file name.
func isBidi(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x61c
}

// isHidden reports characters that are shown as escapes although they are
// not controls: bidi controls, the line and paragraph separators (which
// some renderers break lines at and width calculations disagree on), and
// the Unicode tag characters U+E0000–U+E007F, invisible everywhere yet read
// by language models ("ASCII smuggling" of instructions into tool
// descriptions).
func isHidden(r rune) bool {
	return isBidi(r) || r == 0x2028 || r == 0x2029 || r >= 0xe0000 && r <= 0xe007f
}
