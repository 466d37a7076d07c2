package ui

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpterm/mcpterm/convert"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/tokens"
)

// bigSet is a synthetic server with n tools of realistic size.
func bigSet(n int) *toolset.Set {
	var b strings.Builder
	b.WriteString(`{"server":"big","version":"1","tools":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"tool_%04d_action","description":"Does action number %d on the resource; returns the new state.","inputSchema":{"type":"object","properties":{"id":{"type":"string","description":"resource id"},"mode":{"type":"string","enum":["fast","safe","dry"]},"limit":{"type":"integer","minimum":1}},"required":["id"]},"annotations":{"readOnlyHint":%v}}`, i, i, i%2 == 0)
	}
	b.WriteString(`]}`)
	set, err := toolset.Parse([]byte(b.String()))
	if err != nil {
		panic(err)
	}
	return set
}

// setEnv is the workbench on an offline session over set.
func setEnv(tb testing.TB, set *toolset.Set) *env {
	return serverEnv(tb, session.Source{Kind: session.Offline, Name: set.Server, Tools: set})
}

// readyModel is a model on set with its counts in.
func readyModel(tb testing.TB, set *toolset.Set, w, h int) *Model {
	hs := newHarness(tb, setEnv(tb, set).opts, w, h)
	hs.ready()
	return hs.m
}

// Time to first frame: building the model and drawing the connecting
// screen, before any Cmd (connect, tokenizer) has run.
func BenchmarkFirstFrame(b *testing.B) {
	opts := demoEnv(b).opts
	b.ReportAllocs()
	for b.Loop() {
		m := New(opts)
		m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
		_ = m.View()
	}
}

// From a tool list arriving to every per-tool count being ready in the
// workbench model: the catalog built for the list (what the Cmd that fetched
// it does), the model taking it, the report Cmd it asks for, and the model
// taking the report — against tokens.BuildWith on the same list, which is
// what `mcpterm tokens` does. Both count with the counter cache off, so
// every text is counted afresh in every iteration. The 20,000-tool case
// runs with MCPTERM_BENCH_LARGE=1.
func BenchmarkListToCounts(b *testing.B) {
	cs := tokens.NewCounters(tokens.CacheBytes(0))
	c, err := cs.Get(tokens.DefaultEncoding)
	if err != nil {
		b.Fatal(err)
	}
	if err := c.Wait(context.Background()); err != nil {
		b.Fatal(err)
	}
	sizes := []int{1000, 5000}
	if os.Getenv("MCPTERM_BENCH_LARGE") != "" {
		sizes = append(sizes, 20000) // minutes: opt-in
	}
	for _, n := range sizes {
		set := bigSet(n)
		b.Run(fmt.Sprintf("%d/model", n), func(b *testing.B) {
			e := setEnv(b, set)
			e.opts.Counters = cs
			hs := newHarness(b, e.opts, 160, 48)
			hs.patience = 20 * time.Minute
			hs.ready()
			m := hs.m
			b.ReportAllocs()
			for b.Loop() {
				m.listGen++
				cat := newCatalog(m.listGen, m.sess, set, m.opts)
				m.Update(toolsMsg{t: m.issue(kindTools, false), set: set, cat: cat})
				m.Update(m.reportCmd()())
				r := m.Report()
				if r == nil || len(r.Tools) != n {
					b.Fatal("the counts are not ready")
				}
				if tc, ok := r.Tool(set.Tools[n-1].Name); !ok || tc.Counts["term"] <= 0 {
					b.Fatal("the last tool has no count")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/tool")
		})
		b.Run(fmt.Sprintf("%d/tokens.BuildWith", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := tokens.BuildWith(c, []*toolset.Set{set}, convert.FormsFor(nil), nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/tool")
		})
	}
}

// View with a 1,000-tool server, tools page, counts shown.
func BenchmarkView1000Tools(b *testing.B) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		b.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(b *testing.B) {
			m := readyModel(b, bigSet(1000), sz[0], sz[1])
			m.Update(keyMsg("j"))
			b.ReportAllocs()
			for b.Loop() {
				_ = m.View()
			}
		})
	}
}

// fourKBatch is a ~4 KB MCP-Term batch of file_read calls.
func fourKBatch() string {
	var b strings.Builder
	b.WriteString("(batch")
	for i := 1; b.Len() < 4000; i++ {
		fmt.Fprintf(&b, "\n  (%d (fr \"/docs/README.md\" :encoding :utf8 :offset %d :limit %d))", i, i*10, 100+i)
	}
	b.WriteString(")")
	return b.String()
}

// composing4KB is a model on the demo server with a 4 KB batch in the
// composer and the cursor inside it.
func composing4KB(tb testing.TB) *Model {
	hs := newHarness(tb, demoEnv(tb).opts, 160, 48)
	hs.ready()
	m := hs.m
	m.Update(keyMsg("2"))
	m.composer.setText(fourKBatch())
	m.composer.editor.MoveToEnd()
	m.composer.editor.CursorUp()
	if ck := checkComposer(m.cat.codec, m.counter(m.enc), m.composer.Value(), false); ck.err != nil {
		tb.Fatalf("the 4 KB batch does not read: %v", ck.err)
	}
	return m
}

// Keystroke to updated count in the composer holding a 4 KB batch: the
// key's Update, the read + validation + token count it triggers (the real
// codec and o200k), and applying that result.
func BenchmarkKeystrokeToCount4KB(b *testing.B) {
	m := composing4KB(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		k := keyMsg("1")
		if i%2 == 1 {
			k = keyMsg("backspace")
		}
		i++
		m.Update(k)
		m.Update(m.checkCmd()())
		if m.composer.checked != m.composer.seq || !m.composer.check.counted {
			b.Fatal("count not updated")
		}
	}
}

// The same with the frame drawn, as the user sees it.
func BenchmarkKeystrokeToFrame4KB(b *testing.B) {
	m := composing4KB(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		k := keyMsg("1")
		if i%2 == 1 {
			k = keyMsg("backspace")
		}
		i++
		m.Update(k)
		m.Update(m.checkCmd()())
		_ = m.View()
	}
}

// Typing into the tool filter of a 1,000-tool server: the fuzzy match of
// every name and the redraw.
func BenchmarkFilterKeystroke1000Tools(b *testing.B) {
	m := readyModel(b, bigSet(1000), 160, 48)
	m.Update(keyMsg("/"))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		k := keyMsg("a")
		if i%2 == 1 {
			k = keyMsg("backspace")
		}
		i++
		m.Update(k)
		_ = m.View()
	}
}

// thirtyEntryBatch is a 30-entry batch as someone would type it, one
// entry a line.
func thirtyEntryBatch() string {
	var b strings.Builder
	b.WriteString("(batch :concurrency 4\n")
	for i := 1; i <= 30; i++ {
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, "  (%d (ct \"write the docs, part %d\" :description \"see the issue\"))\n", i, i)
		case 1:
			fmt.Fprintf(&b, "  (%d (fr \"/etc/hosts\" :encoding :utf8 :limit %d))\n", i, 100+i)
		default:
			fmt.Fprintf(&b, "  (%d (lt))\n", i)
		}
	}
	b.WriteString(")")
	return b.String()
}

// Typing a 30-entry batch key by key into the composer: each key's
// Update (editing, auto-closing, the debounce tick it schedules) and the
// frame drawn after it, as the user sees it. The check runs once, when
// typing stops. Reported: each key's cost at the median, the 95th
// percentile and the worst, in ms (ns/op is the whole batch).
func BenchmarkTyping30EntryBatch(b *testing.B) {
	src := thirtyEntryBatch()
	hs := newHarness(b, demoEnv(b).opts, 160, 48)
	hs.ready()
	m := hs.m
	m.Update(keyMsg("2"))
	var per []time.Duration
	b.ReportAllocs()
	for b.Loop() {
		m.composer.setText("")
		for _, r := range src {
			k := tea.KeyPressMsg{Code: r, Text: string(r)}
			if r == '\n' {
				k = keyMsg("enter")
			}
			start := time.Now()
			m.Update(k)
			_ = m.View()
			per = append(per, time.Since(start))
		}
		m.Update(m.checkCmd()()) // typing stopped: the one check
		if m.composer.Value() != src || m.composer.check.err != nil || len(m.composer.check.plan.Items) != 30 {
			b.Fatalf("typed batch %q reads %v", m.composer.Value(), m.composer.check.err)
		}
	}
	slices.Sort(per)
	at := func(q float64) float64 { return float64(per[int(q*float64(len(per)-1))]) / 1e6 }
	b.ReportMetric(at(0.5), "p50-ms/key")
	b.ReportMetric(at(0.95), "p95-ms/key")
	b.ReportMetric(at(1), "max-ms/key")
}
