package bpe

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// referenceFixtures reads the 337 texts and counts OpenAI's tiktoken gave
// (tokens/testdata/reference_counts.json, see its README).
func referenceFixtures(t testing.TB) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "reference_counts.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Texts []map[string]any `json:"texts"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Texts
}

func openTest(t testing.TB, name string) *Encoding {
	t.Helper()
	e, ok, err := Open(name)
	if err != nil || !ok {
		t.Fatalf("open %s: %v %v", name, ok, err)
	}
	return e
}

// TestReferenceFixtures: every fixture text counts as the reference did, in
// both encodings, and its tokens decode back to the text.
func TestReferenceFixtures(t *testing.T) {
	rows := referenceFixtures(t)
	if len(rows) < 300 {
		t.Fatalf("only %d fixtures", len(rows))
	}
	for _, name := range Names() {
		e := openTest(t, name)
		for _, row := range rows {
			text := row["text"].(string)
			want := int(row[name].(float64))
			if got := e.Count(text); got != want {
				t.Errorf("%s %s: count %d, reference %d", name, row["name"], got, want)
			}
			toks := e.Encode(nil, text)
			if len(toks) != want {
				t.Errorf("%s %s: encode gives %d tokens, reference %d", name, row["name"], len(toks), want)
			}
			if got := e.Decode(toks); got != text {
				t.Errorf("%s %s: decode(encode(x)) != x", name, row["name"])
			}
		}
	}
}
