package demo

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// This file is the small expression language shared by filter transformations
// and the WHERE clause of SQL sources:
//
//	cond    := and ("OR" and)*
//	and     := not ("AND" not)*
//	not     := "NOT" not | primary
//	primary := "(" cond ")" | operand [cmp operand | [NOT] IN "(" lit ("," lit)* ")"
//	           | [NOT] LIKE string | IS [NOT] NULL]
//	operand := column | number | string | TRUE | FALSE | NULL
//	cmp     := "=" | "==" | "!=" | "<>" | "<" | "<=" | ">" | ">="
//
// Keywords are case-insensitive; strings take single or double quotes (a
// doubled quote escapes itself); columns may be qualified ("o.amount") and
// dotted paths name nested fields ("props.device"). A NULL never compares equal
// to anything: use IS NULL.

// maxExprDepth bounds nesting so a hostile condition cannot exhaust the stack.
const maxExprDepth = 64

type tokKind int

const (
	tokEOF tokKind = iota
	tokIdent
	tokNumber
	tokString
	tokOp // punctuation and comparison operators
)

type token struct {
	kind tokKind
	text string // identifier/operator text, or a string's unquoted value
	pos  int    // 1-based column of the token's start
}

func (t token) String() string {
	switch t.kind {
	case tokEOF:
		return "end of input"
	case tokString:
		return strconv.Quote(t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

// isKeyword reports whether an identifier token is the keyword kw.
func (t token) is(kw string) bool { return t.kind == tokIdent && strings.EqualFold(t.text, kw) }

func lex(src string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '_' || isLetter(c):
			j := i + 1
			for j < len(src) && (isLetter(src[j]) || isDigit(src[j]) || src[j] == '_' || src[j] == '.' || src[j] == '$') {
				j++
			}
			toks = append(toks, token{tokIdent, src[i:j], i + 1})
			i = j
		case isDigit(c) || (c == '.' && i+1 < len(src) && isDigit(src[i+1])):
			j := i
			for j < len(src) && (isDigit(src[j]) || src[j] == '.' || src[j] == 'e' || src[j] == 'E' ||
				((src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E'))) {
				j++
			}
			if _, err := strconv.ParseFloat(src[i:j], 64); err != nil {
				return nil, fmt.Errorf("at %d: bad number %q", i+1, src[i:j])
			}
			toks = append(toks, token{tokNumber, src[i:j], i + 1})
			i = j
		case c == '\'' || c == '"':
			var sb strings.Builder
			j := i + 1
			for {
				if j >= len(src) {
					return nil, fmt.Errorf("at %d: string is not closed", i+1)
				}
				if src[j] == c {
					if j+1 < len(src) && src[j+1] == c {
						sb.WriteByte(c)
						j += 2
						continue
					}
					break
				}
				sb.WriteByte(src[j])
				j++
			}
			toks = append(toks, token{tokString, sb.String(), i + 1})
			i = j + 1
		default:
			op := ""
			for _, cand := range []string{"==", "!=", "<>", "<=", ">=", "=", "<", ">", "(", ")", ",", "*", "-", ";"} {
				if strings.HasPrefix(src[i:], cand) {
					op = cand
					break
				}
			}
			if op == "" {
				return nil, fmt.Errorf("at %d: unexpected character %q", i+1, rune(src[i]))
			}
			toks = append(toks, token{tokOp, op, i + 1})
			i += len(op)
		}
	}
	return append(toks, token{tokEOF, "", len(src) + 1}), nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

type exprKind int

const (
	exLit exprKind = iota
	exCol
	exCmp
	exAnd
	exOr
	exNot
	exIn
	exIsNull
	exLike
)

// expr is a parsed condition. Columns are bound to row positions by bind
// before evaluation, so unknown names are reported before any row is read.
type expr struct {
	kind   exprKind
	op     string // comparison operator
	val    any    // literal: float64, string, bool or nil
	name   string // column name as written
	idx    int    // bound column index
	args   []*expr
	negate bool // NOT IN, NOT LIKE, IS NOT NULL
	re     *regexp.Regexp
	pos    int
}

type parser struct {
	toks  []token
	i     int
	depth int
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

func (p *parser) errorf(t token, format string, args ...any) error {
	return fmt.Errorf("at %d: %s", t.pos, fmt.Sprintf(format, args...))
}

// parseCond parses a whole condition string.
func parseCond(src string) (*expr, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	e, err := p.cond()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tokEOF {
		return nil, p.errorf(t, "expected AND, OR or the end of the condition, found %s", t)
	}
	return e, nil
}

func (p *parser) cond() (*expr, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxExprDepth {
		return nil, p.errorf(p.peek(), "condition nests more than %d levels deep", maxExprDepth)
	}
	left, err := p.and()
	if err != nil {
		return nil, err
	}
	for p.peek().is("OR") {
		t := p.next()
		right, err := p.and()
		if err != nil {
			return nil, err
		}
		left = &expr{kind: exOr, args: []*expr{left, right}, pos: t.pos}
	}
	return left, nil
}

func (p *parser) and() (*expr, error) {
	left, err := p.not()
	if err != nil {
		return nil, err
	}
	for p.peek().is("AND") {
		t := p.next()
		right, err := p.not()
		if err != nil {
			return nil, err
		}
		left = &expr{kind: exAnd, args: []*expr{left, right}, pos: t.pos}
	}
	return left, nil
}

func (p *parser) not() (*expr, error) {
	if p.peek().is("NOT") {
		t := p.next()
		p.depth++
		defer func() { p.depth-- }()
		if p.depth > maxExprDepth {
			return nil, p.errorf(t, "condition nests more than %d levels deep", maxExprDepth)
		}
		inner, err := p.not()
		if err != nil {
			return nil, err
		}
		return &expr{kind: exNot, args: []*expr{inner}, pos: t.pos}, nil
	}
	return p.primary()
}

var cmpOps = map[string]string{"=": "=", "==": "=", "!=": "!=", "<>": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}

func (p *parser) primary() (*expr, error) {
	if t := p.peek(); t.kind == tokOp && t.text == "(" {
		p.next()
		e, err := p.cond()
		if err != nil {
			return nil, err
		}
		if c := p.next(); c.kind != tokOp || c.text != ")" {
			return nil, p.errorf(c, "expected \")\" to close the \"(\" at %d, found %s", t.pos, c)
		}
		return e, nil
	}
	left, err := p.operand()
	if err != nil {
		return nil, err
	}
	t := p.peek()
	switch {
	case t.kind == tokOp && cmpOps[t.text] != "":
		p.next()
		right, err := p.operand()
		if err != nil {
			return nil, err
		}
		return &expr{kind: exCmp, op: cmpOps[t.text], args: []*expr{left, right}, pos: t.pos}, nil
	case t.is("IS"):
		p.next()
		neg := false
		if p.peek().is("NOT") {
			p.next()
			neg = true
		}
		if n := p.next(); !n.is("NULL") {
			return nil, p.errorf(n, "expected NULL after IS, found %s", n)
		}
		return &expr{kind: exIsNull, args: []*expr{left}, negate: neg, pos: t.pos}, nil
	case t.is("NOT") || t.is("IN") || t.is("LIKE"):
		p.next()
		neg := false
		if t.is("NOT") {
			neg = true
			t = p.next()
			if !t.is("IN") && !t.is("LIKE") {
				return nil, p.errorf(t, "expected IN or LIKE after NOT, found %s", t)
			}
		}
		if t.is("LIKE") {
			pat := p.next()
			if pat.kind != tokString {
				return nil, p.errorf(pat, "expected a quoted pattern after LIKE, found %s", pat)
			}
			return &expr{kind: exLike, args: []*expr{left}, negate: neg, re: likeRegexp(pat.text), pos: t.pos}, nil
		}
		if o := p.next(); o.kind != tokOp || o.text != "(" {
			return nil, p.errorf(o, "expected \"(\" after IN, found %s", o)
		}
		in := &expr{kind: exIn, args: []*expr{left}, negate: neg, pos: t.pos}
		for {
			lit, err := p.operand()
			if err != nil {
				return nil, err
			}
			if lit.kind != exLit {
				return nil, p.errorf(p.toks[p.i-1], "IN lists take values, not columns")
			}
			in.args = append(in.args, lit)
			sep := p.next()
			if sep.kind == tokOp && sep.text == ")" {
				break
			}
			if sep.kind != tokOp || sep.text != "," {
				return nil, p.errorf(sep, "expected \",\" or \")\" in the IN list, found %s", sep)
			}
		}
		return in, nil
	}
	return left, nil
}

func (p *parser) operand() (*expr, error) {
	t := p.next()
	switch t.kind {
	case tokNumber:
		f, _ := strconv.ParseFloat(t.text, 64)
		return &expr{kind: exLit, val: f, pos: t.pos}, nil
	case tokString:
		return &expr{kind: exLit, val: t.text, pos: t.pos}, nil
	case tokOp:
		if t.text == "-" {
			n := p.next()
			if n.kind != tokNumber {
				return nil, p.errorf(n, "expected a number after \"-\", found %s", n)
			}
			f, _ := strconv.ParseFloat(n.text, 64)
			return &expr{kind: exLit, val: -f, pos: t.pos}, nil
		}
	case tokIdent:
		switch {
		case t.is("TRUE"):
			return &expr{kind: exLit, val: true, pos: t.pos}, nil
		case t.is("FALSE"):
			return &expr{kind: exLit, val: false, pos: t.pos}, nil
		case t.is("NULL"):
			return &expr{kind: exLit, val: nil, pos: t.pos}, nil
		case isReserved(t.text):
			return nil, p.errorf(t, "expected a column or a value, found the keyword %s", strings.ToUpper(t.text))
		}
		return &expr{kind: exCol, name: t.text, pos: t.pos}, nil
	}
	return nil, p.errorf(t, "expected a column or a value, found %s", t)
}

var reserved = map[string]bool{"AND": true, "OR": true, "NOT": true, "IN": true, "IS": true, "LIKE": true,
	"SELECT": true, "FROM": true, "WHERE": true, "ORDER": true, "BY": true, "LIMIT": true, "AS": true, "ASC": true, "DESC": true,
	"GROUP": true, "HAVING": true, "JOIN": true, "INNER": true, "LEFT": true, "RIGHT": true, "OUTER": true, "ON": true, "UNION": true, "OFFSET": true}

func isReserved(s string) bool { return reserved[strings.ToUpper(s)] }

// likeRegexp translates a LIKE pattern: % is any run, _ any one character.
func likeRegexp(pat string) *regexp.Regexp {
	var sb strings.Builder
	sb.WriteString("^(?s:")
	for _, r := range pat {
		switch r {
		case '%':
			sb.WriteString(".*")
		case '_':
			sb.WriteString(".")
		default:
			sb.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	sb.WriteString(")$")
	return regexp.MustCompile(sb.String())
}

// bind resolves every column of e against rel's columns.
func (e *expr) bind(rel *relation) error {
	if e.kind == exCol {
		i, err := rel.resolve(e.name)
		if err != nil {
			return fmt.Errorf("at %d: %v", e.pos, err)
		}
		e.idx = i
	}
	for _, a := range e.args {
		if err := a.bind(rel); err != nil {
			return err
		}
	}
	return nil
}

// value evaluates an operand.
func (e *expr) value(row []any) any {
	switch e.kind {
	case exLit:
		return e.val
	case exCol:
		return row[e.idx]
	}
	return e.test(row)
}

// test evaluates e as a condition; only a true boolean passes.
func (e *expr) test(row []any) bool {
	switch e.kind {
	case exAnd:
		return e.args[0].test(row) && e.args[1].test(row)
	case exOr:
		return e.args[0].test(row) || e.args[1].test(row)
	case exNot:
		return !e.args[0].test(row)
	case exCmp:
		return compare(e.args[0].value(row), e.op, e.args[1].value(row))
	case exIsNull:
		return (e.args[0].value(row) == nil) != e.negate
	case exLike:
		s, ok := e.args[0].value(row).(string)
		return ok && e.re.MatchString(s) != e.negate
	case exIn:
		v := e.args[0].value(row)
		if v == nil {
			return false
		}
		for _, lit := range e.args[1:] {
			if compare(v, "=", lit.val) {
				return !e.negate
			}
		}
		return e.negate
	}
	b, ok := e.value(row).(bool)
	return ok && b
}

// compare applies a comparison. Numbers compare numerically (a string that
// spells a number counts as one), strings by bytes, booleans only for
// equality; NULL matches nothing.
func compare(a any, op string, b any) bool {
	if a == nil || b == nil {
		return false
	}
	c, ok := order(a, b)
	if !ok {
		return op == "!="
	}
	switch op {
	case "=":
		return c == 0
	case "!=":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	case ">=":
		return c >= 0
	}
	return false
}

// order compares two non-null values; ok is false when they do not compare.
func order(a, b any) (int, bool) {
	if af, bf, ok := asNumbers(a, b); ok {
		switch {
		case af < bf:
			return -1, true
		case af > bf:
			return 1, true
		}
		return 0, true
	}
	switch x := a.(type) {
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y), true
		}
	case bool:
		if y, ok := b.(bool); ok {
			if x == y {
				return 0, true
			}
			if !x {
				return -1, true
			}
			return 1, true
		}
	}
	return 0, false
}

func asNumbers(a, b any) (float64, float64, bool) {
	af, aok := a.(float64)
	bf, bok := b.(float64)
	switch {
	case aok && bok:
		return af, bf, true
	case aok:
		if s, ok := b.(string); ok {
			if f, err := strconv.ParseFloat(s, 64); err == nil {
				return af, f, true
			}
		}
	case bok:
		if s, ok := a.(string); ok {
			if f, err := strconv.ParseFloat(s, 64); err == nil {
				return f, bf, true
			}
		}
	}
	return 0, 0, false
}
