package convert

import (
	"slices"
	"sort"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

// A merged list's parts render exactly as each server's own list does, in
// every form and per tool, so per-server figures of a merged list are the
// figures `mcpterm tokens` gives each server.
func TestPerServerPartsRenderAsTheirOwnLists(t *testing.T) {
	sets := testSets(t)
	var names []string
	for n := range sets {
		names = append(names, n)
	}
	sort.Strings(names)
	// Three lists whose tool names do not clash, as the fleet merges them.
	var picked []*toolset.Set
	seen := map[string]bool{}
	for _, n := range names {
		s := sets[n]
		clash := len(s.Tools) == 0
		for _, tl := range s.Tools {
			clash = clash || seen[tl.Name]
		}
		if clash {
			continue
		}
		for _, tl := range s.Tools {
			seen[tl.Name] = true
		}
		picked = append(picked, s)
		if len(picked) == 3 {
			break
		}
	}
	if len(picked) < 3 {
		t.Fatalf("the corpus has %d lists without clashing names", len(picked))
	}
	merged := &toolset.Set{Server: "fleet", Source: "config servers"}
	for i, s := range picked {
		s.Server = []string{"alpha", "beta", "gamma"}[i]
		s.Version = ""
		for _, tl := range s.Tools {
			c := *tl
			c.Server = s.Server
			merged.Tools = append(merged.Tools, &c)
		}
	}
	parts := NewRenderer(merged, nil).PerServer()
	if len(parts) != len(picked) {
		t.Fatalf("%d parts for %d servers", len(parts), len(picked))
	}
	for i, part := range parts {
		own := NewRenderer(picked[i], nil)
		if part.Set().Server != picked[i].Server || len(part.Set().Tools) != len(picked[i].Tools) {
			t.Fatalf("part %d is %q with %d tools, want %q with %d", i, part.Set().Server, len(part.Set().Tools), picked[i].Server, len(picked[i].Tools))
		}
		if formNames(part.Forms()) != formNames(own.Forms()) {
			t.Fatalf("part %d has forms %s, want %s", i, formNames(part.Forms()), formNames(own.Forms()))
		}
		for _, f := range own.Forms() {
			got, gerr := part.Document(f.Name)
			want, werr := own.Document(f.Name)
			if got != want || (gerr == nil) != (werr == nil) {
				t.Errorf("%s %s: the part's document differs from the server's own (err %v, %v)", picked[i].Server, f.Name, gerr, werr)
			}
			for _, tl := range picked[i].Tools {
				g, gerr := part.ToolTexts(f.Name, tl.Name)
				w, werr := own.ToolTexts(f.Name, tl.Name)
				if !slices.Equal(g, w) || (gerr == nil) != (werr == nil) {
					t.Errorf("%s %s %s: the part's tool texts differ", picked[i].Server, f.Name, tl.Name)
				}
			}
		}
	}
}

// A single server's list, and a list whose tools name one server, is not
// split.
func TestPerServerSingleServer(t *testing.T) {
	set := &toolset.Set{Server: "one", Tools: []*toolset.Tool{{Name: "a", Server: "x"}, {Name: "b", Server: "x"}}}
	if parts := NewRenderer(set, nil).PerServer(); parts != nil {
		t.Errorf("one server split into %d parts", len(parts))
	}
	if parts := NewRenderer(&toolset.Set{}, nil).PerServer(); parts != nil {
		t.Errorf("an empty list split into %d parts", len(parts))
	}
}
