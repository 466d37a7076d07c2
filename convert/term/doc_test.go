package term

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

type docBlock struct {
	info string
	body string
	line int
}

// specBlocks returns the fenced blocks of docs/mcp-term.md with their info
// strings.
func specBlocks(t *testing.T) []docBlock {
	data, err := os.ReadFile(filepath.Join(moduleRoot(t), "docs", "mcp-term.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []docBlock
	var cur *docBlock
	for i, line := range strings.Split(string(data), "\n") {
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			cur = &docBlock{info: strings.TrimSpace(line[3:]), line: i + 1}
		case cur != nil && line == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.body += line + "\n"
		}
	}
	return out
}

// TestSpecExamples checks every example of the spec: a `json tools` block
// renders to exactly the `mcp-term` block after it (which round-trips), and
// an `mcp-term reads` block reads back to exactly the `json mcp` block after
// it.
func TestSpecExamples(t *testing.T) {
	blocks := specBlocks(t)
	checked := 0
	for i, b := range blocks {
		if i+1 >= len(blocks) {
			break
		}
		next := blocks[i+1]
		switch {
		case b.info == "json tools":
			if next.info != "mcp-term" {
				t.Errorf("line %d: a json tools block must be followed by an mcp-term block", b.line)
				continue
			}
			set, err := toolset.Parse([]byte(b.body))
			if err != nil {
				t.Fatalf("line %d: %v", b.line, err)
			}
			doc := mustRender(t, set, Options{})
			if doc.Text != next.body {
				t.Errorf("line %d: the example renders as\n%s\nbut the spec shows\n%s", next.line, doc.Text, next.body)
			}
			roundTrip(t, "spec example at line "+itoa(b.line), set)
			checked++
		case b.info == "mcp-term reads":
			if next.info != "json mcp" {
				t.Errorf("line %d: an mcp-term reads block must be followed by a json mcp block", b.line)
				continue
			}
			set, err := Parse(b.body)
			if err != nil {
				t.Fatalf("line %d: %v", b.line, err)
			}
			want, err := ojson.Parse([]byte(next.body))
			if err != nil {
				t.Fatalf("line %d: %v", next.line, err)
			}
			if got := set.Result(); !ojson.Equal(got, want) {
				t.Errorf("line %d: reads as\n%s\nbut the spec shows\n%s", b.line, got.Compact(), want.Compact())
			}
			checked++
		}
	}
	if checked < 5 {
		t.Errorf("only %d checked examples in the spec", checked)
	}
}
