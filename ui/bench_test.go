package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/demo"
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

// The same measurements with the real pieces: the demo server's tools,
// convert/call's parser and validator, and tiktoken's o200k counts (the
// adapters are the few lines package live has; live imports ui, so ui's own
// tests cannot import it).

type benchCodec struct {
	JSONCodec
	r *call.Resolver
}

func (c benchCodec) Parse(set *toolset.Set, src string) (*Parsed, error) {
	b, err := c.r.Parse(src)
	if err != nil {
		return nil, err
	}
	p := &Parsed{Syntax: "sexpr", Batch: b.IsBatch}
	for _, cl := range b.Calls {
		p.Calls = append(p.Calls, ParsedCall{ID: cl.ID, Tool: cl.Tool, Arguments: cl.Arguments})
	}
	return p, nil
}

type benchCounter struct{ c *tokens.Counter }

func (b benchCounter) Encodings() []string   { return []string{tokens.O200kBase} }
func (b benchCounter) Load(string) error     { return b.c.Wait(context.Background()) }
func (b benchCounter) Ready(string) bool     { return b.c.Ready() }
func (b benchCounter) Count(_, s string) int { n, _, _ := b.c.TryCount(s); return n }

func demoSet(tb testing.TB) *toolset.Set {
	ctx := context.Background()
	s, err := session.Open(ctx, session.Source{Kind: session.InProcess, Server: demo.New(demo.Options{Seed: 1})}, session.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	set, err := s.Tools(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	return set
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

func BenchmarkRealKeystrokeToCount4KB(b *testing.B) {
	set := demoSet(b)
	tc, err := tokens.NewCounter(tokens.O200kBase)
	if err != nil {
		b.Fatal(err)
	}
	be := newFakeBackend()
	be.set = set
	opts, _, _ := fakeOptions(be)
	opts.Codec = benchCodec{r: call.NewResolver(set)}
	opts.Counter = benchCounter{tc}
	opts.Encoding = tokens.O200kBase
	hs := newHarness(b, opts, 160, 48)
	hs.ready()
	m := hs.m
	m.Update(keyMsg("2"))
	m.composer.setText(fourKBatch())
	m.composer.editor.MoveToEnd()
	m.composer.editor.CursorUp()
	if ck, _ := checkComposer(m.set, m.opts.Codec, m.opts.Counter, m.enc, m.composer.Value(), 1, false); ck.err != nil {
		b.Fatalf("the 4 KB batch does not parse: %v", ck.err)
	}
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
		if m.composer.checked != m.composer.seq || !m.composer.counted {
			b.Fatal("count not updated")
		}
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
