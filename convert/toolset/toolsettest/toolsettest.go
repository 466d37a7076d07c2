// Package toolsettest finds and loads the tool lists tests run on: the
// reference corpus kept in shared/ beside the checkout, and a package's own
// fixture files. Every package's tests use it, so "where is the corpus" and
// "what if it is missing" are answered once.
//
// A missing corpus skips the test on a developer's machine, but fails it
// when CI is set: there the corpus is always laid beside the clone, and a
// check that silently skipped for ever would be a check that cannot fail.
package toolsettest

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

// Load reads and parses one tool list, failing the test on any error.
func Load(t testing.TB, path string) *toolset.Set {
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

// LoadAll loads files by their stem (server-memory for
// server-memory.tools.json).
func LoadAll(t testing.TB, files []string) map[string]*toolset.Set {
	t.Helper()
	out := make(map[string]*toolset.Set, len(files))
	for _, f := range files {
		out[Stem(f)] = Load(t, f)
	}
	return out
}

// Stem is a tool-list file's name without its directory and .tools.json.
func Stem(path string) string {
	return strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".json"), ".tools")
}

// ModuleRoot walks up from the test's directory to the go.mod.
func ModuleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test directory")
		}
		dir = parent
	}
}

// CorpusDir is shared/corpus beside the module root.
func CorpusDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(ModuleRoot(t), "..", "shared", "corpus")
	if _, err := os.Stat(dir); err != nil {
		missing(t, "the shared corpus is not beside the checkout: %v", err)
	}
	return dir
}

// CorpusFiles lists the corpus's *.tools.json files, sorted.
func CorpusFiles(t testing.TB) []string {
	t.Helper()
	dir := CorpusDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.tools.json"))
	if len(files) == 0 {
		missing(t, "no *.tools.json in %s", dir)
	}
	sort.Strings(files)
	return files
}

// Corpus loads every corpus tool list by stem.
func Corpus(t testing.TB) map[string]*toolset.Set {
	t.Helper()
	return LoadAll(t, CorpusFiles(t))
}

// Fixtures loads a package's testdata/*.tools.json by stem; a package that
// asks for fixtures and has none is broken, not skipped.
func Fixtures(t testing.TB) map[string]*toolset.Set {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("testdata", "*.tools.json"))
	if len(files) == 0 {
		t.Fatal("no testdata/*.tools.json fixtures")
	}
	sort.Strings(files)
	return LoadAll(t, files)
}

func missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("CI: "+format, args...)
	}
	t.Skipf(format, args...)
}
