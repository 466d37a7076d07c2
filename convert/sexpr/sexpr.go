// Package sexpr reads and prints the S-expressions that MCP-Term is written in.
//
// The syntax is deliberately small: lists, symbols, :keywords, JSON-compatible
// strings and numbers, nil/true/false, and ; comments. The sugar :a|:b|:c reads
// as (or :a :b :c), and the printer writes any such list back in the sugared
// form, so the printed text always reads back to the same tree.
package sexpr

import (
	"fmt"
	"strings"
)

// Kind tells what a Node is.
type Kind uint8

const (
	List Kind = iota
	Symbol
	Keyword
	String
	Number
	Nil
	Bool
)

func (k Kind) String() string {
	return [...]string{"list", "symbol", "keyword", "string", "number", "nil", "bool"}[k]
}

// Pos is a place in the source: byte offset, 1-based line, 1-based column
// counted in characters (runes).
type Pos struct {
	Offset int
	Line   int
	Col    int
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Node is one datum. Text holds a symbol's name, a keyword's name without the
// colon, a string's decoded value, or a number's literal text (kept verbatim
// so 1e400 or 12345678901234567890 are not rounded).
type Node struct {
	Kind  Kind
	Text  string
	Bool  bool
	Items []*Node
	Pos   Pos // where the datum starts
	End   Pos // just past where it ends
}

// Constructors for building trees in code.

func Sym(name string) *Node    { return &Node{Kind: Symbol, Text: name} }
func Kw(name string) *Node     { return &Node{Kind: Keyword, Text: name} }
func Str(s string) *Node       { return &Node{Kind: String, Text: s} }
func Num(literal string) *Node { return &Node{Kind: Number, Text: literal} }
func NilNode() *Node           { return &Node{Kind: Nil} }
func BoolNode(b bool) *Node    { return &Node{Kind: Bool, Bool: b} }
func L(items ...*Node) *Node {
	if items == nil {
		items = []*Node{}
	}
	return &Node{Kind: List, Items: items}
}

// IsSym reports whether n is the symbol name.
func (n *Node) IsSym(name string) bool { return n != nil && n.Kind == Symbol && n.Text == name }

// Head returns the symbol a list starts with, or "".
func (n *Node) Head() string {
	if n == nil || n.Kind != List || len(n.Items) == 0 || n.Items[0].Kind != Symbol {
		return ""
	}
	return n.Items[0].Text
}

// Equal compares trees, ignoring positions. Numbers compare by literal text.
func Equal(a, b *Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind || a.Text != b.Text || a.Bool != b.Bool || len(a.Items) != len(b.Items) {
		return false
	}
	for i := range a.Items {
		if !Equal(a.Items[i], b.Items[i]) {
			return false
		}
	}
	return true
}

// Describe names a node for error messages: "symbol foo", "string \"x\"", "list (a ...)".
func Describe(n *Node) string {
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case List:
		if h := n.Head(); h != "" {
			return "list (" + h + " ...)"
		}
		if len(n.Items) == 0 {
			return "empty list ()"
		}
		return "list"
	case Symbol:
		return "symbol " + n.Text
	case Keyword:
		return "keyword :" + n.Text
	case String:
		s := n.Text
		if len(s) > 40 {
			s = s[:40] + "..."
		}
		return "string " + quote(s)
	case Number:
		return "number " + n.Text
	case Nil:
		return "nil"
	case Bool:
		if n.Bool {
			return "true"
		}
		return "false"
	}
	return n.Kind.String()
}

// Error is a syntax error at a position.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Pos, e.Msg) }

// Errorf builds an *Error at a node's position; other packages use it so that
// every MCP-Term error reads the same way.
func Errorf(at *Node, format string, args ...any) *Error {
	var p Pos
	if at != nil {
		p = at.Pos
	}
	return &Error{Pos: p, Msg: fmt.Sprintf(format, args...)}
}

// IsSymbolText reports whether s prints as a bare symbol that reads back as
// the same symbol (and not as a number, nil, true or false).
func IsSymbolText(s string) bool {
	if s == "" || s == "nil" || s == "true" || s == "false" {
		return false
	}
	for i, r := range s {
		if !isSymbolRune(r) {
			return false
		}
		if i == 0 && r == ':' {
			return false
		}
	}
	return !looksNumeric(s)
}

// IsKeywordText reports whether :s prints and reads back as the keyword s.
func IsKeywordText(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !isSymbolRune(r) || r == ':' {
			return false
		}
	}
	return true
}

func isSymbolRune(r rune) bool {
	switch r {
	case '(', ')', '"', ';', '|', '\'', '`', ',', '[', ']', '{', '}':
		return false
	}
	return r > ' ' && !(r >= 0x7f && r <= 0x9f) && !isSpace(r)
}

func isSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\f', '\v', 0x85, 0xA0, 0x2028, 0x2029, 0xFEFF:
		return true
	}
	return false
}

// looksNumeric reports whether a token would be read as a number attempt:
// a digit first, or a sign or dot followed by a digit.
func looksNumeric(s string) bool {
	if s == "" {
		return false
	}
	c := s[0]
	if c >= '0' && c <= '9' {
		return true
	}
	if (c == '-' || c == '+' || c == '.') && len(s) > 1 {
		d := s[1]
		if d >= '0' && d <= '9' {
			return true
		}
		if c != '.' && d == '.' && len(s) > 2 && s[2] >= '0' && s[2] <= '9' {
			return true
		}
	}
	return false
}

// validNumber checks the JSON number grammar.
func validNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i >= len(s) {
		return false
	}
	if s[i] == '0' {
		i++
	} else if s[i] >= '1' && s[i] <= '9' {
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	} else {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	return i == len(s)
}

func quote(s string) string {
	var b strings.Builder
	writeQuoted(&b, s)
	return b.String()
}

// IsSymbolRune reports whether r may be part of a bare symbol or keyword
// name: the reader's rule, for tools (a highlighter) that must split text
// as the reader does.
func IsSymbolRune(r rune) bool { return isSymbolRune(r) }

// IsSpaceRune reports whether the reader skips r as white space.
func IsSpaceRune(r rune) bool { return isSpace(r) }

// LooksNumeric reports whether the reader takes the token s for a number
// (well formed or not).
func LooksNumeric(s string) bool { return looksNumeric(s) }
