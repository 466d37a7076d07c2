package call

import (
	"strconv"
	"strings"
	"testing"
)

// batch4KB is a batch of some 4 KB cut where a composer's cursor would be,
// in the last entry: the text of every keystroke while a batch is typed.
func batch4KB() []struct{ name, before string } {
	var b strings.Builder
	b.WriteString("(batch :concurrency 4\n")
	entries := []string{
		`(fr "/etc/hosts" :utf8 :off 10 :lim 200)`,
		`(nu "notes/today.md" (insert 0 ((paragraph "p1" () ("Hello " (:text "world" :bold true))) (heading 2 ("Plan")))) (delete 4 2))`,
		`(dpq "q" ((sql :pg "pg.internal" "sales" "select 1") (api "https://fx.example.com" :headers (:Accept "json"))) (:csv :limit 10))`,
		`(li "octo" "repo" :open :sort :updated :labels ("bug" "ui"))`,
		`(bp "/srv" "a/b.txt" "c/d.txt" "e/f.txt")`,
	}
	for i := 0; b.Len() < 4096; i++ {
		b.WriteString("  (" + strconv.Itoa(i+1) + " " + entries[i%len(entries)] + ")\n")
	}
	head := b.String() + "  (99 "
	return []struct{ name, before string }{
		{"head", head + "(f"},
		{"head-known", head + "(fr"},
		{"param", head + `(fr "/etc/hosts" :`},
		{"enum", head + `(fr "/etc/hosts" :enc :u`},
		{"variant-field", head + `(nu "d" ((insert 0 ((paragraph "p" () ("x" (:text "y" :`},
		{"deep-record", head + `(dpq "q" () (:csv :level1 (:level2 (:level3 (`},
	}
}

// BenchmarkComplete is one keystroke's completion on a 4 KB batch, warm
// (the tables of assist.go built).
func BenchmarkComplete(b *testing.B) {
	r := NewResolver(fixtures(b))
	for _, bc := range batch4KB() {
		r.Complete(bc.before)
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.before)))
			b.ReportAllocs()
			for b.Loop() {
				if c := r.Complete(bc.before); len(c.Items) == 0 {
					b.Fatalf("no candidates at %q", bc.before[len(bc.before)-40:])
				}
			}
		})
	}
}

// BenchmarkSignature is one keystroke's signature help on a 4 KB batch.
func BenchmarkSignature(b *testing.B) {
	r := NewResolver(fixtures(b))
	for _, bc := range batch4KB() {
		if bc.name == "head" {
			continue // (f names no tool
		}
		r.Signature(bc.before)
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.before)))
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := r.Signature(bc.before); !ok {
					b.Fatalf("no signature at %q", bc.before[len(bc.before)-40:])
				}
			}
		})
	}
}

// BenchmarkCompleteCold is the first completion on a fresh Resolver: the
// tables are built then, once per tool list.
func BenchmarkCompleteCold(b *testing.B) {
	set := fixtures(b)
	before := batch4KB()[3].before
	b.ReportAllocs()
	for b.Loop() {
		NewResolver(set).Complete(before)
	}
}
