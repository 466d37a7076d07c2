package convert

import (
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

func TestFloorForm(t *testing.T) {
	set, err := toolset.Parse([]byte(`[{
		"name": "note_update",
		"title": "Update a note",
		"description": "Apply edits to a note.",
		"icons": [{"src": "data:image/png;base64,AAAA"}],
		"inputSchema": {
			"$schema": "http://json-schema.org/draft-07/schema#",
			"type": "object",
			"x-internal": {"type": "secret"},
			"properties": {
				"id": {"type": "string", "description": "Note id", "default": "type"},
				"x-trace": {"type": ["string", "null"]},
				"ops": {"type": "array", "items": {"$ref": "#/$defs/Op"}},
				"mode": {"enum": ["fast", "safe", 3, null]},
				"kind": {"const": "insert"},
				"target": {"anyOf": [{"type": "number"}, {"type": "object", "properties": {"path": {"type": "string"}}}]}
			},
			"required": ["id"],
			"$defs": {"Op": {"type": "object", "description": "One edit", "properties": {"pos": {"type": "integer"}}}}
		},
		"outputSchema": {"type": "object", "properties": {"hidden": {"type": "string"}}}
	}, {"name": "ping"}]`))
	if err != nil {
		t.Fatal(err)
	}
	f, ok := FormByName("floor")
	if !ok {
		t.Fatal("floor is not in Forms()")
	}
	got, err := f.Render(set)
	if err != nil {
		t.Fatal(err)
	}
	want := "note_update Apply edits to a note. " +
		"id string Note id x-trace string null ops array " +
		"mode fast safe 3 null kind insert target number object path string " +
		"Op object One edit pos integer ping"
	if got != want {
		t.Fatalf("floor:\n got %q\nwant %q", got, want)
	}
	for _, absent := range []string{"secret", "draft-07", "hidden", "Update a note", "AAAA"} {
		if strings.Contains(got, absent) {
			t.Errorf("floor holds %q, which a model never needs", absent)
		}
	}
}

func FuzzFloor(f *testing.F) {
	f.Add(`[{"name":"a","description":"d","inputSchema":{"type":"object","properties":{"p":{"enum":[1,"x"]}}}}]`)
	f.Add(`{"tools":[{"name":"b","inputSchema":{"anyOf":[{"items":[{"type":"string"}]}],"$defs":{"T":{"const":{"k":1}}}}}]}`)
	f.Fuzz(func(t *testing.T, doc string) {
		set, err := toolset.Parse([]byte(doc))
		if err != nil {
			return
		}
		out, err := renderFloor(set)
		if err != nil {
			t.Fatal(err)
		}
		// Every tool name is in the floor, in order.
		rest := out
		for _, tool := range set.Tools {
			i := strings.Index(rest, tool.Name)
			if i < 0 {
				t.Fatalf("tool %q missing from floor %q", tool.Name, out)
			}
			rest = rest[i+len(tool.Name):]
		}
	})
}
