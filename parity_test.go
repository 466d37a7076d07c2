package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mcpterm/mcpterm/convert/toolset/toolsettest"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/themes"
	"github.com/mcpterm/mcpterm/tokens"
	"github.com/mcpterm/mcpterm/ui"
)

// The workbench and `mcpterm tokens` are two faces of one report: for
// every corpus file and a 1,000-tool server, every tool's count in every
// form that the workbench holds is the one `mcpterm tokens --format json`
// prints, and the totals its header shows are the command's totals.
func TestWorkbenchCountsEqualTokensCommand(t *testing.T) {
	files := toolsettest.CorpusFiles(t)
	files = append(files, writeSynthetic(t, 1000))
	counters := tokens.NewCounters()
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			want := tokensJSON(t, file)
			m := workbenchOn(t, file, counters)
			rep := m.Report()
			if rep == nil {
				t.Fatal("the workbench has no report")
			}
			if len(rep.Tools) != len(want.Tools) {
				t.Fatalf("the workbench counted %d tools, the command %d", len(rep.Tools), len(want.Tools))
			}
			for _, wt := range want.Tools {
				got, ok := rep.Tool(wt.Name)
				if !ok {
					t.Fatalf("the workbench has no counts for %s", wt.Name)
				}
				for form, n := range wt.Forms {
					if got.Counts[form] != n {
						t.Errorf("%s %s: workbench %d, tokens command %d", wt.Name, form, got.Counts[form], n)
					}
				}
				if len(got.Counts) != len(wt.Forms) {
					t.Errorf("%s: the workbench counts %d forms, the command %d", wt.Name, len(got.Counts), len(wt.Forms))
				}
			}
			for form, n := range want.Totals {
				if rep.Totals[form] != n {
					t.Errorf("total %s: workbench %d, tokens command %d", form, rep.Totals[form], n)
				}
			}
			// The header, as drawn, says the command's totals.
			header := strings.Split(ansi.Strip(m.Screen()), "\n")[1]
			aql := want.True["aql_single"]
			for label, n := range map[string]int{
				"JSON": want.Totals["json"], "MCP-Term": want.Totals["term"], "term-lean": want.Totals["term_lean"],
				"TypeScript": want.Totals["dts"], "floor": want.Totals["floor"],
				"AQL true": aql.TrueCost, "upfront": aql.Upfront,
			} {
				if got, ok := headerFigure(header, label); !ok || got != n {
					t.Errorf("header %s = %d (%v), tokens command %d:\n%s", label, got, ok, n, header)
				}
			}
		})
	}
}

// tokensReport is what `mcpterm tokens --format json` prints for one server.
type tokensReport struct {
	Tools []struct {
		Name  string         `json:"name"`
		Forms map[string]int `json:"forms"`
	} `json:"tools"`
	Totals map[string]int `json:"totals"`
	True   map[string]struct {
		Upfront  int `json:"upfront"`
		TrueCost int `json:"true_cost"`
	} `json:"true_costs"`
}

func tokensJSON(t *testing.T, file string) tokensReport {
	t.Helper()
	code, out, errOut := tokensCLI(t, "--format", "json", "--tools", file)
	if code != exitOK {
		t.Fatalf("mcpterm tokens: exit %d: %s", code, errOut)
	}
	var r tokensReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// workbenchOn runs the workbench (the real program, at a size wide enough
// for the whole header) on a saved tool list until its counts are shown,
// and returns the model.
func workbenchOn(t *testing.T, file string, counters *tokens.Counters) *ui.Model {
	t.Helper()
	target, err := session.Resolve(session.Selection{ToolsFile: file}, session.Env{}, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	theme, err := themes.Parse("dark", false)
	if err != nil {
		t.Fatal(err)
	}
	m := ui.New(ui.Options{
		Connect:  func(ctx context.Context) (ui.Session, error) { return session.Connect(ctx, target) },
		Counters: counters,
		Theme:    theme,
	})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(400, 40),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	// The encoding leads the header once the report is in.
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("o200k")) },
		teatest.WithDuration(120*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	return tm.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(*ui.Model)
}

// headerFigure reads the number after label in the header ("JSON 2,711").
func headerFigure(header, label string) (int, bool) {
	m := regexp.MustCompile(regexp.QuoteMeta(label) + ` ([\d,]+)`).FindStringSubmatch(header)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
	return n, err == nil
}

// writeSynthetic saves a tool list of n tools of realistic size.
func writeSynthetic(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"server":"synthetic","tools":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"tool_%04d_action","description":"Does action number %d on the resource; returns the new state.","inputSchema":{"type":"object","properties":{"id":{"type":"string","description":"resource id"},"mode":{"type":"string","enum":["fast","safe","dry"]},"limit":{"type":"integer","minimum":1}},"required":["id"]},"annotations":{"readOnlyHint":%v}}`, i, i, i%2 == 0)
	}
	b.WriteString(`]}`)
	path := filepath.Join(t.TempDir(), fmt.Sprintf("synthetic-%d.tools.json", n))
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
