package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpterm/mcpterm/convert/toolset/toolsettest"
)

var updateChart = flag.Bool("update-chart", false, "rewrite docs/tokens-chart.svg (the README's chart) with today's date")

// readmeChart is the chart the README shows, and the reference servers it
// is drawn for: the shared corpus's saved tool lists, so it needs no
// network and every machine draws the same bytes.
const readmeChart = "docs/tokens-chart.svg"

var readmeChartServers = []string{
	"server-everything.tools.json",
	"server-filesystem.tools.json",
	"server-memory.tools.json",
	"server-sequential-thinking.tools.json",
}

// TestReadmeChartUpToDate: the README's chart is what `mcpterm tokens
// --format svg` draws for the four reference servers today, byte for byte
// (on the date in its own caption), so a change to a form, the tokenizer
// or the chart that moves a bar fails here until the chart is redrawn:
// go test -run TestReadmeChartUpToDate -update-chart .
func TestReadmeChartUpToDate(t *testing.T) {
	dir := toolsettest.CorpusDir(t)
	args := []string{"tokens", "--format", "svg"}
	for _, f := range readmeChartServers {
		args = append(args, "--tools", filepath.Join(dir, f))
	}
	epoch := time.Now().UTC()
	old, err := os.ReadFile(readmeChart)
	if err != nil && !*updateChart {
		t.Fatalf("%v (make it with -update-chart)", err)
	}
	if !*updateChart {
		m := regexp.MustCompile(`\b(\d{4}-\d{2}-\d{2})\b`).FindSubmatch(old)
		if m == nil {
			t.Fatalf("%s: no date in its caption", readmeChart)
		}
		if epoch, err = time.Parse(time.DateOnly, string(m[1])); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"SOURCE_DATE_EPOCH": strconv.FormatInt(epoch.Unix(), 10)}
	code, out, errOut := sessCLI(t, env, "", args...)
	if code != exitOK {
		t.Fatalf("tokens --format svg: exit %d: %s", code, errOut)
	}
	if *updateChart {
		if err := os.WriteFile(readmeChart, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if out != string(old) {
		t.Errorf("%s is out of date: go test -run TestReadmeChartUpToDate -update-chart .", readmeChart)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "]("+readmeChart+")") {
		t.Errorf("README.md does not show %s", readmeChart)
	}
}
