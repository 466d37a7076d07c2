package ui

import (
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// The side-by-side pane lays declarations out to its width without changing
// what they say; text that is not S-expressions is left alone.
func TestLayoutSexprFitsWidthAndKeepsMeaning(t *testing.T) {
	doc := `(declare (fr file_read (path (string :minLength 1) "Absolute path of the file, e.g. /etc/hosts") (opt (encoding :utf8|:base64 :default "utf8"))))` + "\n" +
		`(deftype Op (tagged type (insert (pos integer)) (delete (pos integer) (len integer))))`
	got := layoutSexpr(doc, 40)
	if strings.Count(got, "\n") < 4 {
		t.Fatalf("not laid out over lines:\n%s", got)
	}
	for _, line := range strings.Split(got, "\n") {
		// Only a string too long for the width may overflow it.
		if len(line) > 40 && !strings.Contains(line, `"`) {
			t.Errorf("line wider than 40: %q", line)
		}
	}
	want, _ := sexpr.Parse(doc)
	back, err := sexpr.Parse(got)
	if err != nil || len(back) != len(want) {
		t.Fatalf("layout does not read back: %v", err)
	}
	for i := range want {
		if !sexpr.Equal(want[i], back[i]) {
			t.Errorf("form %d changed by the layout", i)
		}
	}
	if s := "type Op = {}"; layoutSexpr(s, 40) != s {
		t.Error("non-S-expression text was changed")
	}
}
