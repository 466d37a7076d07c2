package ui

import (
	"strings"
	"testing"
)

// The OAuth flow's URL reaches the flash while the workbench connects,
// sanitised.
func TestNoticeBridgeFlashes(t *testing.T) {
	opts := demoEnv(t).opts
	opts.Notice = NewNoticeBridge()
	h := newHarness(t, opts, 80, 24)
	opts.Notice.Notify("authorize mcpterm with http://x/mcp in your browser: http://x/authorize?state=s\x1b[31m")
	h.waitUntil("the notice in the flash", func(m *Model) bool { return strings.Contains(m.flash, "in your browser: http://x/authorize") })
	if strings.Contains(h.m.flash, "\x1b") {
		t.Errorf("the flash carries an escape: %q", h.m.flash)
	}
}
