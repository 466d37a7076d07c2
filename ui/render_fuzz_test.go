package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/themes"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// renderSeeds are server texts that once reached the terminal as control
// sequences, or that try to: HTML character references glamour decodes
// after the sanitiser ran, raw escapes, C1 controls, bidi controls.
var renderSeeds = []string{
	"# Result\n\n- &#x1b;]8;;http://evil.example/&#x1b;\\CLICK&#x1b;]8;;&#x1b;\\\n- **bold**",
	"# Result\n\n- &#27;[2J&#27;[H wiped\n- &#x9b;2J",
	"# Trojan\n\n- user&#x202e;gnp.exe\n- user&#8238;gnp.exe and &#x2066;isolate&#x2069;",
	"# Clipboard\n\n- &#x1b;]52;c;cm0gLXJmIH4K&#x07;\n- `&#x1b;[31m in code`",
	"# C1\n\n- &#x9d;8;;http://evil.example/&#x9c;x\n- &#144;q&#x1b;\\ and &#x85;",
	"# Named\n\n- &lrm;&rlm;&zwnj;&ZeroWidthSpace;&NewLine;&Tab;&#13;over\n- &amp;#x1b; double",
	"# Raw\n\n- \x1b]8;;http://evil.example/\x1b\\CLICK\x1b]8;;\x1b\\\n- \u009b2J \u202e \x1bP1$r\x1b\\",
	"| a | b |\n|---|---|\n| &#x1b;[5m | &#x202e; |\n\n> &#x1b;[8mhidden",
	"[link](http://evil.example/&#x1b;) and [&#x1b;]8;;x&#x7;text](http://x/)\n\n## more",
	"{\"k\": \"\\u001b]8;;http://evil.example/\\u001b\\\\x\", \"b\": \"\\u202e\\u009b2J\"}",
	"<p>&#x1b;[2J</p>\n\n# html\n\n- <b>&#x202e;</b>",
	"plain \x1b[2J\x1b[H text \r\nwith CR\roverwrite \u2028 sep \U000E0041 tag",
}

// checkSafeBytes fails unless s could go to a terminal as it is: valid
// UTF-8, no ESC but in an SGR sequence, no C0 but \n and \t, no DEL, no C1
// control, no bidi control or mark, no line or paragraph separator, no
// tag character.
func checkSafeBytes(t *testing.T, where, in, s string) {
	t.Helper()
	if err := terminalProblem(s); err != nil {
		t.Fatalf("%s of %q: %v\n%q", where, in, err, s)
	}
}

var sgr = regexp.MustCompile(`^\x1b\[[0-9;:]*m`)

func terminalProblem(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("invalid UTF-8")
	}
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			m := sgr.FindString(s[i:])
			if m == "" {
				return fmt.Errorf("ESC at %d not SGR: %q", i, s[i:min(len(s), i+12)])
			}
			i += len(m)
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f:
			return fmt.Errorf("control %U at %d", r, i)
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x61c,
			r == 0x2028, r == 0x2029, r >= 0xe0000 && r <= 0xe007f:
			return fmt.Errorf("hidden %U at %d", r, i)
		}
		i += n
	}
	return nil
}

// FuzzRenderPath: server text through each way the workbench renders a
// result — the automatic choice, markdown through glamour, the
// highlighter, plain text, a resource block — and then the frame filter.
// The renderers' output is already safe at source (Markdown and Styled
// around glamour), and the frame that reaches Bubble Tea is safe whatever
// they did.
func FuzzRenderPath(f *testing.F) {
	for _, s := range renderSeeds {
		f.Add(s)
	}
	st := NewStyles(themes.Dark())
	md := markdownRenderer(st, 80)
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 {
			return // glamour's time, not coverage
		}
		san := safe.Text
		res := ojson.NewObject().Set("content", ojson.NewArray(
			ojson.NewObject().Set("type", ojson.NewString("text")).Set("text", ojson.NewString(text)),
			ojson.NewObject().Set("type", ojson.NewString("resource")).Set("resource",
				ojson.NewObject().Set("uri", ojson.NewString("file:///"+text)).Set("text", ojson.NewString(text)))))
		outs := []struct{ name, out string }{
			{"renderText", renderText(text, st, san, md)},
			{"markdown", md(san(text))},
			{"highlight json", widget.Highlight(st.Syntax, "json", san(text))},
			{"highlight scheme", widget.Highlight(st.Syntax, "scheme", san(text))},
			{"plain", st.Text.Render(san(text))},
			{"blocks", renderBlocks(resultBlocks(res), nil, st, san, md)},
		}
		for _, o := range outs {
			checkSafeBytes(t, o.name, text, o.out)
			frame := safe.Terminal(strings.Join([]string{"header", o.out, "footer"}, "\n"))
			checkSafeBytes(t, o.name+" framed", text, frame)
		}
	})
}

// TestRenderSeedsShowWhatWasThere: the character references are not only
// harmless but visible, spelt as escapes, and the link text survives.
func TestRenderSeedsShowWhatWasThere(t *testing.T) {
	st := NewStyles(themes.Mono())
	md := markdownRenderer(st, 100)
	out := safe.Terminal(renderText(renderSeeds[0], st, safe.Text, md))
	for _, want := range []string{`\u001b]8;;http://evil.example/`, "CLICK"} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown of %q does not show %q:\n%s", renderSeeds[0], want, out)
		}
	}
	out = safe.Terminal(renderText(renderSeeds[2], st, safe.Text, md))
	if !strings.Contains(out, `user\u202egnp.exe`) {
		t.Errorf("bidi override not shown as an escape:\n%s", out)
	}
}
