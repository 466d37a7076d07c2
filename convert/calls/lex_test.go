package calls

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/toolset/toolsettest"
)

// roles renders lexemes as "role:text" for comparison.
func roles(src string, lx []Lexeme) string {
	names := map[Role]string{RoleOpen: "open", RoleClose: "close", RoleHead: "head", RoleSymbol: "sym", RoleKeyword: "kw",
		RoleString: "str", RoleNumber: "num", RoleLiteral: "lit", RoleComment: "comment", RoleKey: "key", RolePunct: "punct", RoleBad: "bad"}
	var parts []string
	for _, l := range lx {
		parts = append(parts, names[l.Role]+":"+src[l.Start:l.End])
	}
	return strings.Join(parts, " ")
}

func TestLexRoles(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`(fr "/etc/hosts" :utf8)`, `open:( head:fr str:"/etc/hosts" kw::utf8 close:)`},
		{"; two\n(batch :concurrency 2 (1 (ct :tags (\"a\") :due nil)))",
			`comment:; two open:( head:batch kw::concurrency num:2 open:( num:1 open:( head:ct kw::tags open:( str:"a" close:) kw::due lit:nil close:) close:) close:)`},
		{`(rf :encoding :utf8|:base64 -1.5e3 true)`, `open:( head:rf kw::encoding kw::utf8|:base64 num:-1.5e3 lit:true close:)`},
		{`(fr "a\"b(" x) )`, `open:( head:fr str:"a\"b(" sym:x close:) close:)`},
		{`(fr "open`, `open:( head:fr str:"open`},
		{"(fr [x] {y})", `open:( head:fr bad:[ sym:x bad:] bad:{ sym:y bad:} close:)`},
		{"; c\n{\"name\": \"fr\", \"arguments\": {\"path\": \"/x\", \"n\": -2, \"ok\": true, \"z\": null}}",
			`comment:; c open:{ key:"name" punct:: str:"fr" punct:, key:"arguments" punct:: open:{ key:"path" punct:: str:"/x" punct:, key:"n" punct:: num:-2 punct:, key:"ok" punct:: lit:true punct:, key:"z" punct:: lit:null close:} close:}`},
		{`[{"operation": "list_todos"} ; x]`, `open:[ open:{ key:"operation" punct:: str:"list_todos" close:} bad:; bad:x close:]`},
		{`{"a": nope}`, `open:{ key:"a" punct:: bad:nope close:}`},
	} {
		if got := roles(tc.src, Lex(tc.src)); got != tc.want {
			t.Errorf("Lex(%q)\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

func TestLexPairs(t *testing.T) {
	src := `(a (b) [c) "(" )`
	lx := Lex(src)
	pairOf := func(off int) int {
		for _, l := range lx {
			if l.Start == off {
				if l.Pair < 0 {
					return -1
				}
				return lx[l.Pair].Start
			}
		}
		t.Fatalf("no lexeme at %d", off)
		return 0
	}
	if got := pairOf(0); got != 9 {
		t.Errorf("the outer ( pairs with %d, want 9", got)
	}
	if got := pairOf(3); got != 5 {
		t.Errorf("(b) pairs %d, want 5", got)
	}
	if got := pairOf(15); got != -1 {
		t.Errorf("the stray ) pairs with %d", got)
	}
	js := `{"a": [1, {"b": 2}], "c": ]}`
	lx = Lex(js)
	if lx[0].Pair != len(lx)-1 {
		t.Errorf("the outer { of %s pairs with lexeme %d of %d", js, lx[0].Pair, len(lx))
	}
	for _, l := range lx {
		if js[l.Start] == ']' && l.Start == strings.LastIndexByte(js, ']') && l.Pair != -1 {
			t.Errorf("a ] closing a { is paired")
		}
	}
}

func TestLexemeAt(t *testing.T) {
	src := "(fr \"ab\" ; note\n :x"
	lx := Lex(src)
	for off, want := range map[int]Role{5: RoleString, 7: RoleString, 11: RoleComment, 15: RoleComment} {
		i := LexemeAt(lx, off)
		if i < 0 || lx[i].Role != want {
			t.Errorf("LexemeAt(%d) = %d, want a %d lexeme", off, i, want)
		}
	}
	for _, off := range []int{0, 1, 3, 4, 8, 9, len(src)} {
		if i := LexemeAt(lx, off); i >= 0 {
			t.Errorf("LexemeAt(%d) = %d (%q), want none: the offset is between lexemes or at an edge", off, i, src[lx[i].Start:lx[i].End])
		}
	}
	open := `(fr "ab`
	if i := LexemeAt(Lex(open), len(open)); i < 0 {
		t.Error("the end of an open string is inside it")
	}
}

// checkLex holds for any text: lexemes are in order, inside the text, do
// not overlap, and leave out only white space; pairs are mutual and join
// an opener with its closer.
func checkLex(t *testing.T, src string) []Lexeme {
	t.Helper()
	lx := Lex(src)
	at := 0
	for i, l := range lx {
		if l.Start < at || l.End <= l.Start || l.End > len(src) {
			t.Fatalf("%q: lexeme %d [%d,%d) out of order or bounds (after %d)", src, i, l.Start, l.End, at)
		}
		if gap := src[at:l.Start]; strings.TrimLeft(gap, " \t\r\n\f\v\u0085\u00a0\u2028\u2029\ufeff") != "" {
			t.Fatalf("%q: %q between lexemes is not white space", src, gap)
		}
		at = l.End
		if l.Pair >= 0 {
			o := lx[l.Pair]
			if o.Pair != i || (l.Role == RoleOpen) == (o.Role == RoleOpen) || o.Role != RoleOpen && o.Role != RoleClose {
				t.Fatalf("%q: lexeme %d pairs with %d, which pairs with %d", src, i, l.Pair, o.Pair)
			}
			a, b := src[l.Start], src[o.Start]
			if l.Role == RoleClose {
				a, b = b, a
			}
			if closer(a) != b {
				t.Fatalf("%q: %c pairs with %c", src, a, b)
			}
		}
	}
	if rest := src[at:]; strings.TrimLeft(rest, " \t\r\n\f\v\u0085\u00a0\u2028\u2029\ufeff") != "" {
		t.Fatalf("%q: %q after the last lexeme is not white space", src, rest)
	}
	return lx
}

// The lexer agrees with the readers on every call they read: nothing is
// bad, every bracket pairs, no string is open, and for MCP-Term every
// list the reader sees is an opener paired with the closer at its end.
func TestLexAgreesWithReader(t *testing.T) {
	checked := map[Syntax]int{}
	for stem, set := range toolsettest.Corpus(t) {
		c := New(set, Options{})
		g := &gen{rnd: rand.New(rand.NewPCG(uint64(len(set.Tools)), 11))}
		for _, tool := range set.Tools {
			g.root = tool.InputSchema
			for range 4 {
				doc := ojson.NewObject().Set("name", ojson.NewString(tool.Name)).Set("arguments", g.value(tool.InputSchema, 0))
				p, err := c.Read(doc.Compact())
				if err != nil {
					continue
				}
				for _, s := range []Syntax{SExpr, JSON, AQL} {
					text, err := c.Print(p, s, 60)
					if err != nil {
						continue
					}
					lx := checkLex(t, text)
					for _, l := range lx {
						if l.Role == RoleBad || l.Open || (l.Role == RoleOpen || l.Role == RoleClose) && l.Pair < 0 {
							t.Fatalf("%s: %s text %q: lexeme %q is bad, open or unpaired", stem, s, text, text[l.Start:l.End])
						}
					}
					if s == SExpr {
						lexListsMatch(t, text, lx)
					}
					checked[s]++
				}
			}
		}
	}
	if checked[SExpr] == 0 || checked[JSON] == 0 || checked[AQL] == 0 {
		t.Fatalf("too few texts checked: %v", checked)
	}
	t.Logf("texts checked: %v", checked)
}

func lexListsMatch(t *testing.T, text string, lx []Lexeme) {
	t.Helper()
	nodes, err := sexpr.Parse(text)
	if err != nil {
		t.Fatalf("%q does not read: %v", text, err)
	}
	byStart := map[int]Lexeme{}
	for _, l := range lx {
		byStart[l.Start] = l
	}
	var walk func(n *sexpr.Node)
	walk = func(n *sexpr.Node) {
		if n.Kind == sexpr.List && n.Pos.Offset < len(text) && text[n.Pos.Offset] == '(' {
			l, ok := byStart[n.Pos.Offset]
			if !ok || l.Role != RoleOpen || lx[l.Pair].End != n.End.Offset {
				t.Fatalf("%q: the list at %s is not an opener paired with the ) at %d", text, n.Pos, n.End.Offset)
			}
		}
		if n.Kind == sexpr.String {
			if l, ok := byStart[n.Pos.Offset]; !ok || l.Role != RoleString || l.End != n.End.Offset {
				t.Fatalf("%q: the string at %s is not one string lexeme", text, n.Pos)
			}
		}
		for _, it := range n.Items {
			walk(it)
		}
	}
	for _, n := range nodes {
		walk(n)
	}
}

// FuzzLex: any text lexes by checkLex's invariants, and LexemeAt never
// points outside the lexemes. Seeds are in testdata/fuzz/FuzzLex.
func FuzzLex(f *testing.F) {
	for _, s := range []string{`(fr "/etc/hosts" :utf8)`, "; c\n{\"a\": [1, \"x\\\"\"]}", `(a "b`, "(\xff)", `))((`, `{"a": ]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1<<16 {
			return
		}
		lx := checkLex(t, src)
		for off := 0; off <= len(src); off += 1 + len(src)/64 {
			if i := LexemeAt(lx, off); i >= len(lx) || i >= 0 && (lx[i].Start >= off || off > lx[i].End) {
				t.Fatalf("%q: LexemeAt(%d) = %d", src, off, i)
			}
		}
	})
}

func BenchmarkLex30EntryBatch(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("(batch\n")
	for i := 1; i <= 30; i++ {
		sb.WriteString("  (" + string(rune('0'+i%10)) + " (ct :title \"write the docs\" :tags (\"a\" \"b\") :priority :high :due nil))\n")
	}
	sb.WriteString(")")
	src := sb.String()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		Lex(src)
	}
}
