package tokens

import (
	"strings"
	"testing"
)

// TestReferenceCounts checks every fixture text against the counts OpenAI's
// tiktoken gave (testdata/reference_counts.json), through the exact core, the
// cached Counter, and tiktoken-go (library and long-run paths).
func TestReferenceCounts(t *testing.T) {
	refs := loadReference(t)
	if len(refs) < 300 {
		t.Fatalf("only %d reference texts; fixture truncated?", len(refs))
	}
	for _, enc := range Encodings() {
		e := testEncoder(t, enc)
		lib := testLibEncoder(t, enc)
		c := testCounter(t, enc)
		for _, r := range refs {
			want := r.Counts[enc]
			if got := e.count(r.Text); got != want {
				t.Errorf("%s %s: count %d, reference %d", enc, r.Name, got, want)
			}
			if got := lib.count(r.Text); got != want {
				t.Errorf("%s %s: tiktoken-go %d, reference %d", enc, r.Name, got, want)
			}
			if got := lib.countPieces(r.Text); got != want {
				t.Errorf("%s %s: piece path %d, reference %d", enc, r.Name, got, want)
			}
			got, err := c.Count(r.Text)
			if err != nil || got != want {
				t.Errorf("%s %s: Counter %d (%v), reference %d", enc, r.Name, got, err, want)
			}
		}
	}
}

func TestSpecialTokensAreOrdinaryText(t *testing.T) {
	for _, enc := range Encodings() {
		e := testEncoder(t, enc)
		// As ordinary text <|endoftext|> is several tokens, never the single
		// special token, and it must not panic (tiktoken-go's Encode does
		// when disallowed specials are checked).
		if n := e.count("<|endoftext|>"); n <= 1 {
			t.Errorf("%s: <|endoftext|> counted as %d token(s); want it split as ordinary text", enc, n)
		}
	}
}

func TestUnknownEncoding(t *testing.T) {
	_, err := NewCounter("p50k_base")
	if err == nil || !strings.Contains(err.Error(), "o200k_base") {
		t.Fatalf("want an error naming the supported encodings, got %v", err)
	}
}

func TestHasLongRun(t *testing.T) {
	cases := []struct {
		text string
		want bool
	}{
		{strings.Repeat("ab ", 200), false},
		{strings.Repeat("a", 257), true},
		{strings.Repeat("a", 256), false},
		{strings.Repeat(" ", 300), true},
		{strings.Repeat("中", 90), true}, // 270 bytes of letters
		{strings.Repeat("a1", 300), false},
		{strings.Repeat("=", 300), true},
	}
	for _, c := range cases {
		if got := hasLongRun(c.text, 256); got != c.want {
			t.Errorf("hasLongRun(%q…) = %v, want %v", c.text[:10], got, c.want)
		}
	}
}
