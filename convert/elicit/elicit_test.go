package elicit

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// sep1034 is the conformance suite's elicitation-sep1034-client-defaults
// schema, as it sends it.
const sep1034 = `{"type":"object","properties":{
 "name":{"type":"string","description":"User name","default":"John Doe"},
 "age":{"type":"integer","description":"User age","default":30},
 "score":{"type":"number","description":"User score","default":95.5},
 "status":{"type":"string","description":"User status","enum":["active","inactive","pending"],"default":"active"},
 "verified":{"type":"boolean","description":"Verification status","default":true}},"required":[]}`

// sep1330 holds every enum spelling SEP-1330 allows.
const sep1330 = `{"type":"object","properties":{
 "untitled":{"type":"string","enum":["a","b","c"],"default":"b"},
 "legacy":{"type":"string","enum":["r","g"],"enumNames":["Red","Green"]},
 "titled":{"type":"string","oneOf":[{"const":"x","title":"Ex"},{"const":"y","title":"Why"}]},
 "multi":{"type":"array","items":{"type":"string","enum":["p","q","s"]},"minItems":1,"maxItems":2,"default":["p"]},
 "multiTitled":{"type":"array","items":{"anyOf":[{"const":"m1","title":"One"},{"const":"m2","title":"Two"}]}}
},"required":["titled","multi"]}`

func mustParse(t *testing.T, s string) *Form {
	t.Helper()
	f, err := Parse([]byte(s))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return f
}

func TestDefaultsSEP1034(t *testing.T) {
	f := mustParse(t, sep1034)
	var names []string
	for _, fld := range f.Fields {
		names = append(names, fld.Name)
	}
	if got := strings.Join(names, ","); got != "name,age,score,status,verified" {
		t.Fatalf("order %s, want the schema's", got)
	}
	d := f.Defaults()
	want := map[string]any{"name": "John Doe", "age": int64(30), "score": 95.5, "status": "active", "verified": true}
	if !reflect.DeepEqual(d, want) {
		t.Fatalf("Defaults = %#v, want %#v", d, want)
	}
	if err := f.Validate(d); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(d)
	if string(b) != `{"age":30,"name":"John Doe","score":95.5,"status":"active","verified":true}` {
		t.Fatalf("JSON %s", b)
	}
	if f.Fields[3].Kind != Enum || len(f.MissingDefaults()) != 0 || len(f.Notes) != 0 {
		t.Fatalf("status %v, missing %v, notes %v", f.Fields[3].Kind, f.MissingDefaults(), f.Notes)
	}
}

func TestEnumFormsSEP1330(t *testing.T) {
	f := mustParse(t, sep1330)
	opts := func(name string) string {
		var s []string
		for _, o := range f.Field(name).Options {
			s = append(s, o.Value+"="+o.Title)
		}
		return strings.Join(s, " ")
	}
	for name, want := range map[string]string{
		"untitled":    "a=a b=b c=c",
		"legacy":      "r=Red g=Green",
		"titled":      "x=Ex y=Why",
		"multi":       "p=p q=q s=s",
		"multiTitled": "m1=One m2=Two",
	} {
		if got := opts(name); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	if f.Field("multi").Kind != Multi || f.Field("titled").Kind != Enum || !f.Field("titled").Required {
		t.Fatal("kinds or required wrong")
	}
	if got := f.MissingDefaults(); !reflect.DeepEqual(got, []string{"titled"}) {
		t.Fatalf("MissingDefaults %v", got)
	}
	err := f.Validate(map[string]any{"multi": []any{"p", "q", "s"}, "legacy": "Red", "bogus": 1})
	for _, want := range []string{"titled: required", "multi: choose at most 2", `legacy: "Red" is not one of "r", "g"`, "bogus: not a field"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate error %v lacks %q", err, want)
		}
	}
	if err := f.Validate(map[string]any{"titled": "y", "multi": []any{"q"}}); err != nil {
		t.Fatal(err)
	}
}

func TestParseText(t *testing.T) {
	f := mustParse(t, `{"type":"object","properties":{
	 "n":{"type":"integer","minimum":1,"maximum":10},
	 "x":{"type":"number"},
	 "b":{"type":"boolean"},
	 "e":{"type":"string","oneOf":[{"const":"lo","title":"Low"},{"const":"hi","title":"High"}]},
	 "m":{"type":"array","items":{"enum":["a","b","c"]}},
	 "mail":{"type":"string","format":"email"},
	 "d":{"type":"string","format":"date"},
	 "s":{"type":"string","minLength":2,"maxLength":3,"pattern":"^[a-z]+$"}}}`)
	ok := []struct {
		field, in string
		want      any
	}{
		{"n", " 7 ", int64(7)}, {"x", "-2.5", -2.5}, {"b", "Yes", true}, {"b", "n", false},
		{"e", "High", "hi"}, {"e", "lo", "lo"}, {"e", "1", "lo"}, {"m", "a, 3", []string{"a", "c"}},
		{"m", "", []string{}}, {"mail", "a@b.example", "a@b.example"}, {"d", "2025-11-25", "2025-11-25"}, {"s", "abc", "abc"},
	}
	for _, c := range ok {
		got, err := f.Field(c.field).ParseText(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %q = %#v, %v; want %#v", c.field, c.in, got, err, c.want)
		}
	}
	bad := []struct{ field, in, want string }{
		{"n", "11", "more than the maximum 10"}, {"n", "1.5", "not a whole number"}, {"x", "abc", "not a number"},
		{"b", "maybe", "yes or no"}, {"e", "mid", "not one of"}, {"m", "a,a", "chosen twice"},
		{"mail", "nobody", "email"}, {"d", "25/11/2025", "date"}, {"s", "a", "at least 2"}, {"s", "ABC", "pattern"},
	}
	for _, c := range bad {
		_, err := f.Field(c.field).ParseText(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: error %v, want %q", c.field, c.in, err, c.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for in, want := range map[string]string{
		`[]`: "not a JSON object",
		`{"type":"object","properties":{"o":{"type":"object"}}}`:                          `field "o": type "object" is not supported`,
		`{"type":"object","properties":{"a":{"type":"string"}},"required":["b"]}`:         `names "b"`,
		`{"type":"object","properties":{"e":{"type":"string","enum":[1]}}}`:               `field "e": enum value 1 is not a string`,
		`{"type":"object","properties":{"e":{"enum":["a"],"enumNames":["A","B"]}}}`:       "enumNames does not match",
		`{"type":"object","properties":{"m":{"type":"array","items":{"type":"string"}}}}`: "not an enum",
		`{"type":"object","properties":{"s":{"type":"string","pattern":"("}}}`:            `field "s": pattern`,
		`{"type":"object","properties":{"s":{"type":"string","minLength":-1}}}`:           "not a count",
		`{"type":"object","properties":{"s":{}}}`:                                         "no type",
	} {
		_, err := Parse([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", in, err, want)
		}
	}
	f := mustParse(t, `{"type":"object","properties":{"n":{"type":"integer","default":"x","maximum":3},"m":{"type":"integer","default":9,"maximum":3}}}`)
	if f.Fields[0].Default != nil || f.Fields[1].Default != nil || len(f.Notes) != 2 {
		t.Fatalf("defaults that do not fit must be dropped with a note: %#v %v", f.Fields, f.Notes)
	}
}

// TestPropertyTextRoundTrip: for random fields and random valid values,
// ParseText(Text(v)) gives v back, Validate accepts it, and the value's
// JSON, decoded and normalised, is v again (what a file answer goes through).
func TestPropertyTextRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	opts := []Option{{"a", "Alpha"}, {"b", "Beta"}, {"c", "Gamma"}, {"d", "d"}}
	for i := range 2000 {
		var fld Field
		var v any
		switch r.IntN(5) {
		case 0:
			fld = Field{Name: "s", Kind: String}
			v = string(rune('a'+r.IntN(26))) + strings.Repeat("x", r.IntN(5))
		case 1:
			fld = Field{Name: "n", Kind: Number}
			v = float64(r.IntN(20000)-10000) / 8
		case 2:
			fld = Field{Name: "i", Kind: Integer}
			v = int64(r.IntN(1<<40) - 1<<39)
		case 3:
			fld = Field{Name: "b", Kind: Boolean}
			v = r.IntN(2) == 0
		case 4:
			fld = Field{Name: "m", Kind: Multi, Options: opts}
			sel := []string{}
			for _, o := range r.Perm(len(opts))[:r.IntN(len(opts)+1)] {
				sel = append(sel, opts[o].Value)
			}
			v = sel
		}
		got, err := fld.ParseText(fld.Text(v))
		if err != nil || !reflect.DeepEqual(got, v) {
			t.Fatalf("case %d: %#v -> %q -> %#v, %v", i, v, fld.Text(v), got, err)
		}
		form := &Form{Fields: []Field{fld}}
		b, _ := json.Marshal(map[string]any{fld.Name: v})
		var dec map[string]any
		_ = json.Unmarshal(b, &dec)
		norm, err := form.Normalize(dec)
		if err != nil || !reflect.DeepEqual(norm[fld.Name], v) || form.Validate(norm) != nil {
			t.Fatalf("case %d: JSON round trip %s -> %#v, %v", i, b, norm, err)
		}
	}
}

// FuzzParse: no schema makes Parse panic, and whatever it accepts has
// defaults that validate.
func FuzzParse(f *testing.F) {
	f.Add([]byte(sep1034))
	f.Add([]byte(sep1330))
	f.Add([]byte(`{"type":"object","properties":{"s":{"type":"string","pattern":"^a+$","default":"aa"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		form, err := Parse(data)
		if err != nil {
			return
		}
		if err := form.Validate(form.Defaults()); err != nil && len(form.MissingDefaults()) == 0 {
			t.Fatalf("defaults do not validate: %v", err)
		}
		for i := range form.Fields {
			fld := &form.Fields[i]
			if fld.Default != nil {
				if _, err := fld.ParseText(fld.Text(fld.Default)); err != nil && fld.Kind != String {
					t.Fatalf("default %#v of %s does not read back: %v", fld.Default, fld.Name, err)
				}
			}
		}
	})
}

func TestShow(t *testing.T) {
	f := mustParse(t, sep1330)
	if got := f.Field("titled").Show("y"); got != "Why" {
		t.Errorf("enum: %q", got)
	}
	if got := f.Field("multiTitled").Show([]string{"m2", "m1"}); got != "Two, One" {
		t.Errorf("multi: %q", got)
	}
	// A title reads back as its value.
	if v, err := f.Field("multiTitled").ParseText("Two, One"); err != nil || !reflect.DeepEqual(v, []string{"m2", "m1"}) {
		t.Errorf("read back: %v %v", v, err)
	}
}
