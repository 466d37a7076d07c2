package aql

import (
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

func benchSets(b *testing.B) []*toolset.Set {
	c := corpus(b)
	var out []*toolset.Set
	for _, k := range sortedKeys(c) {
		out = append(out, c[k])
	}
	return out
}

// BenchmarkNew builds the adapter (classification, names, parameters,
// types) for all four corpus servers.
func BenchmarkNew(b *testing.B) {
	sets := benchSets(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range sets {
			if _, err := New(s, nil, Semantic); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkRenderSemantic is `convert --to aql-semantic` on the corpus.
func BenchmarkRenderSemantic(b *testing.B) {
	sets := benchSets(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range sets {
			if _, err := RenderSemantic(s, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkIntrospectCosts renders every introspection answer of the corpus.
func BenchmarkIntrospectCosts(b *testing.B) {
	var as []*Adapter
	for _, s := range benchSets(b) {
		as = append(as, mustAdapter(b, s, nil, Single))
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, a := range as {
			a.IntrospectCosts()
		}
	}
}

// BenchmarkParsePrepare is one AQL call from bytes to tools/call params.
func BenchmarkParsePrepare(b *testing.B) {
	a := mustAdapter(b, corpus(b)["server-filesystem"], nil, Semantic)
	src := []byte(`{"operation":"edit_file","params":{"path":"/tmp/a.txt","input":{"edits":[{"oldText":"a","newText":"b"}],"dry_run":true}}}`)
	b.ReportAllocs()
	for b.Loop() {
		in, err := ParseInput(src)
		if err != nil {
			b.Fatal(err)
		}
		if st := a.Prepare("mcp_aql_update", in.Request); st.Call == nil {
			b.Fatal(st.Local.Compact())
		}
	}
}

// BenchmarkProject projects a 200-item result.
func BenchmarkProject(b *testing.B) {
	src := `{"items":[`
	for i := 0; i < 200; i++ {
		if i > 0 {
			src += ","
		}
		src += `{"id":"x","title":"t","meta":{"owner":"o","tags":["a","b"]},"body":"lorem ipsum dolor"}`
	}
	src += `],"total":200}`
	v := mustJSON(b, src)
	fields := []string{"items.id", "items.meta.owner", "total"}
	b.ReportAllocs()
	for b.Loop() {
		Project(v, fields)
	}
}
