package session

import (
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// The history's summary is read from whatever the server answered; an
// answer that is not a CallToolResult has none, and must not panic (a
// hostile server's array result once took the command line down).
func TestResultSummaryOfAnyAnswer(t *testing.T) {
	for src, want := range map[string]string{
		`[1,2,3]`:                    "",
		`"text"`:                     "",
		`{}`:                         "",
		`{"content":"x"}`:            "",
		`{"content":[1,{"text":2}]}`: "",
		`{"content":[{"type":"text","text":"hi"}]}`: "hi",
	} {
		v, err := ojson.Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if got := firstText(v); got != want {
			t.Errorf("%s: %q, want %q", src, got, want)
		}
	}
	if firstText(nil) != "" {
		t.Error("nil")
	}
}
