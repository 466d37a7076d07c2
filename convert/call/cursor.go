package call

import (
	"strings"
	"unicode/utf8"

	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// The text before a composer's cursor is a call cut short: lists left open,
// perhaps a string or a word half typed. cursor reads it in one pass into
// the lists still open, each with the data already complete inside it, and
// the word the cursor stands on. It keeps offsets, not copies, so a
// keystroke on a 4 KB batch costs a scan and a few small slices.

// token is one complete datum inside an open list.
type token struct {
	start, end int32      // byte offsets in the text; a string's include its quotes
	kind       sexpr.Kind // sexpr.List for a closed list or a keyword union :a|:b
	esc        bool       // a string with backslash escapes
}

// openList is a list whose ')' is not written yet.
type openList struct {
	at    int // offset of its '('
	first int // index in cursor.toks of its first item
}

type cursor struct {
	src   string
	toks  []token    // the items of every open list, outermost first
	lists []openList // open lists, outermost first
	// The word at the cursor: src[word:], the atom or string being typed
	// (or just closed, with nothing after it). word == len(src) when the
	// cursor follows white space or a parenthesis.
	word     int
	wordKind sexpr.Kind // Symbol (any atom), String, or 0 when there is no word
	open     bool       // the word is a string whose closing quote is not written
	comment  bool       // the cursor is inside a ; comment
}

func scan(src string) *cursor {
	c := &cursor{src: src, word: len(src), toks: make([]token, 0, 64), lists: make([]openList, 0, 16)}
	i := 0
	for i < len(src) {
		b := src[i]
		switch byteClass[b] {
		case cSpace:
			i++
		case cComment:
			nl := strings.IndexByte(src[i:], '\n')
			if nl < 0 {
				c.comment = true
				return c
			}
			i += nl + 1
		case cOpen:
			c.lists = append(c.lists, openList{at: i, first: len(c.toks)})
			i++
		case cClose:
			if n := len(c.lists); n > 0 {
				l := c.lists[n-1]
				c.lists = c.lists[:n-1]
				c.toks = append(c.toks[:l.first], token{kind: sexpr.List, start: int32(l.at), end: int32(i + 1)})
			}
			i++
		case cQuote:
			end, esc, closed := stringEnd(src, i)
			if !closed {
				c.word, c.wordKind, c.open = i, sexpr.String, true
				return c
			}
			c.toks = append(c.toks, token{kind: sexpr.String, start: int32(i), end: int32(end), esc: esc})
			i = end
		default:
			if b >= utf8.RuneSelf {
				if r, size := utf8.DecodeRuneInString(src[i:]); isSpaceRune(r) {
					i += size
					continue
				}
			}
			end := atomEnd(src, i)
			c.toks = append(c.toks, token{kind: atomKind(src[i:end]), start: int32(i), end: int32(end)})
			i = end
		}
	}
	// A datum that ends where the text ends is the word being typed.
	if n := len(c.toks); n > 0 && len(c.lists) > 0 {
		if last := c.toks[n-1]; int(last.end) == len(src) && last.kind != sexpr.List && n > c.lists[len(c.lists)-1].first {
			c.toks = c.toks[:n-1]
			c.word, c.wordKind = int(last.start), sexpr.Symbol
			if last.kind == sexpr.String {
				c.wordKind = sexpr.String
			}
		}
	}
	return c
}

// stringEnd finds the end of the string that starts at src[i] == '"'.
func stringEnd(src string, i int) (end int, esc, closed bool) {
	j := i + 1
	for {
		k := strings.IndexByte(src[j:], '"')
		if k < 0 {
			return len(src), esc, false
		}
		b := strings.IndexByte(src[j:j+k], '\\')
		if b < 0 {
			return j + k + 1, esc, true
		}
		esc = true
		j += b + 2 // past the escaped character
		if j > len(src) {
			return len(src), esc, false
		}
	}
}

// Byte classes for the scanner; every byte of a multi-byte rune is cAtom,
// and the few non-ASCII spaces are caught where an atom starts or ends.
const (
	cAtom uint8 = iota
	cSpace
	cOpen
	cClose
	cQuote
	cComment
)

var byteClass = [256]uint8{' ': cSpace, '\t': cSpace, '\n': cSpace, '\r': cSpace, '\f': cSpace, '\v': cSpace,
	'(': cOpen, ')': cClose, '"': cQuote, ';': cComment}

// isSpaceRune is the reader's white space beyond ASCII.
func isSpaceRune(r rune) bool {
	switch r {
	case 0x85, 0xA0, 0x2028, 0x2029, 0xFEFF:
		return true
	}
	return false
}

// atomEnd is where the atom starting at src[i] ends: at white space, a
// parenthesis, a quote or a comment. A '|' stays inside, so :a|:b is one
// datum as the reader makes it.
func atomEnd(src string, i int) int {
	for i < len(src) {
		b := src[i]
		if b < utf8.RuneSelf {
			if byteClass[b] != cAtom {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(src[i:])
		if isSpaceRune(r) {
			return i
		}
		i += size
	}
	return i
}

func atomKind(a string) sexpr.Kind {
	switch {
	case a == "nil":
		return sexpr.Nil
	case a == "true" || a == "false":
		return sexpr.Bool
	case a[0] == ':':
		if strings.IndexByte(a, '|') >= 0 {
			return sexpr.List // :a|:b reads as (or :a :b)
		}
		return sexpr.Keyword
	case a[0] >= '0' && a[0] <= '9', len(a) > 1 && (a[0] == '-' || a[0] == '+' || a[0] == '.') && (a[1] >= '0' && a[1] <= '9' || a[1] == '.'):
		return sexpr.Number
	}
	return sexpr.Symbol
}

// items are the complete data of the open list at depth d.
func (c *cursor) items(d int) []token {
	end := len(c.toks)
	if d+1 < len(c.lists) {
		end = c.lists[d+1].first
	}
	return c.toks[c.lists[d].first:end]
}

// text is what a token means: a symbol's name, a keyword without its ':',
// a string's contents.
func (c *cursor) text(t token) string {
	raw := c.src[t.start:t.end]
	switch t.kind {
	case sexpr.Keyword:
		return raw[1:]
	case sexpr.String:
		if !t.esc {
			return raw[1 : len(raw)-1]
		}
		if n, err := sexpr.ParseOne(raw); err == nil && n.Kind == sexpr.String {
			return n.Text
		}
		return raw[1 : len(raw)-1]
	}
	return raw
}

// wordText is the word at the cursor as written, and where it starts. In a
// keyword union (:utf8|:ba) the word is the last member.
func (c *cursor) wordText() (string, int) {
	w := c.src[c.word:]
	if c.wordKind == sexpr.Symbol {
		if i := strings.LastIndexByte(w, '|'); i >= 0 {
			return w[i+1:], c.word + i + 1
		}
	}
	return w, c.word
}
