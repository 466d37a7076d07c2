package call

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// onceValue builds a random JSON value for the results-once property.
func onceValue(r *rand.Rand, depth int) any {
	switch k := r.Intn(6); {
	case depth > 3 || k == 0:
		return r.Intn(100)
	case k == 1:
		return fmt.Sprintf("t%d\n%c", r.Intn(50), rune(0x4e00+r.Intn(20)))
	case k == 2:
		return r.Intn(2) == 0
	case k == 3:
		arr := make([]any, r.Intn(3))
		for i := range arr {
			arr[i] = onceValue(r, depth+1)
		}
		return arr
	default:
		obj := map[string]any{}
		for i := 0; i < 1+r.Intn(3); i++ {
			obj[fmt.Sprintf("k%d", r.Intn(5))] = onceValue(r, depth+1)
		}
		return obj
	}
}

// The data of a result reaches the model once: a text that is the
// structured value again (compact or pretty), or one of an object's
// top-level members, is left out; a text that differs is always kept.
func TestResultOnceProperty(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	result := func(text string, sc any) *ojson.Value {
		b, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}, "structuredContent": sc})
		return mustJSON(t, string(b))
	}
	for i := 0; i < 2000; i++ {
		obj := map[string]any{"k": onceValue(r, 1)}
		if r.Intn(2) == 0 {
			obj["other"] = onceValue(r, 1)
		}
		pretty, _ := json.MarshalIndent(obj, "", "  ")
		got := ResultToTerm(result(string(pretty), obj)).String()
		sc := ResultToTerm(mustJSON(t, mustMarshal(t, map[string]any{"structuredContent": obj}))).String()
		if got != sc {
			t.Fatalf("the structured value's own JSON was shown again:\n%s\n got  %s\n want %s", pretty, got, sc)
		}
		{
			member := obj["k"]
			text, _ := json.Marshal(member)
			if s, ok := member.(string); ok {
				text = []byte(s)
			}
			if got := ResultToTerm(result(string(text), obj)).String(); got != sc {
				t.Fatalf("an object's member was shown again: %s\n got %s", text, got)
			}
		}
		// Any other text is kept, whatever the data.
		other := fmt.Sprintf("note %d", i)
		if got := ResultToTerm(result(other, obj)).String(); !strings.Contains(got, `"`+other+`"`) {
			t.Fatalf("a text that says something else was dropped: %s", got)
		}
	}
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
