package calls

import (
	"strings"
	"unicode/utf8"

	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// Role is what a lexeme of a call's text is, for an editor to paint it.
type Role uint8

const (
	RoleOpen    Role = iota + 1 // ( [ {
	RoleClose                   // ) ] }
	RoleHead                    // the symbol a list starts with: a tool, batch, a variant tag
	RoleSymbol                  // any other bare word
	RoleKeyword                 // :name, :a|:b
	RoleString                  // a string, quotes included
	RoleNumber                  // a number
	RoleLiteral                 // nil, true, false; JSON null, true, false
	RoleComment                 // a ; comment, to the end of its line
	RoleKey                     // a JSON object's key
	RolePunct                   // JSON's , and :
	RoleBad                     // a byte no datum starts with, or invalid UTF-8
)

// Lexeme is one token of a call's text. Pair is, for a bracket, the index
// of the bracket that matches it, or -1 when none does (a list left open,
// a stray closer, or a ] closing a {). Open marks a string whose closing
// quote is not written: it runs to the end of the text.
type Lexeme struct {
	Start, End int // byte offsets, [Start, End)
	Role       Role
	Pair       int
	Open       bool
}

// Lex splits a call's text, complete or half written, into lexemes by the
// syntax it is written in: JSON's rules for JSON and AQL (a text whose
// first character past the ; comment lines any call may start with is {
// or [), the MCP-Term reader's otherwise. It never fails: a character no datum starts with is a
// RoleBad lexeme. White space is not a lexeme.
//
// The composer lexes its text on every change to paint it, match brackets
// and decide where typing a ( or " may close it too. chroma's lexers were
// measured for this: 2.9 ms for a 30-entry batch (scheme) and 2.0 ms for
// the same in JSON, more than a keystroke's whole budget; this single pass
// takes microseconds.
func Lex(src string) []Lexeme {
	if len(src) > maxLexBytes {
		return nil
	}
	l := lexer{src: src, out: make([]Lexeme, 0, len(src)/4+4)}
	// Only the first character decides (SyntaxOf also tells AQL from
	// plain JSON, which costs a parse the painter does not need).
	if body := aqlBody(src); strings.HasPrefix(body, "{") || strings.HasPrefix(body, "[") {
		l.json()
	} else {
		l.sexpr()
	}
	return l.out
}

// maxLexBytes bounds what is painted: past it the text is drawn plain (the
// reader refuses such a call anyway, with its own error).
const maxLexBytes = 1 << 20

// LexemeAt is the index of the lexeme that holds byte offset off strictly
// inside it (Start < off < End, or at the end of an open string), or -1.
// A cursor there is typing into that lexeme: a string or a comment.
func LexemeAt(lx []Lexeme, off int) int {
	lo, hi := 0, len(lx)
	for lo < hi { // the first lexeme ending at or past off
		mid := (lo + hi) / 2
		if lx[mid].End < off {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	for i := lo; i < len(lx) && lx[i].Start < off; i++ {
		if off < lx[i].End || (lx[i].Open && off == lx[i].End) || (lx[i].Role == RoleComment && off == lx[i].End) {
			return i
		}
	}
	return -1
}

type lexer struct {
	src   string
	out   []Lexeme
	stack []int // indexes of open brackets
}

func (l *lexer) emit(start, end int, role Role) {
	l.out = append(l.out, Lexeme{Start: start, End: end, Role: role, Pair: -1})
}

// open and close pair brackets: a closer pairs with the innermost open
// bracket of its kind; one that closes nothing, or the wrong kind, is
// left unpaired (the innermost open bracket stays open).
func (l *lexer) open(i int) {
	l.stack = append(l.stack, len(l.out))
	l.emit(i, i+1, RoleOpen)
}

func (l *lexer) close(i int) {
	l.emit(i, i+1, RoleClose)
	n := len(l.stack)
	if n == 0 {
		return
	}
	o := l.stack[n-1]
	if closer(l.src[l.out[o].Start]) != l.src[i] {
		return
	}
	l.stack = l.stack[:n-1]
	me := len(l.out) - 1
	l.out[o].Pair, l.out[me].Pair = me, o
}

func closer(b byte) byte {
	switch b {
	case '(':
		return ')'
	case '[':
		return ']'
	}
	return '}'
}

// str reads a string from its quote: the offset past it, and whether the
// closing quote was found.
func (l *lexer) str(i int) (int, bool) {
	for j := i + 1; j < len(l.src); j++ {
		switch l.src[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return len(l.src), false
}

func (l *lexer) stringAt(i int) int {
	end, closed := l.str(i)
	l.emit(i, end, RoleString)
	l.out[len(l.out)-1].Open = !closed
	return end
}

func (l *lexer) comment(i int) int {
	end := i
	for end < len(l.src) && l.src[end] != '\n' {
		end++
	}
	l.emit(i, end, RoleComment)
	return end
}

func (l *lexer) bad(i int) int {
	_, size := utf8.DecodeRuneInString(l.src[i:])
	l.emit(i, i+size, RoleBad)
	return i + size
}

// sexpr lexes by the MCP-Term reader's rules (sexpr.IsSymbolRune and
// IsSpaceRune are the reader's own).
func (l *lexer) sexpr() {
	src := l.src
	head := false // the next word is the head of a list
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRuneInString(src[i:])
		switch {
		case sexpr.IsSpaceRune(r):
			i += size
			continue
		case r == ';':
			i = l.comment(i)
			continue
		case r == '(':
			l.open(i)
			i++
			head = true
			continue
		case r == ')':
			l.close(i)
			i++
		case r == '"':
			i = l.stringAt(i)
		case r == utf8.RuneError && size <= 1, !sexpr.IsSymbolRune(r) && r != '|':
			i = l.bad(i)
		default:
			j := i
			for j < len(src) {
				r, size := utf8.DecodeRuneInString(src[j:])
				if (r == utf8.RuneError && size <= 1) || (!sexpr.IsSymbolRune(r) && r != '|') {
					break
				}
				j += size
			}
			l.emit(i, j, wordRole(src[i:j], head))
			i = j
		}
		head = false
	}
}

func wordRole(w string, head bool) Role {
	switch {
	case w[0] == ':':
		return RoleKeyword
	case w == "nil" || w == "true" || w == "false":
		return RoleLiteral
	case sexpr.LooksNumeric(w):
		return RoleNumber
	case head:
		return RoleHead
	}
	return RoleSymbol
}

// json lexes JSON, with the ; comment lines a call may start with. A
// string is a key when a ':' follows it.
func (l *lexer) json() {
	src := l.src
	body := false
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == ';' && !body:
			i = l.comment(i)
		case c == '{' || c == '[':
			body = true
			l.open(i)
			i++
		case c == '}' || c == ']':
			l.close(i)
			i++
		case c == ',' || c == ':':
			l.emit(i, i+1, RolePunct)
			i++
		case c == '"':
			body = true
			end := l.stringAt(i)
			if next := skipSpace(src, end); next < len(src) && src[next] == ':' {
				l.out[len(l.out)-1].Role = RoleKey
			}
			i = end
		case c == '-' || (c >= '0' && c <= '9'):
			body = true
			j := i + 1
			for j < len(src) && isNumberByte(src[j]) {
				j++
			}
			l.emit(i, j, RoleNumber)
			i = j
		case c >= 'a' && c <= 'z':
			body = true
			j := i
			for j < len(src) && src[j] >= 'a' && src[j] <= 'z' {
				j++
			}
			role := RoleBad
			if w := src[i:j]; w == "null" || w == "true" || w == "false" {
				role = RoleLiteral
			}
			l.emit(i, j, role)
			i = j
		default:
			body = true
			i = l.bad(i)
		}
	}
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

func isNumberByte(c byte) bool {
	return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}
