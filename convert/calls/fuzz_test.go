package calls

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// FuzzRead feeds any text to Read against the call fixtures and the todo
// tools (AQL). It never panics; an error is positioned inside the input, an
// AQL failure, or bad JSON that was meant as AQL; a plan always prints in
// its own syntax and as JSON, and whatever prints reads back to the same
// calls; its answers and renderings are well-formed whatever the outcomes.
// The seed corpus is in testdata/fuzz/FuzzRead.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		`(fr "/etc/hosts" :utf8)`,
		`(batch :concurrency 2 :stop-on-error (1 (fr "/a")) (x (bp "/" "a" "b")))`,
		`[{"name":"fr","arguments":{"path":"/x"}},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"bp","arguments":{"root":"/"}}}]`,
		`{"operations": [{"operation": "update_todo", "params": {"id": "t1", "input": {"completed": true}}}, {"operation": "introspect", "params": {"query": "types"}}, {"operation": "list_todos", "limit": 2, "params": {"fields": ["items.id"]}}]}`,
		`{"operation": "get_todo"}`,
		`{"operations": [[], 1, {"operation": {}}, {"operations": []}]}`,
		"; c\n{\"operation\": \"list_todos\", \"params\": {",
		`(gt "x")`,
	} {
		f.Add(s)
	}
	codecs := []*Codec{New(fixtures(f), Options{}), New(todo(f), Options{})}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 8192 {
			return
		}
		for _, c := range codecs {
			checkRead(t, c, src)
		}
	})
}

func checkRead(t *testing.T, c *Codec, src string) {
	p, err := c.Read(src)
	if err != nil {
		var ce *call.Error
		var ae *aql.Error
		switch {
		case errors.As(err, &ce):
			if ce.Pos.Line < 1 || ce.Pos.Col < 1 || ce.Pos.Offset > len(src) {
				t.Fatalf("%q: error position %+v outside the input: %v", src, ce.Pos, err)
			}
		case errors.As(err, &ae):
		case SyntaxOf(src) == AQL:
		default:
			t.Fatalf("%q: error of type %T: %v", src, err, err)
		}
		return
	}
	if len(p.Items) == 0 && p.Syntax != AQL {
		t.Fatalf("%q: a plan of no calls", src)
	}
	if _, err := c.Print(p, p.Syntax, 0); err != nil {
		t.Fatalf("%q: read as %s, does not print as %s: %v", src, p.Syntax, p.Syntax, err)
	}
	// AQL leaves the checks below the top level to the server; MCP-Term
	// and JSON calls are checked in full when read, so an AQL request
	// that fails them prints, but does not read back, as a call.
	strict := p.Syntax != AQL || valid(c, p)
	for _, s := range []Syntax{SExpr, JSON, AQL} {
		text, err := c.Print(p, s, 60)
		if err != nil {
			if s == JSON && !errors.Is(err, ErrLocalOnly) {
				t.Fatalf("%q: JSON: %v", src, err)
			}
			continue
		}
		back, err := c.Read(text)
		if err != nil && !strict && s != AQL {
			continue
		}
		if err != nil {
			t.Fatalf("%q printed as %s:\n%s\ndoes not read: %v", src, s, text, err)
		}
		if !sameCalls(p, back) {
			t.Fatalf("%q printed as %s:\n%s\nreads as %s, not %s", src, s, text, ModelJSON(back), ModelJSON(p))
		}
	}
	for _, s := range []Syntax{SExpr, JSON, AQL} {
		for _, n := range c.Notes(p, s) {
			if strings.ContainsFunc(n, func(r rune) bool { return r < ' ' || r >= 0x7f && r <= 0x9f }) {
				t.Fatalf("%q: note not fit for a terminal line: %q", src, n)
			}
		}
	}
	if len(c.Requests(p)) != len(p.live()) {
		t.Fatalf("%q: %d requests for %d calls", src, len(c.Requests(p)), len(p.live()))
	}
	outs := make([]Outcome, len(p.Items))
	for i := range outs {
		if i%2 == 1 {
			outs[i].Err = &Failure{Kind: FailRPC, Code: -1, Message: src}
		}
	}
	if _, err := sexpr.ParseOne(RenderTerm(p, outs, 0)); err != nil {
		t.Fatalf("%q: RenderTerm does not read: %v", src, err)
	}
	RenderJSON(p, outs)
	resp := c.Answer(p, outs)
	if _, err := sexpr.ParseOne(RenderAQL(resp, true, 0)); err != nil {
		t.Fatalf("%q: AQL answer as a term does not read: %v", src, err)
	}
}

// valid reports whether every call of p passes its tool's JSON Schema.
func valid(c *Codec, p *Plan) bool {
	for _, it := range p.live() {
		if c.r.Validate(call.Call{Tool: it.Tool, Arguments: it.Arguments}) != nil {
			return false
		}
	}
	return true
}
