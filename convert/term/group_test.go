package term

import (
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

// TestGroupedDocumentRoundTrips merges two corpus servers into one list
// whose tools carry Server: the document has one (declare :server NAME ...)
// per server, codes unique across both, and print∘read∘print = print with
// every tool keeping its server.
func TestGroupedDocumentRoundTrips(t *testing.T) {
	sets := corpusSets(t)
	merged := &toolset.Set{Server: "fleet"}
	for _, name := range []string{"server-memory", "server-sequential-thinking"} {
		for k, s := range sets {
			if !strings.Contains(k, name) {
				continue
			}
			for _, tl := range s.Tools {
				c := *tl
				c.Server = name
				merged.Tools = append(merged.Tools, &c)
			}
		}
	}
	if len(merged.Tools) < 2 {
		t.Skip("corpus lists not found")
	}
	doc := mustRender(t, merged, Options{ModelFacing: true})
	if strings.Count(doc.Text, "(declare :server ") != 2 || !strings.HasPrefix(doc.Text, "(declare :server server-memory\n") {
		t.Fatalf("not grouped per server:\n%s", doc.Text[:min(300, len(doc.Text))])
	}
	back, err := Parse(doc.Text)
	if err != nil {
		t.Fatal(err)
	}
	for i, tl := range back.Tools {
		if tl.Server != merged.Tools[i].Server || tl.Name != merged.Tools[i].Name {
			t.Errorf("tool %d: %s of %q, want %s of %q", i, tl.Name, tl.Server, merged.Tools[i].Name, merged.Tools[i].Server)
		}
	}
	again := mustRender(t, back, Options{ModelFacing: true})
	if again.Text != doc.Text {
		t.Errorf("print∘read∘print differs:\n%s", firstDiff(doc.Text, again.Text))
	}
	roundTrip(t, "merged", merged)
	if _, err := Parse("(declare :title x)"); err == nil {
		t.Error("(declare :title x) read without complaint")
	}
	l := Listing(merged, nil)
	if !strings.HasPrefix(l, "# server-memory\n") || !strings.Contains(l, "\n# server-sequential-thinking\nse sequentialthinking: ") {
		t.Errorf("listing not grouped:\n%s", l)
	}
}
