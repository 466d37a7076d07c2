package policy

import (
	"testing"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// CallFor reads annotations and the AQL category from the codec, overrides
// included, and knows no tool without one.
func TestCallFor(t *testing.T) {
	set, err := toolset.Parse([]byte(`[
		{"name": "list_notes", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}},
		{"name": "purge_notes", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": false}}]`))
	if err != nil {
		t.Fatal(err)
	}
	plain := calls.New(set, calls.Options{})
	if c := CallFor(plain, "list_notes"); !c.Known || !c.Annotations.ReadOnly() || c.Category != Read || IsDestructive(c) {
		t.Errorf("list_notes: %+v", c)
	}
	mapped := calls.New(set, calls.Options{Overrides: aql.Overrides{"list_notes": {Category: aql.Delete}}})
	if c := CallFor(mapped, "list_notes"); c.Category != Delete || !IsDestructive(c) {
		t.Errorf("list_notes mapped to DELETE: %+v", c)
	}
	if c := CallFor(plain, "nope"); c.Known || !IsDestructive(c) {
		t.Errorf("unknown tool: %+v", c)
	}
	if c := CallFor(nil, "list_notes"); c.Known || c.Category != "" {
		t.Errorf("nil codec: %+v", c)
	}
}
