package calls

import "testing"

// The codec's share of a dry run: read, check and print the tools/call
// requests, for a 3-operation AQL batch (as cmd_call_dryrun_test's
// BenchmarkDryRunAQL, without the command line) and an MCP-Term batch.
func BenchmarkReadRequests(b *testing.B) {
	for _, bc := range []struct{ name, src string }{
		{"aql-batch", `{"operations": [
		{"operation": "update_todo", "params": {"id": "t1", "input": {"completed": true}}},
		{"operation": "introspect", "params": {"query": "operations", "name": "update_todo"}},
		{"operation": "list_todos", "limit": 2, "params": {"fields": ["items.id"]}}]}`},
		{"sexpr-batch", `(batch (1 (ut "t1" :completed true)) (2 (lt :limit 2)) (3 (gt "t2")))`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			c := New(todo(b), Options{})
			b.ReportAllocs()
			for b.Loop() {
				p, err := c.Read(bc.src)
				if err != nil {
					b.Fatal(err)
				}
				for _, r := range c.Requests(p) {
					_ = r.Compact()
				}
			}
		})
	}
}

// Printing one plan in every syntax, as the composer's syntax switch does.
func BenchmarkPrint(b *testing.B) {
	c := New(todo(b), Options{})
	p, err := c.Read(`(batch (1 (ut "t1" :completed true)) (2 (lt :limit 2)) (3 (gt "t2")))`)
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range []Syntax{SExpr, JSON, AQL} {
		b.Run(string(s), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Print(p, s, 72); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
