package termtool

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/term"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

func TestHowTo(t *testing.T) {
	if h := HowTo("memory"); !strings.HasPrefix(h, "memory's tools in MCP-Term.") || strings.Contains(h, "\n") {
		t.Errorf("HowTo: %q", h)
	}
	if h := HowTo(""); !strings.HasPrefix(h, "the upstream server's tools") {
		t.Errorf("HowTo without a name: %q", h)
	}
	// The how-to says how to write every kind of value and that JSON is
	// read too (issue 17, item 7).
	for _, want := range []string{"JSON {name,arguments}", "nil", ":enum", "list (A B)", "record (A :k B)", "(batch (1 CALL) (2 CALL))", "(ok ...)", "(err ...)"} {
		if !strings.Contains(HowTo("s"), want) {
			t.Errorf("the how-to does not say %q", want)
		}
	}
}

// TestLazyDescriptionShape: the how-to, the describe line, a blank line,
// then exactly one listing line per tool in list order (term.ListingLine
// with the list's codes), and nothing after the last.
func TestLazyDescriptionShape(t *testing.T) {
	set := &toolset.Set{Server: "mcpterm-demo", Tools: []*toolset.Tool{
		tool("", "create_todo", "Create a todo. It gets an id."), tool("", "file_read", ""), tool("", "a\u202eb", "Odd name."),
	}}
	codes := term.ShortCodes(names(set.Tools))
	desc := LazyDescription(set.Server, set, nil)
	if withCodes := LazyDescription(set.Server, set, codes); withCodes != desc {
		t.Errorf("nil codes are not the short codes:\n%s\n%s", desc, withCodes)
	}
	head, listing, ok := strings.Cut(desc, "\n\n")
	if !ok || head != LazyHowTo("mcpterm-demo") || !strings.HasPrefix(head, HowTo("mcpterm-demo")+"\n") ||
		!strings.Contains(head, "(describe CODE...)") || !strings.Contains(head, "(describe :server S)") {
		t.Fatalf("head: %q", head)
	}
	lines := strings.Split(listing, "\n")
	if len(lines) != len(set.Tools) {
		t.Fatalf("%d lines for %d tools: %q", len(lines), len(set.Tools), listing)
	}
	for i, tl := range set.Tools {
		if want := term.EscapeHidden(term.ListingLine(tl, codes[tl.Name])); lines[i] != want {
			t.Errorf("line %d: %q, want %q", i, lines[i], want)
		}
	}
	if strings.Contains(desc, "\u202e") || !strings.HasSuffix(lines[0], ": Create a todo.") || strings.Contains(lines[1], ":") {
		t.Errorf("listing:\n%s", listing)
	}
	// Many servers: a header per server.
	multi := &toolset.Set{Tools: []*toolset.Tool{tool("memory", "read_graph", "Read."), tool("files", "read_file", "Read.")}}
	if d := LazyDescription("", multi, nil); !strings.Contains(d, "\n# memory\n") || !strings.Contains(d, "\n# files\n") {
		t.Errorf("many servers:\n%s", d)
	}
}

// TestToolsAsTheModelReceivesThem: TermTool and LazyTool are the
// gateway's one tool, and ModelFacing is it in the json baseline's shape:
// a one-item array of {name, description, input_schema} with InputSchema.
func TestToolsAsTheModelReceivesThem(t *testing.T) {
	set := &toolset.Set{Server: "srv", Tools: []*toolset.Tool{tool("", "create_todo", "Create a todo.")}}
	doc, err := term.Render(set, term.Options{ModelFacing: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tool Tool
		desc string
	}{
		{TermTool("mcp_term", "srv", doc.Text), HowTo("srv") + "\n\n" + strings.TrimRight(doc.Text, "\n")},
		{LazyTool("gw", set, nil), LazyDescription("srv", set, nil)},
	} {
		if tc.tool.Description != tc.desc {
			t.Errorf("%s: description %q, want %q", tc.tool.Name, tc.tool.Description, tc.desc)
		}
		var got []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"input_schema"`
		}
		mf := tc.tool.ModelFacing()
		if err := json.Unmarshal([]byte(mf), &got); err != nil || len(got) != 1 {
			t.Fatalf("%s: %v %s", tc.tool.Name, err, mf)
		}
		if got[0].Name != tc.tool.Name || got[0].Description != tc.desc || string(got[0].InputSchema) != InputSchema {
			t.Errorf("%s: %+v", tc.tool.Name, got[0])
		}
		if strings.Contains(mf, "\n") || !strings.HasPrefix(mf, `[{"name":`) {
			t.Errorf("%s: not minified: %s", tc.tool.Name, mf)
		}
	}
}
