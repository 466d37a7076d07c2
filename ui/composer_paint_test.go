package ui

import (
	"math/rand/v2"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpterm/mcpterm/ui/internal/uitest"
)

func testComposer(t *testing.T) *composerPane {
	t.Helper()
	st := NewStyles(mustTheme("dark").Resolve(true))
	km := DefaultKeyMap()
	p := newComposerPane(&st, &km, func(s string) string { return s })
	p.SetSize(80, 12)
	p.Focus()
	return &p
}

// typeKeys types s into the composer one key at a time, as a terminal
// without bracketed paste sends a paste.
func typeKeys(p *composerPane, s string) {
	for _, r := range s {
		if r == '\n' {
			p.Update(uitest.Key("enter"))
			continue
		}
		p.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func TestAutoClose(t *testing.T) {
	for _, tc := range []struct{ keys, want string }{
		{"(", "()"},
		{"(fr", "(fr)"},
		{`(fr "`, `(fr "")`},
		{`(fr "a)`, `(fr "a)")`},
		{`(fr "a\"`, `(fr "a\"")`},
		{"(a ; (", "(a ; ()"},
		{"{", "{}"},
		{"{\"a\": [", "{\"a\": []}"},
		{"(fr [", "(fr [)"}, // [ is no MCP-Term bracket
	} {
		p := testComposer(t)
		typeKeys(p, tc.keys)
		if got := p.Value(); got != tc.want {
			t.Errorf("typed %q: %q, want %q", tc.keys, got, tc.want)
		}
	}
	// Backspace between an empty pair deletes both; elsewhere one.
	p := testComposer(t)
	typeKeys(p, `(fr "`)
	p.Update(uitest.Key("backspace"))
	if got := p.Value(); got != "(fr )" {
		t.Errorf("backspace in an empty string: %q", got)
	}
	p.Update(uitest.Key("backspace"))
	p.Update(uitest.Key("backspace"))
	p.Update(uitest.Key("backspace"))
	if got := p.Value(); got != "()" {
		t.Errorf("backspacing the word: %q", got)
	}
	p.Update(uitest.Key("backspace"))
	if got := p.Value(); got != "" {
		t.Errorf("backspace in an empty list: %q", got)
	}
	// A paste is taken as it is.
	p.Update(tea.PasteMsg{Content: `(fr "(" :x`})
	if got := p.Value(); got != `(fr "(" :x` {
		t.Errorf("paste: %q", got)
	}
}

// genCall writes a random well-formed call text: lists, words, keywords,
// strings with escapes, brackets and line breaks inside, comments.
func genCall(r *rand.Rand, depth int, b *strings.Builder) {
	b.WriteByte('(')
	n := r.IntN(5)
	for i := 0; i < n; i++ {
		if i > 0 || r.IntN(4) == 0 {
			b.WriteString([]string{" ", "\n  ", " "}[r.IntN(3)])
		}
		switch k := r.IntN(7); {
		case k == 0 && depth < 4:
			genCall(r, depth+1, b)
		case k == 1:
			b.WriteString([]string{`"a)b"`, `"(("`, `"q\"x"`, `"\\"`, `"line` + "\n" + `two"`, `""`, `"; not a comment"`}[r.IntN(7)])
		case k == 2:
			b.WriteString("; note (x\n")
		case k == 3:
			b.WriteString([]string{":utf8", ":a|:b", "-1.5", "nil"}[r.IntN(4)])
		default:
			b.WriteString([]string{"fr", "x", "batch", "é"}[r.IntN(4)])
		}
	}
	b.WriteByte(')')
}

// Property: a well-formed call typed key by key comes out exactly as
// typed, whatever auto-closing did on the way.
func TestAutoCloseKeepsTypedText(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 300; i++ {
		var b strings.Builder
		genCall(r, 0, &b)
		if r.IntN(3) == 0 { // a batch of two
			b.WriteString("\n")
			genCall(r, 0, &b)
		}
		src := b.String()
		p := testComposer(t)
		typeKeys(p, src)
		if got := p.Value(); got != src {
			t.Fatalf("typed key by key:\n%s\ncame out as:\n%s", src, got)
		}
	}
	for _, src := range []string{
		`{"name": "fr", "arguments": {"path": "/a]", "tags": ["x", "y"], "o": {}}}`,
		`[{"operation": "list_todos", "params": {}}, {"operation": "introspect"}]`,
	} {
		p := testComposer(t)
		typeKeys(p, src)
		if got := p.Value(); got != src {
			t.Errorf("typed key by key:\n%s\ncame out as:\n%s", src, got)
		}
	}
}

func TestComposerPaints(t *testing.T) {
	p := testComposer(t)
	p.Update(tea.PasteMsg{Content: `(fr "/etc/hosts" :utf8)`})
	ci := p.st.Code
	v := p.View()
	for what, ink := range map[string]string{"fr": "head", `"/etc/hosts"`: "string", ":utf8": "keyword"} {
		var want strings.Builder
		inkOf(ci, ink).Paint(&want, what)
		if !strings.Contains(v, want.String()) {
			t.Errorf("%s is not painted as a %s: %q", what, ink, v)
		}
	}
	// The cursor after the last ) lights it and the ( it closes.
	var match strings.Builder
	ci.Match.Paint(&match, "(")
	if !strings.Contains(v, match.String()) {
		t.Errorf("the matching ( is not lit: %q", v)
	}
	// An unclosed list marks its (.
	p = testComposer(t)
	p.Update(tea.PasteMsg{Content: `(fr (x`})
	var un strings.Builder
	ci.Unmatched.Paint(&un, "(")
	if strings.Count(p.View(), un.String()) != 2 {
		t.Errorf("the unclosed ( are not marked: %q", p.View())
	}
	if got := ansi.Strip(p.View()); !strings.Contains(got, "(fr (x") {
		t.Errorf("painting changed the text: %q", got)
	}
}

func inkOf(ci CodeInks, role string) interface {
	Paint(*strings.Builder, string)
} {
	switch role {
	case "head":
		return ci.Head
	case "string":
		return ci.String
	}
	return ci.Keyword
}
