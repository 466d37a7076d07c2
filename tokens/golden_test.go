package tokens

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert"
	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/convert/toolset/toolsettest"
)

// update rewrites the golden files from the code as it is. Use it only for
// a change that is meant to move a number, and say so in the commit.
var update = flag.Bool("update", false, "rewrite tokens/testdata/golden from the current output")

// goldenCase is one report pinned byte for byte.
type goldenCase struct {
	name string
	sets []*toolset.Set
	ov   aql.Overrides
	// full keeps the whole JSON report as a file, so a change shows as a
	// diff; the larger cases are pinned by hash only.
	full bool
}

func goldenCases(t *testing.T) []goldenCase {
	var cases, all []goldenCase
	var sets []*toolset.Set
	for _, path := range corpusFiles(t) {
		set := loadSet(t, path)
		sets = append(sets, set)
		all = append(all, goldenCase{name: toolsettest.Stem(path), sets: []*toolset.Set{set}, full: true})
	}
	cases = append(cases, all...)
	cases = append(cases,
		goldenCase{name: "corpus-all", sets: sets},
		goldenCase{name: "hard", sets: []*toolset.Set{hardSet(t)}, full: true},
		goldenCase{name: "synthetic-500", sets: []*toolset.Set{synthSet(500)}},
		goldenCase{name: "synthetic-1000", sets: []*toolset.Set{synthSet(1000)}},
		goldenCase{
			name: "todo-aql-map",
			sets: []*toolset.Set{loadSet(t, filepath.Join("..", "convert", "aql", "testdata", "todo.tools.json"))},
			ov:   aql.Overrides{"clear_completed": {Category: aql.Delete, Operation: "purge_done"}, "list_todos": {Operation: "all_todos"}},
		},
	)
	return cases
}

// TestGoldenReports pins the report — every form, every per-tool cell, the
// AQL true cost and the left-out parts — in all four formats for every
// corpus file, all of them together, the hard fixture, a synthetic 500- and
// 1,000-tool server and an --aql-map case. Any change to how a figure is
// defined or computed must show up here.
func TestGoldenReports(t *testing.T) {
	c := testCounter(t, O200kBase)
	dir := filepath.Join("testdata", "golden")
	var manifest strings.Builder
	for _, gc := range goldenCases(t) {
		r, err := BuildWith(c, gc.sets, convert.FormsFor(gc.ov), gc.ov)
		if err != nil {
			t.Fatalf("%s: %v", gc.name, err)
		}
		for _, format := range Formats() {
			var b bytes.Buffer
			if err := Write(&b, r, format); err != nil {
				t.Fatalf("%s/%s: %v", gc.name, format, err)
			}
			sum := sha256.Sum256(b.Bytes())
			fmt.Fprintf(&manifest, "%s %s %s\n", gc.name, format, hex.EncodeToString(sum[:]))
			if gc.full && format == "json" {
				checkGolden(t, filepath.Join(dir, gc.name+".json"), b.String())
			}
		}
	}
	checkGolden(t, filepath.Join(dir, "sha256.txt"), manifest.String())
}

func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./tokens/ -run TestGoldenReports -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the output:\n%s", path, firstDiff(string(want), got))
	}
}

// firstDiff shows the first differing line of two texts.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(wl), len(gl)) {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\nwant %s\ngot  %s", i+1, w, g)
		}
	}
	return "(same lines, different bytes)"
}
