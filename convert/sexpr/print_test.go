package sexpr

import (
	"strings"
	"testing"
)

func TestPrint(t *testing.T) {
	tests := []struct {
		n    *Node
		want string
	}{
		{L(Sym("fr"), Str("/etc/hosts"), Kw("utf8")), `(fr "/etc/hosts" :utf8)`},
		{L(), `()`},
		{nil, `nil`},
		{L(NilNode(), BoolNode(true), BoolNode(false), Num("-1.5e3")), `(nil true false -1.5e3)`},
		{Str("q\" b\\ n\n r\r t\t"), `"q\" b\\ n\n r\r t\t"`},
		{Str("\x00\x1b[31m\x7f"), `"\u0000\u001b[31m\u007f"`},
		{Str("\u009b31m\u0085"), `"\u009b31m\u0085"`},
		{Str("漢字 😀"), `"漢字 😀"`},
		{L(Sym("or"), Kw("a"), Kw("b")), `:a|:b`},
		{L(Sym("or"), Kw("a")), `(or :a)`},
		{L(Sym("or"), Kw("a"), Str("b")), `(or :a "b")`},
		// text that cannot print as what it is degrades visibly to a string
		{Sym("has space"), `"has space"`},
		{Sym("12"), `"12"`},
		{Sym("nil"), `"nil"`},
		{Sym(""), `""`},
		{Kw("a:b"), `"a:b"`},
		{Kw(""), `""`},
		{Num("1."), `"1."`},
		{Sym("a\u0085b"), `"a\u0085b"`},
	}
	for _, tt := range tests {
		if got := Print(tt.n); got != tt.want {
			t.Errorf("Print(%#v) = %s, want %s", tt.n, got, tt.want)
		}
	}
}

func TestPretty(t *testing.T) {
	n, err := ParseOne(`(declare (fr file_read (path string) (opt (enc :utf8|:base64) (off (opt number))) string "Read file content") (nu note_update (doc string) (ops (list Op))))`)
	if err != nil {
		t.Fatal(err)
	}
	got := Pretty(n, 40)
	want := `(declare
  (fr file_read
    (path string)
    (opt
      (enc :utf8|:base64)
      (off (opt number)))
    string
    "Read file content")
  (nu note_update
    (doc string)
    (ops (list Op))))`
	if got != want {
		t.Errorf("Pretty:\n%s\nwant:\n%s", got, want)
	}
	if Pretty(n, 1000) != n.String() {
		t.Errorf("a list that fits stays on one line")
	}
	back, err := ParseOne(got)
	if err != nil || !Equal(back, n) {
		t.Errorf("Pretty output reads back differently: %v", err)
	}
	for _, line := range strings.Split(got, "\n") {
		if len(line) > 40 && !strings.Contains(line, `"`) {
			t.Errorf("line longer than the width: %q", line)
		}
	}
}

func TestDescribeAndHead(t *testing.T) {
	n, _ := ParseOne(`(fr "x" :k 1 nil true ())`)
	if n.Head() != "fr" || L().Head() != "" || Str("x").Head() != "" {
		t.Errorf("Head")
	}
	want := []string{"symbol fr", `string "x"`, "keyword :k", "number 1", "nil", "true", "empty list ()"}
	for i, it := range n.Items {
		if got := Describe(it); got != want[i] {
			t.Errorf("Describe(%s) = %q, want %q", it, got, want[i])
		}
	}
	if got := Describe(n); got != "list (fr ...)" {
		t.Errorf("Describe(list) = %q", got)
	}
	if got := Describe(Str(strings.Repeat("y", 100))); len(got) > 60 {
		t.Errorf("Describe does not clip long strings: %d bytes", len(got))
	}
}

func TestErrorf(t *testing.T) {
	n, _ := ParseOne("\n  (a b)")
	err := Errorf(n.Items[1], "bad %s", "thing")
	if err.Error() != "2:6: bad thing" {
		t.Errorf("Errorf = %q", err.Error())
	}
}
