package ui

import (
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/sexpr"
)

func TestInsertCall(t *testing.T) {
	for _, c := range []struct {
		name, draft string
		cur         int // -1: the end
		want        string
	}{
		{"empty", "", 0, `(ct :title "")`},
		{"one call becomes a batch", `(fr "/etc/hosts")`, -1, "(batch\n  (1 (fr \"/etc/hosts\"))\n  (2 (ct :title \"\")))"},
		{"two calls", "(lt)\n(gt \"a\")", -1, "(batch\n  (1 (lt))\n  (2 (gt \"a\"))\n  (3 (ct :title \"\")))"},
		{"a batch gets the next id at the end", "(batch\n  (1 (lt))\n  (7 (fr \"/a\")))", -1, "(batch\n  (1 (lt))\n  (7 (fr \"/a\"))\n  (8 (ct :title \"\")))"},
		{"after the entry the cursor is in", "(batch\n  (1 (lt))\n  (2 (fr \"/a\")))", 12, "(batch\n  (1 (lt))\n  (3 (ct :title \"\"))\n  (2 (fr \"/a\")))"},
		{"a half-written draft: at the cursor, its own line", "(fr \"/a\"", -1, "(fr \"/a\"\n(ct :title \"\")"},
		{"JSON: at the cursor", `{"name": "lt"}`, 0, "(ct :title \"\")\n{\"name\": \"lt\"}"},
	} {
		cur := c.cur
		if cur < 0 {
			cur = len(c.draft)
		}
		got, at := insertCall(c.draft, cur, `(ct :title "")`)
		if got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
			continue
		}
		if !strings.HasPrefix(got[at:], `(ct :title "")`) {
			t.Errorf("%s: the call does not start at %d: %q", c.name, at, got[at:])
		}
		if strings.HasPrefix(c.draft, "(") && strings.HasSuffix(c.draft, ")") {
			forms, err := sexpr.Parse(got)
			if err != nil || len(forms) != 1 {
				t.Errorf("%s: the draft is not one form now: %v", c.name, err)
			}
		}
	}
}

func TestFirstHole(t *testing.T) {
	for call, want := range map[string]string{
		`(fr :path "")`:        `(fr :path "|")`,
		`(ce :entities ())`:    `(ce :entities (|))`,
		`(lt)`:                 `(lt|)`,
		`(x :a "q\"" :b "")`:   `(x :a "q\"" :b "|")`,
		`(dpq "id" ((:a "")))`: `(dpq "id" ((:a "|")))`,
		`(gs :a 0 :b 0)`:       `(gs :a 0| :b 0)`,
		`(tsl false)`:          `(tsl false|)`,
	} {
		i := firstHole(call)
		if got := call[:i] + "|" + call[i:]; got != want {
			t.Errorf("firstHole(%s) = %s, want %s", call, got, want)
		}
	}
}
