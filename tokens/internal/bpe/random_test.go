package bpe

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRandomReference: 30,000 generated texts per encoding (see
// tokens/testdata/gen_random_reference.js) count as OpenAI's tiktoken
// counted them, and their pieces and tokens give the text back.
func TestRandomReference(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "testdata", "random_reference.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Texts  []string         `json:"texts"`
		Counts map[string][]int `json:"counts"`
	}
	if err := json.NewDecoder(zr).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Texts) < 30000 {
		t.Fatalf("only %d texts", len(doc.Texts))
	}
	for _, name := range Names() {
		e := openTest(t, name)
		counts := doc.Counts[name]
		if len(counts) != len(doc.Texts) {
			t.Fatalf("%s: %d counts for %d texts", name, len(counts), len(doc.Texts))
		}
		bad := 0
		for i, text := range doc.Texts {
			if got := e.Count(text); got != counts[i] {
				if bad++; bad <= 10 {
					t.Errorf("%s text %d %q: count %d, reference %d", name, i, text, got, counts[i])
				}
			}
			var b strings.Builder
			e.Pieces(text, func(p string) { b.WriteString(p) })
			if b.String() != text {
				t.Errorf("%s text %d: pieces do not concatenate to the text", name, i)
			}
			if got := e.Decode(e.Encode(nil, text)); got != text {
				t.Errorf("%s text %d: decode(encode(x)) != x", name, i)
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d texts differ from the reference", name, bad, len(doc.Texts))
		}
	}
}
