package demo

import (
	"encoding/json"
	"strings"
	"testing"
)

type noteResult struct {
	Doc     string            `json:"doc"`
	Version int               `json:"version"`
	Blocks  []json.RawMessage `json:"blocks"`
}

func (n noteResult) types() []string {
	var out []string
	for _, b := range n.Blocks {
		var v struct{ Type string }
		json.Unmarshal(b, &v)
		out = append(out, v.Type)
	}
	return out
}

func TestNoteUpdate(t *testing.T) {
	h := connect(t, Options{})
	// The seed's own example: insert a paragraph at the top.
	var r noteResult
	h.ok("note_update", `{"doc": "doc.md", "ops": [
		{"type": "insert", "pos": 0, "blocks": [{"type": "paragraph", "id": "hello", "props": {"align": "left"}, "content": ["Hello world"]}]}
	]}`, &r)
	if r.Version != 2 || strings.Join(r.types(), ",") != "paragraph,heading,paragraph,code" {
		t.Fatalf("after insert: %+v %v", r, r.types())
	}
	if got := string(r.Blocks[0]); got != `{"type":"paragraph","id":"hello","props":{"align":"left"},"content":["Hello world"]}` {
		t.Errorf("inserted block = %s", got)
	}
	// Several ops in one call apply in order, positions seeing earlier ops.
	h.ok("note_update", `{"doc": "doc.md", "ops": [
		{"type": "retain", "pos": 3},
		{"type": "delete", "pos": 1, "len": 2},
		{"type": "insert", "pos": 2, "blocks": [
			{"type": "heading", "level": 2, "content": [{"type": "text", "text": "Next", "marks": ["italic"]}]},
			{"type": "image", "src": "file:///data/logo.png", "alt": "logo"},
			{"type": "code", "content": "go test ./..."}
		]}
	]}`, &r)
	if r.Version != 3 || strings.Join(r.types(), ",") != "paragraph,code,heading,image,code" {
		t.Fatalf("after batch: v%d %v", r.Version, r.types())
	}
	if got := string(r.Blocks[2]); got != `{"type":"heading","level":2,"content":[{"type":"text","text":"Next","marks":["italic"]}]}` {
		t.Errorf("heading = %s", got)
	}
	// retain alone changes nothing and keeps the version.
	h.ok("note_update", `{"doc": "doc.md", "ops": [{"type": "retain", "pos": 0}]}`, &r)
	if r.Version != 3 || len(r.Blocks) != 5 {
		t.Errorf("retain: v%d, %d blocks", r.Version, len(r.Blocks))
	}
	// A new note is created by its first insert.
	h.ok("note_update", `{"doc": "new.md", "ops": [{"type": "insert", "pos": 0, "blocks": [
		{"type": "paragraph", "id": "p1", "content": ["see ", {"type": "link", "href": "https://example.com", "text": "this"}]}
	]}]}`, &r)
	if r.Doc != "new.md" || r.Version != 1 || len(r.Blocks) != 1 {
		t.Errorf("new note = %+v", r)
	}
	if got := string(r.Blocks[0]); !strings.Contains(got, `{"type":"link","href":"https://example.com","text":"this"}`) || !strings.Contains(got, `"props":{}`) {
		t.Errorf("link paragraph = %s", got)
	}
}

func TestNoteUpdateIsAtomic(t *testing.T) {
	h := connect(t, Options{})
	var before noteResult
	h.ok("note_update", `{"doc": "doc.md", "ops": [{"type": "retain", "pos": 0}]}`, &before)
	// The second op fails, so the first must not stick.
	h.fails("note_update", `{"doc": "doc.md", "ops": [
		{"type": "delete", "pos": 0, "len": 1},
		{"type": "delete", "pos": 20, "len": 5}
	]}`, "ops[1] (delete)", "blocks 20-24", "2 blocks", "doc.md is unchanged")
	var after noteResult
	h.ok("note_update", `{"doc": "doc.md", "ops": [{"type": "retain", "pos": 0}]}`, &after)
	if after.Version != before.Version || len(after.Blocks) != len(before.Blocks) {
		t.Errorf("failed update changed the note: %+v -> %+v", before, after)
	}
}

func TestNoteUpdateErrors(t *testing.T) {
	h := connect(t, Options{})
	cases := []struct {
		args  string
		wants []string
	}{
		{`{"doc": "doc.md", "ops": [{"type": "insert", "pos": 9, "blocks": [{"type": "code", "content": "x"}]}]}`, []string{"pos 9 is outside doc.md", "valid: 0-3"}},
		{`{"doc": "doc.md", "ops": [{"type": "retain", "pos": 3}]}`, []string{"no block 3"}},
		{`{"doc": "doc.md", "ops": [{"type": "insert", "pos": 0, "blocks": [{"type": "paragraph", "id": "intro", "content": []}]}]}`, []string{`paragraph id "intro" is already used by block 1`}},
		{`{"doc": "x.md", "ops": [{"type": "insert", "pos": 0, "blocks": [{"type": "paragraph", "id": "a", "content": []}, {"type": "paragraph", "id": "a", "content": []}]}]}`, []string{"repeats blocks[0]"}},
		{`{"doc": "missing.md", "ops": [{"type": "delete", "pos": 0, "len": 1}]}`, []string{"outside missing.md"}},
		// Rejected by the schema: bad discriminators, levels, shapes.
		{`{"doc": "doc.md", "ops": [{"type": "move", "pos": 0}]}`, nil},
		{`{"doc": "doc.md", "ops": [{"type": "insert", "pos": 0, "blocks": [{"type": "heading", "level": 7, "content": []}]}]}`, nil},
		{`{"doc": "doc.md", "ops": [{"type": "insert", "pos": 0, "blocks": [{"type": "table"}]}]}`, nil},
		{`{"doc": "doc.md", "ops": [{"type": "insert", "pos": 0, "blocks": []}]}`, nil},
		{`{"doc": "doc.md", "ops": [{"type": "delete", "pos": 0}]}`, nil},
		{`{"doc": "doc.md", "ops": []}`, nil},
		{`{"doc": "doc.md", "ops": [{"type": "insert", "pos": 0, "blocks": [{"type": "paragraph", "id": "z", "props": {"bad key": 1}, "content": []}]}]}`, nil},
	}
	for _, c := range cases {
		h.fails("note_update", c.args, c.wants...)
	}
	// The tagged-union decoders give clear errors on their own too (for
	// servers run without schema validation).
	for src, want := range map[string]string{
		`{"type": "move", "pos": 0}`:                  `unknown op type "move"`,
		`{"pos": 0}`:                                  `missing "type"`,
		`{"type": "delete", "pos": 0}`:                "delete needs pos and len",
		`{"type": "retain", "pos": 0, "extra": true}`: `unknown field "extra"`,
		`[1]`: "want an object",
	} {
		var o op
		if err := json.Unmarshal([]byte(src), &o); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Op %s: err = %v, want %q", src, err, want)
		}
	}
	for src, want := range map[string]string{
		`{"type": "heading", "level": 9, "content": []}`: "level must be 1-6",
		`{"type": "video"}`: `unknown block type "video"`,
	} {
		var b block
		if err := json.Unmarshal([]byte(src), &b); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("block %s: err = %v, want %q", src, err, want)
		}
	}
}

// Blocks survive a JSON round trip unchanged.
func TestBlockRoundTrip(t *testing.T) {
	for _, src := range []string{
		`{"type":"paragraph","id":"a","props":{"k":[1,"x"]},"content":["plain",{"type":"text","text":"b","marks":["bold"]},{"type":"link","href":"h","text":"t"}]}`,
		`{"type":"heading","level":6,"content":[]}`,
		`{"type":"code","lang":"go","content":"x := 1"}`,
		`{"type":"code","content":""}`,
		`{"type":"image","src":"s","alt":"","props":{"w":10}}`,
	} {
		var b block
		if err := json.Unmarshal([]byte(src), &b); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		out, err := json.Marshal(b)
		if err != nil || string(out) != src {
			t.Errorf("round trip:\n in  %s\n out %s (%v)", src, out, err)
		}
	}
}
