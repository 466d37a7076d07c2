package ojson

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

func TestKeyOrderAndExactNumbersSurvive(t *testing.T) {
	src := `{"z":1,"a":{"y":12345678901234567890123,"b":1e400,"c":-0.10},"m":[true,null,"\u00e9\ud83d\ude00<>&"]}`
	v, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(v.Keys(), ","); got != "z,a,m" {
		t.Errorf("keys %s", got)
	}
	// No HTML escaping, numbers verbatim: the text a TypeScript client sends.
	if got, want := v.Compact(), `{"z":1,"a":{"y":12345678901234567890123,"b":1e400,"c":-0.10},"m":[true,null,"é😀<>&"]}`; got != want {
		t.Errorf("compact:\n got %s\nwant %s", got, want)
	}
	if !Equal(NewNumber("1.0"), NewNumber("1")) || Equal(NewNumber("1.5"), NewNumber("1")) {
		t.Error("numbers compare by value")
	}
}

func TestPrettyMatchesJSONStringify(t *testing.T) {
	v, _ := Parse([]byte(`{"a":[1,{"b":[]}],"c":{},"d":"x"}`))
	want := "{\n  \"a\": [\n    1,\n    {\n      \"b\": []\n    }\n  ],\n  \"c\": {},\n  \"d\": \"x\"\n}"
	if got := v.Pretty(); got != want {
		t.Errorf("pretty:\n%s\nwant:\n%s", got, want)
	}
}

func TestErrorsSayWhere(t *testing.T) {
	for _, c := range []struct{ src, where string }{
		{"{\"a\": 1,\n \"b\" 2}", "line 2, column"},
		{`[1, 2`, "line 1"},
		{`{"a":1} x`, "after the JSON value"},
		{strings.Repeat("[", MaxDepth+2) + strings.Repeat("]", MaxDepth+2), "nesting deeper"},
	} {
		_, err := Parse([]byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.where) {
			t.Errorf("Parse(%.30q) = %v, want an error mentioning %q", c.src, err, c.where)
		}
	}
}

func TestSetDeleteClone(t *testing.T) {
	v := NewObject().Set("a", NewInt(1)).Set("b", NewInt(2)).Set("a", NewInt(3))
	if v.Compact() != `{"a":3,"b":2}` {
		t.Errorf("set keeps first position: %s", v.Compact())
	}
	c := v.Clone()
	c.Delete("a")
	if v.Compact() != `{"a":3,"b":2}` || c.Compact() != `{"b":2}` {
		t.Errorf("clone is deep: %s / %s", v.Compact(), c.Compact())
	}
}

// randomJSON builds a value with encoding/json, the reference.
func randomJSON(r *rand.Rand, depth int) any {
	switch k := r.Intn(7); {
	case depth > 4 || k == 0:
		return r.Intn(1000) - 500
	case k == 1:
		return fmt.Sprintf("s%d\n\t\"\\%c", r.Intn(99), rune(0x4e00+r.Intn(50)))
	case k == 2:
		return r.Intn(2) == 0
	case k == 3:
		return nil
	case k == 4:
		arr := make([]any, r.Intn(4))
		for i := range arr {
			arr[i] = randomJSON(r, depth+1)
		}
		return arr
	default:
		obj := map[string]any{}
		for i := 0; i < r.Intn(4); i++ {
			obj[fmt.Sprintf("k%d", r.Intn(9))] = randomJSON(r, depth+1)
		}
		return obj
	}
}

// Parse then Compact gives JSON that encoding/json reads back to the same
// value, and parsing it again is a fixed point.
func TestRoundTripAgainstEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 2000; i++ {
		x := randomJSON(r, 0)
		src, _ := json.Marshal(x)
		v, err := Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		var back, want any
		if err := json.Unmarshal([]byte(v.Compact()), &back); err != nil {
			t.Fatalf("compact %s is not JSON: %v", v.Compact(), err)
		}
		_ = json.Unmarshal(src, &want)
		if fmt.Sprint(back) != fmt.Sprint(want) {
			t.Fatalf("round trip changed %s into %s", src, v.Compact())
		}
		again, err := Parse([]byte(v.Pretty()))
		if err != nil || !Equal(again, v) || again.Compact() != v.Compact() {
			t.Fatalf("pretty does not read back: %v", err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{}`, `[1,2,{"a":null}]`, `"\ud83d"`, `1e999`, `{"a":{"a":{"a":[]}}}`, `{"a":1,"a":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		if err != nil {
			if json.Valid(data) && !strings.Contains(err.Error(), "nesting deeper") {
				t.Fatalf("valid JSON rejected: %v", err)
			}
			return
		}
		again, err := Parse([]byte(v.Compact()))
		if err != nil || again.Compact() != v.Compact() {
			t.Fatalf("compact is not a fixed point: %v", err)
		}
	})
}
