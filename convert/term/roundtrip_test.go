package term

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset/toolsettest"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

func moduleRoot(t testing.TB) string { return toolsettest.ModuleRoot(t) }

func corpusSets(t testing.TB) map[string]*toolset.Set { return toolsettest.Corpus(t) }

func fixtureSets(t testing.TB) map[string]*toolset.Set { return toolsettest.Fixtures(t) }

func compile(t testing.TB, s *ojson.Value) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	c.UseLoader(testLoader{})
	if err := c.AddResource("mem:///schema.json", s.ToAny()); err != nil {
		t.Fatalf("add schema: %v", err)
	}
	sch, err := c.Compile("mem:///schema.json")
	if err != nil {
		t.Fatalf("compile %s: %v", clipText(s.Compact(), 300), err)
	}
	return sch
}

func clipText(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// equivalent checks that orig and back give the same verdict on generated
// instances; it returns how many instances each accepted.
func equivalent(t *testing.T, label string, orig, back *ojson.Value, seed int64) (valid, total int) {
	t.Helper()
	a, b := compile(t, orig), compile(t, back)
	for _, inst := range instances(orig, seed, 12) {
		x := inst.ToAny()
		ea, eb := a.Validate(x), b.Validate(x)
		if (ea == nil) != (eb == nil) {
			t.Errorf("%s: verdicts differ on %s: original %v, reconstructed %v\noriginal: %s\nreconstructed: %s",
				label, clipText(inst.Compact(), 200), ea == nil, eb == nil, clipText(orig.Compact(), 2000), clipText(back.Compact(), 2000))
			return valid, total
		}
		if ea == nil {
			valid++
		}
		total++
	}
	return valid, total
}

// roundTrip renders set, reads it back, and checks: the rendering is a
// fixed point, every tool keeps its name, title, description and
// annotations, and its schemas accept and reject the same instances.
func roundTrip(t *testing.T, name string, set *toolset.Set) {
	doc, err := Render(set, Options{})
	if err != nil {
		t.Fatalf("%s: render: %v", name, err)
	}
	back, err := Parse(doc.Text)
	if err != nil {
		t.Fatalf("%s: parse: %v\n%s", name, err, doc.Text)
	}
	again, err := Render(back, Options{})
	if err != nil {
		t.Fatalf("%s: render again: %v", name, err)
	}
	if again.Text != doc.Text {
		t.Errorf("%s: render -> parse -> render is not a fixed point:\n%s", name, firstDiff(doc.Text, again.Text))
	}
	if len(back.Tools) != len(set.Tools) {
		t.Fatalf("%s: %d tools back, want %d", name, len(back.Tools), len(set.Tools))
	}
	lean, err := Render(set, Options{Lean: true})
	if err != nil {
		t.Fatalf("%s: lean: %v", name, err)
	}
	leanBack, err := Parse(lean.Text)
	if err != nil {
		t.Fatalf("%s: lean parse: %v\n%s", name, err, lean.Text)
	}
	if l2, err := Render(leanBack, Options{Lean: true}); err != nil || l2.Text != lean.Text {
		t.Errorf("%s: lean render -> parse -> render is not a fixed point (%v):\n%s", name, err, firstDiff(lean.Text, l2.Text))
	}
	totalValid, total := 0, 0
	for i, orig := range set.Tools {
		got := back.Tools[i]
		if got.Name != orig.Name || got.Title != orig.Title || got.Description != orig.Description {
			t.Errorf("%s/%s: name/title/description changed: %q %q %q", name, orig.Name, got.Name, got.Title, clipText(got.Description, 80))
		}
		if !ojson.Equal(annotationsOf(orig), annotationsOf(got)) {
			t.Errorf("%s/%s: annotations %s, want %s", name, orig.Name, annotationsOf(got).Compact(), annotationsOf(orig).Compact())
		}
		v, n := equivalent(t, name+"/"+orig.Name+" input", orig.InputSchema, got.InputSchema, int64(i))
		totalValid, total = totalValid+v, total+n
		if (orig.OutputSchema == nil) != (got.OutputSchema == nil) {
			t.Errorf("%s/%s: output schema presence changed", name, orig.Name)
		} else if orig.OutputSchema != nil {
			v, n := equivalent(t, name+"/"+orig.Name+" output", orig.OutputSchema, got.OutputSchema, int64(i)+1000)
			totalValid, total = totalValid+v, total+n
		}
	}
	// The generator must reach both verdicts, or the check proves little.
	if totalValid == 0 || totalValid == total {
		t.Errorf("%s: %d of %d instances valid; the generator is not exercising both verdicts", name, totalValid, total)
	}
	t.Logf("%s: %d tools, %d instances, %d valid", name, len(set.Tools), total, totalValid)
}

func annotationsOf(t *toolset.Tool) *ojson.Value {
	if t.Raw == nil {
		return nil
	}
	a := t.Raw.Get("annotations")
	if a == nil {
		return ojson.NewObject()
	}
	return a
}

func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) || i < len(lb); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			return "first:  " + clipText(x, 1500) + "\nsecond: " + clipText(y, 1500)
		}
	}
	return "(texts differ only in line endings)"
}

func TestRoundTripCorpus(t *testing.T) {
	for name, set := range corpusSets(t) {
		roundTrip(t, name, set)
	}
}

func TestRoundTripFixtures(t *testing.T) {
	for name, set := range fixtureSets(t) {
		roundTrip(t, name, set)
	}
}

// testLoader serves the one remote schema the fixtures refer to, so that
// external references can be tested without a network.
type testLoader struct{}

func (testLoader) Load(url string) (any, error) {
	if url == "https://example.com/schemas/thing.json" {
		return map[string]any{"type": "string", "minLength": json.Number("2")}, nil
	}
	return nil, fmt.Errorf("no such test schema %s", url)
}
