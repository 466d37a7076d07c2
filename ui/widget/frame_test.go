package widget

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

func testFrameStyle() FrameStyle {
	ns := lipgloss.NewStyle
	pane := ns().Border(lipgloss.RoundedBorder()).Padding(0, 1)
	return FrameStyle{Blurred: pane, Focused: pane.BorderStyle(lipgloss.ThickBorder()), Title: ns().Bold(true), TitleBlurred: ns(), Note: ns().Faint(true)}
}

// checkBlock fails unless s is exactly w cells wide and h lines high.
func checkBlock(t *testing.T, what, s string, w, h int) {
	t.Helper()
	lines := strings.Split(s, "\n")
	if len(lines) != h {
		t.Fatalf("%s: %d lines, want %d:\n%s", what, len(lines), h, s)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n != w {
			t.Fatalf("%s: line %d is %d cells, want %d: %q", what, i, n, w, l)
		}
	}
}

func TestFrameIsExactlyItsSize(t *testing.T) {
	fs := testFrameStyle()
	content := "short\n" + strings.Repeat("wide 中文 ", 40) + "\n\tx\n"
	for w := 1; w <= 90; w += 3 {
		for h := 1; h <= 12; h++ {
			for _, focused := range []bool{false, true} {
				out := Frame(fs, focused, w, h, "Title that is long enough to be cut", "note · 12/40", content)
				checkBlock(t, "frame", out, w, h)
			}
		}
	}
	out := ansi.Strip(Frame(fs, true, 30, 4, "Tools", "sort", "a\nb\nc\nd"))
	if !strings.Contains(out, "Tools") || !strings.Contains(out, "sort") || strings.Contains(out, "c") {
		t.Errorf("title, note or clipping wrong:\n%s", out)
	}
	if iw, ih := Inner(fs, 30, 4); iw != 26 || ih != 2 {
		t.Errorf("inner of 30x4 = %dx%d, want 26x2", iw, ih)
	}
}

func TestFitAndJoin(t *testing.T) {
	if got := FitLine("abcdef", 4); ansi.StringWidth(got) != 4 || !strings.HasSuffix(got, "…") {
		t.Errorf("FitLine cut = %q", got)
	}
	if got := FitLine("ab", 4); got != "ab  " {
		t.Errorf("FitLine pad = %q", got)
	}
	if got := Truncate("abc", 0); got != "" {
		t.Errorf("Truncate to 0 = %q", got)
	}
	if got := PadRight("é", 3); got != "é  " {
		t.Errorf("PadRight = %q", got)
	}
	checkBlock(t, "FitBlock", FitBlock("a\nbbbbbbbbbb\nc\nd", 5, 3), 5, 3)
	if got := JoinColumns("a\nb", "1\n2\n3"); got != "a1\nb2\n3" {
		t.Errorf("JoinColumns = %q", got)
	}
}

// FuzzFrame: whatever the content and the size, a frame is exactly its
// rectangle, so a server's text can never tear the layout.
func FuzzFrame(f *testing.F) {
	f.Add("plain", "t", "n", 20, 5)
	f.Add("中文\x1b[31mred\x1b[0m\n\n\n\n\n\n", "Side by side · 中", "Δ -12 tok", 7, 3)
	f.Add(strings.Repeat("x", 300), "", "", 3, 2)
	fs := testFrameStyle()
	f.Fuzz(func(t *testing.T, content, title, note string, w, h int) {
		w, h = w%200, h%60
		if w < 1 || h < 1 || strings.ContainsFunc(content+title+note, isControl) {
			// Text reaches a frame sanitised (convert/safe): no controls
			// but line breaks, tabs expanded; broken UTF-8 is allowed.
			return
		}
		checkBlock(t, "frame", Frame(fs, w%2 == 0, w, h, title, note, content), w, h)
	})
}

func TestScroller(t *testing.T) {
	var s Scroller
	s.SetSize(10, 3)
	s.SetContent("one\n" + strings.Repeat("x", 25) + "\nlast")
	if s.TotalLines() != 5 { // "one", three wrapped rows, "last"
		t.Fatalf("wrapped to %d lines, want 5", s.TotalLines())
	}
	if v := s.Visible(); len(v) != 3 || v[0] != "one" {
		t.Fatalf("visible %q", v)
	}
	s.GotoBottom()
	if s.YOffset() != 2 || s.Percent() != 100 || s.Visible()[2] != "last" {
		t.Errorf("bottom: offset %d, %d%%, %q", s.YOffset(), s.Percent(), s.Visible())
	}
	s.Scroll(100)
	if s.YOffset() != 2 {
		t.Errorf("scrolled past the end: %d", s.YOffset())
	}
	s.SetYOffset(-5)
	if s.YOffset() != 0 {
		t.Errorf("negative offset kept: %d", s.YOffset())
	}
	if s.RowOf(0) != 0 || s.RowOf(1) != 1 || s.RowOf(2) != 4 || s.RowOf(99) != 4 {
		t.Errorf("rows of lines 0, 1, 2: %d %d %d", s.RowOf(0), s.RowOf(1), s.RowOf(2))
	}
	s.SetSize(30, 10) // wider: the long line fits again, the offset is clamped
	if s.TotalLines() != 3 || s.YOffset() != 0 || len(s.Visible()) != 10 {
		t.Errorf("after resize: %d lines, offset %d, %d visible", s.TotalLines(), s.YOffset(), len(s.Visible()))
	}
	for _, l := range s.Visible() {
		if ansi.StringWidth(l) > 30 {
			t.Errorf("line wider than the scroller: %q", l)
		}
	}
}

func TestHighlightKeepsTheText(t *testing.T) {
	ss := SyntaxStyles{Key: lipgloss.NewStyle().Bold(true), String: lipgloss.NewStyle().Underline(true)}
	for lexer, text := range map[string]string{
		"json":       "{\n  \"path\": \"/etc/hosts\",\n  \"n\": [1, true, null]\n}",
		"scheme":     "(declare\n  (fr file_read (path string) \"Read.\"))",
		"typescript": "type A = { path: string };",
		"no-such":    "plain text",
	} {
		if got := ansi.Strip(Highlight(ss, lexer, text)); got != text {
			t.Errorf("%s: highlighting changed the text:\n%q\n%q", lexer, got, text)
		}
	}
	if got := HighlightPositions("file_read", []int{0, 5}, lipgloss.NewStyle().Underline(true)); ansi.Strip(got) != "file_read" || got == "file_read" {
		t.Errorf("HighlightPositions = %q", got)
	}
}
