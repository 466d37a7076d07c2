package tokens

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset/toolsettest"
)

// Loading ranks costs a few hundred milliseconds; tests share one encoder per
// encoding.
var (
	testEncMu sync.Mutex
	testEncs  = map[string]*encoder{}
)

func testEncoder(t testing.TB, name string) *encoder {
	t.Helper()
	testEncMu.Lock()
	defer testEncMu.Unlock()
	if e, ok := testEncs[name]; ok {
		return e
	}
	e, err := loadEncoder(name)
	if err != nil {
		t.Fatal(err)
	}
	testEncs[name] = e
	return e
}

var (
	testLibMu   sync.Mutex
	testLibEncs = map[string]*encoder{}
)

// testLibEncoder is the tiktoken-go encoder of an encoding (the second
// opinion), shared by the tests.
func testLibEncoder(t testing.TB, name string) *encoder {
	t.Helper()
	testLibMu.Lock()
	defer testLibMu.Unlock()
	if e, ok := testLibEncs[name]; ok {
		return e
	}
	e, err := loadLibEncoder(name)
	if err != nil {
		t.Fatal(err)
	}
	testLibEncs[name] = e
	return e
}

// testCounter is a fresh Counter (empty cache) over the shared encoder.
func testCounter(t testing.TB, name string, opts ...Option) *Counter {
	t.Helper()
	c, err := NewCounter(name, opts...)
	if err != nil {
		t.Fatal(err)
	}
	enc := testEncoder(t, name)
	c.once.Do(func() { c.enc = enc; close(c.ready) })
	return c
}

type refText struct {
	Name   string         `json:"name"`
	Text   string         `json:"text"`
	Counts map[string]int `json:"-"`
}

func loadReference(t testing.TB) []refText {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "reference_counts.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Texts []map[string]any `json:"texts"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var out []refText
	for _, row := range doc.Texts {
		r := refText{Name: row["name"].(string), Text: row["text"].(string), Counts: map[string]int{}}
		for _, enc := range Encodings() {
			r.Counts[enc] = int(row[enc].(float64))
		}
		out = append(out, r)
	}
	return out
}

func corpusFiles(t testing.TB) []string { return toolsettest.CorpusFiles(t) }
