package tokens

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpterm/mcpterm/convert"
)

// processTextForms are the forms whose texts count_reference.js counts
// beside `mcpterm tokens` as a whole process: the baseline and the term
// form, whole and per tool, the texts of the report's headline figures.
var processTextForms = []string{Baseline, "term"}

// TestWriteReportTexts writes, when MCPTERM_REPORT_TEXTS names a
// directory, the texts behind the json and term figures of the corpus
// report (every server's whole document, then each tool's texts), one file
// each, for testdata/count_reference.js. The test also checks that they add
// up to the report's own figures, so the reference counts what the report
// counts.
func TestWriteReportTexts(t *testing.T) {
	dir := os.Getenv("MCPTERM_REPORT_TEXTS")
	if dir == "" {
		t.Skip("set MCPTERM_REPORT_TEXTS to a directory to write the report's texts")
	}
	c := testCounter(t, O200kBase)
	n := 0
	write := func(text string) {
		n++
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%04d.txt", n)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range corpusFiles(t) {
		rd := convert.NewRenderer(loadSet(t, p), nil)
		r, err := BuildFrom(c, []*convert.Renderer{rd})
		if err != nil {
			t.Fatal(err)
		}
		sr := r.Servers[0]
		for _, f := range processTextForms {
			doc, err := rd.Document(f)
			if err != nil {
				t.Fatal(err)
			}
			write(doc)
			if got := count(t, c, doc); got != sr.Totals[f] {
				t.Fatalf("%s %s: document %d tokens, report %d", p, f, got, sr.Totals[f])
			}
			for _, tc := range sr.Tools {
				xs, err := rd.ToolTexts(f, tc.Name)
				if err != nil {
					t.Fatal(err)
				}
				sum := 0
				for _, x := range xs {
					write(x.Text)
					sum += count(t, c, x.Text)
				}
				if sum != tc.Counts[f] {
					t.Fatalf("%s %s %s: texts %d tokens, report %d", p, f, tc.Name, sum, tc.Counts[f])
				}
			}
		}
	}
	t.Logf("%d texts in %s", n, dir)
}

func count(t *testing.T, c *Counter, text string) int {
	n, err := c.Count(text)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
