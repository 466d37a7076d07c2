package term

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

func BenchmarkRenderCorpus(b *testing.B) {
	sets := corpusSets(b)
	var all []*toolset.Set
	bytes := 0
	for _, s := range sets {
		all = append(all, s)
		bytes += len(s.Result().Compact())
	}
	b.SetBytes(int64(bytes))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, s := range all {
			if _, err := Render(s, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkParseCorpus(b *testing.B) {
	var docs []string
	for _, s := range corpusSets(b) {
		d, err := Render(s, Options{})
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, d.Text)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, d := range docs {
			if _, err := Parse(d); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// synthetic500 builds a 500-tool server from the fixtures' and corpus'
// tools, renamed, so that it has their mix of shapes and shared $defs.
func synthetic500(b *testing.B) *toolset.Set {
	var pool []*toolset.Tool
	for _, s := range fixtureSets(b) {
		pool = append(pool, s.Tools...)
	}
	for _, s := range corpusSets(b) {
		pool = append(pool, s.Tools...)
	}
	arr := ojson.NewArray()
	for i := 0; i < 500; i++ {
		raw := pool[i%len(pool)].Raw.Clone()
		raw.Set("name", ojson.NewString(fmt.Sprintf("%s_%d", raw.Get("name").Str, i)))
		arr.Items = append(arr.Items, raw)
	}
	set, err := toolset.FromValue(ojson.NewObject().Set("tools", arr))
	if err != nil {
		b.Fatal(err)
	}
	return set
}

func BenchmarkRender500(b *testing.B) {
	set := synthetic500(b)
	b.SetBytes(int64(len(set.Result().Compact())))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Render(set, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSizes logs json vs term vs term-lean bytes per corpus server (the
// dts figures come from convert/dts); it fails if MCP-Term is not smaller
// than the JSON baseline.
func TestSizes(t *testing.T) {
	var lines []string
	for name, s := range corpusSets(t) {
		js := len(s.Baseline().Compact())
		full := mustRender(t, s, Options{})
		lean := mustRender(t, s, Options{Lean: true})
		lines = append(lines, fmt.Sprintf("%-28s json %6d  term %6d (%3d%%)  term-lean %6d (%3d%%)", name, js,
			len(full.Text), 100*len(full.Text)/js, len(lean.Text), 100*len(lean.Text)/js))
		if len(full.Text) >= js {
			t.Errorf("%s: term %d B is not smaller than json %d B", name, len(full.Text), js)
		}
	}
	t.Log("\n" + strings.Join(lines, "\n"))
}
