package main

import (
	"context"
	"encoding/json"
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

// The workbench's chart, as drawn, says what `mcpterm tokens --format
// json` prints: every form's total but json_pretty's, the AQL forms' true
// cost, and each one's saving against json (drawn as the change, "-34.2%"
// for "34.2" saved). On the demo server and a corpus file.
func TestWorkbenchChartEqualsTokensCommand(t *testing.T) {
	files := toolsettest.CorpusFiles(t)
	for _, file := range []string{"", files[0]} {
		name := "demo"
		if file != "" {
			name = toolsettest.Stem(file)
		}
		t.Run(name, func(t *testing.T) {
			args := []string{"--format", "json"}
			if file != "" {
				args = append(args, "--tools", file)
			}
			code, out, errOut := tokensCLI(t, args...)
			if code != exitOK {
				t.Fatalf("mcpterm tokens: exit %d: %s", code, errOut)
			}
			var want struct {
				Forms   []string       `json:"forms"`
				Totals  map[string]int `json:"totals"`
				Savings map[string]struct {
					Saved string `json:"saved_vs_json_pct"`
				} `json:"savings"`
				True map[string]struct {
					True  int    `json:"true_cost"`
					Saved string `json:"true_saved_vs_json_pct"`
				} `json:"true_costs"`
			}
			if err := json.Unmarshal([]byte(numbersAsStrings(out)), &want); err != nil {
				t.Fatal(err)
			}
			bars := chartOn(t, file)
			for _, f := range want.Forms {
				if f == "json_pretty" {
					if _, ok := bars[f]; ok {
						t.Error("json_pretty has a bar")
					}
					continue
				}
				label, n, saved := f, want.Totals[f], want.Savings[f].Saved
				if tokens.IsDeferredForm(f) {
					label, n, saved = f+" true cost", want.True[f].True, want.True[f].Saved
				}
				pct := "baseline"
				if f != tokens.Baseline {
					switch {
					case saved == "0.0" || saved == "-0.0":
						pct = "±0.0%"
					case strings.HasPrefix(saved, "-"):
						pct = "+" + saved[1:] + "%"
					default:
						pct = "-" + saved + "%"
					}
				}
				got, ok := bars[label]
				if !ok || got.n != n || got.pct != pct {
					t.Errorf("bar %s: the chart draws %d %s (%v), the command says %d %s", label, got.n, got.pct, ok, n, pct)
				}
			}
		})
	}
}

// numbersAsStrings quotes the JSON's decimal numbers so they are read as
// the command printed them ("34.2", not 34.199999).
func numbersAsStrings(s string) string {
	return regexp.MustCompile(`(:\s*)(-?\d+\.\d+)`).ReplaceAllString(s, `$1"$2"`)
}

type chartBar struct {
	n   int
	pct string
}

var reChartBar = regexp.MustCompile(`(\S+(?: true cost| introspect)?) +[█▏▎▍▌▋▊▉ ]* ([\d,]+) tok (baseline|[-+±]\d+\.\d%)`)

// chartOn runs the workbench on file ("" for the demo server) until its
// report is in, shows the chart, and reads back its first section's bars:
// the whole server's.
func chartOn(t *testing.T, file string) map[string]chartBar {
	t.Helper()
	target, err := session.Resolve(session.Selection{ToolsFile: file}, session.Env{}, session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	theme, err := themes.Parse("mono", false)
	if err != nil {
		t.Fatal(err)
	}
	m := ui.New(ui.Options{
		Connect:  func(ctx context.Context) (ui.Session, error) { return session.Connect(ctx, target) },
		Counters: tokens.NewCounters(),
		Theme:    theme,
	})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(200, 60),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return strings.Contains(string(b), "o200k") },
		teatest.WithDuration(120*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Send(tea.KeyPressMsg{Code: 'c', Text: "c"})
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	final := tm.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(*ui.Model)
	screen := ansi.Strip(final.Screen())
	bars := map[string]chartBar{}
	for _, l := range strings.Split(screen, "\n") {
		mm := reChartBar.FindStringSubmatch(l)
		if mm == nil {
			continue
		}
		if _, seen := bars[mm[1]]; seen {
			continue // the tool's section, after the server's
		}
		n, err := strconv.Atoi(strings.ReplaceAll(mm[2], ",", ""))
		if err != nil {
			t.Fatal(err)
		}
		bars[mm[1]] = chartBar{n, mm[3]}
	}
	if len(bars) == 0 {
		t.Fatalf("no chart on the screen:\n%s", screen)
	}
	return bars
}
