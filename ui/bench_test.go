package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpterm/mcpterm/convert/toolset"
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

// readyModel is a connected model with counts, built without a program:
// every Cmd is run synchronously until the model is settled.
func readyModel(tb testing.TB, set *toolset.Set, w, h int) *Model {
	b := newFakeBackend()
	b.set = set
	opts, _, _ := fakeOptions(b)
	hs := newHarness(tb, opts, w, h)
	hs.ready()
	return hs.m
}

// Time to first frame: building the model and drawing the connecting
// screen, before any Cmd (connect, tokenizer) has run.
func BenchmarkFirstFrame(b *testing.B) {
	opts, _, _ := fakeOptions(newFakeBackend())
	opts.Connect = func(ctx context.Context) (Backend, error) { <-ctx.Done(); return nil, ctx.Err() }
	b.ReportAllocs()
	for b.Loop() {
		m := New(opts)
		m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
		_ = m.View()
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

// fourKCall is a ~4 KB JSON batch for the composer.
func fourKCall() string {
	var parts []string
	for i := 0; len(strings.Join(parts, ",\n")) < 4000; i++ {
		parts = append(parts, fmt.Sprintf(`{"name": "file_read", "arguments": {"path": "/docs/file-%03d.md", "encoding": "utf8", "offset": %d}}`, i, i*10))
	}
	return "[" + strings.Join(parts, ",\n") + "]"
}

// Keystroke to updated count in the composer holding a 4 KB call: the key's
// Update, the parse + validation + token count it triggers, and applying
// that result.
func BenchmarkKeystrokeToCount4KB(b *testing.B) {
	m := readyModel(b, fakeSet(), 160, 48)
	m.Update(keyMsg("2"))
	m.composer.setText(fourKCall())
	m.composer.editor.MoveToEnd()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		k := keyMsg(" ")
		if i%2 == 1 {
			k = keyMsg("backspace")
		}
		i++
		m.Update(k)
		msg := m.checkCmd()()
		m.Update(msg)
		if m.composer.checked != m.composer.seq {
			b.Fatal("count not updated")
		}
	}
}

// The same with the frame drawn, as the user sees it.
func BenchmarkKeystrokeToFrame4KB(b *testing.B) {
	m := readyModel(b, fakeSet(), 160, 48)
	m.Update(keyMsg("2"))
	m.composer.setText(fourKCall())
	m.composer.editor.MoveToEnd()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		k := keyMsg(" ")
		if i%2 == 1 {
			k = keyMsg("backspace")
		}
		i++
		m.Update(k)
		m.Update(m.checkCmd()())
		_ = m.View()
	}
}
