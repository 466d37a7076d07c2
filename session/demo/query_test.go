package demo

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

type qres struct {
	QID       string   `json:"qid"`
	Columns   []string `json:"columns"`
	Rows      [][]any  `json:"rows"`
	RowCount  int      `json:"rowCount"`
	TotalRows int      `json:"totalRows"`
	Truncated bool     `json:"truncated"`
	Sources   []struct {
		Alias    string `json:"alias"`
		Type     string `json:"type"`
		RowsRead int    `json:"rowsRead"`
	} `json:"sources"`
}

// col returns one column of the result.
func (r qres) col(name string) []any {
	i := slices.Index(r.Columns, name)
	if i < 0 {
		panic(fmt.Sprintf("no column %q in %v", name, r.Columns))
	}
	var out []any
	for _, row := range r.Rows {
		out = append(out, row[i])
	}
	return out
}

const pgSrc = `"type": "sql", "driver": "pg", "host": "pg.demo.internal", "database": "shop"`

func (h *harness) query(args string) qres {
	h.t.Helper()
	var r qres
	h.ok("data_platform_query", args, &r)
	return r
}

func TestQuerySQL(t *testing.T) {
	h := connect(t, Options{})
	r := h.query(`{"qid": "q1", "sources": [{` + pgSrc + `, "query": "SELECT id, name AS customer FROM customers WHERE region = 'EU' ORDER BY name DESC"}], "output": {}}`)
	if r.QID != "q1" || !slices.Equal(r.Columns, []string{"id", "customer"}) {
		t.Fatalf("result = %+v", r)
	}
	if got := fmt.Sprint(r.Rows); got != "[[6 Soylent] [3 Initech] [1 Acme Corp]]" {
		t.Errorf("rows = %s", got)
	}
	if r.Sources[0].Alias != "customers" || r.Sources[0].RowsRead != 3 || r.Sources[0].Type != "sql" {
		t.Errorf("sources = %+v", r.Sources)
	}
	// LIMIT, compound conditions, IN, LIKE, NOT, qualified names.
	r = h.query(`{"qid": "q2", "sources": [{` + pgSrc + `, "query": "select o.id from orders o where (o.status in ('paid', 'pending') and not o.sku like 'K%') or o.amount >= 1000 order by o.id limit 3;"}], "output": {}}`)
	if got := fmt.Sprint(r.col("id")); got != "[1002 1003 1004]" {
		t.Errorf("ids = %s", got)
	}
	if r.Sources[0].Alias != "o" {
		t.Errorf("the SQL alias should name the source: %+v", r.Sources)
	}
}

// Aggregates checked against a hand-computed figure and against a plain loop
// over the raw table.
func TestQueryAggregates(t *testing.T) {
	h := connect(t, Options{})
	// Acme (customer 1): 2 x 49.5 + 2 x 19.25 + 1 x 229 = 366.5.
	r := h.query(`{"qid": "acme", "sources": [{` + pgSrc + `, "query": "SELECT * FROM orders WHERE customer_id = 1"}],
		"transformations": [{"type": "agg", "aggs": {"revenue": {"fn": "sum", "field": "amount"}, "n": {"fn": "count"}, "avg_qty": {"fn": "avg", "field": "quantity"}}}],
		"output": {}}`)
	if !slices.Equal(r.Columns, []string{"revenue", "n", "avg_qty"}) || fmt.Sprint(r.Rows) != "[[366.5 3 1.666667]]" {
		t.Errorf("acme = %v %v", r.Columns, r.Rows)
	}

	r = h.query(`{"qid": "by-region", "sources": [
			{` + pgSrc + `, "alias": "c", "query": "SELECT id, region FROM customers"},
			{` + pgSrc + `, "alias": "o", "query": "SELECT customer_id, amount, status FROM orders"}
		],
		"joins": [{"left": "o", "right": "c", "on": [{"left": "o.customer_id", "right": "c.id"}]}],
		"transformations": [
			{"type": "filter", "cond": "status = 'paid'"},
			{"type": "agg", "group": ["region"], "aggs": {"revenue": {"fn": "sum", "field": "amount"}, "orders": {"fn": "count"}, "biggest": {"fn": "max", "field": "amount"}, "customers": {"fn": "count_distinct", "field": "c.id"}}}
		],
		"output": {"sort": [{"field": "revenue", "order": "desc"}]}}`)
	// The same figures by a plain loop.
	region := map[float64]string{}
	for _, c := range h.st.tables["customers"].rows {
		region[c[0].(float64)] = c[2].(string)
	}
	type agg struct {
		sum, max float64
		n        int
		cust     map[float64]bool
	}
	want := map[string]*agg{}
	for _, o := range h.st.tables["orders"].rows {
		if o[5] != "paid" {
			continue
		}
		reg := region[o[1].(float64)]
		if want[reg] == nil {
			want[reg] = &agg{cust: map[float64]bool{}}
		}
		a := want[reg]
		a.sum += o[4].(float64)
		a.max = math.Max(a.max, o[4].(float64))
		a.n++
		a.cust[o[1].(float64)] = true
	}
	if len(r.Rows) != len(want) {
		t.Fatalf("groups = %v, want %d", r.Rows, len(want))
	}
	prev := math.Inf(1)
	for _, row := range r.Rows {
		w := want[row[0].(string)]
		rev := row[1].(float64)
		if math.Abs(rev-w.sum) > 1e-6 || row[2].(float64) != float64(w.n) || row[3].(float64) != w.max || row[4].(float64) != float64(len(w.cust)) {
			t.Errorf("%v, want %+v", row, *w)
		}
		if rev > prev {
			t.Errorf("not sorted by revenue desc: %v", r.Rows)
		}
		prev = rev
	}
	// Aggregating nothing: one row, count 0, avg NULL.
	r = h.query(`{"qid": "none", "sources": [{` + pgSrc + `, "query": "SELECT * FROM orders WHERE amount < 0"}],
		"transformations": [{"type": "agg", "aggs": {"n": {"fn": "count"}, "a": {"fn": "avg", "field": "amount"}, "s": {"fn": "sum", "field": "amount"}}}], "output": {}}`)
	if fmt.Sprint(r.Rows) != "[[0 <nil> 0]]" {
		t.Errorf("empty aggregate = %v", r.Rows)
	}
}

func TestQueryJoins(t *testing.T) {
	h := connect(t, Options{})
	// Customers without orders, by a left join and by the mirrored right join.
	for _, j := range []string{
		`{"left": "c", "right": "o", "type": "left", "on": [{"left": "c.id", "right": "o.customer_id"}]}`,
		`{"left": "o", "right": "c", "type": "right", "on": [{"left": "o.customer_id", "op": "=", "right": "c.id"}]}`,
	} {
		r := h.query(`{"qid": "lonely", "sources": [
				{` + pgSrc + `, "alias": "c", "query": "SELECT id, name FROM customers"},
				{` + pgSrc + `, "alias": "o", "query": "SELECT id, customer_id FROM orders"}
			], "joins": [` + j + `],
			"transformations": [{"type": "filter", "cond": "o.id IS NULL"}], "output": {}}`)
		if fmt.Sprint(r.col("name")) != "[Cyberdyne]" {
			t.Errorf("join %s: lonely customers = %v", j, r.Rows)
		}
		if !slices.Contains(r.Columns, "c.id") || !slices.Contains(r.Columns, "o.id") {
			t.Errorf("repeated names should be qualified: %v", r.Columns)
		}
	}
	// Three sources across SQL and the API: units sold per warehouse.
	r := h.query(`{"qid": "wh", "sources": [
			{` + pgSrc + `, "alias": "o", "query": "SELECT sku, quantity FROM orders WHERE status = 'paid'"},
			{"type": "api", "url": "https://inventory.demo.internal/v1/stock"},
			{` + pgSrc + `, "alias": "c", "query": "SELECT id FROM customers"}
		], "joins": [
			{"left": "o", "right": "stock", "on": [{"left": "o.sku", "right": "stock.sku"}]},
			{"left": "stock", "right": "c", "type": "inner", "on": [{"left": "c.id", "op": ">", "right": "stock.stock"}]}
		],
		"transformations": [{"type": "agg", "group": ["warehouse"], "aggs": {"units": {"fn": "sum", "field": "quantity"}}}],
		"output": {"sort": [{"field": "warehouse"}]}}`)
	// Only stock 0 (HD-10, NYC) is below some customer id: 8 customers x the
	// paid HD-10 quantities (1 + 4 + 2).
	if fmt.Sprint(r.Rows) != "[[NYC 56]]" {
		t.Errorf("units = %v", r.Rows)
	}
}

func TestQueryMongoAndAPI(t *testing.T) {
	h := connect(t, Options{})
	r := h.query(`{"qid": "m", "sources": [{"type": "mongodb", "uri": "mongodb://mongo.demo.internal:27017", "database": "analytics", "collection": "events",
		"filter": {"type": "purchase", "props.device": {"$in": ["desktop"]}}, "projection": {"_id": 0, "user_id": 1}}], "output": {}}`)
	if !slices.Equal(r.Columns, []string{"user_id"}) || fmt.Sprint(r.Rows) != "[[1] [2] [5]]" {
		t.Errorf("desktop purchases = %v %v", r.Columns, r.Rows)
	}
	r = h.query(`{"qid": "m2", "sources": [{"type": "mongodb", "alias": "e", "uri": "mongodb://mongo.demo.internal", "database": "analytics", "collection": "events",
		"filter": {"$or": [{"props.page": "/docs"}, {"user_id": {"$gte": 8}}], "props.page": {"$exists": true}}, "projection": {"props": 0}}], "output": {}}`)
	if !slices.Equal(r.Columns, []string{"_id", "user_id", "type", "ts"}) || fmt.Sprint(r.col("_id")) != "[ev007 ev014 ev015]" || r.Sources[0].Alias != "e" {
		t.Errorf("or/exists = %v %v", r.Columns, r.Rows)
	}
	// Nested fields become dotted columns; missing ones are NULL.
	r = h.query(`{"qid": "m3", "sources": [{"type": "mongodb", "uri": "mongodb://mongo.demo.internal", "database": "analytics", "collection": "events", "filter": {"user_id": 1}}], "output": {}}`)
	if fmt.Sprint(r.col("props.page")) != "[<nil> /pricing /checkout]" {
		t.Errorf("props.page = %v", r.col("props.page"))
	}

	r = h.query(`{"qid": "a", "sources": [{"type": "api", "url": "https://inventory.demo.internal/v1/stock?warehouse=AMS", "params": {"min_stock": 200}}], "output": {"sort": [{"field": "stock", "order": "desc"}]}}`)
	if fmt.Sprint(r.col("sku")) != "[CB-05 MS-02]" {
		t.Errorf("AMS stock >= 200 = %v", r.Rows)
	}
}

func TestQueryOutput(t *testing.T) {
	h := connect(t, Options{})
	src := `"sources": [{` + pgSrc + `, "query": "SELECT id, name FROM customers ORDER BY id"}]`
	res := h.ok("data_platform_query", `{"qid": "csv", `+src+`, "output": {"format": "csv", "limit": 2}}`, nil)
	if got := text(res); got != "id,name\n1,Acme Corp\n2,Globex\n" {
		t.Errorf("csv = %q", got)
	}
	var r qres
	json.Unmarshal(structured(res), &r)
	if r.RowCount != 2 || r.TotalRows != 8 || !r.Truncated {
		t.Errorf("truncation = %+v", r)
	}
	res = h.ok("data_platform_query", `{"qid": "md", `+src+`, "output": {"format": "markdown", "limit": 1}}`, nil)
	if got := text(res); got != "| id | name |\n|---|---|\n| 1 | Acme Corp |\n(1 of 8 rows)" {
		t.Errorf("markdown = %q", got)
	}
	res = h.ok("data_platform_query", `{"qid": "js", `+src+`, "output": {"limit": 1}}`, nil)
	if got := text(res); !strings.HasPrefix(got, "[\n  {\n    \"id\": 1,\n    \"name\": \"Acme Corp\"\n  }\n]") {
		t.Errorf("json = %q", got)
	}
}

func TestQueryErrors(t *testing.T) {
	h := connect(t, Options{})
	q := func(sources string, rest string) string {
		return `{"qid": "bad", "sources": [` + sources + `]` + rest + `, "output": {}}`
	}
	sql := func(query string) string { return `{` + pgSrc + `, "query": "` + query + `"}` }
	cases := []struct {
		args  string
		wants []string
	}{
		{q(`{"type": "sql", "driver": "pg", "host": "db.example.com", "database": "shop", "query": "SELECT * FROM orders"}`, ""), []string{`could not connect to "db.example.com"`, "pg.demo.internal"}},
		{q(`{"type": "sql", "driver": "mysql", "host": "pg.demo.internal", "database": "shop", "query": "SELECT * FROM orders"}`, ""), []string{`use driver "pg"`}},
		{q(`{"type": "sql", "driver": "pg", "host": "pg.demo.internal", "database": "crm", "query": "SELECT * FROM orders"}`, ""), []string{`database "crm" does not exist`}},
		{q(sql("SELECT * FROM invoices"), ""), []string{`relation "invoices" does not exist`}},
		{q(sql("DELETE FROM orders"), ""), []string{"at 1: expected SELECT"}},
		{q(sql("SELECT count(*) FROM orders"), ""), []string{"agg transformation"}},
		{q(sql("SELECT * FROM orders WHERE amount >"), ""), []string{"at 36: expected a column or a value, found end of input"}},
		{q(sql("SELECT * FROM orders WHERE colour = 'red'"), ""), []string{`unknown column "colour"`, "orders.amount"}},
		{q(sql("SELECT * FROM orders GROUP BY sku"), ""), []string{"GROUP is not supported"}},
		{q(sql("SELECT id FROM customers")+`, `+sql("SELECT id FROM orders"), ""), []string{"2 sources but no joins"}},
		{q(sql("SELECT id FROM customers")+`, `+sql("SELECT id FROM customers"), ""), []string{`alias "customers" is already used`}},
		{q(`{`+pgSrc+`, "alias": "c", "query": "SELECT id FROM customers"}, `+sql("SELECT customer_id FROM orders"), `, "joins": [{"left": "c", "right": "x", "on": [{"left": "c.id", "right": "x.id"}]}]`), []string{`no source has alias "x"`}},
		{q(`{`+pgSrc+`, "alias": "c", "query": "SELECT id FROM customers"}, `+sql("SELECT id FROM orders"), `, "joins": [{"left": "c", "right": "orders", "on": [{"left": "id", "right": "id"}]}]`), []string{`column "id" is ambiguous`, "c.id", "orders.id"}},
		{q(sql("SELECT * FROM orders"), `, "transformations": [{"type": "agg", "aggs": {"s": {"fn": "sum", "field": "status"}}}]`), []string{"sum(status)", "not numbers"}},
		{q(sql("SELECT * FROM orders"), `, "transformations": [{"type": "agg", "aggs": {"s": {"fn": "sum"}}}]`), []string{"sum needs a field"}},
		{q(sql("SELECT * FROM orders"), `, "transformations": [{"type": "filter", "cond": "amount > 10 AND (status = 'paid'"}]`), []string{"transformations[0] (filter)", `expected ")" to close`}},
		{q(`{"type": "mongodb", "uri": "mongodb://mongo.demo.internal", "database": "analytics", "collection": "events", "filter": {"user_id": {"$where": "1"}}}`, ""), []string{"unsupported operator $where"}},
		{q(`{"type": "mongodb", "uri": "mongodb://mongo.demo.internal", "database": "analytics", "collection": "users"}`, ""), []string{`collection "users" not found`}},
		{q(`{"type": "mongodb", "uri": "mongodb://mongo.demo.internal", "database": "analytics", "collection": "events", "projection": {"type": 1, "ts": 0}}`, ""), []string{"cannot mix inclusion and exclusion"}},
		{q(`{"type": "api", "url": "https://inventory.demo.internal/v2/stock"}`, ""), []string{"404 Not Found"}},
		{q(`{"type": "api", "url": "https://inventory.demo.internal/v1/stock", "method": "POST"}`, ""), []string{"405 Method Not Allowed"}},
		{q(`{"type": "api", "url": "https://inventory.demo.internal/v1/stock", "params": {"colour": "red"}}`, ""), []string{`unknown query parameter "colour"`}},
		// Schema-level: the union's discriminator and required members.
		{q(`{"type": "graphql", "url": "x"}`, ""), nil},
		{q(`{"type": "sql", "query": "SELECT 1"}`, ""), nil},
		{`{"qid": "bad", "sources": [], "output": {}}`, nil},
		{`{"qid": "bad", "sources": [` + sql("SELECT * FROM orders") + `]}`, []string{"output"}},
		{q(sql("SELECT * FROM orders"), `, "transformations": [{"type": "sort", "by": "id"}]`), nil},
	}
	for _, c := range cases {
		h.fails("data_platform_query", c.args, c.wants...)
	}
}

// The heaviest demo call: two SQL sources joined, filtered and aggregated,
// over the in-process transport with argument and output validation.
func BenchmarkQueryJoinAgg(b *testing.B) {
	h := connect(b, Options{})
	args := `{"qid": "bench", "sources": [
			{` + pgSrc + `, "alias": "c", "query": "SELECT id, region FROM customers"},
			{` + pgSrc + `, "alias": "o", "query": "SELECT customer_id, amount, status FROM orders"}
		],
		"joins": [{"left": "o", "right": "c", "on": [{"left": "o.customer_id", "right": "c.id"}]}],
		"transformations": [{"type": "filter", "cond": "status = 'paid'"}, {"type": "agg", "group": ["region"], "aggs": {"revenue": {"fn": "sum", "field": "amount"}}}],
		"output": {"format": "markdown"}}`
	b.ReportAllocs()
	for b.Loop() {
		if r := h.call("data_platform_query", args); r.IsError {
			b.Fatal(text(r))
		}
	}
}

func BenchmarkCreateTodo(b *testing.B) {
	h := connect(b, Options{})
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i%900 == 0 {
			h.call("clear_completed", `{}`)
		}
		if r := h.call("create_todo", `{"title": "bench", "completed": true}`); r.IsError {
			b.Fatal(text(r))
		}
	}
}
