package demo

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

func ordersRel() *relation { return demoTables()["orders"].scan("o") }

// ids returns the ids of the orders a condition keeps.
func ids(t *testing.T, cond string) string {
	t.Helper()
	rel, err := filter(ordersRel(), cond)
	if err != nil {
		t.Fatalf("%s: %v", cond, err)
	}
	var out []string
	for _, r := range rel.rows {
		out = append(out, formatValue(r[0]))
	}
	return strings.Join(out, " ")
}

func TestCondEvaluation(t *testing.T) {
	cases := map[string]string{
		"customer_id = 1":                            "1001 1002 1015",
		"o.customer_id == 1 AND amount > 100":        "1015",
		"customer_id = 1 or customer_id = 6":         "1001 1002 1011 1015",
		"NOT (status = 'paid') AND quantity >= 3":    "1005 1013 1017",
		"status <> 'paid' AND sku LIKE 'K%'":         "1007 1013 1017",
		"sku NOT LIKE '%-0_' AND quantity > 4":       "1003",
		"status IN ('refunded') OR id IN (1001)":     "1001 1005 1013",
		"id NOT IN (1001, 1002, 1003) AND id < 1006": "1004 1005",
		"amount >= 2290":                             "1003",
		"created_at > '2024-06-10'":                  "1016 1017 1018",
		"created_at > \"2024-06-10\"":                "1016 1017 1018",
		"quantity = '20'":                            "1014",
		"quantity > -1 AND amount < 1e1":             "",
		"sku IS NULL":                                "",
		"(((id = 1018)))":                            "1018",
		"id = 1001 AND NOT NOT id = 1001":            "1001",
		"status = NULL":                              "",
		"status != 1":                                strings.TrimSpace(ids(t, "id > 0")),
	}
	for cond, want := range cases {
		if got := ids(t, cond); got != want {
			t.Errorf("%s: got [%s], want [%s]", cond, got, want)
		}
	}
}

func TestCondErrors(t *testing.T) {
	cases := map[string]string{
		"":                          "at 1: expected a column or a value, found end of input",
		"amount >":                  "at 9: expected a column or a value",
		"amount > 5 status = 'x'":   `at 12: expected AND, OR or the end of the condition, found "status"`,
		"(amount > 5":               `expected ")" to close the "(" at 1`,
		"status = 'paid":            "at 10: string is not closed",
		"amount ~ 5":                `at 8: unexpected character '~'`,
		"status IS 'paid'":          "expected NULL after IS",
		"status NOT BETWEEN 1":      "expected IN or LIKE after NOT",
		"sku LIKE sku":              "expected a quoted pattern after LIKE",
		"id IN (1, sku)":            "IN lists take values, not columns",
		"id IN 1":                   `expected "(" after IN`,
		"id IN (1 2)":               `expected "," or ")" in the IN list`,
		"colour = 'red'":            `at 1: unknown column "colour"`,
		"amount > - x":              `expected a number after "-"`,
		"1.2.3 = 1":                 `bad number "1.2.3"`,
		"WHERE id = 1":              "found the keyword WHERE",
		strings.Repeat("(", 200):    "nests more than 64 levels",
		strings.Repeat("NOT ", 200): "nests more than 64 levels",
	}
	for cond, want := range cases {
		_, err := filter(ordersRel(), cond)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", cond, err, want)
		}
	}
}

// Property: the evaluator agrees with Go's own boolean logic on random
// conditions built from random comparisons.
func TestCondProperties(t *testing.T) {
	rel := ordersRel()
	rng := rand.New(rand.NewPCG(1, 2))
	cols := []string{"id", "customer_id", "quantity", "amount", "status", "sku"}
	ops := []string{"=", "!=", "<", "<=", ">", ">="}
	type gen struct {
		src  string
		eval func(row []any) bool
	}
	var build func(depth int) gen
	build = func(depth int) gen {
		if depth == 0 || rng.IntN(3) == 0 {
			ci := rng.IntN(len(cols))
			col, op := cols[ci], ops[rng.IntN(len(ops))]
			var lit any
			var src string
			if col == "status" || col == "sku" {
				s := []string{"paid", "pending", "KB-01", "MN-27", "zzz"}[rng.IntN(5)]
				lit, src = s, "'"+s+"'"
			} else {
				f := float64(rng.IntN(1020))
				lit, src = f, formatValue(f)
			}
			idx, _ := rel.resolve(col)
			return gen{col + " " + op + " " + src, func(row []any) bool { return compare(row[idx], op, lit) }}
		}
		a, b := build(depth-1), build(depth-1)
		switch rng.IntN(3) {
		case 0:
			return gen{"(" + a.src + ") AND (" + b.src + ")", func(r []any) bool { return a.eval(r) && b.eval(r) }}
		case 1:
			return gen{"(" + a.src + ") OR (" + b.src + ")", func(r []any) bool { return a.eval(r) || b.eval(r) }}
		}
		return gen{"NOT (" + a.src + ")", func(r []any) bool { return !a.eval(r) }}
	}
	for range 300 {
		g := build(4)
		e, err := parseCond(g.src)
		if err != nil {
			t.Fatalf("%s: %v", g.src, err)
		}
		if err := e.bind(rel); err != nil {
			t.Fatalf("%s: %v", g.src, err)
		}
		for _, row := range rel.rows {
			if got, want := e.test(row), g.eval(row); got != want {
				t.Fatalf("%s on %v: got %v, want %v", g.src, row, got, want)
			}
		}
	}
}

// Property: comparisons are consistent orders.
func TestCompareConsistent(t *testing.T) {
	vals := []any{nil, true, false, 1.0, 2.5, -3.0, "1", "10", "abc", "", "2.5"}
	for _, a := range vals {
		for _, b := range vals {
			lt, gt, eq := compare(a, "<", b), compare(a, ">", b), compare(a, "=", b)
			if (lt && gt) || (lt && eq) || (gt && eq) {
				t.Errorf("%#v vs %#v: < %v, > %v, = %v", a, b, lt, gt, eq)
			}
			if compare(a, "<", b) != compare(b, ">", a) || compare(a, "=", b) != compare(b, "=", a) {
				t.Errorf("%#v vs %#v: not symmetric", a, b)
			}
			if a != nil && b != nil && compare(a, "=", b) == compare(a, "!=", b) {
				if _, ok := order(a, b); ok {
					t.Errorf("%#v vs %#v: = and != agree", a, b)
				}
			}
			if cmpForSort(a, b) != -cmpForSort(b, a) {
				t.Errorf("%#v vs %#v: sort order not antisymmetric", a, b)
			}
		}
	}
}

func TestParseSQL(t *testing.T) {
	for src, want := range map[string]string{
		"SELECT * FROM orders": "star orders  -1",
		"select id, amount as a from orders o where id > 1 limit 2": "id:id,amount:a orders o 2",
		"SELECT o.id FROM orders AS o ORDER BY id DESC, sku;":       "o.id:id orders o -1",
	} {
		q, err := parseSQL(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		var cols []string
		for _, c := range q.cols {
			cols = append(cols, c.name+":"+c.as)
		}
		got := fmt.Sprintf("%s %s %s %d", strings.Join(cols, ","), q.table, q.alias, q.limit)
		if q.star {
			got = "star" + got
		}
		if got != want {
			t.Errorf("%s: %q, want %q", src, got, want)
		}
	}
	for src, want := range map[string]string{
		"SELECT":                            "at 7: expected a column name, found end of input",
		"SELECT * orders":                   `at 10: expected FROM, found "orders"`,
		"SELECT * FROM":                     "expected a table name",
		"SELECT * FROM t LIMIT x":           "expected a whole number after LIMIT",
		"SELECT * FROM t LIMIT -1":          "expected a whole number after LIMIT",
		"SELECT * FROM t ORDER id":          "expected BY after ORDER",
		"SELECT * FROM t; DROP TABLE t":     `at 18: unexpected "DROP"`,
		"SELECT * FROM t UNION SELECT 1":    "UNION is not supported",
		"SELECT a AS FROM t":                "expected a name after AS",
		"SELECT sum(amount) FROM orders":    "functions such as sum(...) are not supported",
		"UPDATE orders SET amount = 0":      "expected SELECT",
		"SELECT * FROM t WHERE (a = 1":      `expected ")"`,
		"SELECT * FROM t JOIN u ON t.a=u.b": "JOIN is not supported",
	} {
		if _, err := parseSQL(src); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", src, err, want)
		}
	}
}

func FuzzParseCond(f *testing.F) {
	for _, s := range []string{
		"amount > 100 AND status IN ('paid', 'pending')",
		"NOT (sku LIKE 'K%') OR o.id IS NOT NULL",
		"created_at >= \"2024-06-01\" and quantity != -2.5e1",
		"((a))", "'unterminated", "id IN (", "x = 'it''s'",
	} {
		f.Add(s)
	}
	rel := ordersRel()
	f.Fuzz(func(t *testing.T, src string) {
		e, err := parseCond(src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "at ") {
				t.Errorf("error without a position: %v", err)
			}
			return
		}
		if e.bind(rel) != nil {
			return
		}
		for _, r := range rel.rows {
			e.test(r)
		}
	})
}

func FuzzParseSQL(f *testing.F) {
	for _, s := range []string{
		"SELECT * FROM orders WHERE amount > 100 ORDER BY amount DESC LIMIT 3",
		"select o.id, sku as s from orders o where status = 'paid';",
		"SELECT id FROM customers WHERE region IN ('EU', 'US')",
	} {
		f.Add(s)
	}
	tables := demoTables()
	f.Fuzz(func(t *testing.T, src string) {
		q, err := parseSQL(src)
		if err != nil {
			return
		}
		if tb := tables[q.table]; tb != nil && tb.kind == "sql" {
			q.run(tb)
		}
	})
}

func FuzzMongoFilter(f *testing.F) {
	for _, s := range []string{
		`{"type": "purchase", "props.device": {"$in": ["desktop"]}}`,
		`{"$or": [{"user_id": {"$gte": 3}}, {"props.page": {"$exists": false}}]}`,
		`{"$nor": [{"type": {"$ne": "view"}}], "ts": {"$lt": "2024-06-05"}}`,
		`{"user_id": {"$where": 1}}`, `[]`, `{"$and": []}`,
	} {
		f.Add(s)
	}
	docs := demoTables()["events"].docs
	f.Fuzz(func(t *testing.T, src string) {
		v, err := ojson.Parse([]byte(src))
		if err != nil {
			return
		}
		m, err := compileMongo(v, 0)
		if err != nil {
			return
		}
		for _, d := range docs {
			m(d)
		}
	})
}
