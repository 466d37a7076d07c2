package call

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// FuzzCall: reading any text against the fixture tools never panics or
// hangs; an error always has a position inside the input; a call that reads
// writes back canonically to text that reads as the same arguments.
func FuzzCall(f *testing.F) {
	for _, s := range []string{
		`(fr "/etc/hosts" :utf8)`,
		`(nu "doc.md" (insert 0 ((paragraph "intro" () ("Hello world")))) (delete 20 5))`,
		`(dpq "q1" ((sql :pg "h" "db" "select 1") (api "u" :headers (:A "b"))) (:csv :limit 1) :joins nil)`,
		`(ms :meta (:k (1 2 (json "{}"))) :tags ("a b" ()) :tree (1 :kids ((2))) :point (1 2) :count 1e3)`,
		`(batch :concurrency 2 :stop-on-error (1 (fr "/a")) (x (bp "/" "a" "b")))`,
		`(wk "n" :x_1 3 "k" "v")`,
		`(li "o" "r" :closed :sort :reactions-+1 :labels ("bug"))`,
		`{"name":"fr","arguments":{"path":"/x","lim":null}}`,
		`[{"name":"fr","arguments":{"path":"/x"}},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"bp","arguments":{"root":"/"}}}]`,
		`(ncp (:database_id "d") (((("t")))))`,
		`(fr "/x" :off 123456789012345678901234567890)`,
		`(fr "/x" :off 1e999999)`,
		`(ms :meta ` + strings.Repeat("(", 150) + strings.Repeat(")", 150) + `)`,
		`{"name":"ms","arguments":{"meta":` + strings.Repeat("[", 150) + strings.Repeat("]", 150) + `}}`,
	} {
		f.Add(s)
	}
	r := NewResolver(fixtures(f))
	f.Fuzz(func(t *testing.T, src string) {
		b, err := r.Parse(src)
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("%q: error of type %T: %v", src, err, err)
			}
			if ce.Pos.Line < 1 || ce.Pos.Col < 1 || ce.Pos.Offset > len(src) {
				t.Fatalf("%q: error position %+v outside the input: %v", src, ce.Pos, err)
			}
			return
		}
		for _, c := range b.Calls {
			text, err := r.Format(c)
			if err != nil {
				var ce *Error
				if errors.As(err, &ce) && ce.Kind == ErrNotCallable {
					continue // JSON input with only undeclared keys
				}
				t.Fatalf("%q: Format: %v", src, err)
			}
			back, err := r.Read(text)
			if err != nil {
				t.Fatalf("%q: canonical %s does not read: %v", src, text, err)
			}
			if !ojson.Equal(back.Calls[0].Arguments, c.Arguments) {
				t.Fatalf("%q: canonical %s reads as %s, not %s", src, text, back.Calls[0].Arguments.Compact(), c.Arguments.Compact())
			}
		}
	})
}
