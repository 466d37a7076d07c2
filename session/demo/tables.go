package demo

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The demo data platform: one Postgres database, one MongoDB collection and
// one HTTP API, each holding a small fixed data set.
const (
	pgHost       = "pg.demo.internal"
	pgDatabase   = "shop"
	mongoHost    = "mongo.demo.internal"
	mongoDB      = "analytics"
	mongoURI     = "mongodb://" + mongoHost + ":27017"
	inventoryURL = "https://inventory.demo.internal/v1/stock"
)

type column struct {
	Name string `json:"name"`
	Type string `json:"type"` // integer, number, string, boolean
}

// table is one dataset. SQL and API tables keep rows; the MongoDB collection
// keeps documents, flattened to its columns when read.
type table struct {
	name    string
	kind    string // sql, mongodb, api
	columns []column
	rows    [][]any
	docs    []map[string]any
	params  []apiParam // api only
}

type apiParam struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description"`
}

// relation is a table in flight: qualified columns and rows of values
// (float64, string, bool or nil).
type relation struct {
	cols []relCol
	rows [][]any
}

type relCol struct {
	alias string // source alias; empty for computed columns
	name  string
}

func (c relCol) qualified() string {
	if c.alias == "" {
		return c.name
	}
	return c.alias + "." + c.name
}

// resolve finds a column by bare or qualified name.
func (r *relation) resolve(name string) (int, error) {
	var hits []int
	for i, c := range r.cols {
		if c.name == name || c.qualified() == name {
			hits = append(hits, i)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		return -1, fmt.Errorf("unknown column %q (columns: %s)", name, strings.Join(r.names(true), ", "))
	}
	var cands []string
	for _, i := range hits {
		cands = append(cands, r.cols[i].qualified())
	}
	return -1, fmt.Errorf("column %q is ambiguous: qualify it as one of %s", name, strings.Join(cands, ", "))
}

// names lists the columns, qualified when asked or when a bare name repeats.
func (r *relation) names(qualified bool) []string {
	count := map[string]int{}
	for _, c := range r.cols {
		count[c.name]++
	}
	out := make([]string, len(r.cols))
	for i, c := range r.cols {
		if qualified || count[c.name] > 1 {
			out[i] = c.qualified()
		} else {
			out[i] = c.name
		}
	}
	return out
}

// scan turns a table into a relation under alias.
func (t *table) scan(alias string) *relation {
	rel := &relation{}
	for _, c := range t.columns {
		rel.cols = append(rel.cols, relCol{alias, c.Name})
	}
	if t.kind == "mongodb" {
		for _, d := range t.docs {
			row := make([]any, len(t.columns))
			for i, c := range t.columns {
				row[i], _ = lookupPath(d, c.Name)
			}
			rel.rows = append(rel.rows, row)
		}
		return rel
	}
	for _, r := range t.rows {
		rel.rows = append(rel.rows, append([]any(nil), r...))
	}
	return rel
}

// lookupPath follows a dotted path into a document.
func lookupPath(doc map[string]any, path string) (any, bool) {
	var cur any = doc
	for _, part := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		cur, ok = m[part]
		if !ok {
			return nil, false
		}
	}
	return cur, true
}

// csv renders a table the way an export would.
func (t *table) csv() string {
	rel := t.scan(t.name)
	return renderCSV(rel.names(false), rel.rows)
}

func renderCSV(cols []string, rows [][]any) string {
	var sb strings.Builder
	w := csv.NewWriter(&sb)
	_ = w.Write(cols)
	for _, r := range rows {
		rec := make([]string, len(r))
		for i, v := range r {
			rec[i] = formatValue(v)
		}
		_ = w.Write(rec)
	}
	w.Flush()
	return sb.String()
}

// formatValue prints a value for CSV and Markdown output.
func formatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case string:
		return x
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// round6 keeps sums and averages free of binary-fraction noise.
func round6(f float64) float64 { return math.Round(f*1e6) / 1e6 }

func demoTables() map[string]*table {
	customers := &table{name: "customers", kind: "sql", columns: []column{
		{"id", "integer"}, {"name", "string"}, {"region", "string"}, {"tier", "string"}, {"signed_up", "string"},
	}}
	for _, c := range []struct {
		id                 int
		name, region, tier string
		signedUp           string
	}{
		{1, "Acme Corp", "EU", "pro", "2024-01-15"},
		{2, "Globex", "US", "enterprise", "2023-11-02"},
		{3, "Initech", "EU", "free", "2024-03-09"},
		{4, "Hooli", "US", "pro", "2024-02-20"},
		{5, "Tyrell", "APAC", "enterprise", "2023-09-30"},
		{6, "Soylent", "EU", "free", "2024-05-11"},
		{7, "Wonka Industries", "US", "pro", "2024-04-01"},
		{8, "Cyberdyne", "APAC", "free", "2024-06-18"},
	} {
		customers.rows = append(customers.rows, []any{float64(c.id), c.name, c.region, c.tier, c.signedUp})
	}

	type product struct {
		sku, name, warehouse string
		price                float64
		stock                int
	}
	products := []product{
		{"KB-01", "Mechanical keyboard", "AMS", 49.5, 120},
		{"MS-02", "Wireless mouse", "AMS", 19.25, 340},
		{"MN-27", "27\" monitor", "NYC", 229, 15},
		{"HD-10", "Headset", "NYC", 89, 0},
		{"CB-05", "USB-C cable", "AMS", 9.75, 800},
		{"DK-03", "Docking station", "NYC", 149, 42},
	}
	price := map[string]float64{}
	for _, p := range products {
		price[p.sku] = p.price
	}

	orders := &table{name: "orders", kind: "sql", columns: []column{
		{"id", "integer"}, {"customer_id", "integer"}, {"sku", "string"}, {"quantity", "integer"},
		{"amount", "number"}, {"status", "string"}, {"created_at", "string"},
	}}
	for i, o := range []struct {
		customer int
		sku      string
		qty      int
		status   string
		date     string
	}{
		{1, "KB-01", 2, "paid", "2024-06-01"},
		{1, "MS-02", 2, "paid", "2024-06-01"},
		{2, "MN-27", 10, "paid", "2024-06-02"},
		{2, "DK-03", 10, "paid", "2024-06-02"},
		{3, "CB-05", 3, "refunded", "2024-06-03"},
		{4, "HD-10", 1, "paid", "2024-06-04"},
		{4, "KB-01", 1, "pending", "2024-06-05"},
		{5, "MN-27", 4, "paid", "2024-06-05"},
		{5, "HD-10", 4, "paid", "2024-06-06"},
		{5, "CB-05", 8, "paid", "2024-06-06"},
		{6, "MS-02", 1, "pending", "2024-06-07"},
		{7, "DK-03", 2, "paid", "2024-06-08"},
		{7, "KB-01", 3, "refunded", "2024-06-08"},
		{2, "CB-05", 20, "paid", "2024-06-09"},
		{1, "MN-27", 1, "paid", "2024-06-10"},
		{4, "MS-02", 5, "paid", "2024-06-11"},
		{5, "KB-01", 6, "pending", "2024-06-12"},
		{7, "HD-10", 2, "paid", "2024-06-12"},
	} {
		amount := round6(price[o.sku] * float64(o.qty))
		orders.rows = append(orders.rows, []any{float64(1001 + i), float64(o.customer), o.sku, float64(o.qty), amount, o.status, o.date})
	}

	events := &table{name: "events", kind: "mongodb", columns: []column{
		{"_id", "string"}, {"user_id", "integer"}, {"type", "string"}, {"ts", "string"},
		{"props.device", "string"}, {"props.page", "string"},
	}}
	for i, e := range []struct {
		user            int
		typ, ts, device string
		page            string
	}{
		{1, "login", "2024-06-01T08:58:00Z", "desktop", ""},
		{1, "view", "2024-06-01T09:00:00Z", "desktop", "/pricing"},
		{1, "purchase", "2024-06-01T09:05:00Z", "desktop", "/checkout"},
		{2, "login", "2024-06-02T14:10:00Z", "desktop", ""},
		{2, "purchase", "2024-06-02T14:30:00Z", "desktop", "/checkout"},
		{3, "login", "2024-06-03T07:45:00Z", "mobile", ""},
		{3, "view", "2024-06-03T07:46:00Z", "mobile", "/docs"},
		{4, "view", "2024-06-04T11:00:00Z", "mobile", "/pricing"},
		{4, "purchase", "2024-06-04T11:20:00Z", "mobile", "/checkout"},
		{5, "login", "2024-06-05T02:15:00Z", "desktop", ""},
		{5, "purchase", "2024-06-05T02:40:00Z", "desktop", "/checkout"},
		{6, "view", "2024-06-07T18:00:00Z", "mobile", "/pricing"},
		{7, "login", "2024-06-08T10:00:00Z", "mobile", ""},
		{7, "view", "2024-06-08T10:02:00Z", "mobile", "/docs"},
		{8, "view", "2024-06-09T23:30:00Z", "desktop", "/pricing"},
	} {
		props := map[string]any{"device": e.device}
		if e.page != "" {
			props["page"] = e.page
		}
		events.docs = append(events.docs, map[string]any{
			"_id": fmt.Sprintf("ev%03d", i+1), "user_id": float64(e.user), "type": e.typ, "ts": e.ts, "props": props,
		})
	}

	inventory := &table{name: "stock", kind: "api", columns: []column{
		{"sku", "string"}, {"name", "string"}, {"warehouse", "string"}, {"price", "number"}, {"stock", "integer"},
	}, params: []apiParam{
		{"warehouse", "string", "Only items stored in this warehouse (AMS or NYC)"},
		{"sku", "string", "Only this item"},
		{"min_stock", "integer", "Only items with at least this many in stock"},
	}}
	for _, p := range products {
		inventory.rows = append(inventory.rows, []any{p.sku, p.name, p.warehouse, p.price, float64(p.stock)})
	}

	return map[string]*table{"customers": customers, "orders": orders, "events": events, "stock": inventory}
}

// catalogJSON describes the platform for the demo://catalog resource.
func catalogJSON(tables map[string]*table) string {
	type tableInfo struct {
		Name    string   `json:"name"`
		Rows    int      `json:"rows"`
		Columns []column `json:"columns"`
	}
	type sqlInfo struct {
		Driver   string      `json:"driver"`
		Host     string      `json:"host"`
		Database string      `json:"database"`
		Tables   []tableInfo `json:"tables"`
	}
	type mongoInfo struct {
		URI         string      `json:"uri"`
		Database    string      `json:"database"`
		Collections []tableInfo `json:"collections"`
	}
	type apiInfo struct {
		URL     string     `json:"url"`
		Method  string     `json:"method"`
		Params  []apiParam `json:"params"`
		Columns []column   `json:"columns"`
	}
	info := func(t *table) tableInfo {
		n := len(t.rows)
		if t.kind == "mongodb" {
			n = len(t.docs)
		}
		return tableInfo{t.name, n, t.columns}
	}
	st := tables["stock"]
	cat := struct {
		SQL     []sqlInfo   `json:"sql"`
		MongoDB []mongoInfo `json:"mongodb"`
		API     []apiInfo   `json:"api"`
	}{
		SQL:     []sqlInfo{{"pg", pgHost, pgDatabase, []tableInfo{info(tables["customers"]), info(tables["orders"])}}},
		MongoDB: []mongoInfo{{mongoURI, mongoDB, []tableInfo{info(tables["events"])}}},
		API:     []apiInfo{{inventoryURL, "GET", st.params, st.columns}},
	}
	b, _ := json.MarshalIndent(cat, "", "  ")
	return string(b)
}
