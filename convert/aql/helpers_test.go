package aql

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// corpusDir finds ../shared/corpus next to the module root, walking up from
// the test's directory to go.mod; tests skip when it is missing.
func corpusDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("no go.mod above the test directory")
		}
		dir = parent
	}
	c := filepath.Join(dir, "..", "shared", "corpus")
	if _, err := os.Stat(c); err != nil {
		t.Skipf("shared corpus not found at %s: %v", c, err)
	}
	return c
}

// corpus loads every *.tools.json of the shared corpus, by file stem.
func corpus(t testing.TB) map[string]*toolset.Set {
	t.Helper()
	dir := corpusDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.tools.json"))
	if err != nil || len(files) == 0 {
		t.Skipf("no tool lists in %s", dir)
	}
	out := map[string]*toolset.Set{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		set, err := toolset.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[strings.TrimSuffix(filepath.Base(f), ".tools.json")] = set
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// mustSet parses a tool list written inline in a test.
func mustSet(t testing.TB, src string) *toolset.Set {
	t.Helper()
	set, err := toolset.Parse([]byte(src))
	if err != nil {
		t.Fatalf("fixture: %v", err)
	}
	return set
}

func mustAdapter(t testing.TB, set *toolset.Set, ov Overrides, mode Mode) *Adapter {
	t.Helper()
	a, err := New(set, ov, mode)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func mustJSON(t testing.TB, src string) *ojson.Value {
	t.Helper()
	v, err := ojson.Parse([]byte(src))
	if err != nil {
		t.Fatalf("fixture JSON %q: %v", src, err)
	}
	return v
}
