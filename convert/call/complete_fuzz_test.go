package call

import (
	"testing"
	"unicode/utf8"
)

// FuzzComplete: completion and signature help on any text before a cursor
// never panic; the word is the text from its start to the cursor; every
// candidate has a text and a kind; a signature names a real tool with its
// declaration, and a parameter's place in it lies inside it. Cut at a few
// places too, as the composer calls it on every keystroke. The seed corpus
// is in testdata/fuzz/FuzzComplete.
func FuzzComplete(f *testing.F) {
	for _, s := range []string{
		`(fr "/etc/hosts" :enc :u`,
		`(batch :concurrency 2 (1 (nu "d" ((insert 0 ((paragraph "p" () ("x" (:text "y" :`,
		`(dpq "q" ((sql :pg "h" "db" "q")) (:csv :level1 (:level2 (`,
		`(ms :point (1 2) "x-weird`,
	} {
		f.Add(s)
	}
	r := NewResolver(fixtures(f))
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 8192 {
			return
		}
		for _, cut := range []int{len(src), len(src) / 2, len(src) / 3} {
			checkCursor(t, r, src[:cut])
		}
	})
}

func checkCursor(t *testing.T, r *Resolver, before string) {
	t.Helper()
	c := r.Complete(before)
	if c.Start < 0 || c.Start > len(before) || before[c.Start:] != c.Word {
		t.Fatalf("Complete(%q): word %q at %d is not the text from there to the cursor", before, c.Word, c.Start)
	}
	for _, it := range c.Items {
		if it.Text == "" || it.Kind < KindToolCode || it.Kind > KindKey || !utf8.ValidString(it.Text) && utf8.ValidString(before) {
			t.Fatalf("Complete(%q): malformed candidate %+v", before, it)
		}
	}
	sig, ok := r.Signature(before)
	if !ok {
		return
	}
	if r.Lookup(sig.Tool) == nil || sig.Decl == "" {
		t.Fatalf("Signature(%q) = %+v: no such tool, or no declaration", before, sig)
	}
	if sig.Param >= 0 && (sig.ParamName == "" || sig.ParamDecl.Start > sig.ParamDecl.End || sig.ParamDecl.End > len(sig.Decl)) {
		t.Fatalf("Signature(%q): parameter %d %q declared at %v of %d bytes", before, sig.Param, sig.ParamName, sig.ParamDecl, len(sig.Decl))
	}
}
