package safe

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTextTable(t *testing.T) {
	tests := []struct {
		name, in, text, line string
	}{
		{"plain ascii", "hello world", "hello world", "hello world"},
		{"unicode kept", "héllo 世界 🙂", "héllo 世界 🙂", "héllo 世界 🙂"},
		{"newline and tab", "a\nb\tc", "a\nb\tc", `a\nb\tc`},
		{"crlf", "a\r\nb", "a\nb", `a\nb`},
		{"cr overwrite", "safe\rEVIL", "safe\nEVIL", `safe\nEVIL`},
		{"sgr colour", "\x1b[31mred\x1b[0m", "red", "red"},
		{"csi cursor up and erase", "ok\x1b[1A\x1b[2Kforged", "okforged", "okforged"},
		{"csi private mode", "\x1b[?1049hx\x1b[?25l", "x", "x"},
		{"csi with intermediate", "a\x1b[1 qb", "ab", "ab"},
		{"osc title bel", "\x1b]0;pwned\x07text", "text", "text"},
		{"osc title st", "\x1b]2;pwned\x1b\\text", "text", "text"},
		{"osc 52 clipboard", "a\x1b]52;c;cm0gLXJmIH4K\x07b", "ab", "ab"},
		{"osc 8 hyperlink keeps text", "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\", "click", "click"},
		{"osc ended by C1 ST", "\x1b]0;t\u009cx", "x", "x"},
		{"osc cancelled by CAN", "\x1b]0;t\x18x", "x", "x"},
		{"osc interrupted by new escape", "\x1b]0;t\x1b[31mx", "x", "x"},
		{"unterminated osc shows payload", "a\x1b]0;rest of it", "a0;rest of it", "a0;rest of it"},
		{"dcs", "a\x1bP1$r0m\x1b\\b", "ab", "ab"},
		{"dcs not ended by bel", "a\x1bPx\x07y\x1b\\b", "ab", "ab"},
		{"apc kitty graphics", "a\x1b_Gf=100;AAAA\x1b\\b", "ab", "ab"},
		{"pm and sos", "\x1b^pm\x1b\\\x1bXsos\x1b\\z", "z", "z"},
		{"two byte escapes", "\x1b7a\x1b8\x1bcb\x1bMc", "abc", "abc"},
		{"charset designation", "\x1b(0lqk\x1b(B", "lqk", "lqk"},
		{"dec line", "\x1b#8x", "x", "x"},
		{"lone esc at end", "x\x1b", "x", "x"},
		{"esc before newline", "x\x1b\ny", "x\ny", `x\ny`},
		{"c1 csi", "a\u009b31mb", "ab", "ab"},
		{"c1 osc", "a\u009d0;t\u0007b", "ab", "ab"},
		{"c1 other visible", "a\u0085b", `a\u0085b`, `a\u0085b`},
		{"bel", "ding\a", "ding␇", "ding␇"},
		{"backspace", "abc\b\b\bxyz", "abc␈␈␈xyz", "abc␈␈␈xyz"},
		{"nul and del", "a\x00b\x7fc", "a␀b␡c", "a␀b␡c"},
		{"vertical tab form feed", "a\vb\fc", "a␋b␌c", "a␋b␌c"},
		{"bidi override", "user\u202Egnp.exe", `user\u202egnp.exe`, `user\u202egnp.exe`},
		{"bidi isolates", "\u2066x\u2069", `\u2066x\u2069`, `\u2066x\u2069`},
		{"bidi marks", "a\u200Eb\u200fc\u061cd", `a\u200eb\u200fc\u061cd`, `a\u200eb\u200fc\u061cd`},
		{"zwj emoji kept", "👩\u200d💻", "👩\u200d💻", "👩\u200d💻"},
		{"line separator", "a\u2028b\u2029", `a\u2028b\u2029`, `a\u2028b\u2029`},
		{"tag characters", "ok\U000E0069\U000E0067\U000E007F", `ok\U000e0069\U000e0067\U000e007f`, `ok\U000e0069\U000e0067\U000e007f`},
		{"invalid utf8", "a\xffb\xc3", "a\uFFFDb\uFFFD", "a\uFFFDb\uFFFD"},
		{"raw c1 byte is invalid utf8", "a\x9b31mb", "a\uFFFD31mb", "a\uFFFD31mb"},
		{"empty", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Text(tt.in); got != tt.text {
				t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.text)
			}
			if got := Line(tt.in); got != tt.line {
				t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.line)
			}
		})
	}
}

func TestCleanTextIsNotCopied(t *testing.T) {
	s := strings.Repeat("plain text, ünïcödé\n\t", 100)
	if n := testing.AllocsPerRun(20, func() { _ = Text(s) }); n != 0 {
		t.Fatalf("Text on clean input allocated %v times", n)
	}
}

func TestSanitizeMax(t *testing.T) {
	long := strings.Repeat("abcdefghij", 100) // 1000 bytes
	got := Sanitize(long, Options{Max: 100})
	if len(got) > 100 {
		t.Fatalf("len %d > 100: %q", len(got), got)
	}
	if !strings.HasSuffix(got, "…(cut 920 bytes)") && !strings.Contains(got, "…(cut ") {
		t.Fatalf("no marker: %q", got)
	}
	kept := strings.TrimSuffix(got, got[strings.Index(got, "…(cut "):])
	if !strings.HasPrefix(long, kept) {
		t.Fatalf("kept text %q is not a prefix of the input", kept)
	}
	wantCut := len(long) - len(kept)
	if !strings.HasSuffix(got, marker(wantCut)) {
		t.Fatalf("got %q, want marker for %d bytes", got, wantCut)
	}
	// fits exactly: untouched
	if got := Sanitize(long, Options{Max: len(long)}); got != long {
		t.Fatalf("text of exactly Max bytes was changed")
	}
	// escapes removed before measuring: the sanitised text fits
	in := "\x1b[31m" + strings.Repeat("x", 50) + "\x1b[0m"
	if got := Sanitize(in, Options{Max: 50}); got != strings.Repeat("x", 50) {
		t.Fatalf("got %q, want the 50 x's", got)
	}
	// cut counts input bytes, including stripped escapes
	in = strings.Repeat("\x1b[31mab", 100) // 700 bytes in, 200 out
	got = Sanitize(in, Options{Max: 60})
	if len(got) > 60 || !strings.Contains(got, "…(cut ") {
		t.Fatalf("got %q", got)
	}
	// never cuts inside a rune or an escape picture
	in = strings.Repeat("世\a", 100)
	for max := 20; max < 60; max++ {
		got := Sanitize(in, Options{Max: max})
		if len(got) > max || !utf8.ValidString(got) {
			t.Fatalf("max %d: %q", max, got)
		}
		body := got[:strings.Index(got, "…(cut ")]
		if strings.Trim(body, "世␇") != "" {
			t.Fatalf("max %d: broken token in %q", max, body)
		}
	}
	// tiny max: the marker alone
	if got := Sanitize(long, Options{Max: 3}); got != marker(len(long)) {
		t.Fatalf("got %q", got)
	}
}

func TestCut(t *testing.T) {
	s := strings.Repeat("é", 100) // 200 bytes
	got, cut := Cut(s, 50)
	if len(got) > 50 || !utf8.ValidString(got) {
		t.Fatalf("Cut = %q", got)
	}
	kept := strings.TrimSuffix(got, marker(cut))
	if kept == got || len(kept)+cut != len(s) || !strings.HasPrefix(s, kept) {
		t.Fatalf("Cut = %q, cut %d", got, cut)
	}
	if got, cut := Cut("short", 50); got != "short" || cut != 0 {
		t.Fatalf("Cut(short) = %q, %d", got, cut)
	}
	if got, cut := Cut("anything", 0); got != "anything" || cut != 0 {
		t.Fatalf("Cut(max 0) = %q, %d", got, cut)
	}
}

// checkSafe asserts the package's promise about any output.
func checkSafe(t testing.TB, in, out string, single bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("invalid UTF-8 out of %q: %q", in, out)
	}
	for _, r := range out {
		switch {
		case r == '\n' || r == '\t':
			if single {
				t.Fatalf("single-line output of %q contains %q: %q", in, r, out)
			}
		case r < 0x20 || r == 0x7f || isC1(r) || isHidden(r):
			t.Fatalf("output of %q contains control %U: %q", in, r, out)
		}
	}
}

// hostile builds random text from the pieces that make terminal attacks.
func hostile(rng *rand.Rand) string {
	parts := []string{
		"\x1b", "[", "]", "P", "X", "^", "_", "\\", "\a", "\x18", "\x1a", "\r", "\n", "\t",
		"\b", "\x00", "\x7f", "0;", "8;;", "52;c;", "m", "31", "?", "1049h", " ", "(", "#",
		"\u009b", "\u009c", "\u009d", "\u0090", "\u0085", "\xc2", "\x9c", "\x9b", "\xff",
		"\u202e", "\u2066", "\u2069", "\u2028", "\U000E0041", "é", "世", "🙂", "abc", "\u200e", "\xe2\x80",
	}
	var b strings.Builder
	n := rng.IntN(40)
	for range n {
		if rng.IntN(8) == 0 {
			b.WriteByte(byte(rng.IntN(256)))
		} else {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
	}
	return b.String()
}

func TestPropertyNoControlsEverEscape(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		in := hostile(rng)
		text, line := Text(in), Line(in)
		checkSafe(t, in, text, false)
		checkSafe(t, in, line, true)
		if Text(text) != text {
			t.Fatalf("Text not idempotent on %q: %q -> %q", in, text, Text(text))
		}
		if Line(line) != line {
			t.Fatalf("Line not idempotent on %q: %q -> %q", in, line, Line(line))
		}
		max := 20 + rng.IntN(40)
		cut := Sanitize(in, Options{Max: max})
		checkSafe(t, in, cut, false)
		if len(cut) > max {
			t.Fatalf("Sanitize(%q, max %d) = %q (%d bytes)", in, max, cut, len(cut))
		}
		if len(text) <= max && cut != text {
			t.Fatalf("Sanitize(%q, max %d) = %q, want the uncut %q", in, max, cut, text)
		}
		if len(text) > max {
			i := strings.LastIndex(cut, "…(cut ")
			if i < 0 || !strings.HasPrefix(text, cut[:i]) {
				t.Fatalf("Sanitize(%q, max %d) = %q: not a prefix of %q plus marker", in, max, cut, text)
			}
		}
	}
}

func TestPropertyPrintableTextUnchanged(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		var b strings.Builder
		for range rng.IntN(30) {
			r := rune(0x20 + rng.IntN(0x3000))
			if r == 0x7f || isC1(r) || isHidden(r) || (r >= 0xd800 && r <= 0xdfff) {
				continue
			}
			b.WriteRune(r)
		}
		s := b.String()
		if got := Text(s); got != s {
			t.Fatalf("Text(%q) = %q", s, got)
		}
		if got := Line(s); got != s {
			t.Fatalf("Line(%q) = %q", s, got)
		}
	}
}

func TestHostileInputStaysLinear(t *testing.T) {
	// Half a million unterminated C1 OSC introducers: without the scanner's
	// memory of where no terminator exists, each would rescan the whole tail
	// (about 10^11 steps) and this test would time out.
	in := strings.Repeat("\u009d", 500000) + "tail"
	if got := Text(in); got != "tail" {
		t.Fatalf("got %d bytes, want %q", len(got), "tail")
	}
	in = strings.Repeat("\u0090x", 300000)
	if got := Text(in); got != strings.Repeat("x", 300000) {
		t.Fatalf("unterminated DCS introducers: got %d bytes", len(got))
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{
		"", "plain", "\x1b[31mred\x1b[0m", "\x1b]8;;http://x\x1b\\t\x1b]8;;\x1b\\",
		"\x1b]52;c;Zm9v\a", "a\rb", "\u202e", "\u009b1m", "\xff\xfe", "\x1bP\x1b\\",
	} {
		f.Add(s, 0, false)
		f.Add(s, 24, true)
	}
	f.Fuzz(func(t *testing.T, in string, max int, single bool) {
		max %= 4096
		if max < 0 {
			max = -max
		}
		out := Sanitize(in, Options{SingleLine: single, Max: max})
		checkSafe(t, in, out, single)
		if max >= 32 && len(out) > max {
			t.Fatalf("len %d > max %d", len(out), max)
		}
		if max == 0 {
			if again := Sanitize(out, Options{SingleLine: single}); again != out {
				t.Fatalf("not idempotent: %q -> %q", out, again)
			}
		}
	})
}

func BenchmarkTextClean(b *testing.B) {
	s := strings.Repeat("The quick brown fox jumps over the lazy dog. ünïcödé\n", 1000)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = Text(s)
	}
}

func BenchmarkTextHostile(b *testing.B) {
	s := strings.Repeat("\x1b[31mred\x1b[0m \x1b]8;;http://x\x07link\x1b]8;;\x07\a\r\u202e", 1000)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = Text(s)
	}
}

func BenchmarkSanitizeCap10MB(b *testing.B) {
	s := strings.Repeat("result line with \x1b[1mbold\x1b[0m text\n", 10<<20/38)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = Sanitize(s, Options{Max: 2000})
	}
}
