package call

import (
	"path/filepath"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset/toolsettest"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

func loadSet(t testing.TB, path string) *toolset.Set { return toolsettest.Load(t, path) }

func fixtures(t testing.TB) *toolset.Set {
	return loadSet(t, filepath.Join("testdata", "fixtures.tools.json"))
}

func corpusFiles(t testing.TB) []string { return toolsettest.CorpusFiles(t) }
