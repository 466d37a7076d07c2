package main

import (
	"strings"
	"testing"
)

// TestServeYesPattern: serve --yes=clear_completed runs clear_completed
// without anyone confirming it, while delete_todo, destructive too, is still
// refused (the test's client declares no elicitation); bare --yes still
// confirms every destructive tool.
func TestServeYesPattern(t *testing.T) {
	c, stop := serveCLI(t, "--yes=CLEAR_COMPLETED")
	if r := serveCall(t, c, "mcp_term", map[string]any{"expr": `(cc)`}); r.IsError {
		t.Errorf("clear_completed under --yes=CLEAR_COMPLETED: %s", serveText(r))
	}
	r := serveCall(t, c, "mcp_term", map[string]any{"expr": `(dt "00000000-0000-0000-0000-000000000000")`})
	if !r.IsError || !strings.Contains(serveText(r), "started without --yes") {
		t.Errorf("delete_todo under --yes=CLEAR_COMPLETED: %s", serveText(r))
	}
	if code, stderr := stop(); code != exitOK {
		t.Errorf("exit %d\n%s", code, stderr)
	}

	c, stop = serveCLI(t, "--yes")
	if r := serveCall(t, c, "mcp_term", map[string]any{"expr": `(dt "00000000-0000-0000-0000-000000000000")`}); strings.Contains(serveText(r), "refused") {
		t.Errorf("delete_todo under bare --yes: %s", serveText(r))
	}
	if code, stderr := stop(); code != exitOK {
		t.Errorf("exit %d\n%s", code, stderr)
	}
}

func TestYesFlagValues(t *testing.T) {
	var y yesFlag
	for _, v := range []string{"delete_*", "true"} {
		if err := y.Set(v); err != nil {
			t.Fatal(err)
		}
	}
	if !y.all || len(y.patterns) != 1 || y.patterns[0] != "delete_*" {
		t.Fatalf("after --yes=delete_* --yes: %+v", y)
	}
	_ = y.Set("false")
	if y.all || len(y.patterns) != 0 || y.String() != "" {
		t.Fatalf("after --yes=false: %+v", y)
	}
}
