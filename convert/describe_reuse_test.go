package convert

import (
	"slices"
	"testing"

	"github.com/mcpterm/mcpterm/convert/termtool"
)

// TestDescribeReusesTermText: asked in a report's order (a tool's term
// cell, then its term_lazy cell), the describe answer is the term text
// just rendered, and it is what the gateway's own Describer answers and
// what the definition says, for every tool of every corpus file and
// fixture; asked the other way round it is rendered afresh, the same.
func TestDescribeReusesTermText(t *testing.T) {
	for name, set := range testSets(t) {
		r := NewRenderer(set, nil)
		fresh := NewRenderer(set, nil)
		lazy, _ := r.Form(LazyForm)
		gateway := termtool.NewDescriber(set, r.shortCodes())
		for _, tool := range set.Tools {
			if r.tool(tool.Name) != tool {
				continue // a repeated name: the first tool answers for it
			}
			termTexts, err := r.ToolTexts(describedForm, tool.Name)
			if err != nil {
				t.Fatalf("%s/%s: %v", name, tool.Name, err)
			}
			code := gateway.Code(tool.Name)
			if got := r.describedText(tool, code); got != termTexts[0].Text {
				t.Errorf("%s/%s: the term text is not kept for the describe cell", name, tool.Name)
			}
			got, err := r.ToolTexts(LazyForm, tool.Name)
			if err != nil {
				t.Fatalf("%s/%s: %v", name, tool.Name, err)
			}
			answer, err := gateway.Answer(termtool.Request{Tools: []string{code}})
			if err != nil {
				t.Fatalf("%s/%s: %v", name, tool.Name, err)
			}
			if got[1].Text != answer {
				t.Errorf("%s/%s: describe cell %q, the gateway answers %q", name, tool.Name, got[1].Text, answer)
			}
			if want := wantToolTexts(t, set, nil, lazy, tool); !slices.Equal(got, want) {
				t.Errorf("%s/%s: describe texts %q, want %q", name, tool.Name, got, want)
			}
			if other, _ := fresh.ToolTexts(LazyForm, tool.Name); !slices.Equal(other, got) {
				t.Errorf("%s/%s: rendered afresh %q, reused %q", name, tool.Name, other, got)
			}
		}
	}
}
