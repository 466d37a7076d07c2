package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
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
	inProc  bool // the Go side opens the demo server in process instead
	calls   []e2eCall
	extra   []scriptStep // resource and prompt steps
}

func demoUpstream(t testing.TB) e2eUpstream {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return e2eUpstream{
		name: "demo", command: exe, args: []string{"-test.run=^$"}, env: map[string]string{demoEnv: "1"}, inProc: true,
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
	if u.inProc {
		return session.Source{Kind: session.InProcess, Name: u.name, Server: demoServer()}
	}
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
	spec := serveSpec{Mode: m}
	if !u.inProc {
		spec.Command, spec.Args = u.command, u.args
	}
	b, _ := json.Marshal(spec)
	return map[string]any{"kind": "stdio", "command": exe, "args": []string{"-test.run=^$"}, "env": map[string]string{serveEnv: string(b)}}
}

// gatewayHTTP serves a gateway over streamable HTTP from this process.
func (u e2eUpstream) gatewayHTTP(t testing.TB, m Mode) (*Gateway, string) {
	up := openSession(t, u.source(), session.Options{})
	g := newGateway(t, up, Options{Mode: m, Policy: allowAll(t)})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- g.ServeStreamable(ctx, ln, nil) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ServeStreamable: %v", err)
		}
	})
	return g, "http://" + ln.Addr().String() + HTTPPath
}

// viaGateway turns a direct call into the call of a gateway tool in mode
// m, the way a model reading the gateway's tools would write it.
func viaGateway(t testing.TB, st *state, m Mode, c e2eCall) (tool string, args any) {
	arguments := obj(t, c.Args)
	if m == ModeTerm {
		expr, err := st.resolver.Format(call.Call{Tool: c.Tool, Arguments: arguments})
		if err != nil {
			t.Fatalf("formatting %s %s: %v", c.Tool, c.Args, err)
		}
		return DefaultTermTool, map[string]string{"expr": expr}
	}
	req, err := st.adapter.ToAQL(aql.ToolCall{Name: c.Tool, Arguments: arguments})
	if err != nil {
		t.Fatalf("AQL for %s: %v", c.Tool, err)
	}
	return st.adapter.Via(st.adapter.ForTool(c.Tool).Name), json.RawMessage(req.Compact())
}

// expected is what the gateway should answer in mode m, computed from the
// answer the SDK client got calling the upstream directly.
func expected(t testing.TB, st *state, m Mode, c e2eCall, direct *ojson.Value) (textWant string, isError bool) {
	if m == ModeTerm {
		// A call that does not validate is refused before it is sent, so
		// what the upstream would have said does not matter.
		_, args := viaGateway(t, st, m, c)
		if _, err := st.resolver.Parse(args.(map[string]string)["expr"]); err != nil {
			return sexpr.Print(call.ErrorToTerm(err)), true
		}
		return sexpr.Print(call.ResultToTerm(direct)), isErrorResult(direct)
	}
	tool, args := viaGateway(t, st, m, c)
	in, err := aql.FromValue(obj(t, string(args.(json.RawMessage))))
	if err != nil {
		t.Fatal(err)
	}
	resp := st.adapter.Run(tool, in, func(aql.ToolCall) (*ojson.Value, error) { return direct, nil })
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
	for _, gw := range out.Sessions[1:] {
		m := Mode(strings.SplitN(gw.Name, "/", 2)[0])
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
					checkCall(t, st, m, c, direct.Steps[i].Result, s.Result)
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

func checkCall(t *testing.T, st *state, m Mode, c e2eCall, directRaw, gotRaw json.RawMessage) {
	var d, g struct {
		Result   json.RawMessage   `json:"result"`
		Progress []json.RawMessage `json:"progress"`
	}
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
	if m == ModeTerm {
		// After the text, the upstream's non-text content, as it sent it.
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
	}
	if c.Progress {
		checkProgress(t, c.Tool, g.Progress, d.Progress)
	}
}

// checkProgress: the upstream's progress reaches the client under the
// client's own token (the SDK hands a callback only what carries its token).
// How many arrive, and in which order, is not up to the gateway: a server
// may write its last notifications after its answer (mcp-go's stdio server
// does) and a client drops what comes after the answer; mcp-go's streamable
// HTTP server can swap the last notifications of a request with each other
// as it flushes them before the answer. So every notification that arrives
// must be one the upstream sent, each once.
func checkProgress(t *testing.T, tool string, got, direct []json.RawMessage) {
	if len(got) == 0 || len(direct) == 0 {
		t.Errorf("%s: no progress (gateway %d, direct %d notifications)", tool, len(got), len(direct))
		return
	}
	value := func(raw json.RawMessage) (p, total float64) {
		var x struct {
			Progress float64 `json:"progress"`
			Total    float64 `json:"total"`
		}
		if err := json.Unmarshal(raw, &x); err != nil {
			t.Fatal(err)
		}
		return x.Progress, x.Total
	}
	sent := map[float64]json.RawMessage{}
	_, total := value(direct[0])
	for _, d := range direct {
		p, _ := value(d)
		sent[p] = d
	}
	seen := map[float64]bool{}
	for _, g := range got {
		p, tot := value(g)
		if p < 1 || p > total || tot != total || seen[p] {
			t.Errorf("%s: progress %s (total %v, seen before %v)", tool, g, total, seen[p])
		}
		seen[p] = true
		if d, ok := sent[p]; ok && !sameJSON(t, g, d) {
			t.Errorf("%s: progress\n gateway %s\n direct  %s", tool, g, d)
		}
	}
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

func clip(b json.RawMessage) string {
	if len(b) > 600 {
		return string(b[:600]) + fmt.Sprintf("…(%d bytes)", len(b))
	}
	return string(b)
}
