package sexpr

import (
	"strings"
	"testing"
)

// A 4 KB call-like text: lists, keywords, numbers and many medium strings.
func text4KB() string {
	var b strings.Builder
	b.WriteString("(dpq \"quarterly\" (")
	for b.Len() < 4000 {
		b.WriteString(`(sql :pg "db.internal" "sales" "select o.id, o.total from orders o where o.status in ('paid', 'shipped')" :limit 100 -2.5e3) `)
	}
	b.WriteString("))")
	return b.String()
}

func BenchmarkParse4KB(b *testing.B) {
	src := text4KB()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseOne(src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPrint4KB(b *testing.B) {
	n, err := ParseOne(text4KB())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = n.String()
	}
}
