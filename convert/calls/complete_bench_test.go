package calls

import (
	"strconv"
	"strings"
	"testing"
)

// BenchmarkCodecComplete is one keystroke of the composer through the
// codec on a 4 KB text in each syntax, cut in its last call's parameters.
func BenchmarkCodecComplete(b *testing.B) {
	c := New(todo(b), Options{})
	var sx, js, aq strings.Builder
	sx.WriteString("(batch\n")
	js.WriteString("[\n")
	aq.WriteString(`{"operations": [` + "\n")
	for i := 0; sx.Len() < 4096; i++ {
		id := strconv.Itoa(i)
		sx.WriteString(`  (` + id + ` (ut "t` + id + `" :title "Buy milk and bread" :completed true))` + "\n")
		js.WriteString(`  {"name": "update_todo", "arguments": {"id": "t` + id + `", "title": "Buy milk and bread", "completed": true}},` + "\n")
		aq.WriteString(`  {"operation": "update_todo", "params": {"id": "t` + id + `", "input": {"title": "Buy milk and bread", "completed": true}}},` + "\n")
	}
	for _, bc := range []struct{ name, before string }{
		{"sexpr", sx.String() + `  (99 (lt :completed true :l`},
		{"json", js.String() + `  {"name": "list_todos", "arguments": {"completed": true, "l`},
		{"aql", aq.String() + `  {"operation": "list_todos", "params": {"completed": true, "l`},
	} {
		c.Complete(bc.before)
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.before)))
			b.ReportAllocs()
			for b.Loop() {
				if got := c.Complete(bc.before); len(got.Items) == 0 {
					b.Fatal("no candidates")
				}
				if _, ok := c.Signature(bc.before); !ok {
					b.Fatal("no signature")
				}
			}
		})
	}
}
