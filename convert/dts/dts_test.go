package dts

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset/toolsettest"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

func TestRenderSmall(t *testing.T) {
	set, err := toolset.Parse([]byte(`{"tools":[
 {"name":"read_file","title":"Read","description":"Read a file.","annotations":{"readOnlyHint":true},
  "inputSchema":{"type":"object","properties":{"path":{"type":"string","description":"Where"},"enc":{"enum":["utf8","base64"],"default":"utf8"},"lim":{"type":["integer","null"],"minimum":1}},"required":["path"]},
  "outputSchema":{"type":"object","properties":{"content":{"type":"string"}},"required":["content"]}},
 {"name":"note-update","description":"Edit */ note.","inputSchema":{"type":"object","properties":{"ops":{"type":"array","items":{"$ref":"#/$defs/Op"}},"tags":{"type":"object","additionalProperties":{"type":"string"}}},"required":["ops"],
  "$defs":{"Op":{"oneOf":[{"type":"object","properties":{"type":{"const":"insert"},"pos":{"type":"number"}},"required":["type","pos"]},{"type":"object","properties":{"type":{"const":"delete"},"len":{"type":"number"}},"required":["type","len"]}]}}}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := RenderFull(set)
	if err != nil {
		t.Fatal(err)
	}
	// The model-facing form carries only name, description and input schema.
	facing, err := Render(set)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(facing, "@title") || strings.Contains(facing, "@readOnly") || strings.Contains(facing, "content: string") {
		t.Errorf("model-facing dts carries title, annotations or output type:\n%s", facing)
	}
	if !strings.Contains(facing, "read_file(args: { /** Where */ path: string;") {
		t.Errorf("model-facing dts lost the input schema:\n%s", facing)
	}
	want := `type Op = { type: "insert"; pos: number } | { type: "delete"; len: number };
interface Tools {
  /**
   * Read a file.
   * @title Read
   * @readOnly true
   */
  read_file(args: { /** Where */ path: string; /** @default "utf8" */ enc?: "utf8" | "base64"; /** @minimum 1 */ lim?: number | null }): { content: string };
  /** Edit *\/ note. */
  "note-update"(args: { ops: Op[]; tags?: Record<string, string> }): unknown;
}
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestRenderCorpus(t *testing.T) {
	root := toolsettest.ModuleRoot(t)
	fixtures, _ := filepath.Glob(filepath.Join(root, "convert", "term", "testdata", "*.tools.json"))
	files := append(toolsettest.CorpusFiles(t), fixtures...)
	for _, f := range files {
		set := toolsettest.Load(t, f)
		out, err := Render(set)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, tool := range set.Tools {
			if !strings.Contains(out, propName(tool.Name)+"(args: ") {
				t.Errorf("%s: no method for %s", f, tool.Name)
			}
		}
		if strings.Count(out, "{") != strings.Count(out, "}") {
			t.Errorf("%s: unbalanced braces", f)
		}
		js := len(set.Baseline().Compact())
		t.Logf("%s: json %d B, dts %d B", filepath.Base(f), js, len(out))
	}
}
