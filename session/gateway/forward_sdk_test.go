package gateway

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/session"
)

// csScript is what testdata/clientside.mjs runs.
type csScript struct {
	Sessions []csSession `json:"sessions"`
}

type csSession struct {
	Name          string         `json:"name"`
	Transport     map[string]any `json:"transport"`
	Capabilities  map[string]any `json:"capabilities"`
	Roots         []mcp.Root     `json:"roots,omitempty"`
	SamplingReply string         `json:"samplingReply,omitempty"`
	ElicitContent map[string]any `json:"elicitContent,omitempty"`
	Steps         []csStep       `json:"steps"`
}

type csStep struct {
	Op        string     `json:"op"`
	Name      string     `json:"name,omitempty"`
	Arguments any        `json:"arguments,omitempty"`
	Level     string     `json:"level,omitempty"`
	Contains  string     `json:"contains,omitempty"`
	Roots     []mcp.Root `json:"roots,omitempty"`
}

type csOutcome struct {
	Sessions []struct {
		Name  string `json:"name"`
		Error string `json:"error"`
		Steps []struct {
			Op     string          `json:"op"`
			Result json.RawMessage `json:"result"`
			Error  string          `json:"error"`
		} `json:"steps"`
		Asked struct {
			Sampling    []json.RawMessage `json:"sampling"`
			Elicitation []json.RawMessage `json:"elicitation"`
			Roots       int               `json:"roots"`
		} `json:"asked"`
	} `json:"sessions"`
}

// runClientSide runs clientside.mjs on a script, as runClient runs
// client.mjs.
func runClientSide(t *testing.T, s csScript) csOutcome {
	t.Helper()
	var out csOutcome
	runSDKScript(t, "clientside.mjs", s, &out)
	for _, s := range out.Sessions {
		if s.Error != "" {
			t.Fatalf("session %s: %s", s.Name, s.Error)
		}
	}
	return out
}

// resultText is the first text item of a callTool step's result, and
// whether the result is an error.
func resultText(t *testing.T, raw json.RawMessage) (string, bool) {
	t.Helper()
	var r struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || len(r.Content) == 0 {
		t.Fatalf("not a tool result: %s", clip(raw))
	}
	return r.Content[0].Text, r.IsError
}

// TestForwardSDK: the official TypeScript SDK client, declaring roots,
// sampling and elicitation, in front of the gateway over stdio and over
// streamable HTTP, with server-everything behind it: its roots (and their
// change) reach the upstream, and the upstream's sampling and elicitation
// reach its handlers, their answers coming back to the tools unchanged. A
// client that declares nothing gets the fallback roots and declines.
func TestForwardSDK(t *testing.T) {
	t.Parallel()
	sdk(t)
	u := everythingUpstream(t)
	exprs := newClientSide(t) // for the term mode's calls, and its fallback
	roots := func(names ...string) []mcp.Root {
		var out []mcp.Root
		for _, n := range names {
			out = append(out, mcp.Root{URI: "file:///sdk/" + n, Name: n})
		}
		return out
	}
	call := func(tool, args string) csStep {
		return csStep{Op: "callTool", Name: DefaultTermTool, Arguments: map[string]string{"expr": exprs.expr(t, tool, args)}}
	}
	full := []csStep{
		{Op: "setLoggingLevel", Level: "info"},
		{Op: "waitLog", Contains: "Roots updated: 2 root(s)"},
		call("get-roots-list", `{}`),
		call("trigger-sampling-request", `{"prompt":"write a haiku","maxTokens":40}`),
		call("trigger-elicitation-request", `{}`),
		{Op: "setRoots", Roots: roots("one", "two", "three")},
		{Op: "waitLog", Contains: "Roots updated: 3 root(s)"},
		call("get-roots-list", `{}`),
	}
	none := []csStep{
		call("trigger-sampling-request", `{"prompt":"write a haiku","maxTokens":40}`),
		call("trigger-elicitation-request", `{}`),
		call("get-roots-list", `{}`),
	}
	caps := map[string]any{"roots": map[string]any{"listChanged": true}, "sampling": map[string]any{}, "elicitation": map[string]any{"form": map[string]any{}}}
	fallbackDir := t.TempDir()
	fallback, _ := session.DirRoots(fallbackDir)
	stdio := func() map[string]any {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(serveSpec{Mode: ModeTerm, Command: u.command, Args: u.args, ClientSide: true, Roots: []string{fallbackDir}})
		return map[string]any{"kind": "stdio", "command": exe, "args": []string{"-test.run=^$"}, "env": map[string]string{serveEnv: string(b)}}
	}
	httpGateway := func() (map[string]any, string) {
		cs := newClientSide(t)
		return map[string]any{"kind": "http", "url": serveHTTP(t, cs.g)}, cs.fallback
	}
	fallbacks := map[string]string{"stdio/full": fallback[0].URI, "stdio/none": fallback[0].URI}
	var sessions []csSession
	for _, tr := range []string{"stdio", "http"} {
		for _, kind := range []string{"full", "none"} {
			name := tr + "/" + kind
			s := csSession{Name: name, Capabilities: map[string]any{}, Steps: none}
			if kind == "full" {
				s.Capabilities, s.Steps = caps, full
				s.Roots = roots("one", "two")
				s.SamplingReply = "an old silent pond (" + name + ")"
				s.ElicitContent = map[string]any{"name": "Grace Hopper", "check": true}
			}
			if tr == "stdio" {
				s.Transport = stdio()
			} else {
				s.Transport, fallbacks[name] = httpGateway()
			}
			sessions = append(sessions, s)
		}
	}
	out := runClientSide(t, csScript{Sessions: sessions})
	for _, s := range out.Sessions {
		t.Run(s.Name, func(t *testing.T) {
			for i, st := range s.Steps {
				if st.Error != "" {
					t.Fatalf("step %d %s: %s", i, st.Op, st.Error)
				}
			}
			text := func(i int) string {
				s, _ := resultText(t, s.Steps[i].Result)
				return s
			}
			fb := fallbacks[s.Name]
			if strings.HasSuffix(s.Name, "/none") {
				contains(t, text(0), "the mcpterm gateway declined sampling", "did not declare sampling")
				contains(t, strings.ToLower(text(1)), "decline")
				contains(t, text(2), fb)
				if n := len(s.Asked.Sampling) + len(s.Asked.Elicitation) + s.Asked.Roots; n != 0 {
					t.Errorf("a client without capabilities was asked %d times", n)
				}
				return
			}
			got := text(2)
			contains(t, got, "file:///sdk/one", "file:///sdk/two")
			if strings.Contains(got, fb) {
				t.Errorf("the fallback root is still offered:\n%s", got)
			}
			contains(t, text(3), "an old silent pond ("+s.Name+")", "sdk-model")
			if len(s.Asked.Sampling) != 1 || !strings.Contains(string(s.Asked.Sampling[0]), "write a haiku") {
				t.Errorf("sampling requests the client saw: %s", mustJSON(s.Asked.Sampling))
			}
			contains(t, text(4), "Grace Hopper")
			if len(s.Asked.Elicitation) != 1 || !strings.Contains(string(s.Asked.Elicitation[0]), "requestedSchema") {
				t.Errorf("elicitations the client saw: %s", mustJSON(s.Asked.Elicitation))
			}
			contains(t, text(7), "file:///sdk/one", "file:///sdk/two", "file:///sdk/three")
			if s.Asked.Roots < 2 {
				t.Errorf("the client was asked for its roots %d times, want at least 2", s.Asked.Roots)
			}
		})
	}
}
