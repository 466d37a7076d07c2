package convert

import (
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/term"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// A tool rendered alone keeps the short code it has in its server's
// document; alone it would get the code of its own name, which may be
// another tool's code in the server (list_todos and long_task both start
// "l...t").
func TestToolRendererKeepsServerCodes(t *testing.T) {
	set, err := toolset.Parse([]byte(`[
	 {"name": "list_todos", "inputSchema": {"type": "object"}},
	 {"name": "long_task", "inputSchema": {"type": "object"}},
	 {"name": "load_table", "inputSchema": {"type": "object"}}]`))
	if err != nil {
		t.Fatal(err)
	}
	codes := term.ShortCodes([]string{"list_todos", "long_task", "load_table"})
	render := ToolRenderer(set)
	form, _ := FormByName("term")
	clash := false
	for _, tool := range set.Tools {
		got, err := render(form, tool)
		if err != nil {
			t.Fatal(err)
		}
		want := "(" + codes[tool.Name] + " " + tool.Name
		if !strings.Contains(got, want) {
			t.Errorf("%s rendered alone:\n%s\nwant it to start %q", tool.Name, got, want)
		}
		if term.ShortCodes([]string{tool.Name})[tool.Name] != codes[tool.Name] {
			clash = true
		}
	}
	if !clash {
		t.Fatal("fixture no longer shows a tool whose code alone differs from its server code")
	}
	// Other forms render the one-tool set as before.
	jsonForm, _ := FormByName("json")
	got, _ := render(jsonForm, set.Tools[1])
	if want, _ := jsonForm.Render(Single(set, set.Tools[1])); got != want {
		t.Errorf("json per tool: %s, want %s", got, want)
	}
}
