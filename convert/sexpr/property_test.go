package sexpr

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// treeGen builds random trees of every kind of datum, with the text of each
// atom drawn from what the printer can write as that kind.
type treeGen struct{ r *rand.Rand }

var symbolPieces = []string{"a", "fr", "file_read", "get-env", "x.y", "/etc", "->", "-", "+", "漢", "é", "Op", "a1", "!", "?", "*", "%", "<=", "&", "@", "~", "$", "=", "#x"}

func (g treeGen) symbol() string {
	for {
		var b strings.Builder
		for i := g.r.IntN(3); i >= 0; i-- {
			b.WriteString(symbolPieces[g.r.IntN(len(symbolPieces))])
		}
		if s := b.String(); IsSymbolText(s) {
			return s
		}
	}
}

func (g treeGen) keyword() string {
	for {
		s := g.symbol()
		if g.r.IntN(4) == 0 {
			s = strconv.Itoa(g.r.IntN(100)) + s
		}
		if IsKeywordText(s) {
			return s
		}
	}
}

func (g treeGen) number() string {
	var b strings.Builder
	if g.r.IntN(2) == 0 {
		b.WriteByte('-')
	}
	if g.r.IntN(4) == 0 {
		b.WriteByte('0')
	} else {
		b.WriteString(strconv.FormatUint(g.r.Uint64()>>g.r.IntN(64), 10))
		if b.Len() > 0 && strings.TrimLeft(b.String(), "-") == "0" {
			b.WriteString("") // a lone 0 is fine
		}
	}
	if g.r.IntN(3) == 0 {
		b.WriteString("." + strconv.Itoa(g.r.IntN(1000)))
	}
	if g.r.IntN(4) == 0 {
		b.WriteString([]string{"e", "E", "e+", "e-", "E-"}[g.r.IntN(5)] + strconv.Itoa(g.r.IntN(400)))
	}
	return b.String()
}

func (g treeGen) str() string {
	var b strings.Builder
	for i := g.r.IntN(12); i > 0; i-- {
		switch g.r.IntN(6) {
		case 0:
			b.WriteRune(rune(g.r.IntN(0x20))) // C0 controls
		case 1:
			b.WriteByte(`"\/;()|:`[g.r.IntN(8)])
		case 2:
			b.WriteRune(rune(0x7f + g.r.IntN(0x30))) // DEL, C1, Latin-1
		case 3:
			r := rune(g.r.IntN(0x10ffff))
			if utf8.ValidRune(r) {
				b.WriteRune(r)
			}
		default:
			b.WriteByte(byte('a' + g.r.IntN(26)))
		}
	}
	return b.String()
}

func (g treeGen) node(depth int) *Node {
	k := g.r.IntN(9)
	if depth > 6 {
		k = 1 + g.r.IntN(6)
	}
	switch k {
	case 1:
		return Sym(g.symbol())
	case 2:
		return Kw(g.keyword())
	case 3:
		return Str(g.str())
	case 4:
		return Num(g.number())
	case 5:
		return NilNode()
	case 6:
		return BoolNode(g.r.IntN(2) == 0)
	case 7: // (or :a :b ...), which prints as the :a|:b sugar
		items := []*Node{Sym("or")}
		for i := 1 + g.r.IntN(4); i > 0; i-- {
			items = append(items, Kw(g.keyword()))
		}
		return L(items...)
	}
	items := []*Node{}
	for i := g.r.IntN(5); i > 0; i-- {
		items = append(items, g.node(depth+1))
	}
	return L(items...)
}

// TestPrintReadProperty: any tree the constructors can build from printable
// text prints, as one line or pretty, to text that reads back to the same tree.
func TestPrintReadProperty(t *testing.T) {
	g := treeGen{rand.New(rand.NewPCG(1, 2))}
	for i := 0; i < 5000; i++ {
		n := g.node(0)
		flat := n.String()
		back, err := ParseOne(flat)
		if err != nil {
			t.Fatalf("printed %s, reading it back: %v", flat, err)
		}
		if !Equal(back, n) {
			t.Fatalf("printed %s, read back %s", flat, back)
		}
		pretty := Pretty(n, 10+i%60)
		back, err = ParseOne(pretty)
		if err != nil || !Equal(back, n) {
			t.Fatalf("pretty %q read back as %v (%v)", pretty, back, err)
		}
		if back.String() != flat {
			t.Fatalf("printing is not canonical: %s then %s", flat, back.String())
		}
	}
}

// TestNumberGrammarAgrees: the reader and IsSymbolText agree on what is a
// number, a symbol or an error, for every short token over a small alphabet.
func TestNumberGrammarAgrees(t *testing.T) {
	alphabet := []byte("0159.-+eEx")
	var walk func(prefix []byte)
	walk = func(prefix []byte) {
		if len(prefix) > 0 {
			tok := string(prefix)
			n, err := ParseOne(tok)
			switch {
			case err != nil:
				if IsSymbolText(tok) {
					t.Errorf("%q: IsSymbolText says symbol, the reader says %v", tok, err)
				}
			case n.Kind == Symbol:
				if !IsSymbolText(tok) {
					t.Errorf("%q reads as a symbol but IsSymbolText says no", tok)
				}
			case n.Kind == Number:
				if IsSymbolText(tok) || !validNumber(n.Text) || Num(n.Text).String() != n.Text {
					t.Errorf("%q reads as number %s that does not print as itself", tok, n.Text)
				}
			}
		}
		if len(prefix) == 4 {
			return
		}
		for _, c := range alphabet {
			walk(append(prefix, c))
		}
	}
	walk(nil)
}
