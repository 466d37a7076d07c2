package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// benchForm is a data_platform_query form holding the largest of a few
// generated valid calls, with the cursor on its first text field.
func benchForm(b *testing.B) (*toolForm, int) {
	k := demoFormKit(b)
	f := k.form(b, "data_platform_query", 160, 48)
	var src string
	for _, c := range validCalls(b, k, "data_platform_query", 40, f.layout().callW) {
		if len(c) > len(src) {
			src = c
		}
	}
	plan, err := k.codec.Read(src)
	if err != nil {
		b.Fatal(err)
	}
	if err := f.Load(&plan.Items[0]); err != nil {
		b.Fatal(err)
	}
	goTo(b, f, "qid")
	return f, len(src)
}

// BenchmarkFormKeystroke is one edit of a field to the new call text: the
// arguments built from the fields, printed by the codec and read back by
// it to check them (typing a rune, then deleting it, alternately).
func BenchmarkFormKeystroke(b *testing.B) {
	f, size := benchForm(b)
	keys := []tea.KeyPressMsg{{Code: 'x', Text: "x"}, {Code: tea.KeyBackspace}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f.Update(keys[i%2])
	}
	b.StopTimer()
	b.ReportMetric(float64(size), "call-bytes")
	if _, _, err := f.Call(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkFormKeystrokeFrame is the same with the frame drawn after each
// key, as the runtime draws it.
func BenchmarkFormKeystrokeFrame(b *testing.B) {
	f, size := benchForm(b)
	keys := []tea.KeyPressMsg{{Code: 'x', Text: "x"}, {Code: tea.KeyBackspace}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f.Update(keys[i%2])
		_ = f.View()
	}
	b.ReportMetric(float64(size), "call-bytes")
}
