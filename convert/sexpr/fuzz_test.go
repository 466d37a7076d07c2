package sexpr

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzRead: the reader never panics or hangs on any input, and whatever it
// reads prints to text that reads back to the same tree.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		`(fr "/etc/hosts" :utf8)`,
		`(declare (fr file_read (path string) (opt (enc :utf8|:base64 :utf8)) string "doc"))`,
		`(batch (1 (fr "/a")) (2 (ex "whoami")))`,
		`(ok (out "root" code 0)) (err 404 "file not found")`,
		`"\ud83d\ude00 \u0000 \\ \" \/" ; comment`,
		`-12.5e3 +7 0 1e400 12345678901234567890123`,
		`(((((((((())))))))))`,
		`:a|:b|:c :|: a|b`,
		"\xff\xfe (",
		`"unterminated`,
		`#sym`,
	} {
		f.Add(s)
	}
	// Large inputs (1 MB strings, long lists) are covered by TestReadLimits:
	// a huge seed makes the fuzzer spend its time minimising it.
	f.Add(strings.Repeat("(", 300))
	f.Fuzz(func(t *testing.T, src string) {
		nodes, err := ParseLimits(src, Limits{MaxDepth: 64, MaxNodes: 10000})
		if err != nil {
			if e, ok := err.(*Error); !ok || e.Pos.Line < 1 || e.Pos.Col < 1 || e.Pos.Offset > len(src) {
				t.Fatalf("error without a sane position: %#v", err)
			}
			return
		}
		for _, n := range nodes {
			printed := n.String()
			if !utf8.ValidString(printed) {
				t.Fatalf("printed invalid UTF-8: %q", printed)
			}
			back, err := ParseLimits(printed, Limits{MaxDepth: 64, MaxNodes: 10000})
			if err != nil || len(back) != 1 {
				t.Fatalf("read %q, printed %q, which does not read back: %v", src, printed, err)
			}
			if !Equal(back[0], n) {
				t.Fatalf("read %q as %s; printed, it reads back as %s", src, n, back[0])
			}
		}
	})
}
