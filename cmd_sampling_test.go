package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

const samplingCall = `{"name":"trigger-sampling-request","arguments":{"prompt":"weather in Porto","maxTokens":25}}`

// TestSamplingCLIDeclines: by default the command line declines a
// server's sampling request, and both the server (in the tool's error)
// and the person (a note on stderr) are told how to answer instead.
func TestSamplingCLIDeclines(t *testing.T) {
	sel := everythingSel(t)
	r := runMcpterm(t, hangLimit, nil, append([]string{"call", samplingCall}, sel...)...)
	if r.Code != exitToolError || !strings.Contains(r.Stdout, "declined by the user: "+declineSampling) {
		t.Errorf("exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "mcpterm call: note: ") || !strings.Contains(r.Stderr, "asked for sampling (1 message, at most 25 tokens); declined (give --sampling-endpoint") {
		t.Errorf("stderr %q", r.Stderr)
	}
}

// TestSamplingCLIEndpoint: with --sampling-endpoint the request goes to a
// real chat-completions endpoint (here a local one) with the key from the
// named variable, its answer is the tool's result, a note on stderr says
// who answered with how many tokens, and the key is printed nowhere.
func TestSamplingCLIEndpoint(t *testing.T) {
	sel := everythingSel(t)
	const key = "sk-cli-test-0c1d2e3f"
	var mu sync.Mutex
	var got map[string]any
	var auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		mu.Lock()
		_ = json.Unmarshal(data, &got)
		auth = r.Header.Get("Authorization")
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"model":"tiny-local","choices":[{"message":{"role":"assistant","content":"Sunny in Porto."},"finish_reason":"stop"}],"usage":{"prompt_tokens":21,"completion_tokens":4}}`)
	}))
	defer srv.Close()
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	args := append([]string{"call", "--sampling-endpoint", srv.URL + "/v1", "--sampling-model", "tiny-local", "--sampling-key-env", "MCPTERM_TEST_SAMPLING_KEY", "--trace", trace, samplingCall}, sel...)
	r := runMcpterm(t, hangLimit, []string{"MCPTERM_TEST_SAMPLING_KEY=" + key}, args...)
	if r.Code != exitOK || !strings.Contains(r.Stdout, "Sunny in Porto.") || !strings.Contains(r.Stdout, "endTurn") {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "answered by tiny-local at "+srv.URL+"/v1/chat/completions (21 prompt + 4 completion tokens, stop: endTurn)") {
		t.Errorf("stderr %q", r.Stderr)
	}
	traced, err := os.ReadFile(trace)
	if err != nil || !strings.Contains(string(traced), "sampling/createMessage") {
		t.Errorf("trace: %v %q", err, traced)
	}
	if strings.Contains(r.Stdout+r.Stderr+string(traced), key) {
		t.Errorf("the key is printed or traced:\n%s\n%s", r.Stdout, r.Stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	if auth != "Bearer "+key || got["model"] != "tiny-local" || got["max_tokens"] != 25.0 {
		t.Errorf("endpoint saw auth %q body %v", auth, got)
	}
}

// TestSamplingCLIUsage: flags that cannot work are refused before
// anything connects (the selection names a command that does not exist).
func TestSamplingCLIUsage(t *testing.T) {
	sel := []string{"--", "/nonexistent/never-started"}
	for _, tc := range []struct {
		args []string
		env  []string
		want string
	}{
		{[]string{"--sampling-endpoint", "http://127.0.0.1:9/v1"}, nil, "--sampling-endpoint needs --sampling-model"},
		{[]string{"--sampling-model", "m"}, nil, "need --sampling-endpoint"},
		{[]string{"--sampling-endpoint", "http://127.0.0.1:9/v1", "--sampling-model", "m", "--sampling-key-env", "MCPTERM_TEST_UNSET_KEY"}, []string{"MCPTERM_TEST_UNSET_KEY="}, "--sampling-key-env MCPTERM_TEST_UNSET_KEY: the variable is not set"},
		{[]string{"--sampling-endpoint", "file:///tmp/x", "--sampling-model", "m"}, nil, "want an http or https URL"},
	} {
		args := append(append([]string{"call"}, tc.args...), append([]string{`{"name":"x"}`}, sel...)...)
		r := runMcpterm(t, hangLimit, tc.env, args...)
		if r.Code != exitUsage || !strings.Contains(r.Stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, r.Code, r.Stderr, tc.want)
		}
	}
}
