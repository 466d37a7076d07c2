package toolset

import (
	"strings"
	"testing"
)

const tool = `{"name":"read","title":"Read","description":"Read it.","inputSchema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"number"}}},"outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true},"icons":[{"src":"data:image/png;base64,AAAA"}]}`

func TestParseEveryShape(t *testing.T) {
	for name, src := range map[string]string{
		"bare array": `[` + tool + `]`,
		"tools/list": `{"tools":[` + tool + `]}`,
		"JSON-RPC":   `{"jsonrpc":"2.0","id":1,"result":{"tools":[` + tool + `]}}`,
		"corpus":     `{"server":"srv","version":"1.2","source":"npm","tools":[` + tool + `]}`,
		"api shape":  `[{"name":"read","title":"Read","description":"Read it.","input_schema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"number"}}},"outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}]`,
	} {
		set, err := Parse([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		tl := set.Find("read")
		if tl == nil || tl.Title != "Read" || tl.Description != "Read it." || tl.OutputSchema == nil || !tl.Annotations.ReadOnly() || tl.Annotations.Destructive() {
			t.Fatalf("%s: %+v", name, tl)
		}
		// Property order is the server's, not sorted.
		if keys := strings.Join(tl.InputSchema.Get("properties").Keys(), ","); keys != "z,a" {
			t.Errorf("%s: property order %s", name, keys)
		}
		if name == "corpus" && (set.Server != "srv" || set.Version != "1.2") {
			t.Errorf("corpus wrapper: %+v", set)
		}
	}
}

func TestModelFacingBaselineAndResult(t *testing.T) {
	set, err := Parse([]byte(`[` + tool + `,{"name":"bare"}]`))
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"name":"read","description":"Read it.","input_schema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"number"}}}},{"name":"bare","input_schema":{"type":"object"}}]`
	if got := set.Baseline().Compact(); got != want {
		t.Errorf("baseline:\n got %s\nwant %s", got, want)
	}
	// The result keeps every key the server sent, icons included.
	if got := set.Result().Compact(); !strings.Contains(got, `"icons"`) || !strings.HasPrefix(got, `{"tools":[{"name":"read","title":"Read"`) {
		t.Errorf("result: %s", got)
	}
	// MCP's default: a tool that says nothing is destructive, not read-only.
	if b := set.Find("bare"); b.Annotations.ReadOnly() || !b.Annotations.Destructive() {
		t.Errorf("defaults: %+v", b.Annotations)
	}
}

func TestParseErrorsSayWhat(t *testing.T) {
	for src, want := range map[string]string{
		`{"server":"x"}`:                   `no "tools" member`,
		`{"tools":{}}`:                     "want an array",
		`[{"description":"no name"}]`:      `tools[0]: has no "name"`,
		`[{"name":"a"},{"name":"a"}]`:      `duplicate tool name "a"`,
		`[{"name":"a","inputSchema":"x"}]`: "inputSchema is a string",
		`[1]`:                              "tools[0]: is a number",
		"[\n{\"name\": }]":                 "line 2",
	} {
		_, err := Parse([]byte(src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%s) = %v, want %q", src, err, want)
		}
	}
}
