package sexpr

import (
	"strings"
	"testing"
)

func TestReadAtoms(t *testing.T) {
	tests := []struct {
		src  string
		want *Node
	}{
		{`42`, Num("42")},
		{`-7`, Num("-7")},
		{`+7`, Num("7")},
		{`0`, Num("0")},
		{`-0.5`, Num("-0.5")},
		{`3.25e-3`, Num("3.25e-3")},
		{`6.02E+23`, Num("6.02E+23")},
		{`1e400`, Num("1e400")},
		{`12345678901234567890123`, Num("12345678901234567890123")},
		{`"plain"`, Str("plain")},
		{`""`, Str("")},
		{`"esc \" \\ \/ \b \f \n \r \t"`, Str("esc \" \\ / \b \f \n \r \t")},
		{`"\u00e9\u6f22"`, Str("é漢")},
		{`"\ud83d\ude00"`, Str("😀")},
		{`"raw 漢字 😀"`, Str("raw 漢字 😀")},
		{`"multi
line"`, Str("multi\nline")},
		{`file_read`, Sym("file_read")},
		{`get-env`, Sym("get-env")},
		{`a.b.c`, Sym("a.b.c")},
		{`/etc/hosts`, Sym("/etc/hosts")},
		{`-`, Sym("-")},
		{`-x`, Sym("-x")},
		{`+`, Sym("+")},
		{`->`, Sym("->")},
		{`漢字`, Sym("漢字")},
		{`:utf8`, Kw("utf8")},
		{`:a-b.c`, Kw("a-b.c")},
		{`:1`, Kw("1")},
		{`nil`, NilNode()},
		{`true`, BoolNode(true)},
		{`false`, BoolNode(false)},
		{`nilly`, Sym("nilly")},
		{`:a|:b|:c`, L(Sym("or"), Kw("a"), Kw("b"), Kw("c"))},
		{`()`, L()},
		{`(a (b "c") :d 1 nil)`, L(Sym("a"), L(Sym("b"), Str("c")), Kw("d"), Num("1"), NilNode())},
		{"  ; comment\n (a ; inner\n b) ; after", L(Sym("a"), Sym("b"))},
		{"(a\t\r\n\f\vb\u00a0c\u2028d)", L(Sym("a"), Sym("b"), Sym("c"), Sym("d"))},
	}
	for _, tt := range tests {
		got, err := ParseOne(tt.src)
		if err != nil {
			t.Errorf("ParseOne(%q): %v", tt.src, err)
			continue
		}
		if !Equal(got, tt.want) {
			t.Errorf("ParseOne(%q) = %s, want %s", tt.src, got, tt.want)
		}
	}
}

func TestReadPositions(t *testing.T) {
	src := "(decl\n  (fr \"漢字\" :k)\n  x)"
	n, err := ParseOne(src)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, got Pos, line, col, off int) {
		t.Helper()
		if got.Line != line || got.Col != col || got.Offset != off {
			t.Errorf("%s at %d:%d (offset %d), want %d:%d (offset %d)", what, got.Line, got.Col, got.Offset, line, col, off)
		}
	}
	check("list", n.Pos, 1, 1, 0)
	check("list end", n.End, 3, 5, len(src))
	inner := n.Items[1]
	check("inner list", inner.Pos, 2, 3, 8)
	check("string", inner.Items[1].Pos, 2, 7, 12)
	check("keyword after multibyte string", inner.Items[2].Pos, 2, 12, 21)
	check("inner end", inner.End, 2, 15, 24)
	check("x", n.Items[2].Pos, 3, 3, 27)
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		src, pos, says string
	}{
		{`(a b`, "1:5", "expected ')' to close the list opened at 1:1, found end of input"},
		{`)`, "1:1", "unexpected ')' with no list open"},
		{`(a))`, "1:4", "expected end of input after the expression"},
		{`"abc`, "1:1", "string starting here is never closed"},
		{`"a\qb"`, "1:3", `unknown escape \q`},
		{`"\u12"`, "1:2", "expected four hex digits after \\u"},
		{`"\uzzzz"`, "1:2", `found "zzzz"`},
		{`"\ud800"`, "1:2", "unpaired UTF-16 surrogate"},
		{`"\udc00\ud800"`, "1:2", "unpaired UTF-16 surrogate"},
		{`"a\`, "1:3", "string ends inside an escape sequence"},
		{`1.`, "1:1", "malformed number"},
		{`01`, "1:1", "malformed number"},
		{`1e`, "1:1", "malformed number"},
		{`-1x`, "1:1", "malformed number"},
		{`.5`, "1:1", "malformed number"},
		{`:`, "1:1", "expected a keyword name after ':'"},
		{`:a:b`, "1:1", "expected a keyword name after ':'"},
		{`:a|b`, "1:4", "expected another :keyword after '|'"},
		{`:a|`, "1:4", "expected another :keyword after '|'"},
		{`a|b`, "1:2", "'|' may only join keywords"},
		{`[1]`, "1:1", "unexpected character '['"},
		{"\xff", "1:1", "invalid UTF-8 byte 0xff"},
		{"\"a\xffb\"", "1:3", "invalid UTF-8 byte 0xff in string"},
		{``, "1:1", "expected an expression, found end of input"},
		{"; only a comment", "1:17", "expected an expression, found end of input"},
		{strings.Repeat("(", 201) + strings.Repeat(")", 201), "1:201", "lists nested deeper than 200 levels"},
	}
	for _, tt := range tests {
		_, err := ParseOne(tt.src)
		if err == nil {
			t.Errorf("ParseOne(%q): no error, want %q", tt.src, tt.says)
			continue
		}
		e, ok := err.(*Error)
		if !ok {
			t.Errorf("ParseOne(%q): error %T, want *Error", tt.src, err)
			continue
		}
		if e.Pos.String() != tt.pos || !strings.Contains(e.Msg, tt.says) {
			t.Errorf("ParseOne(%q) = %v, want %s: ...%s...", tt.src, err, tt.pos, tt.says)
		}
	}
}

func TestReadLimits(t *testing.T) {
	if _, err := ParseLimits("(a b c d)", Limits{MaxNodes: 4}); err == nil || !strings.Contains(err.Error(), "more than 4 elements") {
		t.Errorf("node limit: got %v", err)
	}
	if _, err := ParseLimits("(a b c)", Limits{MaxNodes: 4}); err != nil {
		t.Errorf("4 nodes within a limit of 4: %v", err)
	}
	if _, err := ParseLimits(":a|:b|:c|:d", Limits{MaxNodes: 3}); err == nil {
		t.Errorf("a keyword union counts each keyword")
	}
	if _, err := ParseLimits("(((x)))", Limits{MaxDepth: 2}); err == nil {
		t.Errorf("depth limit 2 let 3 nested lists through")
	}
	if _, err := ParseLimits("((x))", Limits{MaxDepth: 2}); err != nil {
		t.Errorf("2 nested lists within a limit of 2: %v", err)
	}
	// A megabyte string and a long flat list are fine.
	big := `"` + strings.Repeat("x", 1<<20) + `"`
	if n, err := ParseOne(big); err != nil || len(n.Text) != 1<<20 {
		t.Errorf("1 MB string: %v", err)
	}
}

func TestParseMany(t *testing.T) {
	nodes, err := Parse("(a) b ; c\n \"d\"")
	if err != nil || len(nodes) != 3 || nodes[1].Text != "b" || nodes[2].Text != "d" {
		t.Errorf("Parse = %v, %v", nodes, err)
	}
	if nodes, err := Parse("  ; nothing\n"); err != nil || len(nodes) != 0 {
		t.Errorf("empty input: %v, %v", nodes, err)
	}
}
