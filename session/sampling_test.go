package session

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

const testSamplingKey = "sk-test-SECRET-4f2a9c"

// chatEndpoint is a real HTTP server speaking the chat-completions shape:
// it records each request and answers with respond.
type chatEndpoint struct {
	*httptest.Server
	mu       sync.Mutex
	bodies   []map[string]any
	auth     []string
	paths    []string
	respond  func(w http.ResponseWriter, r *http.Request)
	received chan struct{} // one value per request, once recorded
}

func newChatEndpoint(t *testing.T, respond func(w http.ResponseWriter, r *http.Request)) *chatEndpoint {
	t.Helper()
	e := &chatEndpoint{respond: respond, received: make(chan struct{}, 16)}
	e.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(data, &body)
		e.mu.Lock()
		e.bodies = append(e.bodies, body)
		e.auth = append(e.auth, r.Header.Get("Authorization"))
		e.paths = append(e.paths, r.Method+" "+r.URL.Path)
		e.mu.Unlock()
		e.received <- struct{}{}
		e.respond(w, r)
	}))
	t.Cleanup(e.Close)
	return e
}

func (e *chatEndpoint) last(t *testing.T) (body map[string]any, auth, path string) {
	t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.bodies) == 0 {
		t.Fatal("the endpoint got no request")
	}
	n := len(e.bodies) - 1
	return e.bodies[n], e.auth[n], e.paths[n]
}

// answer writes a chat-completions answer.
func answer(body string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, body)
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func sampleReq(p mcp.CreateMessageParams) mcp.CreateMessageRequest {
	return mcp.CreateMessageRequest{CreateMessageParams: p}
}

// TestEndpointSamplerMapsBothWays: the request's system prompt, messages
// (text and an image), max tokens, temperature and stop sequences arrive
// in the chat-completions shape with the key as a bearer token; the
// answer's text, model, finish reason and usage come back as MCP's.
func TestEndpointSamplerMapsBothWays(t *testing.T) {
	e := newChatEndpoint(t, answer(`{"id":"x","model":"tiny-1","choices":[{"index":0,"message":{"role":"assistant","content":"Hello back"},"finish_reason":"length"}],"usage":{"prompt_tokens":12,"completion_tokens":3,"total_tokens":15}}`))
	s, err := NewEndpointSampler(e.URL+"/v1", "tiny", testSamplingKey)
	if err != nil {
		t.Fatal(err)
	}
	var reports []SamplingReport
	s.Report = func(r SamplingReport) { reports = append(reports, r) }
	res, err := s.Sample(ctxT(t, 30*time.Second), "srv", sampleReq(mcp.CreateMessageParams{
		SystemPrompt: "You are terse.",
		Messages: []mcp.SamplingMessage{
			{Role: mcp.RoleUser, Content: mcp.NewTextContent("Hi")},
			{Role: mcp.RoleAssistant, Content: mcp.NewTextContent("Hello")},
			{Role: mcp.RoleUser, Content: []mcp.Content{mcp.NewTextContent("What is this?"), mcp.NewImageContent("aGVsbG8=", "image/png")}},
			// As an HTTP transport delivers it: a map.
			{Role: mcp.RoleUser, Content: map[string]any{"type": "text", "text": "and audio?"}},
			{Role: mcp.RoleUser, Content: mcp.NewAudioContent("UklGRg==", "audio/wav")},
		},
		ModelPreferences: &mcp.ModelPreferences{Hints: []mcp.ModelHint{{Name: "claude-3"}}},
		MaxTokens:        64,
		Temperature:      0.7,
		StopSequences:    []string{"END"},
	}))
	if err != nil {
		t.Fatal(err)
	}
	body, auth, path := e.last(t)
	if path != "POST /v1/chat/completions" || auth != "Bearer "+testSamplingKey {
		t.Errorf("path %q auth %q", path, auth)
	}
	want := `{"max_tokens":64,"messages":[` +
		`{"content":"You are terse.","role":"system"},` +
		`{"content":"Hi","role":"user"},` +
		`{"content":"Hello","role":"assistant"},` +
		`{"content":[{"text":"What is this?","type":"text"},{"image_url":{"url":"data:image/png;base64,aGVsbG8="},"type":"image_url"}],"role":"user"},` +
		`{"content":"and audio?","role":"user"},` +
		`{"content":[{"input_audio":{"data":"UklGRg==","format":"wav"},"type":"input_audio"}],"role":"user"}],` +
		`"model":"tiny","stop":["END"],"temperature":0.7}`
	if got := jsonOf(t, body); got != want {
		t.Errorf("request body\n got %s\nwant %s", got, want)
	}
	text, ok := res.Content.(mcp.TextContent)
	if !ok || text.Text != "Hello back" || res.Role != mcp.RoleAssistant || res.Model != "tiny-1" || res.StopReason != "maxTokens" {
		t.Errorf("result %+v", res)
	}
	if len(reports) != 1 || reports[0] != (SamplingReport{Server: "srv", Model: "tiny-1", StopReason: "maxTokens", PromptTokens: 12, CompletionTokens: 3}) {
		t.Errorf("reports %+v", reports)
	}
}

// TestEndpointSamplerTools: sampling with tools (2025-11-25) maps tools to
// functions, tool uses to tool_calls, tool results to tool messages, and
// the endpoint's tool_calls back to tool_use content.
func TestEndpointSamplerTools(t *testing.T) {
	e := newChatEndpoint(t, answer(`{"model":"m","choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_2","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Porto\"}"}}]},"finish_reason":"tool_calls"}]}`))
	s, err := NewEndpointSampler(e.URL+"/v1/chat/completions", "m", "")
	if err != nil {
		t.Fatal(err)
	}
	tool := mcp.NewTool("get_weather", mcp.WithDescription("Weather of a city"), mcp.WithString("city", mcp.Required()))
	res, err := s.Sample(ctxT(t, 30*time.Second), "srv", sampleReq(mcp.CreateMessageParams{
		Messages: []mcp.SamplingMessage{
			{Role: mcp.RoleUser, Content: mcp.NewTextContent("Weather in Paris, then Porto?")},
			{Role: mcp.RoleAssistant, Content: []mcp.Content{mcp.NewToolUseContent("call_1", "get_weather", map[string]any{"city": "Paris"})}},
			{Role: mcp.RoleUser, Content: []mcp.Content{mcp.NewToolResultContent("call_1", []mcp.Content{mcp.NewTextContent("18°C")}, false)}},
		},
		MaxTokens:  100,
		Tools:      []mcp.Tool{tool},
		ToolChoice: &mcp.ToolChoice{Mode: mcp.ToolChoiceModeRequired},
	}))
	if err != nil {
		t.Fatal(err)
	}
	body, auth, path := e.last(t)
	if path != "POST /v1/chat/completions" || auth != "" {
		t.Errorf("path %q auth %q (no key: no header)", path, auth)
	}
	msgs := jsonOf(t, body["messages"])
	wantMsgs := `[{"content":"Weather in Paris, then Porto?","role":"user"},` +
		`{"content":null,"role":"assistant","tool_calls":[{"function":{"arguments":"{\"city\":\"Paris\"}","name":"get_weather"},"id":"call_1","type":"function"}]},` +
		`{"content":"18°C","role":"tool","tool_call_id":"call_1"}]`
	if msgs != wantMsgs {
		t.Errorf("messages\n got %s\nwant %s", msgs, wantMsgs)
	}
	tools := jsonOf(t, body["tools"])
	if !strings.Contains(tools, `"name":"get_weather"`) || !strings.Contains(tools, `"parameters":{`) || !strings.Contains(tools, `"required":["city"]`) || body["tool_choice"] != "required" {
		t.Errorf("tools %s, tool_choice %v", tools, body["tool_choice"])
	}
	blocks, ok := res.Content.([]mcp.Content)
	if !ok || len(blocks) != 1 || res.StopReason != "toolUse" {
		t.Fatalf("result %+v", res)
	}
	use, ok := blocks[0].(mcp.ToolUseContent)
	if !ok || use.ID != "call_2" || use.Name != "get_weather" || jsonOf(t, use.Input) != `{"city":"Porto"}` {
		t.Errorf("tool use %+v", blocks[0])
	}
}

// TestEndpointSamplerURLs: a base URL gets /chat/completions, a full one is
// kept; a model is required; only http(s) is taken; the shown URL drops
// what may be secret.
func TestEndpointSamplerURLs(t *testing.T) {
	for in, want := range map[string]string{
		"http://h:1/v1":                        "http://h:1/v1/chat/completions",
		"http://h:1/v1/":                       "http://h:1/v1/chat/completions",
		"https://h/openai/v1/chat/completions": "https://h/openai/v1/chat/completions",
		"https://u:pw@h/v1?api-key=zz":         "https://h/v1/chat/completions",
	} {
		s, err := NewEndpointSampler(in, "m", "")
		if err != nil || s.URL() != want {
			t.Errorf("%s: %v %q, want %q", in, err, s.URL(), want)
		}
	}
	if _, err := NewEndpointSampler("ftp://h/v1", "m", ""); err == nil || !strings.Contains(err.Error(), "http or https") {
		t.Errorf("ftp: %v", err)
	}
	if _, err := NewEndpointSampler("http://h/v1", " ", ""); err == nil || !strings.Contains(err.Error(), "--sampling-model") {
		t.Errorf("no model: %v", err)
	}
}

// TestEndpointSamplerErrors: what goes wrong at the endpoint is an error
// naming the endpoint and the HTTP status, never the key, and a slow
// endpoint ends with the request's context.
func TestEndpointSamplerErrors(t *testing.T) {
	text := mcp.CreateMessageParams{Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("hi")}}, MaxTokens: 5}
	cases := []struct {
		name    string
		respond func(http.ResponseWriter, *http.Request)
		limit   int64
		want    []string
	}{
		{"401", func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"error":{"message":"Incorrect API key provided: `+testSamplingKey+`","type":"invalid_request_error"}}`)
		}, 0, []string{"HTTP 401 Unauthorized", "Incorrect API key provided: [redacted]"}},
		{"500", func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "upstream\nexploded", http.StatusInternalServerError)
		}, 0, []string{"HTTP 500 Internal Server Error: upstream exploded"}},
		{"garbage", answer(`<html>not json</html>`), 0, []string{"not chat-completions JSON"}},
		{"no choices", answer(`{"model":"m","choices":[]}`), 0, []string{"no choices"}},
		{"bad tool arguments", answer(`{"choices":[{"message":{"tool_calls":[{"id":"1","function":{"name":"f","arguments":"{oops"}}]},"finish_reason":"tool_calls"}]}`), 0, []string{"tool call 1 (f): arguments are not JSON"}},
		{"oversized", answer(`{"choices":[{"message":{"content":"` + strings.Repeat("x", 2000) + `"}}]}`), 1000, []string{"over 1000 bytes"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newChatEndpoint(t, tc.respond)
			s, err := NewEndpointSampler(e.URL+"/v1?key="+testSamplingKey, "m", testSamplingKey)
			if err != nil {
				t.Fatal(err)
			}
			s.MaxResponseBytes = tc.limit
			_, err = s.Sample(ctxT(t, 30*time.Second), "srv", sampleReq(text))
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if !strings.Contains(msg, "sampling endpoint "+e.URL+"/v1/chat/completions: ") {
				t.Errorf("error does not name the endpoint: %q", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			if strings.Contains(msg, testSamplingKey) {
				t.Errorf("error shows the key: %q", msg)
			}
		})
	}

	t.Run("slow", func(t *testing.T) {
		release := make(chan struct{})
		e := newChatEndpoint(t, func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-release:
			}
		})
		defer close(release)
		s, err := NewEndpointSampler(e.URL+"/v1", "m", testSamplingKey)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancelCause(context.Background())
		go func() {
			<-e.received // the endpoint has the request and sits on it
			cancel(ErrTimeout)
		}()
		_, err = s.Sample(ctx, "srv", sampleReq(text))
		if !errors.Is(err, errSamplingEndpoint) || !strings.Contains(err.Error(), "no answer: "+ErrTimeout.Error()) || strings.Contains(err.Error(), testSamplingKey) {
			t.Errorf("slow endpoint: %v", err)
		}
	})

	t.Run("unreachable", func(t *testing.T) {
		e := newChatEndpoint(t, answer(`{}`))
		url := e.URL
		e.Close()
		s, err := NewEndpointSampler(url+"/v1", "m", testSamplingKey)
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.Sample(ctxT(t, 30*time.Second), "srv", sampleReq(text))
		if err == nil || !strings.Contains(err.Error(), "connect") || strings.Contains(err.Error(), testSamplingKey) {
			t.Errorf("unreachable: %v", err)
		}
	})
}

// TestEndpointSamplerUnsendable: content the chat shape cannot carry is a
// clear error naming the message, and nothing is sent.
func TestEndpointSamplerUnsendable(t *testing.T) {
	e := newChatEndpoint(t, answer(`{}`))
	s, err := NewEndpointSampler(e.URL+"/v1", "m", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		msg  mcp.SamplingMessage
		want string
	}{
		{mcp.SamplingMessage{Role: mcp.RoleUser, Content: mcp.NewAudioContent("AAAA", "audio/ogg")}, `message 1 (user): audio of type "audio/ogg"`},
		{mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewImageContent("AAAA", "image/png")}, "message 1 (assistant): an image in an assistant message"},
		{mcp.SamplingMessage{Role: mcp.RoleUser, Content: []mcp.Content{mcp.NewTextContent("x"), mcp.NewToolUseContent("1", "f", nil)}}, "message 1 (user): content 2: tool_use in a user message"},
		{mcp.SamplingMessage{Role: mcp.RoleUser, Content: []mcp.Content{mcp.NewToolResultContent("1", []mcp.Content{mcp.NewImageContent("AAAA", "image/png")}, false)}}, `tool result "1" holds "image" content`},
		{mcp.SamplingMessage{Role: "system", Content: mcp.NewTextContent("x")}, `role "system" is neither user nor assistant`},
		{mcp.SamplingMessage{Role: mcp.RoleUser, Content: map[string]any{"type": "resource_link", "uri": "file:///x"}}, `content of type "resource_link" cannot be sent`},
	} {
		_, err := s.Sample(ctxT(t, 30*time.Second), "srv", sampleReq(mcp.CreateMessageParams{Messages: []mcp.SamplingMessage{tc.msg}, MaxTokens: 5}))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.msg, err, tc.want)
		}
	}
	e.mu.Lock()
	n := len(e.bodies)
	e.mu.Unlock()
	if n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// TestEverythingSamplingEndpoint: the reference server's
// trigger-sampling-request, answered by an endpoint through a live
// session: the server's request reaches the endpoint mapped, and the
// endpoint's answer reaches the tool's result.
func TestEverythingSamplingEndpoint(t *testing.T) {
	src := everything(t)
	e := newChatEndpoint(t, answer(`{"model":"local-7b","choices":[{"message":{"role":"assistant","content":"Porto is sunny."},"finish_reason":"stop"}],"usage":{"prompt_tokens":20,"completion_tokens":4}}`))
	es, err := NewEndpointSampler(e.URL+"/v1", "local-7b", testSamplingKey)
	if err != nil {
		t.Fatal(err)
	}
	s := open(t, src, Options{Asker: Pair{Sampler: es}})
	ctx := ctxT(t, 60*time.Second)
	r := s.Call(ctx, CallRequest{Tool: "trigger-sampling-request", Arguments: obj(t, `{"prompt":"weather in Porto","maxTokens":30}`)})
	if !r.OK() || !strings.Contains(resultText(r), "Porto is sunny.") || !strings.Contains(resultText(r), `"stopReason": "endTurn"`) || !strings.Contains(resultText(r), "local-7b") {
		t.Fatalf("call: %v %q", r.Err, resultText(r))
	}
	body, auth, _ := e.last(t)
	if auth != "Bearer "+testSamplingKey || jsonOf(t, body["messages"]) != `[{"content":"You are a helpful test server.","role":"system"},{"content":"Resource trigger-sampling-request context: weather in Porto","role":"user"}]` || body["max_tokens"] != 30.0 || body["temperature"] != 0.7 {
		t.Errorf("endpoint saw %s (auth %q)", jsonOf(t, body), auth)
	}
}

// FuzzSamplingResult: whatever an endpoint answers, reading it ends in a
// result or an error, never a panic; a result is always an assistant
// message with a model.
func FuzzSamplingResult(f *testing.F) {
	f.Add([]byte(`{"model":"m","choices":[{"message":{"content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":2}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, _, err := samplingResult(data, "asked")
		if err == nil && (res == nil || res.Role != mcp.RoleAssistant || res.Model == "" || res.Content == nil) {
			t.Fatalf("result %+v from %q", res, data)
		}
	})
}
