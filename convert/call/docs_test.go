package call

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// docBlocks returns the bodies of the fenced blocks of a language in
// docs/mcp-term-calls.md.
func docBlocks(t *testing.T, lang string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "mcp-term-calls.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var cur *strings.Builder
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case cur == nil && line == "```"+lang:
			cur = &strings.Builder{}
		case cur != nil && line == "```":
			out = append(out, cur.String())
			cur = nil
		case cur != nil:
			cur.WriteString(line)
			cur.WriteByte('\n')
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %s blocks in docs/mcp-term-calls.md", lang)
	}
	return out
}

// splitExample separates the source from the => / == / !! lines.
func splitExample(block string) (src string, checks []string) {
	lines := strings.Split(strings.TrimRight(block, "\n"), "\n")
	i := 0
	for i < len(lines) && !strings.HasPrefix(lines[i], "=> ") && !strings.HasPrefix(lines[i], "== ") && !strings.HasPrefix(lines[i], "!! ") {
		i++
	}
	return strings.Join(lines[:i], "\n"), lines[i:]
}

// TestDocExamples runs every example of the call spec: the arguments a call
// reads as, its canonical form, or its exact error message.
func TestDocExamples(t *testing.T) {
	r := NewResolver(fixtures(t))
	for _, block := range docBlocks(t, "example") {
		src, checks := splitExample(block)
		if len(checks) == 0 {
			t.Errorf("example without => / == / !! lines:\n%s", block)
			continue
		}
		b, err := r.Parse(src)
		var calls []string
		for _, chk := range checks {
			switch body := chk[3:]; chk[:3] {
			case "!! ":
				if err == nil || err.Error() != body {
					t.Errorf("%s\n  error: %v\n  doc:   %s", src, err, body)
				}
			case "=> ":
				calls = append(calls, body)
			case "== ":
				if err != nil {
					t.Errorf("%s: %v", src, err)
					continue
				}
				n, ferr := r.FormatBatch(b)
				if ferr != nil || n.String() != body {
					t.Errorf("%s\n  canonical: %v %v\n  doc:       %s", src, n, ferr, body)
				}
			}
		}
		if len(calls) == 0 {
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if len(calls) != len(b.Calls) {
			t.Errorf("%s: reads as %d calls, doc shows %d", src, len(b.Calls), len(calls))
			continue
		}
		for i, want := range calls {
			c := b.Calls[i]
			f := strings.SplitN(want, " ", 3)
			if !b.IsBatch {
				f = append([]string{""}, strings.SplitN(want, " ", 2)...)
			}
			args, perr := ojson.Parse([]byte(f[2]))
			if perr != nil {
				t.Fatalf("doc example arguments %s: %v", f[2], perr)
			}
			if c.ID != f[0] || c.Tool != f[1] || !ojson.Equal(c.Arguments, args) || c.Arguments.Compact() != args.Compact() {
				t.Errorf("%s\n  reads as: %s %s %s\n  doc:      %s", src, c.ID, c.Tool, c.Arguments.Compact(), want)
			}
		}
	}
}

func TestDocResults(t *testing.T) {
	for _, block := range docBlocks(t, "result") {
		src, checks := splitExample(block)
		v, err := ojson.Parse([]byte(src))
		if err != nil {
			t.Fatalf("result example %s: %v", src, err)
		}
		if len(checks) != 1 || !strings.HasPrefix(checks[0], "=> ") {
			t.Fatalf("result example needs one => line:\n%s", block)
		}
		if got := ResultToTerm(v).String(); got != checks[0][3:] {
			t.Errorf("%s\n  renders: %s\n  doc:     %s", src, got, checks[0][3:])
		}
	}
}
