package schemaerr

import (
	"errors"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

func validate(t *testing.T, schema, instance string) *jsonschema.ValidationError {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("test.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("test.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(instance))
	if err != nil {
		t.Fatal(err)
	}
	var ve *jsonschema.ValidationError
	if !errors.As(sch.Validate(inst), &ve) {
		t.Fatalf("%s validates against %s", instance, schema)
	}
	return ve
}

const unionSchema = `{"type":"object","properties":{"ops":{"type":"array","items":{"oneOf":[
	{"type":"object","properties":{"type":{"const":"insert"},"pos":{"type":"integer","minimum":0}},"required":["type","pos"]},
	{"type":"object","properties":{"type":{"const":"delete"},"from":{"type":"integer"}},"required":["type","from"]}]}},
	"n":{"type":"integer","maximum":3}}}`

func TestLines(t *testing.T) {
	for _, c := range []struct{ instance, want string }{
		// The tag picks a variant: only its problem is told.
		{`{"ops":[{"type":"insert","pos":-1}]}`, "at /ops/0/pos: minimum: got -1, want 0"},
		// A wrong tag: the valid ones are listed.
		{`{"ops":[{"type":"move"}]}`, `at /ops/0/type: "move" is not one of "insert", "delete"`},
		// Plain leaves, each once, with their pointers, in the order of
		// their places in the instance.
		{`{"n":9}`, "at /n: maximum: got 9, want 3"},
		{`{"ops":"x","n":"y"}`, "at /n: got string, want integer|at /ops: got string, want array"},
	} {
		if got := strings.Join(Lines(validate(t, unionSchema, c.instance), 0), "|"); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.instance, got, c.want)
		}
	}
	if got := Lines(validate(t, unionSchema, `{"ops":"x","n":"y"}`), 1); len(got) != 1 {
		t.Errorf("max 1 gave %q", got)
	}
	untagged := `{"anyOf":[{"type":"string"},{"type":"integer","minimum":5}]}`
	if got := strings.Join(Lines(validate(t, untagged, `3`), 0), "|"); !strings.Contains(got, "matches none of the 2 alternatives: (1)") {
		t.Errorf("untagged union: %s", got)
	}
}

func TestLeaves(t *testing.T) {
	ve := validate(t, `{"type":"object","properties":{"a":{"type":"integer"}},"propertyNames":{"maxLength":3}}`, `{"a":"x","long_name":1}`)
	var kinds []string
	for _, e := range Leaves(ve) {
		kinds = append(kinds, At(e.InstanceLocation)+Message(e))
	}
	got := strings.Join(kinds, "|")
	if !strings.Contains(got, "at /a: got string, want integer") || !strings.Contains(got, "long_name") {
		t.Errorf("leaves: %s", got)
	}
}

// FuzzLines: whatever the instance, an invalid one is explained in at
// least one line, each once, and every line's pointer is a place in the
// instance.
func FuzzLines(f *testing.F) {
	for _, s := range []string{`{"ops":[{"type":"insert","pos":-1}]}`, `{"ops":[{"type":"move"}]}`, `{"ops":"x","n":"y"}`, `[]`, `{"ops":[{},{"type":"delete"},1]}`} {
		f.Add(s)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(unionSchema))
	if err != nil {
		f.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("test.json", doc); err != nil {
		f.Fatal(err)
	}
	sch, err := c.Compile("test.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, instance string) {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(instance))
		if err != nil {
			return
		}
		var ve *jsonschema.ValidationError
		if !errors.As(sch.Validate(inst), &ve) {
			return
		}
		lines := Lines(ve, 0)
		if len(lines) == 0 {
			t.Fatalf("%s: no lines", instance)
		}
		for i, l := range lines {
			if l == "" || (i > 0 && l == lines[i-1]) {
				t.Fatalf("%s: empty or repeated line in %q", instance, lines)
			}
		}
		if len(Leaves(ve)) == 0 {
			t.Fatalf("%s: no leaves", instance)
		}
	})
}
