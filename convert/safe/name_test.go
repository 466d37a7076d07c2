package safe

import (
	"fmt"
	"html"
	"reflect"
	"strings"
	"testing"
)

func TestName(t *testing.T) {
	for in, want := range map[string]string{
		"file_read":         "file_read",
		"file_read\u200b":   `file_read\u200b`,
		"a\u00a0b":          `a\u00a0b`,
		"a b":               "a b",
		"\ufeffbom":         `\ufeffbom`,
		"x\u2060y\u00adz":   `x\u2060y\u00adz`,
		"rtl\u202egnp.exe":  `rtl\u202egnp.exe`,
		"two\rrows\nhere":   `two\nrows\nhere`,
		"\u3164":            `\u3164`,
		"emoji\ufe0f":       `emoji\ufe0f`,
		"é世":                "é世",
		"\x1b[31mred\x1b[m": "red",
	} {
		if got := Name(in); got != want {
			t.Errorf("Name(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLookalikes(t *testing.T) {
	got := Lookalikes([]string{"file_read", "file_read\u200b", "write", "Delete_File", "delete_file", "ｗｒｉｔｅ", "other", "other"})
	want := map[string][]string{
		"file_read":       {"file_read\u200b"},
		"file_read\u200b": {"file_read"},
		"write":           {"ｗｒｉｔｅ"},
		"ｗｒｉｔｅ":           {"write"},
		"Delete_File":     {"delete_file"},
		"delete_file":     {"Delete_File"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Lookalikes = %q, want %q", got, want)
	}
	if got := Lookalikes([]string{"a", "b", "c"}); got != nil {
		t.Fatalf("no lookalikes: %q", got)
	}
}

func TestFirstLine(t *testing.T) {
	for in, want := range map[string]string{
		"  one line  ":         "one line",
		"first\rforged row":    "first",
		"first\r\nsecond":      "first",
		"first\u2028second":    "first",
		"first\u0085second":    "first",
		"first \u2029":         "first",
		"\n\nlead\nnext":       "lead",
		"v\vtab\fff":           "v",
		"no break, just words": "no break, just words",
	} {
		if got := FirstLine(in); got != want {
			t.Errorf("FirstLine(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMarkdown(t *testing.T) {
	for in, want := range map[string]string{
		"no refs":                        "no refs",
		"&amp; &lt; &nbsp; &#233; &copy": "&amp; &lt; &nbsp; &#233; &copy",
		"&#x1b;]8;;http://evil.example/&#x1b;\\CLICK": `\u001b]8;;http://evil.example/\u001b\CLICK`,
		"&#27;[2J":             `\u001b[2J`,
		"&#27[2J":              `\u001b[2J`,
		"&#x1B;":               `\u001b`,
		"&#x202e;evil &#8238;": `\u202eevil \u202e`,
		"&#x9d;8;;":            `\u009d8;;`,
		"&lrm;&rlm;&zwnj;":     `\u200e\u200f\u200c`,
		"&#x9b;":               "&#x9b;", // html reads it as U+203A, as in Windows-1252
		"a && b &#x1b":         `a && b \u001b`,
		"&#13;":                `\u000d`,
		"&#x000000001b;":       `\u001b`,
		"&#xE0041;":            `\U000e0041`,
		"&#x0041;":             "&#x0041;",
		"&&&&":                 "&&&&",
		"&NewLine;&Tab;":       "&NewLine;&Tab;",
		"tail &":               "tail &",
	} {
		if got := Markdown(in); got != want {
			t.Errorf("Markdown(%q) = %q, want %q", in, got, want)
		}
	}
}

// BenchmarkLookalikes20000 is the check on a 20,000-tool list, done once
// per list.
func BenchmarkLookalikes20000(b *testing.B) {
	names := make([]string, 20000)
	for i := range names {
		names[i] = fmt.Sprintf("tool_%05d_action", i)
	}
	b.ReportAllocs()
	for b.Loop() {
		if Lookalikes(names) != nil {
			b.Fatal("no lookalikes expected")
		}
	}
}

// FuzzName: a name comes out on one line with nothing invisible or
// controlling left, and names equal but for invisible characters look
// alike.
func FuzzName(f *testing.F) {
	for _, s := range []string{"file_read", "file_read\u200b", "a\u00a0b", "\u202e", "x\ry", "Delete_File", "ｗ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Name(s)
		for _, r := range out {
			if r < 0x20 || r == 0x7f || isC1(r) || isHidden(r) || invisible(r) {
				t.Fatalf("Name(%q) = %q keeps %U", s, out, r)
			}
		}
		twin := s + "\u200b"
		if NameKey(twin) != NameKey(s) {
			t.Fatalf("NameKey(%q) != NameKey(%q)", twin, s)
		}
		if got := Lookalikes([]string{s, twin}); len(got[s]) != 1 || len(got[twin]) != 1 {
			t.Fatalf("Lookalikes(%q, %q) = %q", s, twin, got)
		}
	})
}

// FuzzMarkdown: no reference left in the output decodes to a character
// the renderers must not be handed, and text without '&' is untouched.
func FuzzMarkdown(f *testing.F) {
	for _, s := range []string{"&#x1b;]8;;http://e/&#x1b;\\x", "&#27", "&#x202e;", "&#8238;", "&lrm;", "&amp;#x1b;", "&#x9d;", "a & b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Markdown(s)
		if !strings.Contains(s, "&") && out != s {
			t.Fatalf("Markdown(%q) = %q changed text without references", s, out)
		}
		dec := html.UnescapeString(out)
		orig := html.UnescapeString(s)
		for _, r := range dec {
			if refUnsafe(r) && !strings.ContainsRune(s, r) {
				t.Fatalf("Markdown(%q) = %q still decodes to %U (from %q)", s, out, r, orig)
			}
		}
	})
}
