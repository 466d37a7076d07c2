package call

import (
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

// call4KB is a realistic large call: the seed's data-platform query with
// five sources, joins, transformations and a nested output spec.
func call4KB() string {
	var b strings.Builder
	b.WriteString(`(dpq "quarterly-revenue-by-region" (`)
	for i, host := range []string{"pg-eu-1.internal", "pg-us-2.internal", "ch-analytics.internal", "pg-ap-1.internal", "my-legacy.internal"} {
		driver := []string{":pg", ":pg", ":ch", ":pg", ":my"}[i]
		b.WriteString(`(sql ` + driver + ` "` + host + `" "sales_` + itoa(i) + `" "select o.id, o.customer_id, o.total, o.currency, o.created_at, r.name as region from orders o join regions r on r.id = o.region_id where o.created_at >= '2026-01-01' and o.status in ('paid', 'shipped', 'delivered')") `)
	}
	b.WriteString(`(mongodb "mongodb://events.internal:27017" "page_views" :filter (:site "shop" :year 2026 :tags ("promo" "spring")))`)
	b.WriteString(`(api "https://fx.example.com/v2/rates" :headers (:Accept "application/json" :X-Api-Version "2026-01")))`)
	b.WriteString(` (:parquet :limit 50000 :level1 (:level2 (:level3 (:level4 (:level5 ("deep")))))) :joins (`)
	for i := 0; i < 10; i++ {
		b.WriteString(`("orders_` + itoa(i) + `" "customers" :inner (("orders.customer_id" := "customers.id") ("orders.currency" :!= "XXX") ("orders.total" :> 0))) `)
	}
	b.WriteString(`) :trans (`)
	for i := 0; i < 7; i++ {
		b.WriteString(`(:filter ("region <> 'test' and total > ` + itoa(i*100) + `")) (:agg (("region" "currency" "month") :aggs (:total :sum :orders :count :avg_total :avg))) `)
	}
	b.WriteString(`))`)
	return b.String()
}

func benchResolver(b *testing.B) *Resolver {
	r := NewResolver(fixtures(b))
	if _, err := r.Parse(call4KB()); err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkParseValidate4KB is the headline figure: read and validate a 4 KB
// call with a warm Resolver (compiled schema cached).
func BenchmarkParseValidate4KB(b *testing.B) {
	r := benchResolver(b)
	src := call4KB()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRead4KB(b *testing.B) {
	r := benchResolver(b)
	src := call4KB()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Read(src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseValidate4KBJSON(b *testing.B) {
	r := benchResolver(b)
	bt, _ := r.Parse(call4KB())
	src := Request(1, bt.Calls[0]).Compact()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFormat4KB(b *testing.B) {
	r := benchResolver(b)
	bt, _ := r.Parse(call4KB())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Format(bt.Calls[0]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseValidateCold includes building the Resolver and compiling
// the tool's schema, what a one-shot `mcpterm call` pays.
func BenchmarkParseValidateCold(b *testing.B) {
	set := fixtures(b)
	src := call4KB()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(set, src); err != nil {
			b.Fatal(err)
		}
	}
}

func TestBenchCallIsAbout4KB(t *testing.T) {
	src := call4KB()
	if len(src) < 3800 || len(src) > 4600 {
		t.Errorf("the benchmark call is %d bytes, want about 4 KB", len(src))
	}
	if _, err := NewResolver(fixtures(t)).Parse(src); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkParseValidate4KBMemory: a 4 KB call of a real server's tool
// (server-memory create_entities), records in a list and no unions.
func BenchmarkParseValidate4KBMemory(b *testing.B) {
	var set *toolset.Set
	for _, f := range corpusFiles(b) {
		if strings.HasSuffix(f, "server-memory.tools.json") {
			set = loadSet(b, f)
		}
	}
	if set == nil {
		b.Skip("server-memory.tools.json not in the corpus")
	}
	r := NewResolver(set)
	var sb strings.Builder
	sb.WriteString("(create_entities (")
	for i := 0; sb.Len() < 4000; i++ {
		sb.WriteString(`("person-` + itoa(i) + `" "person" ("works at Acme Corp since 2019" "prefers morning meetings" "speaks English and German")) `)
	}
	sb.WriteString("))")
	src := sb.String()
	if _, err := r.Parse(src); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}
