package ui

import (
	"fmt"
	"testing"

	"github.com/mcpterm/mcpterm/convert/safe"
)

// BenchmarkFrameFilter is what the last-step filter (safe.Terminal) costs
// per frame, on the frame the workbench draws for a 1,000-tool server, set
// against drawing that frame (render) in the same sizes.
func BenchmarkFrameFilter(b *testing.B) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		m := readyModel(b, bigSet(1000), sz[0], sz[1])
		m.Update(keyMsg("j"))
		frame := m.render()
		if safe.Terminal(frame) != frame {
			b.Fatal("the workbench's own frame is not left as it is")
		}
		b.Run(fmt.Sprintf("filter/%dx%d", sz[0], sz[1]), func(b *testing.B) {
			b.SetBytes(int64(len(frame)))
			b.ReportAllocs()
			for b.Loop() {
				_ = safe.Terminal(frame)
			}
		})
		b.Run(fmt.Sprintf("render/%dx%d", sz[0], sz[1]), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = m.render()
			}
		})
	}
}
