package term

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// hostileSchemas are tool lists built to hurt: nesting past every limit,
// reference cycles, numbers no float holds, a 1 MB string. bigString sets
// that string's size, so the fuzz seeds can use a small one.
func hostileSchemas(bigString int) []string {
	deep := strings.Repeat(`{"type":"object","properties":{"a":`, 200) + `{"type":"string"}` + strings.Repeat(`}}`, 200)
	deepArr := strings.Repeat(`{"type":"array","items":`, 450) + `{}` + strings.Repeat(`}`, 450)
	big := ojson.Quote(strings.Repeat("abcdé\"\\\x01", bigString/8)) // partly escaped
	return []string{
		`[{"name":"d","inputSchema":{"type":"object","properties":{"x":` + deep + `}}}]`,
		`[{"name":"d","inputSchema":{"type":"object","properties":{"x":` + deepArr + `}}}]`,
		`[{"name":"c","inputSchema":{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}}]`,
		`[{"name":"s","inputSchema":{"$ref":"#"}}]`,
		`[{"name":"p","inputSchema":{"type":"object","properties":{"a":{"$ref":"#/properties/a"},"b":{"items":{"$ref":"#/properties/b/items"}}}}}]`,
		`[{"name":"n","inputSchema":{"type":"object","properties":{"a":{"type":"number","minimum":1e999999,"maximum":123456789012345678901234567890,"default":-0.0000000000000000000001e-99999}}}}]`,
		`[{"name":"big","description":` + big + `,"inputSchema":{"type":"object","properties":{"s":{"const":"x\u0000y"}}}}]`,
		`[{"name":"u","inputSchema":{"type":"object","properties":{"a":{"$ref":"#/%24defs/x%7E"},"b":{"$ref":"#/$defs/y~1z"}},"$defs":{"x~":{"type":"string"},"y/z":{"enum":[[],{},null]}}}}]`,
		`[{"name":"k","inputSchema":{"type":"object","properties":{"a":{"type":"object","oneOf":[{"type":"object","properties":{"t":{"const":"x y"}},"required":["t"]},{"type":"object","properties":{"t":{"const":"nil"}},"required":["t"]}]}}}}]`,
		`[{"name":"b","inputSchema":true},{"name":"f","inputSchema":false}]`,
	}
}

func addFiles(f *testing.F, glob string) {
	files, _ := filepath.Glob(glob)
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
}

func TestHostileInputs(t *testing.T) {
	for i, s := range hostileSchemas(1 << 20) {
		set, err := toolset.Parse([]byte(s))
		if err != nil {
			t.Fatalf("hostile input %d is not even a tool list: %v", i, err)
		}
		doc, err := Render(set, Options{})
		if err != nil {
			t.Fatalf("hostile input %d: %v", i, err)
		}
		if len(doc.Text) > 2*len(s)+1000 {
			t.Errorf("hostile input %d: %d bytes in, %d out", i, len(s), len(doc.Text))
		}
		back, err := Parse(doc.Text)
		if err != nil {
			t.Fatalf("hostile input %d does not read back: %v", i, err)
		}
		if len(back.Tools) != len(set.Tools) {
			t.Errorf("hostile input %d: %d tools back, want %d", i, len(back.Tools), len(set.Tools))
		}
	}
}

// FuzzRender: any tool list renders without panicking, within the size
// bound, the rendering always reads back, and render -> parse -> render is
// a fixed point.
func FuzzRender(f *testing.F) {
	addFiles(f, filepath.Join("testdata", "*.tools.json"))
	addFiles(f, filepath.Join(moduleRoot(f), "..", "shared", "corpus", "*.tools.json"))
	for _, s := range hostileSchemas(4 << 10) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		set, err := toolset.Parse(data)
		if err != nil {
			return
		}
		for _, opts := range []Options{{}, {Lean: true}} {
			doc, err := Render(set, opts)
			if err != nil {
				if !strings.Contains(err.Error(), "would take") {
					t.Fatalf("render: %v", err)
				}
				return
			}
			back, err := Parse(doc.Text)
			if err != nil {
				t.Fatalf("rendering does not read back: %v\n%s", err, clipText(doc.Text, 3000))
			}
			again, err := Render(back, opts)
			if err != nil {
				t.Fatalf("render again: %v", err)
			}
			if again.Text != doc.Text {
				t.Fatalf("render -> parse -> render is not a fixed point:\n%s", firstDiff(doc.Text, again.Text))
			}
		}
	})
}

// FuzzParse: any text either fails with an error or reads into tools that
// render canonically, and the canonical form is a fixed point.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`(declare (fr file_read (path string) (opt (enc :utf8|:base64 :default "utf8")) -> (rec (content string) :closed) :ro "Read"))`,
		`(declare (nu note_update (doc string) (ops (list Op)))) (deftype Op (tagged type (insert (pos number)) (delete (pos number) (len number))))`,
		`(declare (t t (a ((or :x :y) :description "d")) (b (json "{\"type\":\"string\"}")) (c (map :a|:b (list integer 1 2))))) ; c`,
		`(deftype A (rec (next (opt A)))) (declare (t t (a A)))`,
		`(declare (x x (a (tuple (v number) (w (list B)))) string)) (deftype B (b (c string)) (d (e number)))`,
		strings.Repeat("(", 250) + strings.Repeat(")", 250),
		`(declare (t t (a 1e999999) (b (const (obj :k (1 2 (json "[{}]")))))))`,
	} {
		f.Add(s)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*.tools.json"))
	for _, file := range files {
		data, _ := os.ReadFile(file)
		if set, err := toolset.Parse(data); err == nil {
			if doc, err := Render(set, Options{}); err == nil {
				f.Add(doc.Text)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		set, err := Parse(src)
		if err != nil {
			return
		}
		doc, err := Render(set, Options{})
		if err != nil {
			return
		}
		back, err := Parse(doc.Text)
		if err != nil {
			t.Fatalf("canonical rendering does not read back: %v\ninput: %s\nrendered: %s", err, clipText(src, 2000), clipText(doc.Text, 2000))
		}
		again, err := Render(back, Options{})
		if err != nil {
			t.Fatalf("render again: %v", err)
		}
		if again.Text != doc.Text {
			t.Fatalf("canonical rendering is not a fixed point:\ninput: %s\n%s", clipText(src, 2000), firstDiff(doc.Text, again.Text))
		}
	})
}
