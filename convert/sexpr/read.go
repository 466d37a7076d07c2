package sexpr

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Limits bound what the reader accepts, so hostile input cannot exhaust the
// stack or memory.
type Limits struct {
	MaxDepth int // list nesting; default 200
	MaxNodes int // data in total; default 1,000,000
}

// DefaultLimits are generous for hand-written calls and whole-server documents.
var DefaultLimits = Limits{MaxDepth: 200, MaxNodes: 1_000_000}

// Parse reads every top-level datum in src.
func Parse(src string) ([]*Node, error) { return ParseLimits(src, DefaultLimits) }

// ParseOne reads exactly one datum; anything but comments after it is an error.
func ParseOne(src string) (*Node, error) {
	r := newReader(src, DefaultLimits)
	r.skip()
	if r.eof() {
		return nil, r.errf(r.pos(), "expected an expression, found end of input")
	}
	n, err := r.datum(0)
	if err != nil {
		return nil, err
	}
	r.skip()
	if !r.eof() {
		return nil, r.errf(r.pos(), "expected end of input after the expression, found %s", r.found())
	}
	return n, nil
}

// ParseLimits is Parse with explicit limits.
func ParseLimits(src string, lim Limits) ([]*Node, error) {
	r := newReader(src, lim)
	var out []*Node
	for {
		r.skip()
		if r.eof() {
			return out, nil
		}
		n, err := r.datum(0)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
}

type reader struct {
	src       string
	off       int
	line, col int
	lim       Limits
	nodes     int
}

func newReader(src string, lim Limits) *reader {
	if lim.MaxDepth <= 0 {
		lim.MaxDepth = DefaultLimits.MaxDepth
	}
	if lim.MaxNodes <= 0 {
		lim.MaxNodes = DefaultLimits.MaxNodes
	}
	return &reader{src: src, line: 1, col: 1, lim: lim}
}

func (r *reader) pos() Pos  { return Pos{Offset: r.off, Line: r.line, Col: r.col} }
func (r *reader) eof() bool { return r.off >= len(r.src) }
func (r *reader) peek() rune {
	c, _ := utf8.DecodeRuneInString(r.src[r.off:])
	return c
}

func (r *reader) next() rune {
	c, size := utf8.DecodeRuneInString(r.src[r.off:])
	r.off += size
	if c == '\n' {
		r.line++
		r.col = 1
	} else {
		r.col++
	}
	return c
}

func (r *reader) errf(p Pos, format string, args ...any) *Error {
	e := &Error{Pos: p}
	e.Msg = sprintf(format, args...)
	return e
}

func (r *reader) found() string {
	if r.eof() {
		return "end of input"
	}
	c := r.peek()
	return "character " + strconv.QuoteRune(c)
}

// skip passes whitespace and ; comments.
func (r *reader) skip() {
	for !r.eof() {
		c := r.peek()
		switch {
		case isSpace(c):
			r.next()
		case c == ';':
			for !r.eof() && r.peek() != '\n' {
				r.next()
			}
		default:
			return
		}
	}
}

func (r *reader) count(p Pos) error {
	r.nodes++
	if r.nodes > r.lim.MaxNodes {
		return r.errf(p, "input has more than %d elements", r.lim.MaxNodes)
	}
	return nil
}

func (r *reader) datum(depth int) (*Node, error) {
	start := r.pos()
	if err := r.count(start); err != nil {
		return nil, err
	}
	c := r.peek()
	if c == utf8.RuneError {
		if _, size := utf8.DecodeRuneInString(r.src[r.off:]); size <= 1 {
			return nil, r.errf(start, "invalid UTF-8 byte 0x%02x", r.src[r.off])
		}
	}
	switch {
	case c == '(':
		return r.list(depth)
	case c == ')':
		return nil, r.errf(start, "unexpected ')' with no list open")
	case c == '"':
		s, err := r.str()
		if err != nil {
			return nil, err
		}
		return &Node{Kind: String, Text: s, Pos: start, End: r.pos()}, nil
	case c == ':':
		return r.keyword()
	case isSymbolRune(c):
		return r.atom()
	}
	return nil, r.errf(start, "unexpected %s; expected a list, string, number, symbol or :keyword", r.found())
}

func (r *reader) list(depth int) (*Node, error) {
	start := r.pos()
	if depth >= r.lim.MaxDepth {
		return nil, r.errf(start, "lists nested deeper than %d levels", r.lim.MaxDepth)
	}
	r.next() // (
	n := &Node{Kind: List, Items: []*Node{}, Pos: start}
	for {
		r.skip()
		if r.eof() {
			return nil, r.errf(r.pos(), "expected ')' to close the list opened at %s, found end of input", start)
		}
		if r.peek() == ')' {
			r.next()
			n.End = r.pos()
			return n, nil
		}
		item, err := r.datum(depth + 1)
		if err != nil {
			return nil, err
		}
		n.Items = append(n.Items, item)
	}
}

func (r *reader) token() string {
	from := r.off
	for !r.eof() {
		c, size := utf8.DecodeRuneInString(r.src[r.off:])
		if c == utf8.RuneError && size <= 1 || !isSymbolRune(c) {
			break // invalid UTF-8 ends the token; the next datum reports it
		}
		r.next()
	}
	return r.src[from:r.off]
}

func (r *reader) atom() (*Node, error) {
	start := r.pos()
	tok := r.token()
	if r.peek() == '|' && !r.eof() {
		return nil, r.errf(r.pos(), "'|' may only join keywords, as in :a|:b")
	}
	n := &Node{Pos: start, End: r.pos()}
	switch {
	case tok == "nil":
		n.Kind = Nil
	case tok == "true" || tok == "false":
		n.Kind, n.Bool = Bool, tok == "true"
	case looksNumeric(tok):
		lit := strings.TrimPrefix(tok, "+")
		if !validNumber(lit) {
			return nil, r.errf(start, "malformed number %q; expected digits with an optional sign, fraction and exponent, as in -12.5e3", clip(tok))
		}
		n.Kind, n.Text = Number, lit
	default:
		n.Kind, n.Text = Symbol, tok
	}
	return n, nil
}

// keyword reads :name, or the union sugar :a|:b|:c as (or :a :b :c).
func (r *reader) keyword() (*Node, error) {
	start := r.pos()
	var kws []*Node
	for {
		kpos := r.pos()
		r.next() // :
		name := r.token()
		if name == "" || strings.Contains(name, ":") {
			return nil, r.errf(kpos, "expected a keyword name after ':', as in :utf8")
		}
		kws = append(kws, &Node{Kind: Keyword, Text: name, Pos: kpos, End: r.pos()})
		if r.eof() || r.peek() != '|' {
			break
		}
		r.next() // |
		if r.eof() || r.peek() != ':' {
			return nil, r.errf(r.pos(), "expected another :keyword after '|', found %s", r.found())
		}
		if err := r.count(r.pos()); err != nil {
			return nil, err
		}
	}
	if len(kws) == 1 {
		return kws[0], nil
	}
	items := append([]*Node{{Kind: Symbol, Text: "or", Pos: start, End: start}}, kws...)
	return &Node{Kind: List, Items: items, Pos: start, End: r.pos()}, nil
}

func (r *reader) str() (string, error) {
	start := r.pos()
	r.next() // "
	// Fast path: most strings have no escapes, so the value is a slice of
	// the source; only the position bookkeeping walks it.
	if end := strings.IndexAny(r.src[r.off:], `"\`); end >= 0 && r.src[r.off+end] == '"' {
		body := r.src[r.off : r.off+end]
		if utf8.ValidString(body) {
			for _, c := range body {
				if c == '\n' {
					r.line++
					r.col = 1
				} else {
					r.col++
				}
			}
			r.off += end
			r.next() // "
			return body, nil
		}
	}
	var b strings.Builder
	for {
		if r.eof() {
			return "", r.errf(start, "string starting here is never closed; expected '\"'")
		}
		p := r.pos()
		c, size := utf8.DecodeRuneInString(r.src[r.off:])
		if c == utf8.RuneError && size <= 1 {
			return "", r.errf(p, "invalid UTF-8 byte 0x%02x in string", r.src[r.off])
		}
		r.next()
		switch c {
		case '"':
			return b.String(), nil
		case '\\':
			if r.eof() {
				return "", r.errf(p, "string ends inside an escape sequence")
			}
			e := r.next()
			switch e {
			case '"', '\\', '/':
				b.WriteRune(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				u, err := r.hex4(p)
				if err != nil {
					return "", err
				}
				if utf16.IsSurrogate(u) {
					lo := rune(-1)
					if strings.HasPrefix(r.src[r.off:], `\u`) {
						save := *r
						r.next()
						r.next()
						l, err := r.hex4(p)
						if err == nil && l >= 0xDC00 && l <= 0xDFFF && u < 0xDC00 {
							lo = l
						} else {
							*r = save
						}
					}
					if lo < 0 {
						return "", r.errf(p, "unpaired UTF-16 surrogate \\u%04X in string", u)
					}
					u = utf16.DecodeRune(u, lo)
				}
				b.WriteRune(u)
			default:
				return "", r.errf(p, "unknown escape \\%c in string; expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX", e)
			}
		default:
			b.WriteRune(c)
		}
	}
}

func (r *reader) hex4(at Pos) (rune, error) {
	if len(r.src)-r.off < 4 {
		return 0, r.errf(at, "expected four hex digits after \\u")
	}
	v, err := strconv.ParseUint(r.src[r.off:r.off+4], 16, 32)
	if err != nil {
		return 0, r.errf(at, "expected four hex digits after \\u, found %q", r.src[r.off:r.off+4])
	}
	for i := 0; i < 4; i++ {
		r.next()
	}
	return rune(v), nil
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
