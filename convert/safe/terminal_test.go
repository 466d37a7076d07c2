package safe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTerminal(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"plain", "a b\nc\td", "a b\nc\td"},
		{"sgr kept", "\x1b[1;38;2;1;2;3mx\x1b[m\x1b[4:3my\x1b[0m", "\x1b[1;38;2;1;2;3mx\x1b[m\x1b[4:3my\x1b[0m"},
		{"box drawing kept", "╭─╮│é世🙂", "╭─╮│é世🙂"},
		{"osc 8 removed, text kept", "\x1b]8;;http://evil.example/\x1b\\CLICK\x1b]8;;\x1b\\", "CLICK"},
		{"osc 52 removed", "a\x1b]52;c;cm0gLXJmCg==\x07b", "ab"},
		{"dcs apc pm sos removed", "a\x1bPq#0\x1b\\b\x1b_Gx\x1b\\c\x1b^p\x1b\\d\x1bXs\x1b\\e", "abcde"},
		{"cursor and erase removed", "a\x1b[2J\x1b[H\x1b[?1049h\x1b[1Ab", "ab"},
		{"sgr with private marker removed", "a\x1b[?5mb", "ab"},
		{"two byte escapes removed", "a\x1bcb\x1b7c\x1b(Bd", "abcd"},
		{"lone esc removed", "a\x1b", "a"},
		{"c1 csi with params removed", "a\u009b2Jb", "ab"},
		{"c1 osc removed", "a\u009d8;;x\u009cb", "ab"},
		{"c1 dcs removed", "a\u0090q\x1b\\b", "ab"},
		{"other c1 removed", "a\u0085b\u0080", "ab"},
		{"c0 removed", "a\rb\x07c\x08d\x00e\x7f", "abcde"},
		{"bidi removed", "a\u202eb\u2066c\u2069d\u200ee\u200ff\u061cg", "abcdefg"},
		{"separators and tags removed", "a\u2028b\u2029c\U000E0041d", "abcd"},
		{"invalid utf8 replaced", "a\xffb\x9b2J", "a\uFFFDb\uFFFD2J"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := Terminal(tt.in); got != tt.want {
				t.Errorf("Terminal(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestStyled(t *testing.T) {
	for in, want := range map[string]string{
		"\x1b[1mbold\x1b[0m":                     "\x1b[1mbold\x1b[0m",
		"\x1b[1m\x1b]8;;http://x/\x1b\\l\x1b[0m": "\x1b[1ml\x1b[0m",
		"a\u202eb":                               `a\u202eb`,
		"a\x1b[2Jb\x07":                          "ab␇",
		"x\ry":                                   "x\ny",
	} {
		if got := Styled(in); got != want {
			t.Errorf("Styled(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTerminalCleanIsNotCopied(t *testing.T) {
	frame := benchFrame(160, 48)
	if n := testing.AllocsPerRun(20, func() { _ = Terminal(frame) }); n != 0 {
		t.Fatalf("Terminal on a clean frame allocated %v times", n)
	}
	if Terminal(frame) != frame {
		t.Fatal("a clean frame changed")
	}
}

// checkTerminalSafe fails unless s is what Terminal may let through: no
// ESC but in SGR, no other C0 but \n and \t, no DEL, C1, bidi or hidden
// character, valid UTF-8.
func checkTerminalSafe(t testing.TB, in, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("Terminal(%q) = %q is not UTF-8", in, s)
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c == 0x1b {
			n := sgrLen(s, i)
			if n == 0 {
				t.Fatalf("Terminal(%q) = %q keeps an ESC at %d that is not SGR", in, s, i)
			}
			i += n
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || frameDrops(r) {
			t.Fatalf("Terminal(%q) = %q keeps %U at %d", in, s, r, i)
		}
		i += n
	}
}

// FuzzTerminal: whatever the input, the output is safe, Terminal is
// idempotent, and a safe input is left alone.
func FuzzTerminal(f *testing.F) {
	for _, s := range []string{"\x1b[31mred\x1b[0m", "\x1b]8;;http://e/\x1b\\x", "\u009b2J", "\u202e", "\x1b[", "\x1b[1;2", "a\rb", "\xc2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Terminal(s)
		checkTerminalSafe(t, s, out)
		if again := Terminal(out); again != out {
			t.Fatalf("Terminal is not idempotent on %q: %q then %q", s, out, again)
		}
		st := Styled(s)
		checkTerminalSafe(t, s, st)
	})
}

// benchFrame is a workbench-like frame: w×h cells of box drawing, text and
// SGR runs, as lipgloss writes them.
func benchFrame(w, h int) string {
	var b strings.Builder
	for y := range h {
		if y > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("\x1b[38;2;120;130;140m│\x1b[m ")
		col := 2
		for col < w-2 {
			word := "tool_name"
			if y%3 == 0 {
				word = "описание"
			}
			b.WriteString("\x1b[1;38;2;200;200;100m")
			b.WriteString(word)
			b.WriteString("\x1b[m ")
			col += utf8.RuneCountInString(word) + 1
		}
		b.WriteString("\x1b[38;2;120;130;140m│\x1b[m")
	}
	return b.String()
}

func BenchmarkTerminal(b *testing.B) {
	frame := benchFrame(160, 48)
	dirty := frame[:len(frame)/2] + "\x1b]8;;http://evil.example/\x1b\\x\u202e" + frame[len(frame)/2:]
	for _, bc := range []struct {
		name, frame string
	}{{"160x48_clean", frame}, {"160x48_dirty", dirty}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.frame)))
			b.ReportAllocs()
			for b.Loop() {
				_ = Terminal(bc.frame)
			}
		})
	}
}
