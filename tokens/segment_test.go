package tokens

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// atoms stress the pre-tokenizer around the cuts: newlines before slashes,
// spaces after every character class, whitespace of every kind,
// contractions, marks, CJK, emoji and special-token fragments.
var atoms = []string{
	"a", "b", "Z", "Q", "word", "Word", "WORD", "e\u0301", "'s", "'T", "'re", "'", "0", "7", "42", "1234",
	" ", " ", " ", " ", "  ", "   ", "\t", "\n", "\n", "\r\n", "\n\n", " \n", "\n ", "\u00a0", "\u3000",
	"\u2028", "\u0085", "\u000b", "/", "//", "{", "}", "\"", ":", ",", ".", "!", "=", "-", "_", "(", ")",
	"<|endoftext|>", "[", "]", "(", ")", "\":\"", "\",\"", "{\"", "中", "文", "の", "한", "👍", "🏽", "\u200d", "é", "ß", "Ω", "ǅ", "ʰ", "ـ", "\xff", "\xe4\xb8",
}

func randomText(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(atoms[r.IntN(len(atoms))])
	}
	return b.String()
}

// TestSegmentsSumToWhole is the property the cache rests on: for random
// texts, and for random one-atom edits of them, the segments concatenate
// back to the text and their counts add up to the count of the whole text.
func TestSegmentsSumToWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, enc := range Encodings() {
		e := testEncoder(t, enc)
		c := testCounter(t, enc)
		for i := range 150 {
			text := randomText(r, 1+r.IntN(300))
			for edit := range 4 {
				checkSegments(t, e, c, text)
				if t.Failed() {
					t.Fatalf("%s: failed on text %d edit %d", enc, i, edit)
				}
				pos := r.IntN(len(text) + 1)
				switch r.IntN(3) {
				case 0:
					text = text[:pos] + atoms[r.IntN(len(atoms))] + text[pos:]
				case 1:
					text = text[:pos] + text[min(pos+1+r.IntN(3), len(text)):]
				default:
					text = text[:pos] + atoms[r.IntN(len(atoms))] + text[min(pos+1, len(text)):]
				}
			}
		}
	}
}

// TestSegmentsSumToWholeJSON is the same property over minified and
// pretty JSON documents with random keys and values, where the punctuation
// cuts do most of the work.
func TestSegmentsSumToWholeJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, enc := range Encodings() {
		e := testEncoder(t, enc)
		c := testCounter(t, enc)
		for i := range 60 {
			v := randomJSON(r, 4)
			for j, text := range []string{v.Compact(), v.Pretty()} {
				for edit := range 3 {
					checkSegments(t, e, c, text)
					if t.Failed() {
						t.Fatalf("%s: failed on document %d/%d edit %d", enc, i, j, edit)
					}
					pos := r.IntN(len(text) + 1)
					text = text[:pos] + atoms[r.IntN(len(atoms))] + text[pos:]
				}
			}
		}
	}
}

func randomJSON(r *rand.Rand, depth int) *ojson.Value {
	switch k := r.IntN(6); {
	case depth == 0 || k == 0:
		return ojson.NewString(randomText(r, r.IntN(6)))
	case k == 1:
		return ojson.NewInt(r.Int64N(100000) - 50)
	case k == 2:
		a := ojson.NewArray()
		for range r.IntN(5) {
			a.Items = append(a.Items, randomJSON(r, depth-1))
		}
		return a
	default:
		o := ojson.NewObject()
		for range r.IntN(6) {
			o.Set(randomText(r, 1+r.IntN(3)), randomJSON(r, depth-1))
		}
		return o
	}
}

func checkSegments(t *testing.T, e *encoder, c *Counter, text string) {
	t.Helper()
	var segs []string
	segments(text, func(s string) { segs = append(segs, s) })
	if got := strings.Join(segs, ""); got != text {
		t.Fatalf("segments of %q join to %q", text, got)
	}
	want := e.count(text)
	sum := 0
	for _, s := range segs {
		if s == "" {
			t.Fatalf("empty segment in %q", text)
		}
		sum += e.count(s)
	}
	if sum != want {
		t.Errorf("%s: segments %q sum to %d, whole text counts %d", e.name, segs, sum, want)
	}
	if got, err := c.Count(text); err != nil || got != want {
		t.Errorf("%s: Counter gives %d (%v) for %q, want %d", e.name, got, err, text, want)
	}
	if got := e.countPieces(text); got != want {
		t.Errorf("%s: piece path gives %d for %q, library %d", e.name, got, text, want)
	}
}

// TestSegmentsCutLines checks that the cutting actually happens (a property
// test over a function that never cuts would pass vacuously).
func TestSegmentsCutLines(t *testing.T) {
	text := strings.Repeat("(fr file_read (path string) \"Read a file from the disk\")\n", 60)
	n := 0
	segments(text, func(string) { n++ })
	if n < 60 {
		t.Fatalf("got %d segments for 60 lines, want at least 60", n)
	}
	var words []string
	for i := range 600 {
		words = append(words, fmt.Sprintf("word%d", i))
	}
	line := strings.Join(words, " ")
	n = 0
	segments(line, func(string) { n++ })
	if n < 20 {
		t.Fatalf("got %d segments for a line of 600 distinct words, want at least 20", n)
	}
	var docs []string
	for i := range 40 {
		docs = append(docs, fmt.Sprintf(`{"name":"read_file_%d","description":"Read file %d","input_schema":{"type":"object","properties":{"path%d":{"type":"string"}}}}`, i, i, i))
	}
	doc := strings.Join(docs, ",")
	n = 0
	segments(doc, func(string) { n++ })
	if n < 40 {
		t.Fatalf("got %d segments for %d bytes of minified JSON, want at least 40", n, len(doc))
	}
	pretty := synthPretty()
	lines := strings.Count(pretty, "\n")
	n = 0
	segments(pretty, func(string) { n++ })
	if n < lines {
		t.Fatalf("got %d segments for %d lines of indented JSON, want one a line at least", n, lines)
	}
	// No cut before '/' after a newline (o200k's punctuation piece takes
	// "\n/"), nor next to whitespace the cut rules do not know.
	for _, s := range []string{"};\n/**/", "a\u00a0 b", "x\n\ty", "a\n\u3000 b"} {
		n = 0
		segments(s, func(string) { n++ })
		if n != 1 {
			t.Errorf("%q was cut into %d segments, want 1", s, n)
		}
	}
}

// TestCacheHitIsALookup: counting the same text twice runs the tokenizer
// once, and a one-character edit re-encodes only a segment or two.
func TestCacheHitIsALookup(t *testing.T) {
	c := testCounter(t, O200kBase)
	text := buffer4K()
	want, _ := c.Count(text)
	before := c.Stats()
	got, _ := c.Count(text)
	after := c.Stats()
	if got != want || after.Encodes != before.Encodes || after.Hits != before.Hits+1 {
		t.Fatalf("second count: %d (want %d), stats %+v -> %+v", got, want, before, after)
	}
	edited := text[:2000] + "X" + text[2001:]
	n, _ := c.Count(edited)
	if exact := testEncoder(t, O200kBase).count(edited); n != exact {
		t.Fatalf("edited count %d, exact %d", n, exact)
	}
	if enc := c.Stats().Encodes - after.Encodes; enc > 2 {
		t.Fatalf("a one-character edit re-encoded %d segments, want at most 2", enc)
	}
}

func TestCacheIsBounded(t *testing.T) {
	c := testCounter(t, Cl100kBase, CacheBytes(4096))
	r := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		if _, err := c.Count(randomText(r, 40)); err != nil {
			t.Fatal(err)
		}
	}
	if s := c.Stats(); s.Bytes > 2*4096 {
		t.Fatalf("cache holds %d bytes, budget 4096 per generation", s.Bytes)
	}
	off := testCounter(t, Cl100kBase, CacheBytes(0))
	off.Count("hello")
	off.Count("hello")
	if s := off.Stats(); s.Entries != 0 || s.Encodes != 2 {
		t.Fatalf("disabled cache: %+v", s)
	}
}

func TestCountRejectsHugeText(t *testing.T) {
	c := testCounter(t, O200kBase)
	if _, err := c.Count(strings.Repeat("a", MaxText+1)); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Fatalf("want a size-limit error, got %v", err)
	}
}

// buffer4K is an MCP-Term-like edit buffer of about 4 KB.
func buffer4K() string {
	var b strings.Builder
	for i := 0; b.Len() < 4096; i++ {
		b.WriteString("(declare (fr file_read (path string \"Path of the file to read, relative to the root\") (opt (enc :utf8|:base64) (off number))) string)\n")
	}
	return b.String()[:4096]
}

// FuzzSegments checks the cut rule on arbitrary input: segment counts add up
// to the whole-text count under both encodings.
func FuzzSegments(f *testing.F) {
	for _, s := range []string{"", "a b", "x\n/y", "}\n/**/ a", "a  \n  b", "中文 中文\n文", "<|endoftext|> x", "\xff \n\xe4"} {
		f.Add(s)
	}
	encs := []*encoder{testEncoder(f, O200kBase), testEncoder(f, Cl100kBase)}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 1024 {
			return
		}
		for _, e := range encs {
			want := e.count(text)
			sum := 0
			segments(text, func(s string) { sum += e.count(s) })
			if sum != want {
				t.Fatalf("%s: segments sum to %d, whole %d, text %q", e.name, sum, want, text)
			}
			if got := e.countPieces(text); got != want {
				t.Fatalf("%s: piece path %d, library %d, text %q", e.name, got, want, text)
			}
		}
	})
}

func synthPretty() string { return synthSet(5).Baseline().Pretty() }
