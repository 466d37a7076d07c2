package term

import (
	"fmt"
	"strings"
	"testing"
)

// The model-facing document carries what the json baseline carries — name,
// description, input schema — and nothing else; its input schemas stay
// equivalent to the originals, and what it leaves out is accounted for.
func TestModelFacingKeepsInputsAndAccountsForTheRest(t *testing.T) {
	sets := corpusSets(t)
	for name, set := range fixtureSets(t) {
		sets[name] = set
	}
	for name, set := range sets {
		doc, err := Render(set, Options{ModelFacing: true})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		full, err := Render(set, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Text) > len(full.Text) {
			t.Errorf("%s: model-facing (%d B) longer than full (%d B)", name, len(doc.Text), len(full.Text))
		}
		for _, marker := range []string{" -> ", " :ro ", " :not-ro ", " :destructive "} {
			if strings.Contains(doc.Text, marker) {
				t.Errorf("%s: model-facing document carries %q", name, marker)
			}
		}
		back, err := Parse(doc.Text)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		left := map[string]int{}
		for _, o := range doc.LeftOut {
			left[o.What] += o.Count
		}
		outputs, titled := 0, 0
		for i, tool := range set.Tools {
			bt := back.Tools[i]
			if bt.Name != tool.Name || bt.Description != tool.Description {
				t.Errorf("%s/%s: name or description changed", name, tool.Name)
			}
			if bt.OutputSchema != nil || bt.Title != "" {
				t.Errorf("%s/%s: output schema or title came back from a model-facing document", name, tool.Name)
			}
			equivalent(t, fmt.Sprintf("%s/%s", name, tool.Name), tool.InputSchema, bt.InputSchema, int64(i))
			if tool.Raw.Has("outputSchema") {
				outputs++
			}
			if tool.Raw.Has("title") {
				titled++
			}
		}
		if left["outputSchema"] != outputs || left["title"] != titled {
			t.Errorf("%s: left out outputSchema ×%d title ×%d, want ×%d ×%d", name, left["outputSchema"], left["title"], outputs, titled)
		}
	}
}
