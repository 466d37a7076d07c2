package call

import (
	"reflect"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

func TestShapeReadsTheSchema(t *testing.T) {
	set, err := toolset.Parse([]byte(`[{"name": "shape_tool", "inputSchema": {"type": "object",
		"properties": {
			"mode": {"type": "string", "enum": ["a", "b"], "default": "a"},
			"out": {"$ref": "#/$defs/Out", "description": "where it goes"},
			"op": {"oneOf": [
				{"type": "object", "properties": {"kind": {"const": "add"}, "n": {"type": "integer"}}, "required": ["kind", "n"]},
				{"type": "object", "properties": {"kind": {"const": "drop"}}, "required": ["kind"]}]},
			"either": {"anyOf": [{"type": "string"}, {"type": "null"}, {"type": "array", "items": {"type": "integer"}}]},
			"maybe": {"type": ["integer", "null"], "minimum": 1},
			"headers": {"type": "object", "additionalProperties": {"type": "string"}},
			"pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}], "items": false},
			"any": {}
		},
		"required": ["out", "mode"],
		"$defs": {"Out": {"type": "object", "description": "an output", "properties": {"to": {"type": "string"}}}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	r := NewResolver(set)
	if r.InputShape("nope") != nil {
		t.Error("an unknown tool has a shape")
	}
	sh := r.InputShape(r.Code("shape_tool")) // by short code too
	if sh == nil || !sh.Record() {
		t.Fatal("the input schema is no record")
	}
	byName := map[string]ShapeField{}
	var names []string
	for _, f := range sh.Fields() {
		byName[f.Name] = f
		names = append(names, f.Name)
	}
	if want := []string{"mode", "out", "op", "either", "maybe", "headers", "pair", "any"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("fields %v, want the schema's order %v", names, want)
	}
	if !byName["mode"].Required || !byName["out"].Required || byName["op"].Required {
		t.Error("required is wrong")
	}
	if e, ok := byName["mode"].Shape.Enum(); !ok || len(e) != 2 || byName["mode"].Shape.Annotation("default").Str != "a" {
		t.Errorf("mode: enum %v %v", e, ok)
	}
	out := byName["out"].Shape
	if out.Name() != "Out" || !out.Record() || out.Annotation("description").Str != "where it goes" {
		t.Errorf("out: name %q, description %v: the description beside the $ref comes first", out.Name(), out.Annotation("description"))
	}
	op := byName["op"].Shape
	prop, tags := op.Tag()
	if !op.Union() || prop != "kind" || !reflect.DeepEqual(tags, []string{"add", "drop"}) {
		t.Fatalf("op: tag %q %v", prop, tags)
	}
	add := op.Variant("add")
	if add == nil || len(add.Fields()) != 1 || add.Fields()[0].Name != "n" || !add.Fields()[0].Required {
		t.Errorf("the add variant without its tag: %+v", add.Fields())
	}
	if op.Variant("nope") != nil {
		t.Error("an unknown tag has a variant")
	}
	either := byName["either"].Shape
	if alts := either.Alternatives(); !either.Union() || !either.Nullable() || len(alts) != 2 ||
		!reflect.DeepEqual(alts[0].Types(), []string{"string"}) || alts[1].ListAs() != "array" {
		t.Errorf("either: union %v nullable %v alts %d", either.Union(), either.Nullable(), len(alts))
	}
	if tag, _ := either.Tag(); tag != "" {
		t.Errorf("either has a tag %q", tag)
	}
	maybe := byName["maybe"].Shape
	if !maybe.Nullable() || !reflect.DeepEqual(maybe.Types(), []string{"integer"}) || maybe.Schema().Get("minimum") == nil {
		t.Errorf("maybe: types %v nullable %v", maybe.Types(), maybe.Nullable())
	}
	headers := byName["headers"].Shape
	if headers.Record() || !headers.ExtraDeclared() || headers.ExtraPatterns() ||
		!reflect.DeepEqual(headers.ExtraShape("X-Any").Types(), []string{"string"}) {
		t.Error("headers: a map of strings")
	}
	pair := byName["pair"].Shape
	if pair.PrefixItems() != 2 || pair.MoreItems() || !reflect.DeepEqual(pair.Item(1).Types(), []string{"number"}) {
		t.Errorf("pair: prefix %d more %v", pair.PrefixItems(), pair.MoreItems())
	}
	if !byName["any"].Shape.Any() || byName["any"].Shape.Types() != nil {
		t.Error("any: takes anything")
	}
	if got := maybe.Notation(); got == "" {
		t.Error("no notation")
	}
}

// TestShapeWalksTheCorpus: every tool of the corpus can be walked through
// its shapes (bounded, as a caller walks a recursive schema) without a
// panic, and every tag of a tagged union has its variant.
func TestShapeWalksTheCorpus(t *testing.T) {
	for _, path := range corpusFiles(t) {
		set := loadSet(t, path)
		r := NewResolver(set)
		for _, tl := range set.Tools {
			walkShape(t, tl.Name, r.InputShape(tl.Name), 0)
		}
	}
}

func walkShape(t *testing.T, tool string, sh *Shape, depth int) {
	if depth > 6 || sh == nil {
		return
	}
	_ = sh.Types()
	_ = sh.Notation()
	if prop, tags := sh.Tag(); prop != "" {
		for _, tag := range tags {
			v := sh.Variant(tag)
			if v == nil {
				t.Fatalf("%s: the tag %q of %q has no variant", tool, tag, prop)
			}
			walkShape(t, tool, v, depth+1)
		}
	}
	for _, a := range sh.Alternatives() {
		walkShape(t, tool, a, depth+1)
	}
	for _, f := range sh.Fields() {
		walkShape(t, tool, f.Shape, depth+1)
	}
	if sh.ListAs() == "array" {
		walkShape(t, tool, sh.Item(0), depth+1)
	}
	if sh.ExtraDeclared() {
		walkShape(t, tool, sh.ExtraShape("k"), depth+1)
	}
}
