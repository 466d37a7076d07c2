package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// maxRelationRows bounds what a join may produce before the query is refused.
const maxRelationRows = 100_000

// source is one member of the Source union.
type source struct {
	Type  string
	Alias string
	// sql
	Driver, Host, Database, Query string
	// mongodb
	URI, Collection string
	Filter          *ojson.Value
	Projection      map[string]int
	// api
	URL, Method string
	Headers     map[string]string
	Params      map[string]any
}

func (s *source) UnmarshalJSON(data []byte) error {
	typ, err := variantType(data)
	if err != nil {
		return fmt.Errorf("source: %v", err)
	}
	switch typ {
	case "sql":
		var v struct {
			Type     string `json:"type"`
			Alias    string `json:"alias"`
			Driver   string `json:"driver"`
			Host     string `json:"host"`
			Database string `json:"database"`
			Query    string `json:"query"`
		}
		if err := strictUnmarshal(data, &v); err != nil {
			return fmt.Errorf("sql source: %v", err)
		}
		*s = source{Type: typ, Alias: v.Alias, Driver: v.Driver, Host: v.Host, Database: v.Database, Query: v.Query}
	case "mongodb":
		var v struct {
			Type       string          `json:"type"`
			Alias      string          `json:"alias"`
			URI        string          `json:"uri"`
			Database   string          `json:"database"`
			Collection string          `json:"collection"`
			Filter     json.RawMessage `json:"filter"`
			Projection map[string]int  `json:"projection"`
		}
		if err := strictUnmarshal(data, &v); err != nil {
			return fmt.Errorf("mongodb source: %v", err)
		}
		*s = source{Type: typ, Alias: v.Alias, URI: v.URI, Database: v.Database, Collection: v.Collection, Projection: v.Projection}
		if len(v.Filter) > 0 && string(v.Filter) != "null" {
			f, err := ojson.Parse(v.Filter)
			if err != nil {
				return fmt.Errorf("mongodb source: filter: %v", err)
			}
			if f.Kind != ojson.Object {
				return fmt.Errorf("mongodb source: filter must be an object")
			}
			s.Filter = f
		}
	case "api":
		var v struct {
			Type    string            `json:"type"`
			Alias   string            `json:"alias"`
			URL     string            `json:"url"`
			Method  string            `json:"method"`
			Headers map[string]string `json:"headers"`
			Params  map[string]any    `json:"params"`
		}
		if err := strictUnmarshal(data, &v); err != nil {
			return fmt.Errorf("api source: %v", err)
		}
		*s = source{Type: typ, Alias: v.Alias, URL: v.URL, Method: v.Method, Headers: v.Headers, Params: v.Params}
	default:
		return fmt.Errorf("unknown source type %q (want sql, mongodb or api)", typ)
	}
	return nil
}

type joinCond struct {
	Left  string `json:"left"`
	Op    string `json:"op"`
	Right string `json:"right"`
}

type joinSpec struct {
	Left  string     `json:"left"`
	Right string     `json:"right"`
	Type  string     `json:"type"`
	On    []joinCond `json:"on"`
}

type aggSpec struct {
	Name  string
	Fn    string `json:"fn"`
	Field string `json:"field"`
}

// xform is one member of the Transformation union.
type xform struct {
	Type  string
	Cond  string
	Group []string
	Aggs  []aggSpec // in the order the caller wrote them
}

func (x *xform) UnmarshalJSON(data []byte) error {
	typ, err := variantType(data)
	if err != nil {
		return fmt.Errorf("transformation: %v", err)
	}
	switch typ {
	case "filter":
		var v struct {
			Type string `json:"type"`
			Cond string `json:"cond"`
		}
		if err := strictUnmarshal(data, &v); err != nil {
			return fmt.Errorf("filter: %v", err)
		}
		*x = xform{Type: typ, Cond: v.Cond}
	case "agg":
		var v struct {
			Type  string          `json:"type"`
			Group []string        `json:"group"`
			Aggs  json.RawMessage `json:"aggs"`
		}
		if err := strictUnmarshal(data, &v); err != nil {
			return fmt.Errorf("agg: %v", err)
		}
		*x = xform{Type: typ, Group: v.Group}
		aggs, err := ojson.Parse(v.Aggs)
		if err != nil || aggs.Kind != ojson.Object {
			return fmt.Errorf("agg: aggs must be an object of name to {fn, field}")
		}
		for _, m := range aggs.Members {
			a := aggSpec{Name: m.Key}
			if err := strictUnmarshal([]byte(m.Value.Compact()), &a); err != nil {
				return fmt.Errorf("agg: aggs.%s: %v", m.Key, err)
			}
			a.Name = m.Key
			x.Aggs = append(x.Aggs, a)
		}
	default:
		return fmt.Errorf("unknown transformation type %q (want filter or agg)", typ)
	}
	return nil
}

type sortKey struct {
	Field string `json:"field"`
	Order string `json:"order"`
}

type outputSpec struct {
	Format string    `json:"format"`
	Limit  *int      `json:"limit"`
	Sort   []sortKey `json:"sort"`
}

type queryArgs struct {
	QID             string     `json:"qid"`
	Sources         []source   `json:"sources"`
	Joins           []joinSpec `json:"joins"`
	Transformations []xform    `json:"transformations"`
	Output          outputSpec `json:"output"`
}

type sourceStat struct {
	Alias    string `json:"alias"`
	Type     string `json:"type"`
	RowsRead int    `json:"rowsRead"`
}

type queryResult struct {
	QID       string       `json:"qid"`
	Columns   []string     `json:"columns"`
	Rows      [][]any      `json:"rows"`
	RowCount  int          `json:"rowCount"`
	TotalRows int          `json:"totalRows"`
	Truncated bool         `json:"truncated"`
	Sources   []sourceStat `json:"sources"`
}

func (st *state) addQueryTools(s *server.MCPServer) {
	st.add(s, tool("data_platform_query", "Data Platform Query",
		"Query the demo data platform: read one or more sources (SQL tables, a MongoDB collection, an inventory API), join them, filter and aggregate the rows, and return a table as JSON, CSV or Markdown. Read demo://catalog for the available sources and columns.",
		queryInput, queryOutput, hints("Data Platform Query", true, false, true)), st.query)
}

func (st *state) query(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a queryArgs
	if err := bind(req, &a); err != nil {
		return toolErr("%v", err)
	}
	res, text, err := runQuery(ctx, st.tables, a)
	if err != nil {
		return toolErr("query %q: %v", a.QID, err)
	}
	r, err := result(res)
	if err != nil {
		return nil, err
	}
	r.Content = []mcp.Content{mcp.NewTextContent(text)}
	return r, nil
}

// runQuery executes a query; the tables are never modified.
func runQuery(ctx context.Context, tables map[string]*table, a queryArgs) (*queryResult, string, error) {
	if len(a.Sources) == 0 {
		return nil, "", fmt.Errorf("at least one source is required")
	}
	rels := map[string]*relation{}
	var order []string
	res := &queryResult{QID: a.QID, Rows: [][]any{}}
	for i, s := range a.Sources {
		rel, alias, err := readSource(tables, s)
		if err != nil {
			return nil, "", fmt.Errorf("sources[%d] (%s): %v", i, s.Type, err)
		}
		if rels[alias] != nil {
			return nil, "", fmt.Errorf("sources[%d]: alias %q is already used; set a different alias", i, alias)
		}
		rels[alias] = rel
		order = append(order, alias)
		res.Sources = append(res.Sources, sourceStat{alias, s.Type, len(rel.rows)})
	}
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	rel, err := joinAll(rels, order, a.Joins)
	if err != nil {
		return nil, "", err
	}
	for i, x := range a.Transformations {
		switch x.Type {
		case "filter":
			rel, err = filter(rel, x.Cond)
		case "agg":
			rel, err = aggregate(rel, x.Group, x.Aggs)
		default:
			err = fmt.Errorf("unknown type %q", x.Type)
		}
		if err != nil {
			return nil, "", fmt.Errorf("transformations[%d] (%s): %v", i, x.Type, err)
		}
	}
	if err := sortRelation(rel, a.Output.Sort); err != nil {
		return nil, "", fmt.Errorf("output.sort: %v", err)
	}
	limit := 100
	if a.Output.Limit != nil {
		limit = *a.Output.Limit
	}
	if limit < 1 || limit > 1000 {
		return nil, "", fmt.Errorf("output.limit must be 1-1000, got %d", limit)
	}
	res.Columns = rel.names(false)
	res.TotalRows = len(rel.rows)
	rows := rel.rows
	if len(rows) > limit {
		rows = rows[:limit]
		res.Truncated = true
	}
	res.Rows = append(res.Rows, rows...)
	res.RowCount = len(rows)
	text, err := render(a.Output.Format, res)
	if err != nil {
		return nil, "", fmt.Errorf("output.format: %v", err)
	}
	return res, text, nil
}

// render formats the result table for the text content.
func render(format string, res *queryResult) (string, error) {
	note := ""
	if res.Truncated {
		note = fmt.Sprintf("\n(%d of %d rows)", res.RowCount, res.TotalRows)
	}
	switch format {
	case "", "json":
		objs := make([]*ojson.Value, 0, len(res.Rows))
		for _, r := range res.Rows {
			o := ojson.NewObject()
			for i, c := range res.Columns {
				v, err := ojson.FromAny(r[i])
				if err != nil {
					return "", err
				}
				o.Set(c, v)
			}
			objs = append(objs, o)
		}
		return ojson.NewArray(objs...).Pretty() + note, nil
	case "csv":
		return renderCSV(res.Columns, res.Rows), nil
	case "markdown":
		var sb strings.Builder
		sb.WriteString("| " + strings.Join(mdEscape(res.Columns), " | ") + " |\n|")
		for range res.Columns {
			sb.WriteString("---|")
		}
		sb.WriteString("\n")
		for _, r := range res.Rows {
			cells := make([]string, len(r))
			for i, v := range r {
				cells[i] = formatValue(v)
			}
			sb.WriteString("| " + strings.Join(mdEscape(cells), " | ") + " |\n")
		}
		return sb.String() + strings.TrimPrefix(note, "\n"), nil
	}
	return "", fmt.Errorf("unknown format %q (want json, csv or markdown)", format)
}

func mdEscape(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = strings.ReplaceAll(strings.ReplaceAll(c, "|", "\\|"), "\n", " ")
	}
	return out
}

// sortRelation orders rows by the given keys; NULLs sort first.
func sortRelation(rel *relation, keys []sortKey) error {
	if len(keys) == 0 {
		return nil
	}
	idx := make([]int, len(keys))
	for i, k := range keys {
		j, err := rel.resolve(k.Field)
		if err != nil {
			return err
		}
		if k.Order != "" && k.Order != "asc" && k.Order != "desc" {
			return fmt.Errorf("order must be asc or desc, got %q", k.Order)
		}
		idx[i] = j
	}
	sort.SliceStable(rel.rows, func(a, b int) bool {
		for i, k := range keys {
			c := cmpForSort(rel.rows[a][idx[i]], rel.rows[b][idx[i]])
			if c == 0 {
				continue
			}
			if k.Order == "desc" {
				return c > 0
			}
			return c < 0
		}
		return false
	})
	return nil
}

// cmpForSort is a total order: NULL < booleans < numbers < strings.
func cmpForSort(a, b any) int {
	rank := func(v any) int {
		switch v.(type) {
		case nil:
			return 0
		case bool:
			return 1
		case float64:
			return 2
		}
		return 3
	}
	ra, rb := rank(a), rank(b)
	if ra != rb {
		return ra - rb
	}
	if ra == 0 {
		return 0
	}
	c, _ := order(a, b)
	return c
}
