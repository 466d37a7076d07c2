package ui

import (
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

// Tools whose names differ only by an invisible character are both shown
// spelt out and marked, and the log says which they are.
func TestLookalikeToolsMarkedAndLogged(t *testing.T) {
	set, err := toolset.Parse([]byte(`{"server":"twins","tools":[
		{"name":"file_read","description":"reads","inputSchema":{"type":"object"}},
		{"name":"file_read\u200b","description":"also reads","inputSchema":{"type":"object"}},
		{"name":"other","inputSchema":{"type":"object"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	hs := newHarness(t, setEnv(t, set).opts, 120, 30)
	hs.ready()
	screen := hs.screen()
	if !strings.Contains(screen, `≈file_read\u200b`) || !strings.Contains(screen, "≈file_read ") || strings.Contains(screen, "≈other") {
		t.Errorf("the twins are not both marked, or other is:\n%s", screen)
	}
	var notes []string
	for _, e := range hs.m.explore.log {
		if e.Level == "warning" && strings.Contains(e.Text, "look alike") {
			notes = append(notes, e.Text)
		}
	}
	if len(notes) != 1 || !strings.Contains(notes[0], `tools "file_read", "file_read\u200b" look alike`) {
		t.Errorf("log notices: %q", notes)
	}
}
