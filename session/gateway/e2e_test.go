package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/peers"
)

// e2eCall is one tools/call the end-to-end tests make directly and through
// the gateway in every mode.
type e2eCall struct {
	Tool     string
	Args     string
	Progress bool
}

// e2eUpstream is a server the end-to-end tests put behind the gateway.
type e2eUpstream struct {
	name    string
	command string // how a process starts it on stdio
	args    []string
	env     map[string]string
	calls   []e2eCall
	extra   []scriptStep // resource and prompt steps
}

func demoUpstream(t testing.TB) e2eUpstream {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return e2eUpstream{
		// A process on stdio behind the gateway too, not the server in
		// process: there notifications travel apart from answers, so a
		// call's last progress could reach the gateway after its answer.
		name: "demo", command: exe, args: []string{"-test.run=^$"}, env: map[string]string{demoEnv: "1"},
		calls: []e2eCall{
			{Tool: "create_todo", Args: `{"title":"Buy milk","description":"two litres"}`},
			{Tool: "list_todos", Args: `{"completed":false,"limit":2}`},
			{Tool: "file_read", Args: `{"path":"/docs/README.md","limit":80}`},
			{Tool: "file_read", Args: `{"path":"/nope"}`},
			{Tool: "update_todo", Args: `{"id":"00000000-0000-4000-8000-000000000000","completed":true}`},
			{Tool: "data_platform_query", Args: `{"qid":"q1","sources":[{"type":"sql","driver":"pg","host":"db","database":"shop","query":"SELECT id, name FROM customers LIMIT 2"}],"output":{"format":"csv"}}`},
			{Tool: "note_update", Args: `{"doc":"a.md","ops":[{"type":"insert","pos":0,"blocks":[{"type":"heading","level":1,"content":["Hi"]}]}]}`},
			{Tool: "long_task", Args: `{"steps":3,"delay_ms":20}`, Progress: true},
		},
		extra: []scriptStep{
			{Op: "listResources"}, {Op: "listResourceTemplates"},
			{Op: "readResource", URI: "demo://catalog"}, {Op: "readResource", URI: "file:///etc/hosts"},
			{Op: "listPrompts"}, {Op: "getPrompt", Name: "summarize_file", Arguments: map[string]string{"path": "/docs/README.md"}},
		},
	}
}

func everythingUpstream(t testing.TB) e2eUpstream {
	p, err := peers.Everything(context.Background(), os.Getenv)
	if err != nil {
		if errors.Is(err, peers.ErrNoNode) && os.Getenv("CI") != "true" {
			t.Skipf("end-to-end test skipped: %v", err)
		}
		t.Fatalf("installing server-everything: %v", err)
	}
	return e2eUpstream{
		name: "everything", command: p.Node, args: []string{p.Entry, "stdio"},
		calls: []e2eCall{
			{Tool: "echo", Args: `{"message":"hello through the gateway"}`},
			{Tool: "get-sum", Args: `{"a":19,"b":23}`},
			{Tool: "get-structured-content", Args: `{"location":"Chicago"}`},
			{Tool: "get-tiny-image", Args: `{}`},
			{Tool: "get-resource-links", Args: `{"count":2}`},
			{Tool: "get-sum", Args: `{"a":"x","b":1}`},
			{Tool: "trigger-long-running-operation", Args: `{"duration":0.3,"steps":3}`, Progress: true},
		},
		extra: []scriptStep{
			{Op: "listResources"}, {Op: "listResourceTemplates"},
			{Op: "readResource", URI: "demo://resource/static/document/architecture.md"},
			{Op: "listPrompts"}, {Op: "getPrompt", Name: "args-prompt", Arguments: map[string]string{"city": "Lyon"}},
		},
	}
}

func (u e2eUpstream) source() session.Source {
	return session.Source{Kind: session.Stdio, Name: u.name, Command: u.command, Args: u.args, Env: u.env}
}

func (u e2eUpstream) stdio() map[string]any {
	return map[string]any{"kind": "stdio", "command": u.command, "args": u.args, "env": u.env}
}

// gatewayStdio is how the SDK client starts a gateway on stdio: this test
// binary, told by serveEnv what to serve.
func (u e2eUpstream) gatewayStdio(t testing.TB, m Mode) map[string]any {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(serveSpec{Mode: m, Command: u.command, Args: u.args, Env: u.env})
	return map[string]any{"kind": "stdio", "command": exe, "args": []string{"-test.run=^$"}, "env": map[string]string{serveEnv: string(b)}}
}

// gatewayHTTP serves a gateway over streamable HTTP from this process.
func (u e2eUpstream) gatewayHTTP(t testing.TB, m Mode) (*Gateway, string) {
	up := openSession(t, u.source(), session.Options{})
	g := newGateway(t, up, Options{Mode: m, Policy: allowAll(t)})
	return g, serveHTTP(t, g)
}

// viaGateway turns a direct call into the call of a gateway tool in mode
// m, the way a model reading the gateway's tools would write it.
func viaGateway(t testing.TB, st *state, m Mode, c e2eCall) (tool string, args any) {
	if m == ModePass {
		return c.Tool, json.RawMessage(c.Args)
	}
	arguments := obj(t, c.Args)
	if m == ModeTerm || m == ModeTermLazy {
		expr, err := st.codec.Resolver().Format(call.Call{Tool: c.Tool, Arguments: arguments})
		if err != nil {
			t.Fatalf("formatting %s %s: %v", c.Tool, c.Args, err)
		}
		return DefaultTermTool, map[string]string{"expr": expr}
	}
	a := adapterOf(t, st)
	req, err := a.ToAQL(aql.ToolCall{Name: c.Tool, Arguments: arguments})
	if err != nil {
		t.Fatalf("AQL for %s: %v", c.Tool, err)
	}
	return a.Via(a.ForTool(c.Tool).Name), json.RawMessage(req.Compact())
}

func adapterOf(t testing.TB, st *state) *aql.Adapter {
	a, err := st.codec.Adapter()
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// expected is what the gateway should answer in mode m, computed from the
// answer the SDK client got calling the upstream directly, with package
// call's and package aql's own renderings (not the gateway's codec).
func expected(t testing.TB, st *state, m Mode, c e2eCall, direct *ojson.Value) (textWant string, isError bool) {
	if m == ModeTerm || m == ModeTermLazy {
		// A call that does not validate is refused before it is sent, so
		// what the upstream would have said does not matter.
		_, args := viaGateway(t, st, m, c)
		if _, err := st.codec.Resolver().Parse(args.(map[string]string)["expr"]); err != nil {
			return sexpr.Print(call.ErrorToTerm(err)), true
		}
		return sexpr.Print(call.ResultToTerm(direct)), isErrorResult(direct)
	}
	tool, args := viaGateway(t, st, m, c)
	in, err := aql.FromValue(obj(t, string(args.(json.RawMessage))))
	if err != nil {
		t.Fatal(err)
	}
	resp := adapterOf(t, st).Run(tool, in, func(aql.ToolCall) (*ojson.Value, error) { return direct, nil })
	return resp.Compact(), !aql.IsSuccess(resp)
}

func TestEndToEndDemo(t *testing.T) {
	t.Parallel()
	runEndToEnd(t, demoUpstream(t))
}

func TestEndToEndEverything(t *testing.T) {
	t.Parallel()
	runEndToEnd(t, everythingUpstream(t))
}

// runEndToEnd has the official TypeScript SDK client call an upstream
// directly, then through the gateway in every mode, over stdio and over
// streamable HTTP, and checks that every answer is the direct one in the
// mode's form. Each session talks to a fresh upstream, and the calls run in
// the same order, so stateful answers (new ids, timestamps) agree too.
func runEndToEnd(t *testing.T, u e2eUpstream) {
	sdk(t)
	steps := func(m Mode, st *state) []scriptStep {
		out := []scriptStep{{Op: "listTools"}}
		for _, c := range u.calls {
			if m == "" {
				out = append(out, scriptStep{Op: "callTool", Name: c.Tool, Arguments: json.RawMessage(c.Args), Progress: c.Progress})
				continue
			}
			tool, args := viaGateway(t, st, m, c)
			out = append(out, scriptStep{Op: "callTool", Name: tool, Arguments: args, Progress: c.Progress})
		}
		return append(out, u.extra...)
	}
	script := clientScript{Sessions: []scriptSession{{Name: "direct", Transport: u.stdio(), Steps: steps("", nil)}}}
	states := map[string]*state{}
	for _, m := range Modes() {
		g, url := u.gatewayHTTP(t, m)
		st := g.st.Load()
		for _, tr := range []string{"stdio", "http"} {
			name := string(m) + "/" + tr
			states[name] = st
			transport := map[string]any{"kind": "http", "url": url}
			if tr == "stdio" {
				transport = u.gatewayStdio(t, m)
			}
			script.Sessions = append(script.Sessions, scriptSession{Name: name, Transport: transport, Steps: steps(m, st)})
		}
	}
	out := runClient(t, script)
	direct := out.Sessions[0]
	for _, s := range direct.Steps {
		if s.Error != "" {
			t.Fatalf("direct %s: %s", s.Op, s.Error)
		}
	}
	for i, c := range u.calls {
		if c.Progress {
			checkDirectProgress(t, c.Tool, direct.Steps[i+1].Result)
		}
	}
	for _, gw := range out.Sessions[1:] {
		mode, tr, _ := strings.Cut(gw.Name, "/")
		m := Mode(mode)
		st := states[gw.Name]
		t.Run(gw.Name, func(t *testing.T) {
			if len(gw.Steps) != len(direct.Steps) {
				t.Fatalf("%d steps, want %d", len(gw.Steps), len(direct.Steps))
			}
			for i, s := range gw.Steps {
				if s.Error != "" {
					t.Errorf("step %d %s: %s", i, s.Op, s.Error)
					continue
				}
				switch {
				case s.Op == "listTools":
					checkListed(t, st, s.Result)
				case s.Op == "callTool":
					c := u.calls[i-1]
					checkCall(t, st, m, tr, c, direct.Steps[i].Result, s.Result)
				default:
					// Resources and prompts pass through unchanged.
					if !sameJSON(t, s.Result, normalized(t, direct.Steps[i].Result)) {
						t.Errorf("%s %s:\n gateway %s\n direct  %s", s.Op, u.extra[i-1-len(u.calls)].URI, clip(s.Result), clip(direct.Steps[i].Result))
					}
				}
			}
		})
	}
}

// checkListed: the client sees exactly the gateway's tools.
func checkListed(t *testing.T, st *state, raw json.RawMessage) {
	var got struct {
		Tools []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Tools) != len(st.tools) {
		t.Fatalf("%d tools listed, want %d", len(got.Tools), len(st.tools))
	}
	want := map[string]string{}
	for _, tl := range st.tools {
		want[tl.Tool.Name] = tl.Tool.Description
	}
	for _, tl := range got.Tools {
		if d, ok := want[tl.Name]; !ok || d != tl.Description {
			t.Errorf("tool %s: listed description differs from the gateway's", tl.Name)
		}
	}
}

// callOutcome is client.mjs's answer to a callTool step: the result, the
// progress the SDK's onprogress got, and the progress that reached the
// transport before and after the answer.
type callOutcome struct {
	Result   json.RawMessage   `json:"result"`
	Progress []json.RawMessage `json:"progress"`
	Wire     struct {
		Before []json.RawMessage `json:"before"`
		After  []json.RawMessage `json:"after"`
	} `json:"wire"`
}

func checkCall(t *testing.T, st *state, m Mode, tr string, c e2eCall, directRaw, gotRaw json.RawMessage) {
	var d, g callOutcome
	if err := json.Unmarshal(directRaw, &d); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(gotRaw, &g); err != nil {
		t.Fatal(err)
	}
	direct := obj(t, string(d.Result))
	res := obj(t, string(g.Result))
	want, wantErr := expected(t, st, m, c, direct)
	items := res.Get("content").Items
	if len(items) == 0 || items[0].Get("text").StringOr("") != want || isErrorResult(res) != wantErr {
		t.Errorf("%s %s:\n gateway %s\n want    %v %s", c.Tool, c.Args, clip(g.Result), wantErr, want)
		return
	}
	// After the text, in every mode, the upstream's non-text content
	// as it sent it.
	var passed []json.RawMessage
	for _, it := range direct.Get("content").Items {
		if it.Get("type").StringOr("") != "text" {
			passed = append(passed, json.RawMessage(it.Compact()))
		}
	}
	var gotPassed []json.RawMessage
	for _, it := range items[1:] {
		gotPassed = append(gotPassed, json.RawMessage(it.Compact()))
	}
	if !sameJSON(t, mustJSON(gotPassed), mustJSON(passed)) {
		t.Errorf("%s: non-text content\n gateway %s\n direct  %s", c.Tool, clip(mustJSON(gotPassed)), clip(mustJSON(passed)))
	}
	if c.Progress {
		checkProgress(t, c.Tool, tr, g, d)
	}
}

// checkDirectProgress: called directly, the upstream wrote every progress
// notification of the call before its answer (the demo server as
// `mcpterm demo-server` serves it, and server-everything, both do), in
// order, and none after.
func checkDirectProgress(t *testing.T, tool string, raw json.RawMessage) {
	var d callOutcome
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	before := progressValues(t, d.Wire.Before)
	if len(before) == 0 || float64(len(before)) != before[0].Total || len(d.Wire.After) != 0 {
		t.Errorf("%s called directly: %d progress notifications before the answer and %d after, want all before: %s",
			tool, len(before), len(d.Wire.After), clip(raw))
		return
	}
	for i, p := range before {
		if p.Progress != float64(i+1) {
			t.Errorf("%s called directly: progress %d is %v of %v", tool, i, p.Progress, p.Total)
		}
	}
	checkCallbacks(t, tool+" called directly", d)
}

// checkProgress: the upstream's progress reaches the client under the
// client's own token (the SDK hands the transport's progress to a callback
// only when it carries its token). The gateway holds its answer until the
// progress it forwarded is written (wire's ledger), and its upstream here
// is a stdio process that writes progress first and the gateway reads in
// order. Over stdio, one stream, the client so gets exactly what the
// upstream sent, before the answer, and its onprogress callback all of it. Over streamable HTTP before 2026-07-28
// mcp-go puts a session's notifications on whichever of its streams takes
// them first, and the SDK keeps a GET stream open beside each call's POST:
// progress written there reaches the client apart from the answer, so how
// many arrive before it is not up to the gateway, and each one that
// arrives must be one the upstream sent, once.
func checkProgress(t *testing.T, tool, tr string, g, d callOutcome) {
	if tr == "stdio" {
		if !sameJSON(t, mustJSON(g.Wire.Before), mustJSON(d.Wire.Before)) || len(g.Wire.After) != 0 {
			t.Errorf("%s: progress before the answer\n gateway %s (and %d after)\n direct  %s",
				tool, clip(mustJSON(g.Wire.Before)), len(g.Wire.After), clip(mustJSON(d.Wire.Before)))
		}
		// The gateway's answer waits until the client has read the
		// progress before it (wire's drain), so the SDK's callback got it.
		if len(g.Progress) != len(g.Wire.Before) {
			t.Errorf("%s: onprogress got %d of the %d progress notifications before the answer", tool, len(g.Progress), len(g.Wire.Before))
		}
	} else {
		sent := map[float64]json.RawMessage{}
		for i, p := range progressValues(t, d.Wire.Before) {
			sent[p.Progress] = d.Wire.Before[i]
		}
		arrived := append(append([]json.RawMessage(nil), g.Wire.Before...), g.Wire.After...)
		seen := map[float64]bool{}
		for i, p := range progressValues(t, arrived) {
			if want, ok := sent[p.Progress]; !ok || seen[p.Progress] || !sameJSON(t, arrived[i], want) {
				t.Errorf("%s: progress %s arrived (seen before: %v), the upstream sent %s", tool, arrived[i], seen[p.Progress], clip(mustJSON(d.Wire.Before)))
			}
			seen[p.Progress] = true
		}
	}
	checkCallbacks(t, tool, g)
}

// checkCallbacks: what the SDK handed onprogress is some of what reached
// it before the answer, in order.
func checkCallbacks(t *testing.T, who string, o callOutcome) {
	got, before := progressValues(t, o.Progress), progressValues(t, o.Wire.Before)
	j := 0
	for _, p := range got {
		for j < len(before) && before[j] != p {
			j++
		}
		if j == len(before) {
			t.Errorf("%s: onprogress got %s, not among what arrived before the answer, in order: %s", who, clip(mustJSON(o.Progress)), clip(mustJSON(o.Wire.Before)))
			return
		}
		j++
	}
}

type progressValue struct {
	Progress float64 `json:"progress"`
	Total    float64 `json:"total"`
	Message  string  `json:"message"`
}

func progressValues(t *testing.T, raws []json.RawMessage) []progressValue {
	t.Helper()
	out := make([]progressValue, len(raws))
	for i, raw := range raws {
		if err := json.Unmarshal(raw, &out[i]); err != nil {
			t.Fatalf("progress %s: %v", raw, err)
		}
	}
	return out
}

// normalized is a direct answer as mcp-go's types write it: they leave out
// a prompt argument's "required": false, which is the default anyway. This
// is the one change the gateway's pass-through makes.
func normalized(t testing.TB, raw json.RawMessage) json.RawMessage {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	if m, ok := v.(map[string]any); ok {
		if ps, ok := m["prompts"].([]any); ok {
			for _, p := range ps {
				args, _ := p.(map[string]any)["arguments"].([]any)
				for _, a := range args {
					if am, ok := a.(map[string]any); ok && am["required"] == false {
						delete(am, "required")
					}
				}
			}
		}
	}
	return mustJSON(v)
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// sameJSON compares JSON texts as values.
func sameJSON(t testing.TB, a, b json.RawMessage) bool {
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}
