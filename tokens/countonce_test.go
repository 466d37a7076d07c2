package tokens

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// TestWholeTextsCountsEqual: the one-shot counter (no segment cache, as
// `mcpterm tokens` builds it) gives every figure of the corpus report the
// segmented counter gives, encodes each distinct text once, whole, and
// never cuts one.
func TestWholeTextsCountsEqual(t *testing.T) {
	var sets []*toolset.Set
	for _, p := range corpusFiles(t) {
		sets = append(sets, loadSet(t, p))
	}
	for _, enc := range Encodings() {
		seg := testCounter(t, enc)
		whole := testCounter(t, enc, WholeTexts())
		want, err := Build(seg, sets, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Build(whole, sets, nil)
		if err != nil {
			t.Fatal(err)
		}
		sameReports(t, enc, got, want)
		st := whole.Stats()
		if st.Encodes != st.Misses {
			t.Errorf("%s: %d texts missed the cache but %d encodes: a text was cut or encoded twice", enc, st.Misses, st.Encodes)
		}
		if st.Hits == 0 {
			t.Errorf("%s: no text was found in the cache; the report's repeated texts were encoded again", enc)
		}
		if ss := seg.Stats(); ss.Encodes <= ss.Misses {
			t.Errorf("%s: the segmented counter encoded %d pieces for %d texts; the comparison is void", enc, ss.Encodes, ss.Misses)
		}
	}
}

// TestBuildConcurrentServersInOrder: servers built concurrently come back
// in the order given, each with the figures it has when built alone, and a
// report over the same list twice is the same report.
func TestBuildConcurrentServersInOrder(t *testing.T) {
	c := testCounter(t, O200kBase, WholeTexts())
	var rs []*convert.Renderer
	for range 3 { // more servers than GOMAXPROCS on a small machine
		for _, p := range corpusFiles(t) {
			rs = append(rs, convert.NewRenderer(loadSet(t, p), nil))
		}
	}
	all, err := BuildFrom(c, rs)
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Servers) != len(rs) {
		t.Fatalf("%d servers in the report, %d given", len(all.Servers), len(rs))
	}
	for i, rd := range rs {
		alone, err := BuildFrom(testCounter(t, O200kBase), []*convert.Renderer{rd})
		if err != nil {
			t.Fatal(err)
		}
		if all.Servers[i].Server != rd.Set().Server {
			t.Fatalf("server %d is %q, want %q", i, all.Servers[i].Server, rd.Set().Server)
		}
		sameReports(t, rd.Set().Server, &Report{Servers: all.Servers[i : i+1]}, &Report{Servers: alone.Servers})
	}
	empty, err := BuildFrom(c, nil)
	if err != nil || empty.Servers != nil {
		t.Fatalf("no servers: %v, %v", empty.Servers, err)
	}
}

func sameReports(t *testing.T, what string, got, want *Report) {
	t.Helper()
	for i, w := range want.Servers {
		g := got.Servers[i]
		for name, pair := range map[string][2]any{
			"totals": {g.Totals, w.Totals}, "errors": {g.Errors, w.Errors}, "tools": {g.Tools, w.Tools},
			"left out": {g.LeftOut, w.LeftOut}, "true": {g.True, w.True}, "true errors": {g.TrueErrors, w.TrueErrors},
			"served": {g.Served, w.Served},
		} {
			if !reflect.DeepEqual(pair[0], pair[1]) {
				t.Errorf("%s: %s: %s differ:\n got  %v\n want %v", what, w.Server, name, pair[0], pair[1])
			}
		}
	}
}

// TestBuildServerPanicIsError: a server whose report panics outside the
// renderers (here a hand-built list holding a nil tool) fails the report
// with an error naming it, on whichever goroutine it was built, instead of
// ending the program.
func TestBuildServerPanicIsError(t *testing.T) {
	c := testCounter(t, O200kBase, WholeTexts())
	good := convert.NewRenderer(loadSet(t, corpusFiles(t)[0]), nil)
	bad := convert.NewRenderer(&toolset.Set{Server: "broken", Tools: []*toolset.Tool{nil}}, nil)
	_, err := BuildFrom(c, []*convert.Renderer{good, bad, good})
	if err == nil || !strings.Contains(err.Error(), "counting broken panicked") {
		t.Fatalf("err = %v, want the broken server's panic as an error", err)
	}
}
