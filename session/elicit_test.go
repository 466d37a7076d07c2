package session

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// syncBuffer is an io.Writer the handler goroutine writes and the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func formRequest(t *testing.T, schema string) mcp.ElicitationRequest {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(schema), &v); err != nil {
		t.Fatal(err)
	}
	return mcp.ElicitationRequest{Params: mcp.ElicitationParams{Message: "Tell me\x1b[31m", RequestedSchema: v}}
}

const personSchema = `{"type":"object","properties":{
 "name":{"type":"string","title":"Name\u202e","minLength":2},
 "age":{"type":"integer","minimum":0,"default":30},
 "pet":{"type":"string","oneOf":[{"const":"c","title":"Cat"},{"const":"d","title":"Dog"}]},
 "ok":{"type":"boolean","default":false}},"required":["name"]}`

func TestDefaultsElicitor(t *testing.T) {
	var notes []string
	d := DefaultsElicitor{Notify: func(s string) { notes = append(notes, s) }}
	res, err := d.Elicit(context.Background(), "srv", formRequest(t, personSchema))
	if err != nil || res.Action != mcp.ElicitationResponseActionDecline || len(notes) != 1 || !strings.Contains(notes[0], "required field has no default (name)") {
		t.Fatalf("a required field without default: %+v %v %q", res, err, notes)
	}
	res, err = d.Elicit(context.Background(), "srv", formRequest(t, `{"type":"object","properties":{"n":{"type":"number","default":1.5},"s":{"type":"string"}}}`))
	if err != nil || res.Action != mcp.ElicitationResponseActionAccept {
		t.Fatalf("%+v %v", res, err)
	}
	if b, _ := json.Marshal(res); !strings.Contains(string(b), `"content":{"n":1.5}`) {
		t.Fatalf("content %s", b)
	}
	url := mcp.ElicitationRequest{Params: mcp.ElicitationParams{Mode: "url", URL: "https://example.com/\x1b]8;;x", Message: "sign in", ElicitationID: "e1"}}
	res, _ = d.Elicit(context.Background(), "srv", url)
	if res.Action != mcp.ElicitationResponseActionDecline || strings.Contains(notes[1], "\x1b") || !strings.Contains(notes[1], "https://example.com/") {
		t.Fatalf("URL mode: %+v %q", res, notes)
	}
	if _, err := d.Elicit(context.Background(), "srv", formRequest(t, `{"type":"object","properties":{"o":{"type":"object"}}}`)); err == nil || !strings.Contains(err.Error(), `field "o"`) {
		t.Fatalf("bad schema: %v", err)
	}
}

func TestFileElicitor(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "a.json")
	os.WriteFile(good, []byte(`{"name":"Ada","pet":"d","unused":true}`), 0o600)
	answers, err := LoadElicitFile(good)
	if err != nil {
		t.Fatal(err)
	}
	var notes []string
	e := FileElicitor{Answers: answers, Notify: func(s string) { notes = append(notes, s) }}
	res, err := e.Elicit(context.Background(), "srv", formRequest(t, personSchema))
	if err != nil || res.Action != mcp.ElicitationResponseActionAccept {
		t.Fatalf("%+v %v %v", res, err, notes)
	}
	if b, _ := json.Marshal(res.Content); string(b) != `{"age":30,"name":"Ada","ok":false,"pet":"d"}` {
		t.Fatalf("content %s", b)
	}
	e.Answers = map[string]any{"name": "A", "age": 1.5}
	res, _ = e.Elicit(context.Background(), "srv", formRequest(t, personSchema))
	if res.Action != mcp.ElicitationResponseActionDecline || !strings.Contains(notes[0], "age: 1.5 is not a whole number") || !strings.Contains(notes[0], "name: at least 2 characters") {
		t.Fatalf("%+v %q", res, notes)
	}
	for content, want := range map[string]string{
		`[1]`:           "want a JSON object",
		`{"a":{"b":1}}`: `"a": an answer is a string, number, boolean or list of strings, not an object`,
		`{"a":[1]}`:     `"a": a list of answers holds only strings`,
		`null`:          "want a JSON object",
		`{"a":"b"`:      "want a JSON object",
	} {
		p := filepath.Join(dir, "bad.json")
		os.WriteFile(p, []byte(content), 0o600)
		if _, err := LoadElicitFile(p); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %v, want %q", content, err, want)
		}
	}
	if _, err := LoadElicitFile(filepath.Join(dir, "none.json")); err == nil || !strings.Contains(err.Error(), "--elicit") {
		t.Errorf("missing file: %v", err)
	}
}

func TestPromptElicitorForm(t *testing.T) {
	out := &syncBuffer{}
	// Fields come sorted (the schema is a decoded map): answer, then age
	// out of range and then the default; name too short and then good; ok
	// left at its default; pet by title.
	p := NewPromptElicitor(strings.NewReader("\n-3\n\nA\nAda\n\ndog\n"), out, nil)
	res, err := p.Elicit(ctxT(t, 10*time.Second), "srv", formRequest(t, personSchema))
	if err != nil || res.Action != mcp.ElicitationResponseActionAccept {
		t.Fatalf("%+v %v\n%s", res, err, out)
	}
	if b, _ := json.Marshal(res.Content); string(b) != `{"age":30,"name":"Ada","ok":false,"pet":"d"}` {
		t.Fatalf("content %s\n%s", b, out)
	}
	text := out.String()
	for _, want := range []string{"srv asks:", "Tell me", "! at least 2 characters, got 1", "! -3 is less than the minimum 0", "1) Cat", "[30] > ", "Name", "* (name)"} {
		if !strings.Contains(text, want) {
			t.Errorf("prompts lack %q:\n%s", want, text)
		}
	}
	if strings.ContainsAny(text, "\x1b\u202e") {
		t.Errorf("server text reached the terminal unsanitised:\n%q", text)
	}
	// End of input cancels; "n" declines.
	res, err = p.Elicit(ctxT(t, 10*time.Second), "srv", formRequest(t, personSchema))
	if err != nil || res.Action != mcp.ElicitationResponseActionCancel {
		t.Fatalf("EOF: %+v %v", res, err)
	}
	p = NewPromptElicitor(strings.NewReader("n\n"), out, nil)
	if res, _ := p.Elicit(ctxT(t, 10*time.Second), "srv", formRequest(t, personSchema)); res.Action != mcp.ElicitationResponseActionDecline {
		t.Fatalf("n: %+v", res)
	}
}

// TestPromptElicitorContext: a server that gives up ends the wait for a
// line that never comes.
func TestPromptElicitorContext(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	p := NewPromptElicitor(r, &syncBuffer{}, nil)
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := p.Elicit(ctx, "srv", formRequest(t, personSchema))
		done <- err
	}()
	cancel(ErrTimeout)
	select {
	case err := <-done:
		if err != ErrTimeout {
			t.Fatalf("err %v, want the context's cause", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the prompt did not end with its context")
	}
}

func TestPromptElicitorURL(t *testing.T) {
	var opened []string
	open := func(_ context.Context, u string) error { opened = append(opened, u); return nil }
	out := &syncBuffer{}
	p := NewPromptElicitor(strings.NewReader("maybe\ny\n\n"), out, open)
	req := mcp.ElicitationRequest{Params: mcp.ElicitationParams{Mode: "url", URL: "https://example.com/auth", Message: "Sign in", ElicitationID: "e1"}}
	res, err := p.Elicit(ctxT(t, 10*time.Second), "srv", req)
	if err != nil || res.Action != mcp.ElicitationResponseActionAccept || len(opened) != 1 || opened[0] != "https://example.com/auth" {
		t.Fatalf("%+v %v %v\n%s", res, err, opened, out)
	}
	if res, _ := p.Elicit(ctxT(t, 10*time.Second), "srv", req); res.Action != mcp.ElicitationResponseActionDecline || len(opened) != 1 {
		t.Fatalf("an empty answer must decline without opening: %+v %v", res, opened)
	}
	if !strings.Contains(out.String(), "https://example.com/auth") || !strings.Contains(out.String(), "! answer y") {
		t.Fatalf("prompts:\n%s", out)
	}
}

// TestEverythingElicitation: server-everything's elicitation tools, over a
// real stdio subprocess, answered by each policy.
func TestEverythingElicitation(t *testing.T) {
	src := everything(t)
	ctx := ctxT(t, 90*time.Second)
	call := func(e Elicitor, tool, args string) string {
		t.Helper()
		s := open(t, src, Options{Asker: Pair{Elicitor: e}})
		r := s.Call(ctx, CallRequest{Tool: tool, Arguments: obj(t, args)})
		if !r.OK() {
			t.Fatalf("%s: %v %s", tool, r.Err, resultText(r))
		}
		return resultText(r)
	}
	var notes []string
	got := call(DefaultsElicitor{Notify: func(s string) { notes = append(notes, s) }}, "trigger-elicitation-request", `{}`)
	if !strings.Contains(got, "declined") || len(notes) != 1 || !strings.Contains(notes[0], "(name)") {
		t.Errorf("defaults: %q %q", got, notes)
	}
	got = call(FileElicitor{Answers: map[string]any{"name": "Ada Lovelace", "check": true}}, "trigger-elicitation-request", `{}`)
	for _, want := range []string{"- Name: Ada Lovelace", "- Agreed to terms: true", "- Favorite Integer: 42", `"titledMultipleSelectEnum": [`, `"fish-1"`, `"legacyTitledEnum": "pet-1"`} {
		if !strings.Contains(got, want) {
			t.Errorf("file: %q lacks %q", got, want)
		}
	}
	out := &syncBuffer{}
	// Fields come in the order the server wrote them (the stdio transport
	// keeps it): name check firstLine email homepage birthdate integer
	// number untitledSingle untitledMulti titledSingle titledMulti legacy.
	answers := "y\nGrace\nno\n\n\n\n2000-01-31\n500\n7\n\n\n\nWonder Woman\n2,3\nDogs\n"
	got = call(NewPromptElicitor(strings.NewReader(answers), out, nil), "trigger-elicitation-request", `{}`)
	for _, want := range []string{"- Name: Grace", "- Agreed to terms: false", "- Birthdate: 2000-01-31", "- Favorite Integer: 7", `"legacyTitledEnum": "pet-2"`, `"fish-2"`, `"hero-3"`} {
		if !strings.Contains(got, want) {
			t.Errorf("prompt: %q lacks %q\n%s", got, want, out)
		}
	}
	if !strings.Contains(out.String(), "! 500 is more than the maximum 100") {
		t.Errorf("prompts:\n%s", out)
	}
	if n, c := strings.Index(out.String(), "String * (name)"), strings.Index(out.String(), "Boolean (check)"); n < 0 || c < n {
		t.Errorf("fields not in the server's order:\n%s", out)
	}
	var opened []string
	open := func(_ context.Context, u string) error { opened = append(opened, u); return nil }
	got = call(NewPromptElicitor(strings.NewReader("y\n"), &syncBuffer{}, open), "trigger-url-elicitation", `{"url":"https://example.com/consent"}`)
	if !strings.Contains(got, "completed the URL elicitation") || len(opened) != 1 || opened[0] != "https://example.com/consent" {
		t.Errorf("url: %q %v", got, opened)
	}
	got = call(DeclineElicitor{}, "trigger-url-elicitation", `{"url":"https://example.com/consent"}`)
	if !strings.Contains(got, "declined to open the URL") {
		t.Errorf("url decline: %q", got)
	}
}

// TestElicitStreamableHTTP: an mcp-go server over streamable HTTP asks
// during a call and the defaults policy answers. (At 2026-07-28 a server
// may not ask this way: it returns input requests instead, SEP-2322.)
func TestElicitStreamableHTTP(t *testing.T) {
	srv := server.NewMCPServer("asker", "1.0", server.WithElicitation())
	srv.AddTool(mcp.NewTool("ask"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var schema any
		json.Unmarshal([]byte(`{"type":"object","properties":{"n":{"type":"integer","default":7}}}`), &schema)
		res, err := srv.RequestElicitation(ctx, mcp.ElicitationRequest{Params: mcp.ElicitationParams{Message: "n?", RequestedSchema: schema}})
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		b, _ := json.Marshal(res)
		return mcp.NewToolResultText(string(b)), nil
	})
	ts := httptest.NewServer(server.NewStreamableHTTPServer(srv))
	t.Cleanup(ts.Close)
	for _, v := range []string{"2025-11-25", "2025-06-18"} {
		t.Run("v"+v, func(t *testing.T) {
			s := open(t, Source{Kind: HTTP, URL: ts.URL + "/mcp"}, Options{ProtocolVersion: v, Asker: Pair{Elicitor: DefaultsElicitor{}}})
			r := s.Call(ctxT(t, 30*time.Second), CallRequest{Tool: "ask", Arguments: obj(t, `{}`)})
			if !r.OK() || !strings.Contains(resultText(r), `"action":"accept","content":{"n":7}`) {
				t.Fatalf("%v %s (protocol %s)", r.Err, resultText(r), s.Info().ProtocolVersion)
			}
		})
	}
}

// slowElicitor answers after mcp-go's 30-second bound on a server's
// request over HTTP has passed: the wait is the point of the test.
type slowElicitor struct{ after time.Duration }

func (e slowElicitor) Elicit(ctx context.Context, _ string, _ mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	select {
	case <-time.After(e.after):
		return ElicitAccept(map[string]any{"n": int64(8)}), nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// TestElicitStreamableHTTPSlowAnswer: a person may take longer than the
// 30 seconds mcp-go gives a server's request over HTTP; the late answer
// still reaches the server.
func TestElicitStreamableHTTPSlowAnswer(t *testing.T) {
	if testing.Short() {
		t.Skip("waits 31 s")
	}
	srv := server.NewMCPServer("asker", "1.0", server.WithElicitation())
	srv.AddTool(mcp.NewTool("ask"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var schema any
		json.Unmarshal([]byte(`{"type":"object","properties":{"n":{"type":"integer"}}}`), &schema)
		res, err := srv.RequestElicitation(ctx, mcp.ElicitationRequest{Params: mcp.ElicitationParams{Message: "n?", RequestedSchema: schema}})
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		b, _ := json.Marshal(res)
		return mcp.NewToolResultText(string(b)), nil
	})
	ts := httptest.NewServer(server.NewStreamableHTTPServer(srv))
	t.Cleanup(ts.Close)
	s := open(t, Source{Kind: HTTP, URL: ts.URL + "/mcp"}, Options{ProtocolVersion: "2025-11-25", CallTimeout: 2 * time.Minute, Asker: Pair{Elicitor: slowElicitor{after: 31 * time.Second}}})
	r := s.Call(ctxT(t, 2*time.Minute), CallRequest{Tool: "ask", Arguments: obj(t, `{}`)})
	if !r.OK() || !strings.Contains(resultText(r), `"action":"accept","content":{"n":8}`) {
		t.Fatalf("%v %s", r.Err, resultText(r))
	}
}

func TestInSentOrder(t *testing.T) {
	line := []byte(`{"jsonrpc":"2.0","id":3,"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"boolean"}}}}}`)
	req := formRequest(t, `{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"boolean"}}}`)
	req.Params.Message = "m"
	names := func(r mcp.ElicitationRequest) string {
		f, err := ElicitForm(r)
		if err != nil {
			t.Fatal(err)
		}
		return f.Fields[0].Name + f.Fields[1].Name
	}
	if got := names(req); got != "az" {
		t.Fatalf("decoded map: %s", got)
	}
	ctx := withRawParams(context.Background(), rawParams(line))
	if got := names(inSentOrder(ctx, req)); got != "za" {
		t.Fatalf("in sent order: %s", got)
	}
	other := req
	other.Params.Message = "another request"
	if got := names(inSentOrder(ctx, other)); got != "az" {
		t.Fatalf("the raw text of another request was used: %s", got)
	}
	if rawParams([]byte("not json")) != nil || inSentOrder(context.Background(), req).Params.RequestedSchema == nil {
		t.Fatal("no raw text: the request is kept as it is")
	}
}
