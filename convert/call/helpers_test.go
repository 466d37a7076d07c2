package call

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

// loadSet reads a tool list from a file.
func loadSet(t testing.TB, path string) *toolset.Set {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	set, err := toolset.Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return set
}

func fixtures(t testing.TB) *toolset.Set {
	return loadSet(t, filepath.Join("testdata", "fixtures.tools.json"))
}

// corpusFiles finds ../shared/corpus next to the module root by walking up
// from the test's directory to go.mod.
func corpusFiles(t testing.TB) []string {
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
	files, _ := filepath.Glob(filepath.Join(dir, "..", "shared", "corpus", "*.tools.json"))
	if len(files) == 0 {
		t.Skip("../shared/corpus is missing; corpus tests skipped")
	}
	sort.Strings(files)
	return files
}
