package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/mcpterm/mcpterm/convert"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/convert/toolset/toolsettest"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/tokens"
)

// The chart at both sizes in the mono theme (what NO_COLOR gives), on the
// demo server with a tool selected. The golden keeps the bars and the
// counts as drawn: a converter change that moves a count moves them too
// (go test ./ui -run FlowChart -update rewrites them).
func TestFlowChart(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			e := demoEnv(t)
			e.opts.Theme = mustTheme("mono")
			f := startFlow(t, New(e.opts), sz[0], sz[1])
			f.waitOutput("o200k", "file_read")
			f.keys("j", "j", "c")
			f.waitOutput("Chart", "true cost", "baseline")
			screen := f.finish()
			checkFrame(t, screen, sz[0], sz[1])
			golden.RequireEqual(t, screen)
		})
	}
}

// chartRow is a bar as drawn, read back from the screen.
type chartRow struct {
	count int
	pct   string // "baseline", "-34.2%", "+64.0%"
}

var reChartRow = regexp.MustCompile(`^(\S+(?: true cost| introspect| describe)?) +[█▏▎▍▌▋▊▉ ]* ([\d,]+) tok (baseline|[-+±]\d+\.\d%)$`)

// chartRead reads the chart's sections back: title prefix ("Server",
// "Tool", or a server's group line) -> label -> row.
func chartRead(t *testing.T, content string) map[string]map[string]chartRow {
	t.Helper()
	out := map[string]map[string]chartRow{}
	sec := ""
	for _, l := range strings.Split(ansi.Strip(content), "\n") {
		l = strings.TrimRight(l, " ")
		if m := reChartRow.FindStringSubmatch(l); m != nil {
			n, err := strconv.Atoi(strings.ReplaceAll(m[2], ",", ""))
			if err != nil {
				t.Fatal(err)
			}
			if out[sec] == nil {
				out[sec] = map[string]chartRow{}
			}
			out[sec][m[1]] = chartRow{n, m[3]}
			continue
		}
		// Section and group titles; the notes under a section are not.
		if l != "" && !strings.HasPrefix(l, "true cost") && !strings.HasPrefix(l, "introspect") && !strings.HasPrefix(l, "one scale") {
			sec = l
		}
	}
	return out
}

// commandJSON is what `mcpterm tokens --format json` prints for one
// server (tokens.JSON, the function the command calls).
type commandJSON struct {
	Tools []struct {
		Name  string         `json:"name"`
		Forms map[string]int `json:"forms"`
	} `json:"tools"`
	Totals  map[string]int `json:"totals"`
	Savings map[string]struct {
		Saved json.Number `json:"saved_vs_json_pct"`
	} `json:"savings"`
	True map[string]struct {
		True  int         `json:"true_cost"`
		Saved json.Number `json:"true_saved_vs_json_pct"`
	} `json:"true_costs"`
}

func commandReport(t *testing.T, enc string, forms []string, s *tokens.ServerReport) commandJSON {
	t.Helper()
	var c commandJSON
	v := tokens.JSON(&tokens.Report{Encoding: enc, Forms: forms, Servers: []*tokens.ServerReport{s}})
	if err := json.Unmarshal([]byte(v.Compact()), &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// negated is a "saved" percentage as the chart prints the change.
func negated(saved json.Number) string {
	s := string(saved)
	switch {
	case s == "0.0" || s == "-0.0":
		return "±0.0%"
	case strings.HasPrefix(s, "-"):
		return "+" + s[1:] + "%"
	}
	return "-" + s + "%"
}

func reportForms(cat *catalog) []string {
	var out []string
	for _, f := range cat.renderer.Forms() {
		out = append(out, f.Name)
	}
	return out
}

// Every bar of the chart says what `mcpterm tokens` says: the server's
// totals, the AQL forms' true costs, the savings against json; the tool's
// cells are the report's, and the two the side-by-side pane shows for it
// are the same. Every form of the report but json_pretty has its bar.
func TestChartNumbersAreTheReports(t *testing.T) {
	hs := readyHarness(t, 160, 48)
	hs.key("j")
	hs.key("j")
	hs.waitUntil("the side by side of the third tool", func(m *Model) bool {
		return m.schema.have == m.schema.want && m.schema.have.tool == m.tools.selected().Name
	})
	hs.key("c")
	if !hs.m.chartShown() {
		t.Fatal("c did not show the chart")
	}
	m := hs.m
	rep := m.Report()
	forms := reportForms(m.cat)
	want := commandReport(t, m.enc, forms, rep)
	got := chartRead(t, m.chart.view.Content())
	var server, tool map[string]chartRow
	for title, rows := range got {
		switch {
		case strings.HasPrefix(title, "Server "):
			server = rows
		case strings.HasPrefix(title, "Tool "+m.tools.selected().Name):
			tool = rows
		}
	}
	if server == nil || tool == nil {
		t.Fatalf("no server or tool section in:\n%s", ansi.Strip(m.chart.view.Content()))
	}
	if len(server) != len(forms)-1 || len(tool) != len(forms)-1 {
		t.Errorf("%d server bars and %d tool bars for %d forms (all but json_pretty):\n%s", len(server), len(tool), len(forms), ansi.Strip(m.chart.view.Content()))
	}
	for _, f := range forms {
		if f == "json_pretty" {
			if _, ok := server[f]; ok {
				t.Error("json_pretty has a bar")
			}
			continue
		}
		label, n, pct := f, want.Totals[f], negated(want.Savings[f].Saved)
		if tokens.IsDeferredForm(f) {
			label, n, pct = f+" true cost", want.True[f].True, negated(want.True[f].Saved)
		}
		if f == tokens.Baseline {
			pct = "baseline"
		}
		if r, ok := server[label]; !ok || r.count != n || r.pct != pct {
			t.Errorf("server bar %s = %+v (%v), the command says %d %s", label, r, ok, n, pct)
		}
	}
	var cells map[string]int
	for _, tc := range want.Tools {
		if tc.Name == m.tools.selected().Name {
			cells = tc.Forms
		}
	}
	for _, f := range forms[1:] {
		label := f
		if tokens.IsDeferredForm(f) {
			label += " " + exchangeName(f)
		}
		if r, ok := tool[label]; ok && r.count != cells[f] {
			t.Errorf("tool bar %s = %d, the command's cell %d", label, r.count, cells[f])
		}
	}
	sh := m.schema.shown
	if tool["json"].count != sh.leftN || tool[sh.key.form].count != sh.rightN {
		t.Errorf("the side by side shows json %d, %s %d; the chart json %d, %s %d",
			sh.leftN, sh.key.form, sh.rightN, tool["json"].count, sh.key.form, tool[sh.key.form].count)
	}
}

// On any size, however small, the chart draws without panicking and
// nothing it draws is wider than its pane (or the screen).
func TestChartNarrow(t *testing.T) {
	// Below this the tool list's frame ("Tools 10") is wider than the
	// screen, with or without the chart.
	const minScreen = 20
	hs := readyHarness(t, 120, 40)
	hs.key("c")
	for w := 1; w <= 70; w += 3 {
		for _, h := range []int{3, 8, 24} {
			hs.send(tea.WindowSizeMsg{Width: w, Height: h})
			pw := hs.m.chart.w
			for i, l := range strings.Split(hs.m.chart.View(), "\n") {
				if n := ansi.StringWidth(l); n > pw {
					t.Fatalf("%dx%d: chart line %d is %d cells, the pane %d: %q", w, h, i, n, pw, ansi.Strip(l))
				}
			}
			for i, l := range strings.Split(hs.screen(), "\n") {
				if n := ansi.StringWidth(l); n > w && w >= minScreen {
					t.Fatalf("%dx%d: screen line %d is %d cells: %q", w, h, i, n, l)
				}
			}
		}
	}
	for w := 0; w <= 60; w++ {
		in := hs.m.chart.in
		for i, l := range chartLines(*hs.m.styles, in, w) {
			if n := ansi.StringWidth(l); n > max(w, 0) && i > 0 {
				t.Fatalf("chartLines at %d: line %d is %d cells: %q", w, i, n, ansi.Strip(l))
			}
		}
	}
}

// c and c again puts the side-by-side pane back as it was: its form, its
// scroll, its focus, what it shows. While the chart is shown the keys
// that only the side-by-side pane uses are off, and so is c before the
// report is in.
func TestChartToggleRestoresSideBySide(t *testing.T) {
	hs := readyHarness(t, 160, 48)
	hs.key("j")
	hs.key("j") // data_platform_query: a long schema to scroll
	hs.key("f")
	hs.waitUntil("the side by side in the second form", func(m *Model) bool {
		return m.schema.have == m.schema.want && m.schema.have.form == sideForms[1] && m.schema.have.tool == m.tools.selected().Name
	})
	hs.key("tab")
	if hs.m.focus != focusSchema {
		t.Fatal("tab did not focus the side by side")
	}
	hs.key("j")
	hs.key("j")
	before, offset, form := hs.m.schema.View(), hs.m.schema.left.YOffset(), hs.m.schema.form()
	if offset == 0 {
		t.Fatal("the side by side did not scroll")
	}
	hs.key("c")
	if !hs.m.chartShown() || !hs.m.chart.focused || hs.m.schema.focused {
		t.Fatalf("c: chart shown %v, focused %v; side by side focused %v", hs.m.chartShown(), hs.m.chart.focused, hs.m.schema.focused)
	}
	if !strings.Contains(hs.screen(), "Chart ·") || strings.Contains(hs.screen(), "Side by side") {
		t.Fatalf("c did not put the chart in the side by side's place:\n%s", hs.screen())
	}
	if hs.m.keys.Form.Enabled() || hs.m.keys.Invisible.Enabled() {
		t.Error("f and i stay on under the chart")
	}
	hs.key("j") // scrolls the chart, not the side by side
	hs.key("c")
	if hs.m.chartShown() || !hs.m.schema.focused || hs.m.chart.focused {
		t.Fatalf("c again: chart shown %v; side by side focused %v", hs.m.chartShown(), hs.m.schema.focused)
	}
	if after := hs.m.schema.View(); after != before || hs.m.schema.left.YOffset() != offset || hs.m.schema.form() != form {
		t.Errorf("the side by side came back changed (offset %d→%d, form %s→%s):\n%s\nwas\n%s",
			offset, hs.m.schema.left.YOffset(), form, hs.m.schema.form(), ansi.Strip(after), ansi.Strip(before))
	}
	if !hs.m.keys.Form.Enabled() {
		t.Error("f stays off with the side by side back")
	}

	// Before the report: no chart.
	fresh := New(demoEnv(t).opts)
	fresh.syncKeys()
	if fresh.keys.Chart.Enabled() {
		t.Error("c is on with no report")
	}
	fresh.Update(keyMsg("c"))
	if fresh.chartShown() {
		t.Error("c showed a chart with no report")
	}
}

// mergedSession is a real session whose tool list is replaced by a list
// merging several servers' lists as the fleet merges them (each tool's
// Server set): the fleet is a session.Client for the gateway, not yet a
// workbench session, and this is the list the workbench would get.
type mergedSession struct {
	*session.Session
	set *toolset.Set
}

func (s mergedSession) Tools(context.Context) (*toolset.Set, error) { return s.set, nil }

// A list spanning several servers gets a per-server section whose bars
// are each server's own `mcpterm tokens` figures.
func TestChartPerServer(t *testing.T) {
	files := toolsettest.CorpusFiles(t)
	var own []*toolset.Set
	merged := &toolset.Set{Server: "fleet"}
	seen := map[string]bool{}
	for _, f := range files {
		s := toolsettest.Load(t, f)
		clash := len(s.Tools) == 0
		for _, tl := range s.Tools {
			clash = clash || seen[tl.Name]
		}
		if clash {
			continue
		}
		s.Server = fmt.Sprintf("srv%d", len(own)+1)
		s.Version = ""
		for _, tl := range s.Tools {
			seen[tl.Name] = true
			c := *tl
			c.Server = s.Server
			merged.Tools = append(merged.Tools, &c)
		}
		own = append(own, s)
		if len(own) == 3 {
			break
		}
	}
	e := demoEnv(t)
	connect := e.opts.Connect
	e.opts.Connect = func(ctx context.Context) (Session, error) {
		s, err := connect(ctx)
		if err != nil {
			return nil, err
		}
		return mergedSession{s.(*session.Session), merged}, nil
	}
	hs := newHarness(t, e.opts, 160, 120)
	hs.ready()
	hs.waitUntil("the per-server report", func(m *Model) bool { return m.servers[m.enc] != nil })
	hs.key("c")
	c, err := testCounters.Get(hs.m.enc)
	if err != nil {
		t.Fatal(err)
	}
	content := ansi.Strip(hs.m.chart.view.Content())
	if !strings.Contains(content, "Per server") {
		t.Fatalf("no per-server section:\n%s", content)
	}
	got := chartRead(t, content)
	for _, s := range own {
		rep, err := tokens.BuildFrom(c, []*convert.Renderer{convert.NewRenderer(s, nil)})
		if err != nil {
			t.Fatal(err)
		}
		want := commandReport(t, hs.m.enc, rep.Forms, rep.Servers[0])
		rows := got[fmt.Sprintf("%s · %d tools", s.Server, len(s.Tools))]
		if rows == nil {
			t.Fatalf("no group for %s in:\n%s", s.Server, content)
		}
		for _, f := range rep.Forms {
			label, n := f, want.Totals[f]
			if tokens.IsDeferredForm(f) {
				label, n = f+" true cost", want.True[f].True
			}
			if r, ok := rows[label]; f != "json_pretty" && (!ok || r.count != n) {
				t.Errorf("%s %s: chart %d (%v), its own report %d", s.Server, label, r.count, ok, n)
			}
		}
	}
}
