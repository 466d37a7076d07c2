package widget

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpterm/mcpterm/ui/internal/uitest"
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
		sb, _, okb := FuzzyMatch(c.pat, c.better)
		sw, _, okw := FuzzyMatch(c.pat, c.worse)
		if !okb || !okw || sb <= sw {
			t.Errorf("%q: %s (%d, %v) should outrank %s (%d, %v)", c.pat, c.better, sb, okb, c.worse, sw, okw)
		}
	}
	if _, _, ok := FuzzyMatch("xyz", "file_read"); ok {
		t.Error("a non-subsequence matched")
	}
	_, pos, _ := FuzzyMatch("FR", "file_read")
	if len(pos) != 2 || pos[0] != 0 || pos[1] != 5 {
		t.Errorf("positions %v", pos)
	}
}

func TestEditorEditing(t *testing.T) {
	e := NewEditor()
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
	// Terminals paste line ends as CR: each is a new line, not lost.
	e.SetValue("")
	e.Update(tea.PasteMsg{Content: "(batch\r  (1 (lt))\r  (2 (fr \"/a\")))\r"})
	if got := e.Value(); got != "(batch\n  (1 (lt))\n  (2 (fr \"/a\")))\n" {
		t.Fatalf("a CR-separated paste reads %q", got)
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
		e := NewEditor()
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
		// Painting never changes what is drawn, only its colour: runs
		// here end at every rune a script byte names, past the line too.
		plain := ansi.Strip(e.View())
		e.Paint = func(row int, line []rune) []Run {
			var runs []Run
			for i := 0; i < len(script) && i < 8; i++ {
				runs = append(runs, Run{End: (len(runs)*3 + int(script[i])%5) % (len(line) + 3), Ink: red})
			}
			slices.SortFunc(runs, func(a, b Run) int { return a.End - b.End })
			return runs
		}
		if got := ansi.Strip(e.View()); got != plain {
			t.Fatalf("painting changed the text:\n%q\n%q", got, plain)
		}
		// A caret row anywhere keeps the view its height and the cursor
		// in it.
		if len(script) > 0 {
			e.SetCaret(&Caret{Row: int(script[0]) % (len(e.lines) + 1), Col: len(script) % 7, Len: w % 4, Text: script, Ink: red})
			v := e.View()
			if n := len(strings.Split(v, "\n")); n != e.height {
				t.Fatalf("with a caret the view has %d rows, want %d", n, e.height)
			}
			if !strings.Contains(v, "\x1b[7m") {
				t.Fatalf("with a caret on row %d the cursor (%d:%d, top %d) is off screen:\n%s", e.Caret.Row, e.row, e.col, e.top, v)
			}
			for _, l := range strings.Split(v, "\n") {
				// (At width 2 a wide rune and the cursor after it cannot fit.)
				if ansi.StringWidth(l) > e.width && e.width > 2 {
					t.Fatalf("a row is wider than the editor (%d): %q", e.width, l)
				}
			}
		}
		if strings.Count(e.Value(), "\n")+1 != len(e.lines) {
			t.Fatal("Value and lines disagree")
		}
	})
}

var red = NewInk(lipgloss.NewStyle().Foreground(lipgloss.Color("#ff0000")))

func TestEditorPaint(t *testing.T) {
	blue := NewInk(lipgloss.NewStyle().Foreground(lipgloss.Color("#0000ff")).Underline(true))
	e := NewEditor()
	e.SetWidth(30)
	e.SetHeight(2)
	e.SetValue("(fr \"/etc\")\nxy")
	e.Paint = func(row int, line []rune) []Run {
		if row == 0 {
			return []Run{{End: 1, Ink: nil}, {End: 3, Ink: red}, {End: 4}, {End: 10, Ink: blue}}
		}
		return nil
	}
	rows := strings.Split(e.View(), "\n")
	var want strings.Builder
	want.WriteString("(")
	red.Paint(&want, "fr")
	want.WriteString(" ")
	blue.Paint(&want, "\"/etc\"")
	want.WriteString(")")
	if rows[0] != want.String() {
		t.Errorf("painted row\n got %q\nwant %q", rows[0], want.String())
	}
	if red.pre == "" || !strings.Contains(red.pre, "38;2;255;0;0") {
		t.Errorf("the ink of a red style is %q", red.pre)
	}
	// The cursor is drawn over a painted run, splitting it.
	e.Focus()
	e.MoveToBegin()
	e.CursorRight()
	e.CursorRight()
	if got := strings.Split(e.View(), "\n")[0]; !strings.Contains(got, red.pre+"f"+red.post) || !strings.Contains(got, "\x1b[7mr") {
		t.Errorf("the cursor on the r of fr: %q", got)
	}
	if e.RuneBefore() != 'f' || e.RuneAfter() != 'r' {
		t.Errorf("around the cursor: %q %q", e.RuneBefore(), e.RuneAfter())
	}
	v := e.Version()
	e.DeleteAround(1, 2)
	if e.Value() != "(\"/etc\")\nxy" || e.Column() != 1 || e.Version() == v {
		t.Errorf("DeleteAround(1, 2): %q at %d", e.Value(), e.Column())
	}
	e.MoveToEnd()
	if e.RuneAfter() != 0 || e.RuneBefore() != 'y' {
		t.Errorf("at the end: %q %q", e.RuneBefore(), e.RuneAfter())
	}
	e.SetValue("a\u009b2Jb")
	if e.Value() != "a2Jb" {
		t.Errorf("a C1 control was kept: %q", e.Value())
	}
}

func TestEditorCaret(t *testing.T) {
	e := NewEditor()
	e.SetWidth(32)
	e.SetHeight(3)
	e.SetValue("(batch\n (1 (fr :paht x)))")
	e.SetCaret(&Caret{Row: 1, Col: 8, Len: 5, Text: "unknown parameter"})
	e.Focus()
	e.MoveToEnd()
	got := ansi.Strip(e.View())
	want := "(batch\n (1 (fr :paht x))) \n        ^^^^^ unknown parameter"
	if got != want {
		t.Errorf("caret view\n got %q\nwant %q", got, want)
	}
	// Too little room after the marks: the text goes before them.
	e.SetCaret(&Caret{Row: 1, Col: 17, Len: 2, Text: "missing the ')'"})
	if rows := strings.Split(ansi.Strip(e.View()), "\n"); rows[2] != " missing the ')' ^" {
		t.Errorf("caret row %q", rows[2])
	}
	// With two rows, the cursor's row stays on screen below the caret's.
	e.SetHeight(2)
	e.SetCaret(&Caret{Row: 0, Col: 1, Len: 5, Text: "here"})
	e.MoveToEnd()
	if rows := strings.Split(ansi.Strip(e.View()), "\n"); rows[1] != " (1 (fr :paht x))) " || rows[0] != " ^^^^^ here" {
		t.Errorf("the cursor's row scrolled away: %q", rows)
	}
}

func TestListNav(t *testing.T) {
	var l List
	l.SetHeight(3)
	l.SetLen(10)
	l.Move(5)
	if l.Cursor != 5 || l.Offset != 3 {
		t.Errorf("after move: %+v", l)
	}
	l.Bottom()
	if from, to := l.Visible(); from != 7 || to != 10 {
		t.Errorf("visible %d..%d", from, to)
	}
	l.Scroll(-100)
	if l.Offset != 0 || l.Cursor != 2 {
		t.Errorf("after scroll: %+v", l)
	}
	l.SetLen(0)
	if l.Cursor != 0 || l.Offset != 0 {
		t.Errorf("empty: %+v", l)
	}
	if l.Click(0) {
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
		score, pos, ok := FuzzyMatch(pat, s)
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
			t.Fatalf("FuzzyMatch(%q, %q) ok=%v, greedy ok=%v", pat, s, ok, gok)
		}
		if !ok {
			return
		}
		if score < gscore {
			t.Fatalf("FuzzyMatch(%q, %q) = %d, below greedy %d", pat, s, score, gscore)
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

// keyMsg builds a key press from its String() form.
func keyMsg(s string) tea.KeyPressMsg { return uitest.Key(s) }
