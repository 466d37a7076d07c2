package convert

import (
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// The floor is the yardstick no lossless notation can go much below: every
// string a model needs to tell the tools apart and call them — tool names,
// descriptions, property and definition names, property descriptions, enum
// and const values, and types — joined by single spaces, with no syntax at
// all. The token report states each form's cost as a multiple of it.
//
// Only the model-facing part counts (name, description, input schema), as
// in the json baseline; the input schema's own top-level "object" type is
// skipped since every input schema has it. Structure the floor cannot carry
// (which parameters are required, nesting, defaults, patterns) is what a
// real notation spends its tokens above the floor on.

func renderFloor(set *toolset.Set) (string, error) {
	var words []string
	add := func(s string) {
		if s != "" {
			words = append(words, s)
		}
	}
	for _, t := range set.Tools {
		add(t.Name)
		add(t.Description)
		floorSchema(t.InputSchema, true, add)
	}
	return strings.Join(words, " "), nil
}

// floorSchema emits a schema's meaningful strings in source order. Keys that
// hold data (default, examples, const…) are not walked as schemas, so an
// "x-…" or "type" inside a default value is not mistaken for a keyword.
func floorSchema(s *ojson.Value, root bool, add func(string)) {
	if s == nil || s.Kind != ojson.Object {
		return
	}
	for _, m := range s.Members {
		v := m.Value
		switch m.Key {
		case "type":
			switch v.Kind {
			case ojson.String:
				if !(root && v.Str == "object") {
					add(v.Str)
				}
			case ojson.Array:
				for _, it := range v.Items {
					add(it.StringOr(""))
				}
			}
		case "description":
			add(v.StringOr(""))
		case "enum":
			if v.Kind == ojson.Array {
				for _, it := range v.Items {
					add(floorScalar(it))
				}
			}
		case "const":
			add(floorScalar(v))
		case "properties", "$defs", "definitions":
			if v.Kind == ojson.Object {
				for _, p := range v.Members {
					add(p.Key)
					floorSchema(p.Value, false, add)
				}
			}
		case "patternProperties", "dependentSchemas":
			if v.Kind == ojson.Object {
				for _, p := range v.Members {
					floorSchema(p.Value, false, add)
				}
			}
		case "items", "additionalProperties", "additionalItems", "unevaluatedItems", "unevaluatedProperties",
			"contains", "propertyNames", "not", "if", "then", "else":
			if v.Kind == ojson.Array { // draft-04 tuple items
				for _, it := range v.Items {
					floorSchema(it, false, add)
				}
			} else {
				floorSchema(v, false, add)
			}
		case "anyOf", "oneOf", "allOf", "prefixItems":
			if v.Kind == ojson.Array {
				for _, it := range v.Items {
					floorSchema(it, false, add)
				}
			}
		}
	}
}

// floorScalar is an enum or const value as a model would read it: strings
// bare, anything else as its JSON text.
func floorScalar(v *ojson.Value) string {
	if v.Kind == ojson.String {
		return v.Str
	}
	return v.Compact()
}
