package tokens

import (
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// LeftOutPart is one kind of content that model-facing compact forms omit:
// how many times a server's tools carry it and what it costs.
type LeftOutPart struct {
	Count int // occurrences (keys removed)
	// Tokens is the json_full cost: the tools' counts as sent minus their
	// counts with this kind removed, summed over tools. Counting the removed
	// text on its own would miss how it merges with its neighbours.
	Tokens int
}

// LeftOutKinds lists, in report order, what MCP-Term's model-facing forms
// leave out: icons and _meta (for clients, never the model), $schema (a
// dialect tag) and x-* extension keywords. The term form will report this
// itself; until then the report measures it from the raw tools.
func LeftOutKinds() []string { return []string{"icons", "_meta", "$schema", "x-*"} }

// leftOut measures the left-out kinds over a set's tools. A tool is
// counted whole only when it carries one of them, and a tool whose text
// cannot be counted exactly (too big, or uncuttable) is passed over rather
// than failing the report: its parts are then missing from the figures.
func leftOut(c *Counter, set *toolset.Set) (map[string]LeftOutPart, error) {
	out := map[string]LeftOutPart{}
	for _, k := range LeftOutKinds() {
		out[k] = LeftOutPart{}
	}
	for _, t := range set.Tools {
		if t.Raw == nil || t.Raw.Kind != ojson.Object {
			continue
		}
		full := -1
		// A clone a kind was not found in is unchanged and serves the next
		// kind: most tools carry none, and then cost one clone, not four.
		var stripped *ojson.Value
	kinds:
		for _, k := range LeftOutKinds() {
			if stripped == nil {
				stripped = t.Raw.Clone()
			}
			n := stripTool(stripped, k)
			if n == 0 {
				continue
			}
			if full < 0 {
				var err error
				if full, err = c.Count(t.Raw.Compact()); err != nil {
					break kinds
				}
			}
			rest, err := c.Count(stripped.Compact())
			stripped = nil
			if err != nil {
				break kinds
			}
			p := out[k]
			p.Count += n
			p.Tokens += full - rest
			out[k] = p
		}
	}
	return out, nil
}

// stripTool removes one kind of left-out content from a tool object and
// returns how many keys it removed.
func stripTool(t *ojson.Value, kind string) int {
	n := 0
	switch kind {
	case "icons", "_meta":
		if t.Has(kind) {
			t.Delete(kind)
			n++
		}
	case "$schema":
		n += stripSchema(t.Get("inputSchema"), isKey("$schema"))
		n += stripSchema(t.Get("input_schema"), isKey("$schema"))
		n += stripSchema(t.Get("outputSchema"), isKey("$schema"))
	case "x-*":
		n += deleteKeys(t, isExtension)
		n += stripSchema(t.Get("inputSchema"), isExtension)
		n += stripSchema(t.Get("input_schema"), isExtension)
		n += stripSchema(t.Get("outputSchema"), isExtension)
	}
	return n
}

func isKey(k string) func(string) bool { return func(s string) bool { return s == k } }

func isExtension(k string) bool { return strings.HasPrefix(k, "x-") }

func deleteKeys(o *ojson.Value, match func(string) bool) int {
	n := 0
	for _, k := range o.Keys() {
		if match(k) {
			o.Delete(k)
			n++
		}
	}
	return n
}

// stripSchema removes matching keywords from a schema and every subschema.
// Property and definition names are names, not keywords, so a parameter
// called "x-trace" survives; values of data keywords (default, enum,
// examples, const) are never walked.
func stripSchema(s *ojson.Value, match func(string) bool) int {
	if s == nil || s.Kind != ojson.Object {
		return 0
	}
	n := deleteKeys(s, match)
	for _, m := range s.Members {
		v := m.Value
		switch m.Key {
		case "properties", "$defs", "definitions", "patternProperties", "dependentSchemas":
			if v.Kind == ojson.Object {
				for _, p := range v.Members {
					n += stripSchema(p.Value, match)
				}
			}
		case "items", "additionalProperties", "additionalItems", "unevaluatedItems", "unevaluatedProperties",
			"contains", "propertyNames", "not", "if", "then", "else":
			if v.Kind == ojson.Array {
				for _, it := range v.Items {
					n += stripSchema(it, match)
				}
			} else {
				n += stripSchema(v, match)
			}
		case "anyOf", "oneOf", "allOf", "prefixItems":
			if v.Kind == ojson.Array {
				for _, it := range v.Items {
					n += stripSchema(it, match)
				}
			}
		}
	}
	return n
}
