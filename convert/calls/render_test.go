package calls

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

func textResult(text string, isError bool) *ojson.Value {
	r := ojson.NewObject().Set("content", ojson.NewArray(ojson.NewObject().Set("type", ojson.NewString("text")).Set("text", ojson.NewString(text))))
	if isError {
		r.Set("isError", ojson.NewBool(true))
	}
	return r
}

// Outcomes as `mcpterm call` prints them (--output sexpr and json) and the
// gateway answers them (one line).
func TestRenderOutcomes(t *testing.T) {
	c := New(todo(t), Options{})
	single := mustRead(t, c, `(gt "t1")`)
	batch := mustRead(t, c, `(batch (a (lt :limit 1)) (b (gt "nope")) (c (lt)))`)
	ok := Outcome{Result: textResult("# mcpterm demo", false)}
	toolErr := Outcome{Result: textResult("todo nope not found", true)}
	rpc := Outcome{Err: &Failure{Kind: FailRPC, Code: -32602, Message: "bad params", Data: args(t, `{"why":"x"}`)}}
	timeout := Outcome{Err: &Failure{Kind: FailTimeout, Message: "tools/call timed out after 150ms"}}
	skipped := Outcome{Err: &Failure{Kind: FailSkipped}}
	cases := []struct {
		name       string
		p          *Plan
		outs       []Outcome
		term, json string
	}{
		{"ok", single, []Outcome{ok}, `(ok "# mcpterm demo")`,
			`{"content":[{"type":"text","text":"# mcpterm demo"}]}`},
		{"tool error", single, []Outcome{toolErr}, `(err tool "todo nope not found")`,
			`{"content":[{"type":"text","text":"todo nope not found"}],"isError":true}`},
		{"rpc", single, []Outcome{rpc}, `(err -32602 "bad params" (:why "x"))`,
			`{"error":{"kind":"rpc","code":-32602,"data":{"why":"x"},"message":"bad params"}}`},
		{"timeout", single, []Outcome{timeout}, `(err timeout "tools/call timed out after 150ms")`,
			`{"error":{"kind":"timeout","message":"tools/call timed out after 150ms"}}`},
		{"nothing", single, nil, `(err invalid-result "the server's result is not a JSON object")`,
			`{"error":{"kind":"failed","message":"no result"}}`},
		{"batch", batch, []Outcome{ok, toolErr, skipped},
			`(results (a (ok "# mcpterm demo")) (b (err tool "todo nope not found")) (c (err skipped "skipped: not run, an earlier call failed and the batch stops on error")))`,
			`{"results":[{"id":"a","result":{"content":[{"type":"text","text":"# mcpterm demo"}]}},` +
				`{"id":"b","result":{"content":[{"type":"text","text":"todo nope not found"}],"isError":true}},` +
				`{"id":"c","error":{"kind":"skipped","message":"skipped: not run, an earlier call failed and the batch stops on error"}}]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := RenderTerm(tc.p, tc.outs, 0); got != tc.term {
				t.Errorf("term\n%s\nwant\n%s", got, tc.term)
			}
			if got := RenderTerm(tc.p, tc.outs, 100); got != sexpr.Pretty(mustParseTerm(t, tc.term), 100) {
				t.Errorf("pretty term %s", got)
			}
			got := RenderJSON(tc.p, tc.outs)
			if compact(t, got) != tc.json {
				t.Errorf("json\n%s\nwant\n%s", got, tc.json)
			}
			if !strings.Contains(got, "\n") {
				t.Errorf("json is not indented: %s", got)
			}
		})
	}
	// The same batch rendered by package call, as the CLI did before: the
	// ids and results agree.
	want := sexpr.Print(call.BatchResultsToTerm([]call.Outcome{{ID: "a", Result: ok.Result}, {ID: "b", Result: toolErr.Result}, {ID: "c", Skipped: true}}))
	if got := RenderTerm(batch, []Outcome{ok, toolErr, {Err: &Failure{Kind: FailSkipped, Message: "not run: an earlier call failed and the batch stops on error"}}}, 0); got != want {
		t.Errorf("against call.BatchResultsToTerm\n%s\n%s", got, want)
	}
}

func mustParseTerm(t *testing.T, s string) *sexpr.Node {
	t.Helper()
	n, err := sexpr.ParseOne(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func compact(t *testing.T, s string) string {
	t.Helper()
	v, err := ojson.Parse([]byte(s))
	if err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	return v.Compact()
}

// Every failure kind is its own code; one without a message still says
// what happened.
func TestFailureTerm(t *testing.T) {
	cases := []struct {
		f    Failure
		want string
	}{
		{Failure{Kind: FailRPC, Code: -32000, Message: "boom"}, `(err -32000 "boom")`},
		{Failure{Kind: FailRefused, Message: `"dt" is denied by --deny`}, `(err refused "\"dt\" is denied by --deny")`},
		{Failure{Kind: FailConfirm}, `(err needs-confirmation "destructive: it runs only when confirmed; nothing was sent")`},
		{Failure{Kind: FailCancelled, Message: "context canceled"}, `(err canceled "context canceled")`},
		{Failure{Kind: FailConnection}, `(err unavailable "the server could not be reached")`},
		{Failure{Kind: FailBadAnswer, Message: "not JSON"}, `(err bad-answer "not JSON")`},
		{Failure{Kind: FailUsage}, `(err usage "the call cannot be run as written")`},
		{Failure{}, `(err failed "no result")`},
		{Failure{Kind: "odd kind"}, `(err "odd kind" "no result")`},
	}
	for _, tc := range cases {
		if got := sexpr.Print(tc.f.Term()); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.f, got, tc.want)
		}
		if tc.f.Error() == "" {
			t.Errorf("%+v says nothing", tc.f)
		}
		if j := tc.f.JSON(); j.Get("kind").StringOr("") == "" || j.Get("message").StringOr("") == "" {
			t.Errorf("%+v as JSON: %s", tc.f, j.Compact())
		}
	}
	if (Outcome{Result: textResult("x", true)}).OK() || (Outcome{}).OK() || (Outcome{Err: &Failure{}}).OK() || !(Outcome{Result: textResult("x", false)}).OK() {
		t.Error("Outcome.OK")
	}
}

// A read error as the gateway's term tool answers it: an unknown tool lists
// the codes a call may use.
func TestErrorTerm(t *testing.T) {
	_, set := newDemo(t)
	c := New(set, Options{})
	cases := []struct{ src, want string }{
		{`(fr)`, `(err missing-param "1:4: `},
		{`(fr "/a" :encoding :latin1)`, `(err enum "1:20: `},
		{`(zz 1)`, `(err unknown-tool "1:2: unknown tool zz; expected one of cc ct dpq dt fr gt lt lot nu ut")`},
		{`(ltt)`, `(err unknown-tool "1:2: unknown tool ltt (did you mean lt or lot?); expected one of cc ct`},
		{`(fr "/a"`, `(err syntax "1:9: `},
		{`(lt :limit "ten")`, `(err wrong-type "1:12: `},
		{`{"operations": [], "x": 1}`, `(err VALIDATION_UNKNOWN_PARAM "Unknown parameter(s) for a batch: x" (:operation "batch"`},
	}
	for _, tc := range cases {
		_, err := c.Read(tc.src)
		if err == nil {
			t.Fatalf("%s read", tc.src)
		}
		if got := sexpr.Print(c.ErrorTerm(err)); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: %s, want %s...", tc.src, got, tc.want)
		}
	}
	empty := New(&toolset.Set{}, Options{})
	_, err := empty.Read(`(x)`)
	if got := sexpr.Print(empty.ErrorTerm(err)); !strings.Contains(got, "no tool") {
		t.Errorf("empty list: %s", got)
	}
}

// AQL responses as MCP-Term data (`mcpterm call --output sexpr`).
func TestAQLTerm(t *testing.T) {
	cases := []struct{ resp, want string }{
		{`{"success":true,"data":{"total":3},"_meta":{"fields":["total"],"projected":true}}`, `(ok (:total 3) :meta (:fields ("total") :projected true))`},
		{`{"success":true,"data":null}`, `(ok)`},
		{`{"success":false,"error":{"code":"VALIDATION_UNKNOWN_PARAM","message":"Unknown","details":{"unknown_params":["idd"]}}}`,
			`(err VALIDATION_UNKNOWN_PARAM "Unknown" (:unknown_params ("idd")))`},
		{`{"success":true,"data":null,"results":[{"index":0,"operation":"a","result":{"success":true,"data":1}},{"index":1,"operation":"b","result":{"success":false,"error":{"code":"INTERNAL_ERROR","message":"m"}}}],"summary":{"total":2,"succeeded":1,"failed":1}}`,
			`(results (0 (ok 1)) (1 (err INTERNAL_ERROR "m")) (summary :total 2 :succeeded 1 :failed 1))`},
		{`{"success":false,"error":{"code":"not a symbol!","message":"m"}}`, `(err "not a symbol!" "m")`},
		{`{}`, `(err ERROR "")`},
		{`{"results":[{}],"summary":{"odd key":1}}`, `(results (nil (err ERROR "")) (summary "odd key" 1))`},
	}
	for _, tc := range cases {
		got := sexpr.Print(AQLTerm(args(t, tc.resp)))
		if got != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.resp, got, tc.want)
		}
		if _, err := sexpr.ParseOne(got); err != nil {
			t.Errorf("%s does not read back: %v", got, err)
		}
	}
	resp := args(t, cases[0].resp)
	if RenderAQL(resp, false, 0) != resp.Compact() || RenderAQL(resp, false, 80) != resp.Pretty() || RenderAQL(resp, true, 0) != cases[0].want {
		t.Error("RenderAQL forms")
	}
	if RenderAQL(nil, false, 0) != "null" || RenderAQL(nil, true, 0) != `(err ERROR "")` {
		t.Error("RenderAQL of nothing")
	}
}

// Seed 001's todo batch against the demo server: every operation runs, a
// failure stays its own, fields project the answer client-side, the
// summary counts (cmd_call_aql_test's TestCallAQLBatch, on this package).
func TestAnswerLiveDemo(t *testing.T) {
	d, set := newDemo(t)
	c := New(set, Options{})
	p := mustRead(t, c, `{"operations": [
		{"operation": "create_todo", "params": {"title": "one"}},
		{"operation": "get_todo", "params": {"id": "no-such-id"}},
		{"operation": "list_todos", "params": {"query": "one", "fields": ["items.title", "total"]}},
		{"operation": "introspect", "params": {"query": "operations", "name": "get_todo"}},
		{"operation": "list_todos", "params": {"bogus": 1}}]}`)
	outs := d.run(t, p)
	resp := c.Answer(p, outs)
	var got struct {
		Success bool
		Results []struct {
			Index     int
			Operation string
			Result    struct {
				Success bool
				Data    json.RawMessage
				Meta    map[string]any `json:"_meta"`
				Error   *struct{ Code, Message string }
			}
		}
		Summary struct{ Total, Succeeded, Failed int }
	}
	if err := json.Unmarshal([]byte(resp.Compact()), &got); err != nil {
		t.Fatal(err)
	}
	if !got.Success || got.Summary.Total != 5 || got.Summary.Succeeded != 3 || got.Summary.Failed != 2 || len(got.Results) != 5 {
		t.Fatalf("%s", resp.Pretty())
	}
	if r := got.Results[1]; r.Index != 1 || r.Operation != "get_todo" || r.Result.Error == nil || r.Result.Error.Code != aql.CodeInternal {
		t.Errorf("get_todo: %+v", r)
	}
	if r := got.Results[2]; compact(t, string(r.Result.Data)) != `{"items":[{"title":"one"}],"total":1}` || r.Result.Meta["projected"] != true {
		t.Errorf("projected list: %s", r.Result.Data)
	}
	if r := got.Results[3]; !r.Result.Success || !strings.Contains(string(r.Result.Data), `"get_todo"`) {
		t.Errorf("introspect: %s", r.Result.Data)
	}
	if r := got.Results[4]; r.Result.Error == nil || r.Result.Error.Code != aql.CodeUnknownParam {
		t.Errorf("validation: %+v", r)
	}
	// The projection is said, with the full answer beside it.
	if proj, full := c.ItemAnswer(&p.Items[2], outs[2]); full == nil || len(proj.Compact()) >= len(full.Compact()) {
		t.Errorf("projection: %v / %v", proj, full)
	}
	if _, full := c.ItemAnswer(&p.Items[0], outs[0]); full != nil {
		t.Error("a full answer without fields")
	}
	// As MCP-Term data, and the raw results as (ok ...)/(err ...).
	term := RenderAQL(resp, true, 0)
	if pretty := RenderAQL(resp, true, 100); !strings.HasPrefix(pretty, "(results\n") {
		t.Errorf("pretty AQL term:\n%s", pretty)
	}
	for _, want := range []string{"(results", "(0 (ok (:id", "(1 (err INTERNAL_ERROR", "(summary :total 5 :succeeded 3 :failed 2)"} {
		if !strings.Contains(term, want) {
			t.Errorf("AQL term lacks %q:\n%s", want, term)
		}
	}
	raw := RenderTerm(p, outs, 0)
	for _, want := range []string{`(results (0 (ok (:id`, `(1 (err tool`, `(3 (ok (:success true :data`, `(4 (err tool "the tool reported an error" (:success false`} {
		if !strings.Contains(raw, want) {
			t.Errorf("raw term lacks %q:\n%s", want, raw)
		}
	}

	// An MCP-Term call answered as AQL: the same response the AQL request
	// for the same call gets.
	sp := mustRead(t, c, `(lt :limit 1)`)
	ap := mustRead(t, c, `{"operation": "list_todos", "params": {"limit": 1}}`)
	if a, b := c.Answer(sp, d.run(t, sp)), c.Answer(ap, d.run(t, ap)); !ojson.Equal(a, b) {
		t.Errorf("MCP-Term %s, AQL %s", a.Compact(), b.Compact())
	}
	// Failures reach the AQL answer with what they say.
	f := c.Answer(sp, []Outcome{{Err: &Failure{Kind: FailRPC, Code: -32602, Message: "bad"}}})
	if f.Get("error").Get("code").StringOr("") != aql.CodeInternal || !strings.Contains(f.Compact(), "JSON-RPC error -32602: bad") {
		t.Errorf("rpc as AQL: %s", f.Compact())
	}
	if s := c.Answer(ap, []Outcome{{Err: &Failure{Kind: FailSkipped}}}); !strings.Contains(s.Get("error").Get("message").StringOr(""), "skipped") {
		t.Errorf("skipped as AQL: %s", s.Compact())
	}
	if r := RenderTerm(mustRead(t, c, `(fr "/docs/README.md" :limit 14)`), d.run(t, mustRead(t, c, `(fr "/docs/README.md" :limit 14)`)), 100); r != `(ok "# mcpterm demo")` {
		t.Errorf("file_read: %s", r)
	}
}
