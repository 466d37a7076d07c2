package calls

import (
	"testing"
)

// FuzzCodecComplete: the composer's completion and signature help on any
// text before a cursor, in any syntax, never panic; the word is the text
// from its start to the cursor; candidates have a text and a kind; a
// signature names a real tool. The seed corpus is in
// testdata/fuzz/FuzzCodecComplete.
func FuzzCodecComplete(f *testing.F) {
	for _, s := range []string{
		`(fr "/x" :enc :u`,
		`{"name": "fr", "arguments": {"enc": "`,
		`{"operations": [{"operation": "list_todos", "params": {"li`,
		`{"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "bp", "arguments": {"`,
	} {
		f.Add(s)
	}
	codecs := []*Codec{New(fixtures(f), Options{}), New(todo(f), Options{})}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 8192 {
			return
		}
		for _, c := range codecs {
			for _, cut := range []int{len(src), len(src) / 2} {
				checkCodecCursor(t, c, src[:cut])
			}
		}
	})
}

func checkCodecCursor(t *testing.T, c *Codec, before string) {
	t.Helper()
	got := c.Complete(before)
	if got.Start < 0 || got.Start > len(before) || before[got.Start:] != got.Word {
		t.Fatalf("Complete(%q): word %q at %d is not the text from there to the cursor", before, got.Word, got.Start)
	}
	for _, it := range got.Items {
		if it.Text == "" || it.Kind.String() == "unknown" || it.Kind == 0 {
			t.Fatalf("Complete(%q): malformed candidate %+v", before, it)
		}
	}
	if sig, ok := c.Signature(before); ok && (c.Resolver().Lookup(sig.Tool) == nil || sig.Decl == "") {
		t.Fatalf("Signature(%q) = %+v: no such tool, or no declaration", before, sig)
	}
}

// Every printed form of some real calls, cut at every byte.
func TestCompleteCutsEverySyntax(t *testing.T) {
	_, set := newDemo(t)
	c := New(set, Options{})
	p, err := c.Read(`(batch :concurrency 2
  (1 (fr "/etc/hosts" :encoding :utf8 :offset 1))
  (2 (nu "d" ((insert 0 ((paragraph "p" ("x" (:type :text :text "y" :marks (:bold)))) (heading 2 ("H")))) (delete 1 1))))
  (3 (dpq "q" ((sql :pg "h" "d" "select 1") (api "https://x" :method :GET :headers (:A "b"))) (:csv :sort (("f" :desc))) :joins (("a" "b" (("x" "y")))))))`)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []Syntax{SExpr, JSON, AQL} {
		text, err := c.Print(p, s, 60)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		for i := 0; i <= len(text); i++ {
			checkCodecCursor(t, c, text[:i])
		}
	}
}
