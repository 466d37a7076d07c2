package ui

import (
	"image/color"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpterm/mcpterm/themes"
)

func TestFuzzyMatchRanksWordStarts(t *testing.T) {
	cases := []struct {
		pat, better, worse string
	}{
		{"fr", "file_read", "buffer"},
		{"dt", "delete_todo", "data_platform_query_with_dt"},
		{"gt", "get_todo", "a_great_thing"},
		{"list", "list_todos", "playlist_settings"},
	}
	for _, c := range cases {
		sb, _, okb := fuzzyMatch(c.pat, c.better)
		sw, _, okw := fuzzyMatch(c.pat, c.worse)
		if !okb || !okw || sb <= sw {
			t.Errorf("%q: %s (%d, %v) should outrank %s (%d, %v)", c.pat, c.better, sb, okb, c.worse, sw, okw)
		}
	}
	if _, _, ok := fuzzyMatch("xyz", "file_read"); ok {
		t.Error("a non-subsequence matched")
	}
	_, pos, _ := fuzzyMatch("FR", "file_read")
	if len(pos) != 2 || pos[0] != 0 || pos[1] != 5 {
		t.Errorf("positions %v", pos)
	}
}

// badSeq is anything a terminal would act on: every escape sequence, C0
// controls other than newline, C1 controls, DEL.
var badSeq = regexp.MustCompile("[\x00-\x09\x0b-\x1f\x7f\u0080-\u009f]")

// The workbench's default sanitiser is convert/safe's, with tabs expanded to
// tab stops: escape sequences go, what a user should notice (a bell, a bidi
// override) stays visible as a symbol or an escape.
func TestDefaultSanitizer(t *testing.T) {
	sanitize := Options{}.withDefaults().Sanitize
	cases := map[string]string{
		"plain":                    "plain",
		"a\x1b]52;c;SGVsbG8=\x07b": "ab",
		"a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\": "alink",
		"\x1b[2J\x1b[Hhome\x1b[10;10Hx":             "homex",
		"red\x1b[31m!\x1b[0m":                       "red!",
		"tab\there":                                 "tab here",
		"bell\x07cr\r\n":                            "bell␇cr\n",
		"c1 \u009b31m csi":                          "c1  csi",
		"bidi \u202egnp.exe":                        "bidi \\u202egnp.exe",
		"bad \xff utf8":                             "bad \uFFFD utf8",
		"unterminated \x1b]52;c;AAAA":               "unterminated 52;c;AAAA",
		"\x1bc reset":                               " reset",
	}
	for in, want := range cases {
		if got := sanitize(in); got != want {
			t.Errorf("sanitize(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzDefaultSanitizer(f *testing.F) {
	sanitize := Options{}.withDefaults().Sanitize
	for _, s := range []string{"", "a\x1b]52;c;x\x07", "\x1b[", "\x1b", "\u009d0;t\u009c", "é\x1b[1;2;3m", "\t\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := sanitize(s)
		if badSeq.MatchString(out) {
			t.Fatalf("sanitize(%q) = %q still holds a control", s, out)
		}
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q", s)
		}
		if again := sanitize(out); again != out {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, out, again)
		}
	})
}

func TestEnclosingCall(t *testing.T) {
	cases := []struct {
		in   string
		head string
		args string
		ok   bool
	}{
		{"(", "", "", true},
		{"(fr ", "fr", "", true},
		{`(fr "a (b" :enc `, "fr", `"…" :enc`, true},
		{"(batch (1 (fr ", "fr", "", true},
		{"(fr (x y) ", "fr", "(…)", true},
		{"fr", "", "", false},
		{`(fr "unterminated`, "", "", false},
		{"(fr ; comment (x\n ", "fr", "", true},
	}
	for _, c := range cases {
		head, args, ok := enclosingCall(c.in)
		if head != c.head || strings.Join(args, " ") != c.args || ok != c.ok {
			t.Errorf("enclosingCall(%q) = %q %q %v, want %q %q %v", c.in, head, args, ok, c.head, c.args, c.ok)
		}
	}
}

func FuzzCompleter(f *testing.F) {
	set := fakeSet()
	comp := newCompleter(set, map[string]string{"file_read": "fr", "delete_todo": "dt"})
	for _, s := range []string{"(", "(fr ", "(fr \"a\" :", "(batch (1 (dt ", "((((", "))", "(fr :encoding :", "\"", ";"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cands, word := comp.complete(s)
		if !strings.HasSuffix(s, word) {
			t.Fatalf("word %q is not the end of %q", word, s)
		}
		for _, c := range cands {
			if !strings.HasPrefix(c, word) {
				t.Fatalf("candidate %q does not extend %q", c, word)
			}
		}
	})
}

func TestEditorEditing(t *testing.T) {
	e := newEditor()
	e.Focus()
	e.SetWidth(20)
	e.SetHeight(3)
	for _, k := range []string{"(", "f", "r", "enter", " ", "1", ")"} {
		e.Update(keyMsg(k))
	}
	if got := e.Value(); got != "(fr\n 1)" {
		t.Fatalf("typed %q", got)
	}
	e.Update(keyMsg("up"))
	e.Update(keyMsg("end"))
	e.Update(keyMsg("backspace"))
	e.Update(keyMsg("ctrl+e"))
	e.Update(keyMsg("delete")) // joins the lines
	if got := e.Value(); got != "(f 1)" {
		t.Fatalf("after editing %q", got)
	}
	e.Update(keyMsg("ctrl+a"))
	e.Update(keyMsg("ctrl+k"))
	if got := e.Value(); got != "" {
		t.Fatalf("kill line left %q", got)
	}
	e.Update(tea.PasteMsg{Content: "a\tb\r\nc\x1b[2J"})
	if got := e.Value(); got != "a  b\nc[2J" {
		t.Fatalf("paste sanitised to %q", got)
	}
	e.SetValue(strings.Repeat("x", 50))
	v := e.View()
	if n := len(strings.Split(v, "\n")); n != 3 {
		t.Errorf("view has %d rows, want 3", n)
	}
	for _, l := range strings.Split(v, "\n") {
		if w := ansi.StringWidth(l); w > 20 {
			t.Errorf("row wider than the editor: %d", w)
		}
	}
	if !strings.Contains(ansi.Strip(v), "xxxx") {
		t.Errorf("soft-wrapped text not shown: %q", ansi.Strip(v))
	}
}

// FuzzEditor drives the editor with arbitrary keys: it must never panic,
// keep its cursor inside the text, and always draw exactly its height.
func FuzzEditor(f *testing.F) {
	f.Add("abc\x01\x02\x03", 10, 3)
	f.Add("\x05\x05\x06\x07xyz\x08\x09", 4, 1)
	f.Add("(fr \"é中\")\x0a\x0b", 7, 2)
	keys := []string{"enter", "backspace", "delete", "left", "right", "up", "down", "home", "end",
		"ctrl+home", "ctrl+end", "alt+left", "alt+right", "ctrl+w", "ctrl+k", "ctrl+u", "pgup", "pgdown"}
	f.Fuzz(func(t *testing.T, script string, w, h int) {
		e := newEditor()
		e.Focus()
		e.SetWidth(w%50 + 1)
		e.SetHeight(h%10 + 1)
		for _, r := range script {
			if r < 32 {
				e.Update(keyMsg(keys[int(r)%len(keys)]))
			} else {
				e.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
			}
			if e.row < 0 || e.row >= len(e.lines) || e.col < 0 || e.col > len(e.lines[e.row]) {
				t.Fatalf("cursor %d:%d outside the text", e.row, e.col)
			}
		}
		if n := len(strings.Split(e.View(), "\n")); n != e.height {
			t.Fatalf("view has %d rows, want %d", n, e.height)
		}
		if strings.Count(e.Value(), "\n")+1 != len(e.lines) {
			t.Fatal("Value and lines disagree")
		}
	})
}

func TestLayoutFitsEverySize(t *testing.T) {
	for w := 20; w <= 300; w += 7 {
		for h := 8; h <= 100; h += 5 {
			l := computeLayout(w, h)
			for p := pageTools; p <= pageExplore; p++ {
				var rs []rect
				for _, f := range l.panesOn(p) {
					r := l.rectOf(p, f)
					if r.w <= 0 || r.h <= 0 || r.x < 0 || r.y < l.body.y || r.x+r.w > w || r.y+r.h > l.body.y+l.body.h {
						t.Fatalf("%dx%d page %v pane %v: %+v outside the body %+v", w, h, p, f, r, l.body)
					}
					for _, o := range rs {
						if r.x < o.x+o.w && o.x < r.x+r.w && r.y < o.y+o.h && o.y < r.y+r.h {
							t.Fatalf("%dx%d page %v: %+v overlaps %+v", w, h, p, r, o)
						}
					}
					rs = append(rs, r)
				}
			}
		}
	}
}

// Every frame is exactly the terminal's size, whatever the size.
func TestFrameSizeAtManySizes(t *testing.T) {
	h := readyHarness(t, 80, 24)
	for _, sz := range [][2]int{{20, 8}, {40, 12}, {80, 24}, {109, 30}, {110, 30}, {160, 48}, {250, 70}} {
		h.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		for _, p := range []string{"1", "2", "3"} {
			h.key("esc")
			h.key(p)
			lines := strings.Split(h.screen(), "\n")
			if len(lines) != sz[1] {
				t.Fatalf("%dx%d page %s: %d lines", sz[0], sz[1], p, len(lines))
			}
			for i, l := range lines {
				if n := ansi.StringWidth(l); n != sz[0] {
					t.Fatalf("%dx%d page %s line %d: width %d: %q", sz[0], sz[1], p, i, n, l)
				}
			}
		}
	}
}

func TestThemesFollowBackgroundAndNoColor(t *testing.T) {
	b := newFakeBackend()
	opts, _, _ := fakeOptions(b)
	opts.Theme = mustTheme("auto")
	h := newHarness(t, opts, 80, 24)
	h.ready()
	h.send(tea.BackgroundColorMsg{Color: color.White})
	if h.m.styles.Palette.Name != "light" {
		t.Errorf("a white background gave the %s palette", h.m.styles.Palette.Name)
	}
	h.send(tea.BackgroundColorMsg{Color: color.Black})
	if h.m.styles.Palette.Name != "dark" {
		t.Errorf("a black background gave the %s palette", h.m.styles.Palette.Name)
	}

	opts2, _, _ := fakeOptions(newFakeBackend())
	ch, _ := themes.Parse("dark", true) // NO_COLOR set
	opts2.Theme = ch
	h2 := newHarness(t, opts2, 120, 40)
	h2.ready()
	h2.send(tea.BackgroundColorMsg{Color: color.White})
	out := h2.m.render()
	if regexp.MustCompile("\x1b\\[[0-9;]*[34]8;").MatchString(out) {
		t.Errorf("NO_COLOR frame has colours")
	}
	if !strings.Contains(out, "\x1b[7m") {
		t.Errorf("NO_COLOR frame should mark the selection with reverse video")
	}
}

func TestSavingsAndThousands(t *testing.T) {
	if s := savings(100, 37); s != "-63%" {
		t.Errorf("savings = %s", s)
	}
	if s := savings(100, 150); s != "+50%" {
		t.Errorf("savings = %s", s)
	}
	if s := savings(0, 5); s != "" {
		t.Errorf("no base: %q", s)
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %s", n, got)
		}
	}
}

func TestListNav(t *testing.T) {
	var l listNav
	l.setHeight(3)
	l.setLen(10)
	l.move(5)
	if l.cursor != 5 || l.offset != 3 {
		t.Errorf("after move: %+v", l)
	}
	l.bottom()
	if from, to := l.visible(); from != 7 || to != 10 {
		t.Errorf("visible %d..%d", from, to)
	}
	l.scroll(-100)
	if l.offset != 0 || l.cursor != 2 {
		t.Errorf("after scroll: %+v", l)
	}
	l.setLen(0)
	if l.cursor != 0 || l.offset != 0 {
		t.Errorf("empty: %+v", l)
	}
	if l.click(0) {
		t.Error("click on an empty list selected something")
	}
}

// FuzzFuzzyMatch checks the dynamic program against the obvious answers:
// it matches exactly when the pattern is a subsequence, its positions point
// at the pattern's runes in order, and it never scores below the greedy
// first placement.
func FuzzFuzzyMatch(f *testing.F) {
	f.Add("fr", "file_read")
	f.Add("gt", "get_todo")
	f.Add("ÉA", "élan_A")
	f.Add("aaa", "a_a_aaa")
	f.Fuzz(func(t *testing.T, pat, s string) {
		if !utf8.ValidString(pat) || !utf8.ValidString(s) || len(s) > 300 || len(pat) > 30 {
			return
		}
		score, pos, ok := fuzzyMatch(pat, s)
		lp := []rune(strings.ToLower(pat))
		var lower []rune
		offs := []int{}
		for i, r := range s {
			lower = append(lower, unicode.ToLower(r))
			offs = append(offs, i)
		}
		gscore, _, gok := greedyMatch(lp, lower, offs, func(j int) int {
			if j == 0 {
				return 10
			}
			if isBoundary([]rune(s)[j-1], []rune(s)[j]) {
				return 8
			}
			return 0
		})
		if pat == "" {
			return
		}
		if ok != gok {
			t.Fatalf("fuzzyMatch(%q, %q) ok=%v, greedy ok=%v", pat, s, ok, gok)
		}
		if !ok {
			return
		}
		if score < gscore {
			t.Fatalf("fuzzyMatch(%q, %q) = %d, below greedy %d", pat, s, score, gscore)
		}
		if len(pos) != len(lp) {
			t.Fatalf("%d positions for %d runes", len(pos), len(lp))
		}
		for i, p := range pos {
			r, _ := utf8.DecodeRuneInString(s[p:])
			if unicode.ToLower(r) != lp[i] || (i > 0 && p <= pos[i-1]) {
				t.Fatalf("position %d (%d) does not match %q in order", i, p, lp[i])
			}
		}
	})
}

func TestURITemplates(t *testing.T) {
	vals := map[string]string{"id": "42", "path": "a/b c", "q": "x y", "n": "3"}
	cases := map[string]string{
		"demo://todo/{id}":      "demo://todo/42",
		"file:///{+path}":       "file:///a/b%20c",
		"demo://x{/id,n}":       "demo://x/42/3",
		"demo://s{?q,n}":        "demo://s?q=x+y&n=3",
		"demo://p/{path}":       "demo://p/a%2Fb%20c",
		"demo://{missing}/{id}": "demo:///42",
		"demo://{id:2}{#n}":     "demo://42#3",
		"plain":                 "plain",
		"broken{":               "broken{",
	}
	for tpl, want := range cases {
		if got := expandTemplate(tpl, vals); got != want {
			t.Errorf("expandTemplate(%q) = %q, want %q", tpl, got, want)
		}
	}
	if got := strings.Join(templateVars("demo://{a}/{+b}{?c,a}{&d*}"), ","); got != "a,b,c,d" {
		t.Errorf("templateVars = %s", got)
	}
}
