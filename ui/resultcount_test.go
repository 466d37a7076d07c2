package ui

import (
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/tokens"
)

// TestResultHeaderCountsBigResult: a result with a stretch too long to cut
// exactly is still counted, in bounded memory, and the header says "≈"
// rather than leaving the count out (or saying -1).
func TestResultHeaderCountsBigResult(t *testing.T) {
	set, err := toolset.Parse([]byte(`[{"name":"dump","inputSchema":{"type":"object"}}]`))
	if err != nil {
		t.Fatal(err)
	}
	res := ojson.NewObject().Set("content", ojson.NewArray(ojson.NewObject().
		Set("type", ojson.NewString("text")).Set("text", ojson.NewString(strings.Repeat("y", 1<<20)))))
	r := &run{
		id:     1,
		plan:   &calls.Plan{Syntax: calls.SExpr, Items: []calls.Item{{Tool: "dump"}}},
		codec:  calls.New(set, calls.Options{}),
		result: &session.RunResult{Items: []session.ItemResult{{Outcome: calls.Outcome{Result: res}}}},
		done:   true,
	}
	c, err := tokens.NewCounter(tokens.DefaultEncoding)
	if err != nil {
		t.Fatal(err)
	}
	text, _, toks := renderResults(r, renderKey{runID: 1, width: 100}, NewStyles(mustTheme("dark").Resolve(true)), c, func(s string) string { return s })
	header, _, _ := strings.Cut(text, "\n")
	if len(toks) != 1 || toks[0] <= 0 || !strings.Contains(header, "≈") || !strings.Contains(header, " tok") {
		t.Errorf("header %q, counts %v", header, toks)
	}
}
