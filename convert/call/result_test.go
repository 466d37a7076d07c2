package call

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/content"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
)

func mustJSON(t *testing.T, s string) *ojson.Value {
	t.Helper()
	v, err := ojson.Parse([]byte(s))
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

func TestResultToTerm(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"content":[]}`, `(ok)`},
		{`{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`, `(ok "a" "b")`},
		// structured content first; the text that repeats it is dropped, other text kept
		{`{"content":[{"type":"text","text":"{\"a\": 1}"},{"type":"text","text":"note"}],"structuredContent":{"a":1}}`, `(ok (:a 1) "note")`},
		{`{"content":[{"type":"text","text":"{\"a\": 2}"}],"structuredContent":{"a":1}}`, `(ok (:a 1) "{\"a\": 2}")`},
		// a one-member object beside its member: server-filesystem sends {"content": TEXT}
		// beside TEXT, server-memory {"entities": [...]} beside the array's JSON
		{`{"content":[{"type":"text","text":"hello\n"}],"structuredContent":{"content":"hello\n"}}`, `(ok (:content "hello\n"))`},
		{`{"content":[{"type":"text","text":"[\n  {\"name\": \"a\"}\n]"}],"structuredContent":{"entities":[{"name":"a"}]}}`, `(ok (:entities ((:name "a"))))`},
		{`{"content":[{"type":"text","text":"5"}],"structuredContent":{"count":5}}`, `(ok (:count 5))`},
		{`{"content":[{"type":"text","text":"x"}],"structuredContent":{"a":"x","b":"y"}}`, `(ok (:a "x" :b "y"))`},
		// ...but not a text that says something else
		{`{"content":[{"type":"text","text":"hello"}],"structuredContent":{"content":"hello\n"}}`, `(ok (:content "hello\n") "hello")`},
		{`{"content":[{"type":"text","text":"x y"}],"structuredContent":{"a":"x","b":"y"}}`, `(ok (:a "x" :b "y") "x y")`},
		{`{"content":[{"type":"text","text":"\"x\""}],"structuredContent":{"a":"x"}}`, `(ok (:a "x") "\"x\"")`},
		{`{"structuredContent":{"items":[{"id":1,"tags":[]},{"id":2,"odd key":null}],"empty":{}}}`, `(ok (:items ((:id 1 :tags ()) (:id 2 "odd key" nil)) :empty (json "{}")))`},
		{`{"content":[{"type":"text","text":"denied"},{"type":"text","text":"detail"}],"isError":true}`, `(err tool "denied" "detail")`},
		{`{"content":[],"isError":true}`, `(err tool "the tool reported an error")`},
		{`{"content":[{"type":"text","text":"x"}],"isError":false}`, `(ok "x")`},
		{`{"content":[{"type":"audio","data":"AAAA","mimeType":"audio/wav"}]}`, `(ok (audio :mime "audio/wav" :bytes 3))`},
		{`{"content":[{"type":"image","data":"","mimeType":"image/png"}]}`, `(ok (image :mime "image/png" :bytes 0))`},
		{`{"content":[{"type":"resource","resource":{"uri":"file:///a","mimeType":"text/plain","text":"hi"}}]}`, `(ok (resource :uri "file:///a" :mime "text/plain" :text "hi"))`},
		{`{"content":[{"type":"resource_link","uri":"file:///b","name":"b","title":"B","description":"d","mimeType":"text/x","size":12}]}`, `(ok (link :uri "file:///b" :name "b" :title "B" :description "d" :mime "text/x" :size 12))`},
		{`{"content":[{"type":"widget","x":[1,2]}]}`, `(ok (content (:type "widget" :x (1 2))))`},
		{`[1,2]`, `(err invalid-result "the server's result is not a JSON object")`},
		// numbers a comparison would choke on are shown, not compared
		{`{"content":[{"type":"text","text":"{\"a\":2e999999}"}],"structuredContent":{"a":1e999999}}`, `(ok (:a (json "1e999999")) "{\"a\":2e999999}")`},
		// control characters from a server never reach the terminal raw
		{`{"content":[{"type":"text","text":"\u001b[2J\u001b]52;c;cm0=\u0007 \u009b31m"}]}`, `(ok "\u001b[2J\u001b]52;c;cm0=\u0007 \u009b31m")`},
	}
	for _, tt := range tests {
		got := ResultToTerm(mustJSON(t, tt.in)).String()
		if got != tt.want {
			t.Errorf("%s\n  got  %s\n  want %s", tt.in, got, tt.want)
		}
		for _, r := range got {
			if r < 0x20 || r >= 0x7f && r <= 0x9f {
				t.Errorf("%s: output holds control character %U", tt.in, r)
			}
		}
	}
	if got := ResultToTerm(nil).String(); !strings.HasPrefix(got, "(err invalid-result") {
		t.Errorf("nil result: %s", got)
	}
}

// The byte size shown for binary content is the decoded size, computed
// without decoding, and the data itself is never copied into the term.
func TestBinarySummaries(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for n := 0; n < 300; n += 1 + n/10 {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(rnd.IntN(256))
		}
		enc := base64.StdEncoding.EncodeToString(data)
		if got := content.Base64Size(enc); got != n {
			t.Errorf("base64Size of %d bytes = %d", n, got)
		}
		if got := content.Base64Size(base64.RawStdEncoding.EncodeToString(data)); got != n {
			t.Errorf("unpadded base64Size of %d bytes = %d", n, got)
		}
	}
	big := base64.StdEncoding.EncodeToString(make([]byte, 1<<20))
	res := ojson.NewObject().Set("content", ojson.NewArray(ojson.NewObject().
		Set("type", ojson.NewString("image")).Set("data", ojson.NewString(big)).Set("mimeType", ojson.NewString("image/png"))))
	got := ResultToTerm(res).String()
	if got != `(ok (image :mime "image/png" :bytes 1048576))` {
		t.Errorf("1 MB image: %.200s", got)
	}
}

// Deep structured content from a server is bounded: past the printable
// depth it stays raw JSON, and the term still reads back.
func TestDeepStructuredContent(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 400) + "1" + strings.Repeat("}", 400)
	res := mustJSON(t, `{"structuredContent":`+deep+`}`)
	term := ResultToTerm(res)
	if _, err := sexpr.ParseOne(term.String()); err != nil {
		t.Fatalf("deep result does not read back: %v", err)
	}
}

func TestBatchResultsToTerm(t *testing.T) {
	out := BatchResultsToTerm([]Outcome{
		{ID: "1", Result: mustJSON(t, `{"content":[{"type":"text","text":"one"}]}`)},
		{ID: "b", Err: &RPCError{Code: -32602, Message: "Invalid params", Data: mustJSON(t, `{"field":"path"}`)}},
		{ID: "c", Err: fmt.Errorf("call: %w", context.DeadlineExceeded)},
		{ID: "d", Err: context.Canceled},
		{ID: "e", Skipped: true},
		{ID: "2.5", Err: errors.New("connection reset")},
		{ID: "x y", Result: mustJSON(t, `{"content":[]}`)},
	}).String()
	want := `(results (1 (ok "one")) (b (err -32602 "Invalid params" (:field "path"))) (c (err timeout "call: context deadline exceeded")) (d (err canceled "context canceled")) (e (err skipped "not run: an earlier call failed and the batch stops on error")) (2.5 (err failed "connection reset")) ("x y" (ok)))`
	if out != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
	ce := &Error{Kind: ErrMissing, Pos: sexpr.Pos{Line: 1, Col: 4}, Msg: "missing required parameter path"}
	if got := ErrorToTerm(ce).String(); got != `(err missing-param "1:4: missing required parameter path")` {
		t.Errorf("call error as a term: %s", got)
	}
}
