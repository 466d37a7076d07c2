package demo

import (
	"fmt"
	"strconv"
	"strings"
)

// sqlQuery is the SELECT subset SQL sources accept:
//
//	SELECT * | col [AS name] {, col [AS name]} FROM table [[AS] alias]
//	  [WHERE cond] [ORDER BY col [ASC|DESC] {, ...}] [LIMIT n] [;]
//
// cond is the expression language of expr.go.
type sqlQuery struct {
	star    bool
	cols    []sqlCol
	table   string
	alias   string
	where   *expr
	orderBy []sortKey
	limit   int // -1: none
}

type sqlCol struct {
	name, as string
	pos      int
}

func parseSQL(src string) (*sqlQuery, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	q := &sqlQuery{limit: -1}
	if t := p.next(); !t.is("SELECT") {
		return nil, p.errorf(t, "expected SELECT, found %s (only SELECT queries are supported)", t)
	}
	if t := p.peek(); t.kind == tokOp && t.text == "*" {
		p.next()
		q.star = true
	} else {
		for {
			t := p.next()
			if t.kind != tokIdent || isReserved(t.text) {
				return nil, p.errorf(t, "expected a column name, found %s", t)
			}
			if n := p.peek(); n.kind == tokOp && n.text == "(" {
				return nil, p.errorf(t, "functions such as %s(...) are not supported; aggregate with an agg transformation", t.text)
			}
			c := sqlCol{name: t.text, as: t.text, pos: t.pos}
			if i := strings.LastIndexByte(c.as, '.'); i >= 0 {
				c.as = c.as[i+1:]
			}
			if p.peek().is("AS") {
				p.next()
				a := p.next()
				if a.kind != tokIdent || isReserved(a.text) {
					return nil, p.errorf(a, "expected a name after AS, found %s", a)
				}
				c.as = a.text
			}
			q.cols = append(q.cols, c)
			if n := p.peek(); n.kind == tokOp && n.text == "," {
				p.next()
				continue
			}
			break
		}
	}
	if t := p.next(); !t.is("FROM") {
		return nil, p.errorf(t, "expected FROM, found %s", t)
	}
	t := p.next()
	if t.kind != tokIdent || isReserved(t.text) {
		return nil, p.errorf(t, "expected a table name, found %s", t)
	}
	q.table = t.text
	if p.peek().is("AS") {
		p.next()
	}
	if n := p.peek(); n.kind == tokIdent && !isReserved(n.text) {
		q.alias = p.next().text
	}
	if p.peek().is("WHERE") {
		p.next()
		if q.where, err = p.cond(); err != nil {
			return nil, err
		}
	}
	if p.peek().is("ORDER") {
		p.next()
		if t := p.next(); !t.is("BY") {
			return nil, p.errorf(t, "expected BY after ORDER, found %s", t)
		}
		for {
			c := p.next()
			if c.kind != tokIdent || isReserved(c.text) {
				return nil, p.errorf(c, "expected a column to order by, found %s", c)
			}
			k := sortKey{Field: c.text, Order: "asc"}
			if p.peek().is("ASC") {
				p.next()
			} else if p.peek().is("DESC") {
				p.next()
				k.Order = "desc"
			}
			q.orderBy = append(q.orderBy, k)
			if n := p.peek(); n.kind == tokOp && n.text == "," {
				p.next()
				continue
			}
			break
		}
	}
	if p.peek().is("LIMIT") {
		p.next()
		n := p.next()
		v, err := strconv.Atoi(n.text)
		if n.kind != tokNumber || err != nil || v < 0 {
			return nil, p.errorf(n, "expected a whole number after LIMIT, found %s", n)
		}
		q.limit = v
	}
	if n := p.peek(); n.kind == tokOp && n.text == ";" {
		p.next()
	}
	if n := p.peek(); n.kind != tokEOF {
		if n.kind == tokIdent && isReserved(n.text) {
			return nil, p.errorf(n, "%s is not supported here; use joins and agg transformations", strings.ToUpper(n.text))
		}
		return nil, p.errorf(n, "unexpected %s", n)
	}
	return q, nil
}

// run evaluates the query over a table scanned under the query's alias.
func (q *sqlQuery) run(t *table) (*relation, error) {
	alias := q.alias
	if alias == "" {
		alias = q.table
	}
	rel := t.scan(alias)
	if q.where != nil {
		var err error
		if rel, err = filterExpr(rel, q.where); err != nil {
			return nil, fmt.Errorf("WHERE %v", err)
		}
	}
	if err := sortRelation(rel, q.orderBy); err != nil {
		return nil, fmt.Errorf("ORDER BY: %v", err)
	}
	if q.limit >= 0 && len(rel.rows) > q.limit {
		rel.rows = rel.rows[:q.limit]
	}
	if q.star {
		return rel, nil
	}
	out := &relation{}
	idx := make([]int, len(q.cols))
	for i, c := range q.cols {
		j, err := rel.resolve(c.name)
		if err != nil {
			return nil, fmt.Errorf("at %d: %v", c.pos, err)
		}
		idx[i] = j
		out.cols = append(out.cols, relCol{alias, c.as})
	}
	for _, r := range rel.rows {
		row := make([]any, len(idx))
		for i, j := range idx {
			row[i] = r[j]
		}
		out.rows = append(out.rows, row)
	}
	return out, nil
}
