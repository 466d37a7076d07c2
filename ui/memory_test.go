package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/session"
)

// Batches of fifty calls: the results pane keeps the newest runs only up
// to maxRunItems calls between them, so a long session does not keep every
// result it ever showed, and the newest run is the one shown.
func TestResultsKeepABoundedNumberOfCalls(t *testing.T) {
	e := demoEnv(t)
	h := newHarness(t, e.opts, 120, 40)
	h.ready()
	h.key("2")
	var b strings.Builder
	b.WriteString("(batch")
	for i := range 50 {
		fmt.Fprintf(&b, " (%d (lt))", i+1)
	}
	b.WriteString(")")
	h.m.composer.setText(b.String())
	const runs = 6
	for i := range runs {
		h.key("ctrl+g")
		h.waitUntil(fmt.Sprintf("run %d done", i+1), func(m *Model) bool {
			r := m.results.current()
			return r != nil && r.id == int64(i+1) && r.done
		})
	}
	if n := e.calls.Load(); n != runs*50 {
		t.Fatalf("%d calls reached the server, want %d", n, runs*50)
	}
	kept, items := h.m.results.runs, 0
	for _, r := range kept {
		items += len(r.plan.Items)
	}
	if len(kept) != maxRunItems/50 || items != maxRunItems {
		t.Errorf("kept %d runs with %d calls, want %d with %d", len(kept), items, maxRunItems/50, maxRunItems)
	}
	if last := kept[len(kept)-1]; last.id != runs || h.m.results.current() != last {
		t.Errorf("the newest run is not the one kept and shown (%d)", last.id)
	}
}

// One run bigger than the bound is still kept: what was just run is shown.
func TestResultsKeepTheNewestRunWhateverItsSize(t *testing.T) {
	small, big := &run{plan: planOf(3)}, &run{plan: planOf(maxRunItems + 1)}
	if got := keepFrom([]*run{small, big}); got != 1 {
		t.Errorf("keepFrom = %d, want 1 (only the big newest run)", got)
	}
	many := make([]*run, maxRuns+5)
	for i := range many {
		many[i] = &run{plan: planOf(1)}
	}
	if got := keepFrom(many); got != 5 {
		t.Errorf("keepFrom = %d over %d one-call runs, want 5", got, len(many))
	}
}

// The protocol tab keeps what the session's tap would: the newest
// messages within its count and byte bounds.
func TestProtocolTabBoundedByBytes(t *testing.T) {
	big := strings.Repeat("x", session.TapBytes/4)
	msgs := make([]session.Message, 10)
	for i := range msgs {
		msgs[i] = session.Message{Seq: uint64(i + 1), Payload: big}
	}
	if got := protoKeepFrom(msgs); got != 6 {
		t.Errorf("protoKeepFrom = %d, want 6 (the newest four quarters of TapBytes fit)", got)
	}
	small := make([]session.Message, session.TapMessages+3)
	if got := protoKeepFrom(small); got != 3 {
		t.Errorf("protoKeepFrom = %d over %d small messages, want 3", got, len(small))
	}
}

// Options.Settled runs once the first counts are shown, and not again
// when another report arrives (here: the other encoding's).
func TestSettledRunsOnceAfterTheFirstReport(t *testing.T) {
	e := demoEnv(t)
	settled := make(chan struct{}, 2)
	e.opts.Settled = func() { settled <- struct{}{} }
	h := newHarness(t, e.opts, 120, 40)
	h.ready()
	select {
	case <-settled:
	case <-time.After(30 * time.Second):
		t.Fatal("Settled did not run after the counts were shown")
	}
	h.key("e")
	h.waitUntil("cl100k report", func(m *Model) bool {
		return m.reports["cl100k_base"] != nil && m.tools.report == m.reports["cl100k_base"]
	})
	h.ready()
	select {
	case <-settled:
		t.Error("Settled ran again at the second report")
	default:
	}
}

// planOf is a plan of n calls of one tool.
func planOf(n int) *calls.Plan {
	return &calls.Plan{Syntax: calls.SExpr, Batch: n > 1, Items: make([]calls.Item, n)}
}
