package aql

import (
	"sort"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset/toolsettest"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// corpus loads every tool list of the shared corpus, by file stem.
func corpus(t testing.TB) map[string]*toolset.Set { return toolsettest.Corpus(t) }

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
