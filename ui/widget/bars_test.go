package widget

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func plainBarStyle() BarStyle { return BarStyle{} }

// barCells reads a drawn bar's length back in eighths.
func barEighthsOf(s string) int {
	n := strings.Count(s, "█") * 8
	for i, e := range eighths {
		n += strings.Count(s, e) * (i + 1)
	}
	return n
}

func TestBarsDrawsScaledLabelledRows(t *testing.T) {
	rows := []Bar{
		{Label: "json", Value: 1000, Note: "1000"},
		{Label: "toon", Value: 500, Note: "500 50%", Tone: ToneCheaper},
		{Label: "x", Value: 1, Note: "1"},
		{Label: "zero", Value: 0, Note: "err"},
	}
	lines := Bars(rows, BarOptions{Width: 40}, plainBarStyle())
	if len(lines) != 4 {
		t.Fatalf("%d lines: %q", len(lines), lines)
	}
	for _, l := range lines {
		if ansi.StringWidth(l) != 40 {
			t.Fatalf("line %q is %d cells", l, ansi.StringWidth(l))
		}
	}
	// label 4 + space, note 7 + space: 27 cells of bar.
	if got := barEighthsOf(lines[0]); got != 27*8 {
		t.Errorf("full bar %d eighths, want %d: %q", got, 27*8, lines[0])
	}
	if got := barEighthsOf(lines[1]); got != 108 {
		t.Errorf("half bar %d eighths, want 108: %q", got, lines[1])
	}
	if got := barEighthsOf(lines[2]); got != 1 {
		t.Errorf("tiny value %d eighths, want 1: %q", got, lines[2])
	}
	if got := barEighthsOf(lines[3]); got != 0 || !strings.HasSuffix(lines[3], "    err") {
		t.Errorf("zero row %q", lines[3])
	}
	if !strings.HasPrefix(lines[1], "toon ") || !strings.HasSuffix(lines[1], "500 50%") {
		t.Errorf("row %q", lines[1])
	}
}

func TestBarsShortOfSpace(t *testing.T) {
	rows := []Bar{{Label: "a_long_label_here", Value: 10, Note: "10 tokens 50%"}, {Label: "b", Value: 5, Note: "5"}}
	lines := Bars(rows, BarOptions{Width: 30}, plainBarStyle())
	if strings.Contains(strings.Join(lines, "\n"), "tokens") {
		t.Errorf("notes kept when short of space: %q", lines)
	}
	if !strings.HasPrefix(lines[0], "a_long_label_here ") {
		t.Errorf("label cut though it fit without notes: %q", lines[0])
	}
	lines = Bars(rows, BarOptions{Width: 14}, plainBarStyle())
	if !strings.Contains(lines[0], "…") {
		t.Errorf("label not cut with …: %q", lines[0])
	}
	for _, l := range lines {
		if ansi.StringWidth(l) != 14 {
			t.Fatalf("line %q is %d cells", l, ansi.StringWidth(l))
		}
	}
}

func TestBarsHeightAndGroups(t *testing.T) {
	var rows []Bar
	for i := range 10 {
		rows = append(rows, Bar{Label: "r", Value: i, Group: []string{"one", "two"}[i/5]})
	}
	lines := Bars(rows, BarOptions{Width: 20}, plainBarStyle())
	if len(lines) != 12 || !strings.HasPrefix(lines[0], "one") || !strings.HasPrefix(lines[6], "two") {
		t.Fatalf("groups: %q", lines)
	}
	lines = Bars(rows, BarOptions{Width: 20, Height: 5}, plainBarStyle())
	if len(lines) != 5 || !strings.HasPrefix(lines[4], "… 7 more") {
		t.Fatalf("height 5: %q", lines)
	}
}

func TestBarsSharedScale(t *testing.T) {
	a := Bars([]Bar{{Value: 50}}, BarOptions{Width: 10, Full: 100}, plainBarStyle())
	if got := barEighthsOf(a[0]); got != 40 {
		t.Errorf("half of full scale %d eighths, want 40", got)
	}
}

// Property: lengths are monotone in the value and within one eighth of
// proportional, for any values and width.
func TestBarEighthsProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		cells := r.IntN(300)
		full := float64(r.IntN(1 << 20))
		a, b := r.IntN(1<<21)-1000, r.IntN(1<<21)-1000
		if a > b {
			a, b = b, a
		}
		ea, eb := BarEighths(a, full, cells), BarEighths(b, full, cells)
		if ea > eb {
			t.Fatalf("not monotone: %d→%d, %d→%d (full %v, cells %d)", a, ea, b, eb, full, cells)
		}
		if full > 0 && b > 0 && b <= int(full) {
			want := float64(b) / full * float64(cells*8)
			if math.Abs(float64(eb)-want) > 1 {
				t.Fatalf("value %d of %v in %d cells: %d eighths, want about %.2f", b, full, cells, eb, want)
			}
		}
		if eb < 0 || eb > cells*8 {
			t.Fatalf("%d eighths outside 0..%d", eb, cells*8)
		}
	}
}

// FuzzBars: whatever the rows and the size, a chart never panics and its
// lines are exactly the width and no more than the height.
func FuzzBars(f *testing.F) {
	f.Add("json", "1000 tok", "server", 1000, "toon", "50%", 500, 40, 5, 0)
	f.Add("中文\x1b[31m", "", "", -3, "\xe3", "err", 1<<40, 3, 1, 7)
	f.Add(strings.Repeat("x", 300), strings.Repeat("n", 99), "g", 1, "", "", 0, 200, 60, -1)
	f.Fuzz(func(t *testing.T, l1, n1, g string, v1 int, l2, n2 string, v2, w, h, full int) {
		w, h = w%250, h%70
		if strings.ContainsFunc(l1+n1+g+l2+n2, isControl) {
			return // text reaches a chart sanitised (convert/safe)
		}
		rows := []Bar{{Label: l1, Note: n1, Group: g, Value: v1}, {Label: l2, Note: n2, Value: v2, Tone: ToneDearer}, {Label: l1, Value: v2, Group: "other"}}
		lines := Bars(rows, BarOptions{Width: w, Height: h, Full: full}, plainBarStyle())
		if h > 0 && len(lines) > h {
			t.Fatalf("%d lines, height %d", len(lines), h)
		}
		for _, l := range lines {
			if n := ansi.StringWidth(l); n != w {
				t.Fatalf("line %q is %d cells, want %d", l, n, w)
			}
		}
	})
}
