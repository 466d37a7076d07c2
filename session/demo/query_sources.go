package demo

import (
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// readSource fetches one source as a relation and says which alias it goes by.
func readSource(tables map[string]*table, s source) (*relation, string, error) {
	var rel *relation
	var alias string
	var err error
	switch s.Type {
	case "sql":
		rel, alias, err = readSQL(tables, s)
	case "mongodb":
		rel, alias, err = readMongo(tables, s)
	case "api":
		rel, alias, err = readAPI(tables, s)
	default:
		err = fmt.Errorf("unknown source type %q", s.Type)
	}
	if err != nil {
		return nil, "", err
	}
	if s.Alias != "" {
		alias = s.Alias
	}
	for i := range rel.cols {
		rel.cols[i].alias = alias
	}
	return rel, alias, nil
}

func readSQL(tables map[string]*table, s source) (*relation, string, error) {
	if s.Host != pgHost {
		return nil, "", fmt.Errorf("could not connect to %q: the demo SQL server is %s (see demo://catalog)", s.Host, pgHost)
	}
	if s.Driver != "pg" {
		return nil, "", fmt.Errorf("%s is a PostgreSQL server; use driver \"pg\", not %q", pgHost, s.Driver)
	}
	if s.Database != pgDatabase {
		return nil, "", fmt.Errorf("database %q does not exist (databases: %s)", s.Database, pgDatabase)
	}
	q, err := parseSQL(s.Query)
	if err != nil {
		return nil, "", fmt.Errorf("query: %v", err)
	}
	t := tables[q.table]
	if t == nil || t.kind != "sql" {
		return nil, "", fmt.Errorf("query: relation %q does not exist (tables: customers, orders)", q.table)
	}
	rel, err := q.run(t)
	if err != nil {
		return nil, "", fmt.Errorf("query: %v", err)
	}
	alias := q.alias
	if alias == "" {
		alias = q.table
	}
	return rel, alias, nil
}

func readMongo(tables map[string]*table, s source) (*relation, string, error) {
	host := s.URI
	for _, scheme := range []string{"mongodb+srv://", "mongodb://"} {
		host = strings.TrimPrefix(host, scheme)
	}
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = host[at+1:]
	}
	host, _, _ = strings.Cut(host, "/")
	host, _, _ = strings.Cut(host, ":")
	if host != mongoHost {
		return nil, "", fmt.Errorf("could not connect to %q: the demo MongoDB is %s", s.URI, mongoURI)
	}
	if s.Database != mongoDB {
		return nil, "", fmt.Errorf("database %q not found (databases: %s)", s.Database, mongoDB)
	}
	t := tables[s.Collection]
	if t == nil || t.kind != "mongodb" {
		return nil, "", fmt.Errorf("collection %q not found in %s (collections: events)", s.Collection, mongoDB)
	}
	match := func(map[string]any) bool { return true }
	if s.Filter != nil {
		m, err := compileMongo(s.Filter, 0)
		if err != nil {
			return nil, "", fmt.Errorf("filter: %v", err)
		}
		match = m
	}
	cols := t.columns
	if len(s.Projection) > 0 {
		var err error
		if cols, err = project(t.columns, s.Projection); err != nil {
			return nil, "", fmt.Errorf("projection: %v", err)
		}
	}
	rel := &relation{}
	for _, c := range cols {
		rel.cols = append(rel.cols, relCol{s.Collection, c.Name})
	}
	for _, d := range t.docs {
		if !match(d) {
			continue
		}
		row := make([]any, len(cols))
		for i, c := range cols {
			row[i], _ = lookupPath(d, c.Name)
		}
		rel.rows = append(rel.rows, row)
	}
	return rel, s.Collection, nil
}

// project applies a MongoDB projection to the collection's columns. A field
// selects itself and any nested field under it.
func project(cols []column, proj map[string]int) ([]column, error) {
	include, exclude := false, false
	for f, v := range proj {
		switch {
		case v != 0 && v != 1:
			return nil, fmt.Errorf("%s: use 1 to include or 0 to exclude, not %d", f, v)
		case f == "_id":
		case v == 1:
			include = true
		default:
			exclude = true
		}
	}
	if include && exclude {
		return nil, fmt.Errorf("cannot mix inclusion and exclusion (except for _id)")
	}
	covers := func(field, col string) bool { return col == field || strings.HasPrefix(col, field+".") }
	var out []column
	for _, c := range cols {
		keep := !include
		for f, v := range proj {
			if covers(f, c.Name) {
				keep = v == 1
			}
		}
		if c.Name == "_id" {
			keep = proj["_id"] != 0 || !hasKey(proj, "_id")
		}
		if keep {
			out = append(out, c)
		}
	}
	for f := range proj {
		if !slices.ContainsFunc(cols, func(c column) bool { return covers(f, c.Name) }) {
			return nil, fmt.Errorf("unknown field %q", f)
		}
	}
	return out, nil
}

func hasKey(m map[string]int, k string) bool { _, ok := m[k]; return ok }

type docMatcher func(map[string]any) bool

var mongoOps = []string{"$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$exists"}

// compileMongo turns a MongoDB query document into a matcher, reporting
// unsupported operators before any document is read.
func compileMongo(f *ojson.Value, depth int) (docMatcher, error) {
	if depth > maxExprDepth {
		return nil, fmt.Errorf("filter nests more than %d levels deep", maxExprDepth)
	}
	if f.Kind != ojson.Object {
		return nil, fmt.Errorf("expected a query document (object), found %s", f.Kind)
	}
	var parts []docMatcher
	for _, m := range f.Members {
		key, val := m.Key, m.Value
		if strings.HasPrefix(key, "$") {
			if key != "$and" && key != "$or" && key != "$nor" {
				return nil, fmt.Errorf("unsupported top-level operator %s (supported: $and, $or, $nor)", key)
			}
			if val.Kind != ojson.Array || len(val.Items) == 0 {
				return nil, fmt.Errorf("%s takes a non-empty array of query documents", key)
			}
			var subs []docMatcher
			for i, item := range val.Items {
				sub, err := compileMongo(item, depth+1)
				if err != nil {
					return nil, fmt.Errorf("%s[%d]: %v", key, i, err)
				}
				subs = append(subs, sub)
			}
			parts = append(parts, logical(key, subs))
			continue
		}
		if val.Kind == ojson.Object && len(val.Members) > 0 && strings.HasPrefix(val.Members[0].Key, "$") {
			for _, op := range val.Members {
				m, err := fieldOp(key, op.Key, op.Value)
				if err != nil {
					return nil, err
				}
				parts = append(parts, m)
			}
			continue
		}
		m, _ := fieldOp(key, "$eq", val)
		parts = append(parts, m)
	}
	return func(d map[string]any) bool {
		for _, p := range parts {
			if !p(d) {
				return false
			}
		}
		return true
	}, nil
}

func logical(op string, subs []docMatcher) docMatcher {
	return func(d map[string]any) bool {
		any := false
		for _, s := range subs {
			ok := s(d)
			if op == "$and" && !ok {
				return false
			}
			any = any || ok
		}
		switch op {
		case "$and":
			return true
		case "$or":
			return any
		}
		return !any
	}
}

func fieldOp(field, op string, arg *ojson.Value) (docMatcher, error) {
	want := plain(arg)
	get := func(d map[string]any) (any, bool) { return lookupPath(d, field) }
	switch op {
	case "$eq", "$ne":
		eq := func(d map[string]any) bool {
			v, ok := get(d)
			if want == nil {
				return !ok || v == nil
			}
			return ok && reflect.DeepEqual(v, want)
		}
		if op == "$ne" {
			return func(d map[string]any) bool { return !eq(d) }, nil
		}
		return eq, nil
	case "$gt", "$gte", "$lt", "$lte":
		if arg.Kind != ojson.Number && arg.Kind != ojson.String {
			return nil, fmt.Errorf("%s.%s takes a number or a string", field, op)
		}
		return func(d map[string]any) bool {
			v, ok := get(d)
			if !ok {
				return false
			}
			c, ok := strictOrder(v, want)
			if !ok {
				return false
			}
			switch op {
			case "$gt":
				return c > 0
			case "$gte":
				return c >= 0
			case "$lt":
				return c < 0
			}
			return c <= 0
		}, nil
	case "$in", "$nin":
		if arg.Kind != ojson.Array {
			return nil, fmt.Errorf("%s.%s takes an array", field, op)
		}
		list := want.([]any)
		return func(d map[string]any) bool {
			v, _ := get(d)
			found := false
			for _, w := range list {
				if reflect.DeepEqual(v, w) {
					found = true
					break
				}
			}
			return found == (op == "$in")
		}, nil
	case "$exists":
		if arg.Kind != ojson.Bool {
			return nil, fmt.Errorf("%s.$exists takes true or false", field)
		}
		return func(d map[string]any) bool {
			_, ok := get(d)
			return ok == arg.Bool
		}, nil
	}
	return nil, fmt.Errorf("%s: unsupported operator %s (supported: %s)", field, op, strings.Join(mongoOps, " "))
}

// strictOrder compares like MongoDB: only numbers with numbers and strings
// with strings.
func strictOrder(a, b any) (int, bool) {
	switch a.(type) {
	case float64:
		if _, ok := b.(float64); !ok {
			return 0, false
		}
	case string:
		if _, ok := b.(string); !ok {
			return 0, false
		}
	default:
		return 0, false
	}
	return order(a, b)
}

// plain converts a JSON value to Go values with float64 numbers, the form
// documents are stored in.
func plain(v *ojson.Value) any {
	switch v.Kind {
	case ojson.Null:
		return nil
	case ojson.Bool:
		return v.Bool
	case ojson.Number:
		f, _ := v.Num.Float64()
		return f
	case ojson.String:
		return v.Str
	case ojson.Array:
		out := make([]any, len(v.Items))
		for i, it := range v.Items {
			out[i] = plain(it)
		}
		return out
	}
	out := map[string]any{}
	for _, m := range v.Members {
		out[m.Key] = plain(m.Value)
	}
	return out
}

func readAPI(tables map[string]*table, s source) (*relation, string, error) {
	u, err := url.Parse(s.URL)
	if err != nil {
		return nil, "", fmt.Errorf("url: %v", err)
	}
	query := u.Query()
	u.RawQuery, u.Fragment = "", ""
	if u.String() != inventoryURL {
		return nil, "", fmt.Errorf("404 Not Found: no demo API at %s (known: %s)", u.String(), inventoryURL)
	}
	if s.Method != "" && s.Method != "GET" {
		return nil, "", fmt.Errorf("405 Method Not Allowed: %s only accepts GET", inventoryURL)
	}
	t := tables["stock"]
	params := map[string]string{}
	for k, vs := range query {
		params[k] = vs[len(vs)-1]
	}
	for k, v := range s.Params {
		params[k] = formatValue(v)
	}
	names := make([]string, 0, len(params))
	for k := range params {
		names = append(names, k)
	}
	sort.Strings(names)
	rel := t.scan("stock")
	for _, k := range names {
		v := params[k]
		var keep func(r []any) bool
		switch k {
		case "warehouse":
			keep = func(r []any) bool { return r[2] == v }
		case "sku":
			keep = func(r []any) bool { return r[0] == v }
		case "min_stock":
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, "", fmt.Errorf("400 Bad Request: min_stock must be a number, got %q", v)
			}
			keep = func(r []any) bool { return r[4].(float64) >= n }
		default:
			return nil, "", fmt.Errorf("400 Bad Request: unknown query parameter %q (supported: warehouse, sku, min_stock)", k)
		}
		rel.rows = slices.DeleteFunc(rel.rows, func(r []any) bool { return !keep(r) })
	}
	return rel, "stock", nil
}
