package demo

import (
	"fmt"
	"slices"
	"strings"
)

// joinAll combines the sources. With no joins there must be one source; each
// join must bring in exactly one source that is not yet part of the result.
func joinAll(rels map[string]*relation, order []string, joins []joinSpec) (*relation, error) {
	if len(joins) == 0 {
		if len(order) > 1 {
			return nil, fmt.Errorf("%d sources but no joins: join them (joins[].left/right are aliases: %s)", len(order), strings.Join(order, ", "))
		}
		return rels[order[0]], nil
	}
	in := map[string]bool{}
	var cur *relation
	for i, j := range joins {
		for _, side := range []string{j.Left, j.Right} {
			if rels[side] == nil {
				return nil, fmt.Errorf("joins[%d]: no source has alias %q (aliases: %s)", i, side, strings.Join(order, ", "))
			}
		}
		if j.Left == j.Right {
			return nil, fmt.Errorf("joins[%d]: a source cannot be joined to itself", i)
		}
		typ := j.Type
		if typ == "" {
			typ = "inner"
		}
		if typ != "inner" && typ != "left" && typ != "right" {
			return nil, fmt.Errorf("joins[%d]: type must be inner, left or right, got %q", i, typ)
		}
		var add string
		switch {
		case cur == nil:
			cur, in[j.Left] = rels[j.Left], true
			add = j.Right
		case in[j.Left] && !in[j.Right]:
			add = j.Right
		case in[j.Right] && !in[j.Left]:
			add = j.Left
			// The joined result is on the join's right; swap the outer side.
			switch typ {
			case "left":
				typ = "right"
			case "right":
				typ = "left"
			}
		case in[j.Left]:
			return nil, fmt.Errorf("joins[%d]: %s and %s are already joined", i, j.Left, j.Right)
		default:
			return nil, fmt.Errorf("joins[%d]: neither %s nor %s is joined yet; order the joins so each adds one new source", i, j.Left, j.Right)
		}
		next, err := join(cur, rels[add], typ, j.On)
		if err != nil {
			return nil, fmt.Errorf("joins[%d]: %v", i, err)
		}
		cur, in[add] = next, true
	}
	for _, a := range order {
		if !in[a] {
			return nil, fmt.Errorf("source %q is not joined to the others", a)
		}
	}
	return cur, nil
}

// join is a nested-loop join of a (kept whole by "left") and b (kept whole by
// "right"); unmatched rows are padded with NULLs.
func join(a, b *relation, typ string, on []joinCond) (*relation, error) {
	out := &relation{cols: append(slices.Clone(a.cols), b.cols...)}
	var conds []*expr
	for k, c := range on {
		op := c.Op
		if op == "" {
			op = "="
		}
		if _, ok := cmpOps[op]; !ok {
			return nil, fmt.Errorf("on[%d]: unknown operator %q", k, op)
		}
		e := &expr{kind: exCmp, op: cmpOps[op], args: []*expr{{kind: exCol, name: c.Left}, {kind: exCol, name: c.Right}}}
		for _, arg := range e.args {
			i, err := out.resolve(arg.name)
			if err != nil {
				return nil, fmt.Errorf("on[%d]: %v", k, err)
			}
			arg.idx = i
		}
		conds = append(conds, e)
	}
	matchedB := make([]bool, len(b.rows))
	row := make([]any, len(out.cols))
	for _, ra := range a.rows {
		matched := false
		for bi, rb := range b.rows {
			copy(row, ra)
			copy(row[len(ra):], rb)
			if !slices.ContainsFunc(conds, func(e *expr) bool { return !e.test(row) }) {
				out.rows = append(out.rows, slices.Clone(row))
				matched, matchedB[bi] = true, true
				if len(out.rows) > maxRelationRows {
					return nil, fmt.Errorf("the join produces more than %d rows; add conditions", maxRelationRows)
				}
			}
		}
		if !matched && typ == "left" {
			r := make([]any, len(out.cols))
			copy(r, ra)
			out.rows = append(out.rows, r)
		}
	}
	if typ == "right" {
		for bi, rb := range b.rows {
			if !matchedB[bi] {
				r := make([]any, len(out.cols))
				copy(r[len(a.cols):], rb)
				out.rows = append(out.rows, r)
			}
		}
	}
	return out, nil
}

func filter(rel *relation, cond string) (*relation, error) {
	e, err := parseCond(cond)
	if err != nil {
		return nil, fmt.Errorf("cond: %v", err)
	}
	out, err := filterExpr(rel, e)
	if err != nil {
		return nil, fmt.Errorf("cond %v", err)
	}
	return out, nil
}

func filterExpr(rel *relation, e *expr) (*relation, error) {
	if err := e.bind(rel); err != nil {
		return nil, err
	}
	out := &relation{cols: rel.cols}
	for _, r := range rel.rows {
		if e.test(r) {
			out.rows = append(out.rows, r)
		}
	}
	return out, nil
}

// aggregate groups rows by the group columns (groups in order of first
// appearance) and computes each aggregate per group.
func aggregate(rel *relation, group []string, aggs []aggSpec) (*relation, error) {
	if len(aggs) == 0 {
		return nil, fmt.Errorf("aggs needs at least one aggregate")
	}
	out := &relation{}
	gidx := make([]int, len(group))
	seen := map[string]bool{}
	for i, g := range group {
		j, err := rel.resolve(g)
		if err != nil {
			return nil, fmt.Errorf("group: %v", err)
		}
		gidx[i] = j
		out.cols = append(out.cols, relCol{"", g})
		seen[g] = true
	}
	aidx := make([]int, len(aggs))
	for i, a := range aggs {
		if seen[a.Name] {
			return nil, fmt.Errorf("aggs: output column %q is already used", a.Name)
		}
		seen[a.Name] = true
		aidx[i] = -1
		switch a.Fn {
		case "count":
		case "count_distinct", "sum", "avg", "min", "max":
			if a.Field == "" {
				return nil, fmt.Errorf("aggs.%s: %s needs a field", a.Name, a.Fn)
			}
		default:
			return nil, fmt.Errorf("aggs.%s: unknown fn %q (want count, count_distinct, sum, avg, min or max)", a.Name, a.Fn)
		}
		if a.Field != "" {
			j, err := rel.resolve(a.Field)
			if err != nil {
				return nil, fmt.Errorf("aggs.%s: %v", a.Name, err)
			}
			aidx[i] = j
		}
		out.cols = append(out.cols, relCol{"", a.Name})
	}
	type bucket struct {
		key  []any
		rows [][]any
	}
	var buckets []*bucket
	byKey := map[string]*bucket{}
	for _, r := range rel.rows {
		key := make([]any, len(gidx))
		for i, j := range gidx {
			key[i] = r[j]
		}
		k := fmt.Sprintf("%#v", key)
		b := byKey[k]
		if b == nil {
			b = &bucket{key: key}
			byKey[k] = b
			buckets = append(buckets, b)
		}
		b.rows = append(b.rows, r)
	}
	if len(group) == 0 && len(buckets) == 0 {
		buckets = append(buckets, &bucket{})
	}
	for _, b := range buckets {
		row := slices.Clone(b.key)
		for i, a := range aggs {
			v, err := aggValue(a, aidx[i], b.rows)
			if err != nil {
				return nil, fmt.Errorf("aggs.%s: %v", a.Name, err)
			}
			row = append(row, v)
		}
		out.rows = append(out.rows, row)
	}
	return out, nil
}

func aggValue(a aggSpec, col int, rows [][]any) (any, error) {
	if a.Fn == "count" && col < 0 {
		return float64(len(rows)), nil
	}
	var vals []any
	for _, r := range rows {
		if r[col] != nil {
			vals = append(vals, r[col])
		}
	}
	switch a.Fn {
	case "count":
		return float64(len(vals)), nil
	case "count_distinct":
		seen := map[any]bool{}
		for _, v := range vals {
			seen[v] = true
		}
		return float64(len(seen)), nil
	case "sum", "avg":
		sum := 0.0
		for _, v := range vals {
			f, ok := v.(float64)
			if !ok {
				return nil, fmt.Errorf("%s(%s): %s holds %T values, not numbers", a.Fn, a.Field, a.Field, v)
			}
			sum += f
		}
		if a.Fn == "sum" {
			return round6(sum), nil
		}
		if len(vals) == 0 {
			return nil, nil
		}
		return round6(sum / float64(len(vals))), nil
	}
	var best any
	for _, v := range vals {
		if best == nil {
			best = v
			continue
		}
		c, ok := order(v, best)
		if !ok {
			return nil, fmt.Errorf("%s(%s): values of different types do not compare", a.Fn, a.Field)
		}
		if (a.Fn == "min" && c < 0) || (a.Fn == "max" && c > 0) {
			best = v
		}
	}
	return best, nil
}
