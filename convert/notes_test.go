package convert

import (
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

func TestToolNote(t *testing.T) {
	set, err := toolset.Parse([]byte(`[{"name":"note_read","description":"Read a note. It returns the whole text.","icons":[{"src":"x.png"}],
		"inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"id":{"type":"string","description":"Note id"}},"required":["id"]}}]`))
	if err != nil {
		t.Fatal(err)
	}
	r := NewRenderer(set, nil)
	for form, want := range map[string]string{
		"term":       "left out (not model-facing)",
		"term_lean":  "dropped (lean)",
		"json":       "baseline",
		"aql_single": "introspect",
		"floor":      "no syntax",
	} {
		if got := r.ToolNote(form, "note_read"); !strings.Contains(got, want) {
			t.Errorf("%s: %q lacks %q", form, got, want)
		}
	}
	if r.ToolNote("term", "nope") != "" || r.ToolNote("nope", "note_read") != "" {
		t.Error("an unknown tool or form has a note")
	}
}
