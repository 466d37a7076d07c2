package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpterm/mcpterm/convert"
	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/tokens"

	"github.com/mcpterm/mcpterm/session/internal/testserver"
)

// TestCallMaxTimeCapsProgress: progress restarts the idle timeout, but the
// overall deadline does not move, so a call that reports progress for
// longer than MaxTime ends as a timeout that says so.
func TestCallMaxTimeCapsProgress(t *testing.T) {
	rec := &testserver.Recorder{}
	s := open(t, inProcess(rec), Options{MaxCallTime: 300 * time.Millisecond})
	ctx := ctxT(t, 20*time.Second)
	// 100 steps of 50 ms, each with progress: the idle timeout of 1 s
	// never runs out, the overall 300 ms does.
	r := s.Call(ctx, CallRequest{Tool: "slow", Arguments: obj(t, `{"steps":100,"ms":50}`), Timeout: time.Second, MaxTime: 300 * time.Millisecond})
	var te *TimeoutError
	if !errors.As(r.Err, &te) || !te.Overall || !errors.Is(r.Err, ErrTimeout) || Classify(r.Err) != ClassTimeout {
		t.Fatalf("err %v (%T), want an overall timeout", r.Err, r.Err)
	}
	if want := "tools/call slow: gave up after the --max-time of 300ms (progress kept arriving)"; r.Err.Error() != want {
		t.Errorf("message %q, want %q", r.Err.Error(), want)
	}
	if !r.Cancelled || r.Progress == 0 {
		t.Errorf("cancelled %v, progress %d", r.Cancelled, r.Progress)
	}
}

// TestMaxTimeDefaults: the overall deadline defaults to ten times the
// call timeout, from --timeout when only that is given.
func TestMaxTimeDefaults(t *testing.T) {
	if o := (Options{CallTimeout: 2 * time.Second}).withDefaults(); o.MaxCallTime != 20*time.Second {
		t.Errorf("default max time %v", o.MaxCallTime)
	}
	for _, tc := range []struct {
		sel  Selection
		want time.Duration
	}{
		{Selection{Timeout: 2 * time.Second}, 20 * time.Second},
		{Selection{Timeout: 2 * time.Second, MaxTime: 5 * time.Second}, 5 * time.Second},
		{Selection{MaxTime: 7 * time.Second}, 7 * time.Second},
		{Selection{}, 600 * time.Second},
	} {
		tgt, err := Resolve(tc.sel, Env{Getenv: func(string) string { return "" }}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := tgt.Options.withDefaults().MaxCallTime; got != tc.want {
			t.Errorf("%+v: max time %v, want %v", tc.sel, got, tc.want)
		}
	}
}

// deepTool is a tool whose inputSchema nests object properties "a" until
// the tool's JSON is depth levels deep (depth even, at least 4), and a call's
// arguments that reach the bottom.
func deepTool(name string, depth int) (tool, args string) {
	// tool{1} inputSchema{2} properties{3} a{4} properties{5} a{6} ...
	n := (depth - 2) / 2 // nested schemas under inputSchema
	var sb, ab strings.Builder
	sb.WriteString(`{"name":"` + name + `","inputSchema":`)
	for i := 0; i < n; i++ {
		sb.WriteString(`{"type":"object","properties":{"a":`)
		ab.WriteString(`{"a":`)
	}
	sb.WriteString(`{"type":"string"}`)
	ab.WriteString(`"x"`)
	for i := 0; i < n; i++ {
		sb.WriteString(`}}`)
		ab.WriteString(`}`)
	}
	sb.WriteString(`}`)
	return sb.String(), ab.String()
}

// TestDeepToolEveryStage: a tool as deep as MaxToolDepth goes through every
// stage — kept in the list, rendered in every form and counted, its call
// read and checked against the schema, its schema compiled as an output
// schema — and one level deeper it is set aside with a reason while the
// other tools stay.
func TestDeepToolEveryStage(t *testing.T) {
	raw, args := deepTool("deep", MaxToolDepth)
	v, err := ojson.Parse([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if d := valueDepth(v, 1000); d != MaxToolDepth {
		t.Fatalf("test tool is %d deep, want %d", d, MaxToolDepth)
	}
	good, _ := ojson.Parse([]byte(`{"name":"fine","inputSchema":{"type":"object"}}`))
	set, warnings := buildSet([]*ojson.Value{good, v})
	if len(set.Tools) != 2 || len(warnings) != 0 {
		t.Fatalf("tools %d, warnings %q", len(set.Tools), warnings)
	}
	c, err := tokens.NewCounter(tokens.DefaultEncoding)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := tokens.BuildWith(c, []*toolset.Set{set}, convert.FormsFor(nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rep.Servers {
		if len(s.Errors) > 0 {
			t.Errorf("form errors: %v", s.Errors)
		}
	}
	argv, _ := ojson.Parse([]byte(args))
	if err := call.Validate(set, call.Call{Tool: "deep", Arguments: argv}); err != nil {
		t.Errorf("valid deep arguments refused: %v", err)
	}
	// The MCP-Term call prints and reads back.
	text, err := call.Format(set, call.Call{Tool: "deep", Arguments: argv})
	if err != nil {
		t.Fatal(err)
	}
	if b, err := call.Parse(set, text); err != nil || len(b.Calls) != 1 || b.Calls[0].Arguments.Compact() != argv.Compact() {
		t.Errorf("reading %s back: %v", text, err)
	}
	tool := set.Find("deep")
	var sc schemaCache
	if _, err := sc.get(&toolset.Tool{OutputSchema: tool.InputSchema}); err != nil {
		t.Errorf("compiling the deep schema: %v", err)
	}

	deeper, _ := deepTool("deeper", MaxToolDepth+2)
	dv, err := ojson.Parse([]byte(deeper))
	if err != nil {
		t.Fatal(err)
	}
	set, warnings = buildSet([]*ojson.Value{good, dv})
	want := `tools[1] "deeper" left out: it is nested 130 levels deep; mcpterm supports 128 (MaxToolDepth)`
	if len(set.Tools) != 1 || set.Tools[0].Name != "fine" || len(warnings) != 1 || warnings[0] != want {
		t.Errorf("tools %d, warnings %q", len(set.Tools), warnings)
	}
}

// TestParsePageSetsAsideTooDeep: an item past ojson's own limit does not
// lose the page; it is set aside with its name and depth.
func TestParsePageSetsAsideTooDeep(t *testing.T) {
	deep, _ := deepTool("abyss", 4900)
	page := `{"tools":[{"name":"fine","inputSchema":{"type":"object"}},` + deep + `],"nextCursor":"p2"}`
	v, aside, err := parsePage([]byte(page), "tools", 10)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(v.Get("tools").Items); n != 1 || v.Get("nextCursor").StringOr("") != "p2" {
		t.Errorf("%d items, cursor %v", n, v.Get("nextCursor"))
	}
	want := `tools[11] "abyss" left out: it is nested 4,900 levels deep; mcpterm supports 128 (MaxToolDepth)`
	if len(aside) != 1 || aside[0] != want {
		t.Errorf("set aside %q", aside)
	}
}

// TestStdioUnreadableAnswer: an answer that cannot be decoded — nested past
// encoding/json's limit, or broken — fails the request it answers at once,
// naming what was wrong, wherever its id sits in the message.
func TestStdioUnreadableAnswer(t *testing.T) {
	deep := strings.Repeat("[", 10_001) + strings.Repeat("]", 10_001)
	for _, tc := range []struct {
		name, line, want string
	}{
		{"deep, id first", `{"jsonrpc":"2.0","id":7,"result":` + deep + `}`, "a message nested 10,002 levels deep; the limit is 10,000"},
		{"deep, id last", `{"jsonrpc":"2.0","result":{"x":` + deep + `},"id":7}`, "a message nested 10,003 levels deep; the limit is 10,000"},
		{"broken", `{"jsonrpc":"2.0","id":"7","result":{"content":[`, "a message that is not valid JSON-RPC (unexpected end of JSON input)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev := newEventLog()
			st := newStdioTransport("x", nil, nil, "", 1<<20, ev)
			ch := make(chan *transport.JSONRPCResponse, 1)
			id := mcp.NewRequestId(int64(7))
			if strings.Contains(tc.line, `"id":"7"`) {
				id = mcp.NewRequestId("7")
			}
			st.pending[id.String()] = ch
			st.handleLine([]byte(tc.line), false)
			select {
			case r := <-ch:
				if r.Error == nil || r.Error.Code != codeUnreadableAnswer || r.Error.Message != "mcpterm: the server answered with "+tc.want {
					t.Errorf("error %+v", r.Error)
				}
			default:
				t.Fatal("the waiting request got nothing")
			}
			var notice string
			for _, e := range ev.snapshot() {
				if e.Kind == EventNotice {
					notice = e.Text
				}
			}
			if !strings.Contains(notice, "answered request "+idText(id)+" with "+tc.want) {
				t.Errorf("notice %q", notice)
			}
		})
	}
	// A line with no id to fail stays garbage.
	ev := newEventLog()
	st := newStdioTransport("x", nil, nil, "", 1<<20, ev)
	st.handleLine([]byte("this is not json"), false)
	if es := ev.snapshot(); len(es) != 1 || es[0].Kind != EventGarbage {
		t.Errorf("events %+v", es)
	}
}

func FuzzScanLine(f *testing.F) {
	for _, s := range []string{`{"id":1}`, `{"a":{"id":2},"id":"x"}`, `{"id":`, `{"x":"\"id\":3"}`, `[[[`, `{"id" : 1e2}`, `"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		depth, id, ok := scanLine(b)
		if depth < 0 || (ok && id.IsNil()) {
			t.Fatalf("depth %d id %v ok %v", depth, id, ok)
		}
		// On valid JSON objects it agrees with a real decoder.
		var m map[string]json.RawMessage
		if json.Unmarshal(b, &m) == nil {
			var want mcp.RequestId
			has := m["id"] != nil && json.Unmarshal(m["id"], &want) == nil && !want.IsNil()
			if has && bytes.Count(b, []byte(`"id"`)) == 1 && (!ok || id.String() != want.String()) {
				t.Fatalf("%q: id %v %v, want %v", b, id, ok, want)
			}
		}
	})
}

// TestOfflineSetsAsideDeep: a saved tool list gets the same rule.
func TestOfflineSetsAsideDeep(t *testing.T) {
	deep, _ := deepTool("deeper", 200)
	set, err := toolset.Parse([]byte(`[{"name":"fine","inputSchema":{"type":"object"}},` + deep + `]`))
	if err != nil {
		t.Fatal(err)
	}
	s := open(t, Source{Kind: Offline, Name: "saved", Tools: set}, Options{})
	got, err := s.Tools(ctxT(t, 5*time.Second))
	if err != nil || len(got.Tools) != 1 || got.Tools[0].Name != "fine" {
		t.Fatalf("tools %v, %v", got, err)
	}
	if w := s.ToolWarnings(); len(w) != 1 || !strings.Contains(w[0], `tools[1] "deeper" left out: it is nested 200 levels deep`) {
		t.Errorf("warnings %q", w)
	}
}
