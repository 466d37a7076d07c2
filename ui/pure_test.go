package ui

import (
	"image/color"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpterm/mcpterm/themes"
)

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

func TestLayoutFitsEverySize(t *testing.T) {
	for w := 20; w <= 300; w += 7 {
		for h := 8; h <= 100; h += 5 {
			l := computeLayout(w, h, w%40)
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
	opts := demoEnv(t).opts
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

	opts2 := demoEnv(t).opts
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
