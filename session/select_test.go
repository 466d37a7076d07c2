package session

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/session/demo"
)

// selEnv is an environment of exactly vars, rooted in a temporary
// directory (no config file in the usual places unless a test writes one).
func selEnv(t *testing.T, vars map[string]string) Env {
	t.Helper()
	dir := t.TempDir()
	return Env{Getenv: func(k string) string { return vars[k] }, Cwd: dir, Home: dir}
}

// selConfig writes an mcpServers file and returns its path.
func selConfig(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestResolveUsageErrors(t *testing.T) {
	cfg := selConfig(t, `{"mcpServers": {"remote": {"type": "http", "url": "http://127.0.0.1:1/mcp"},
		"local": {"command": "/nonexistent/bin"}}}`)
	cases := []struct {
		name string
		sel  Selection
		want string
	}{
		{"two servers", Selection{URL: "http://x", ToolsFile: "f.json"}, "choose one server: -- CMD ARGS, --url, --server or --tools"},
		{"command and server", Selection{Command: []string{"srv"}, Server: "remote"}, "choose one server"},
		{"sse alone", Selection{SSE: true}, "--sse needs --url"},
		{"header alone", Selection{Headers: []string{"A: b"}}, "--header needs --url or an HTTP --server"},
		{"bearer alone", Selection{BearerTokenEnv: "TOK"}, "--bearer-token-env needs --url or an HTTP --server"},
		{"config alone", Selection{Configs: []string{"x.json"}}, "--config needs --server NAME"},
		{"bearer unset", Selection{URL: "http://x", BearerTokenEnv: "MCPTERM_UNSET_VAR"}, "--bearer-token-env MCPTERM_UNSET_VAR: the variable is empty or unset"},
		{"bad header", Selection{URL: "http://x", Headers: []string{"bad"}}, `header "bad": want 'Name: value'`},
		{"bad header name", Selection{URL: "http://x", Headers: []string{"Bad Name: v"}}, "is not allowed in a header name"},
		{"ftp url", Selection{URL: "ftp://x"}, "want an http:// or https:// URL"},
		{"unknown config name", Selection{Server: "remot", Configs: []string{cfg}}, `no server named "remot"; did you mean "remote"?`},
		{"missing config file", Selection{Server: "remote", Configs: []string{filepath.Join(t.TempDir(), "none.json")}}, "no such file"},
		{"http flags on stdio entry", Selection{Server: "local", Configs: []string{cfg}, SSE: true}, `are for HTTP servers; "local" runs a command`},
		{"trace dir missing", Selection{Trace: filepath.Join(t.TempDir(), "no", "dir", "t.jsonl")}, "--trace: "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tgt, err := Resolve(tc.sel, selEnv(t, nil), Options{})
			if err == nil {
				tgt.Close()
				t.Fatalf("resolved %+v", tgt.Source)
			}
			var ue *UsageError
			if !errors.As(err, &ue) || Classify(err) != ClassUsage || !errors.Is(err, ErrInvalidSource) {
				t.Errorf("%T %v: not a usage error (class %v)", err, err, Classify(err))
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want %q", err, tc.want)
			}
			if strings.HasPrefix(err.Error(), ErrInvalidSource.Error()) {
				t.Errorf("error %q carries the sentinel's text", err)
			}
		})
	}
}

func TestResolveSources(t *testing.T) {
	env := selEnv(t, map[string]string{"TOK": "bearer-token-123"})
	tgt, err := Resolve(Selection{}, env, Options{})
	if err != nil || tgt.Source.Kind != InProcess || tgt.Source.Server == nil || tgt.DraftKey() != "demo" || tgt.RetrySSE {
		t.Fatalf("nothing selected: %+v %v", tgt, err)
	}
	tgt, err = Resolve(Selection{Command: []string{"srv", "--flag", "a b"}}, env, Options{})
	if err != nil || tgt.Source.Kind != Stdio || tgt.Source.Command != "srv" || strings.Join(tgt.Source.Args, "|") != "--flag|a b" {
		t.Fatalf("stdio: %+v %v", tgt, err)
	}
	tgt, err = Resolve(Selection{URL: "https://u:pw-secret-1@h/mcp?key=query-secret-2", SSE: true,
		Headers: []string{"X-Key: header-secret-3", "X-Key: header-secret-4"}, BearerTokenEnv: "TOK"}, env, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if src := tgt.Source; src.Kind != SSE || src.Headers["X-Key"] != "header-secret-4" || src.BearerTokenEnv != "TOK" {
		t.Errorf("http: %+v", src)
	}
	hidden := tgt.Redactor.Redact("pw-secret-1 query-secret-2 header-secret-3 header-secret-4 bearer-token-123")
	if strings.Contains(hidden, "secret") || strings.Contains(hidden, "bearer-token") {
		t.Errorf("redactor misses secrets: %q", hidden)
	}
	tgt, err = Resolve(Selection{ToolsFile: "tools.json"}, env, Options{})
	if err != nil || tgt.Source.Kind != Offline || tgt.Source.ToolsFile != "tools.json" {
		t.Errorf("offline: %+v %v", tgt, err)
	}
}

func TestResolveConfigEntry(t *testing.T) {
	cfg := selConfig(t, `{"mcpServers": {
		"remote": {"type": "http", "url": "https://h/mcp", "headers": {"X-Api-Key": "${KEY}", "X-Team": "red"}},
		"guessed": {"url": "https://h/mcp"},
		"legacy": {"url": "https://h/sse"},
		"local": {"command": "/bin/srv", "args": ["-v"], "env": {"API_TOKEN": "env-secret-5678"}}}}`)
	env := selEnv(t, map[string]string{"KEY": "config-secret-1234"})
	tgt, err := Resolve(Selection{Server: "remote", Configs: []string{cfg}, Headers: []string{"X-Team: blue"}}, env, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if src := tgt.Source; src.Kind != HTTP || src.Name != "remote" || src.Headers["X-Api-Key"] != "config-secret-1234" || src.Headers["X-Team"] != "blue" || tgt.RetrySSE {
		t.Errorf("remote: %+v retry %v", src, tgt.RetrySSE)
	}
	if strings.Contains(tgt.Redactor.Redact("config-secret-1234"), "secret") {
		t.Error("config header secret not redacted")
	}
	if tgt, err = Resolve(Selection{Server: "guessed", Configs: []string{cfg}}, env, Options{}); err != nil || tgt.Source.Kind != HTTP || !tgt.RetrySSE {
		t.Errorf("guessed: %+v %v", tgt, err)
	}
	if tgt, err = Resolve(Selection{Server: "guessed", Configs: []string{cfg}, SSE: true}, env, Options{}); err != nil || tgt.Source.Kind != SSE || tgt.RetrySSE {
		t.Errorf("guessed with --sse: %+v %v", tgt, err)
	}
	if tgt, err = Resolve(Selection{Server: "legacy", Configs: []string{cfg}}, env, Options{}); err != nil || tgt.Source.Kind != SSE || tgt.RetrySSE {
		t.Errorf("legacy: %+v %v", tgt, err)
	}
	tgt, err = Resolve(Selection{Server: "local", Configs: []string{cfg}}, env, Options{})
	if err != nil || tgt.Source.Kind != Stdio || tgt.Source.Command != "/bin/srv" || tgt.Source.Env["API_TOKEN"] != "env-secret-5678" {
		t.Fatalf("local: %+v %v", tgt, err)
	}
	if strings.Contains(tgt.Redactor.Redact("env-secret-5678"), "secret") {
		t.Error("config env secret not redacted")
	}
}

func TestResolveTimeouts(t *testing.T) {
	env := selEnv(t, nil)
	base := Options{ClientName: "x", CallTimeout: 7 * time.Second, ConnectTimeout: 9 * time.Second}
	for _, tc := range []struct {
		timeout, call, connect time.Duration
	}{
		{0, 7 * time.Second, 9 * time.Second},
		{5 * time.Second, 5 * time.Second, 5 * time.Second},
		{90 * time.Second, 90 * time.Second, 30 * time.Second},
	} {
		tgt, err := Resolve(Selection{Timeout: tc.timeout}, env, base)
		if err != nil {
			t.Fatal(err)
		}
		if o := tgt.Options; o.CallTimeout != tc.call || o.ConnectTimeout != tc.connect || o.ClientName != "x" || o.Getenv == nil {
			t.Errorf("--timeout %v: call %v connect %v", tc.timeout, o.CallTimeout, o.ConnectTimeout)
		}
	}
}

// TestConnectOverConfigWithTrace resolves a config entry whose header
// carries a secret, connects over streamable HTTP, and finds the secret
// sent to the server but nowhere in the trace.
func TestConnectOverConfigWithTrace(t *testing.T) {
	var gotKey atomic.Value
	h := server.NewStreamableHTTPServer(demo.New(demo.Options{Seed: 1}))
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotKey.Store(r.Header.Get("X-Api-Key"))
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	cfg := selConfig(t, `{"mcpServers": {"remote": {"type": "http", "url": "`+ts.URL+`/mcp", "headers": {"X-Api-Key": "${DEMO_KEY}"}}}}`)
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	tgt, err := Resolve(Selection{Server: "remote", Configs: []string{cfg}, Trace: trace},
		selEnv(t, map[string]string{"DEMO_KEY": "key-value-1234"}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Connect(ctxT(t, 20*time.Second), tgt)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Tools(ctxT(t, 20*time.Second)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := tgt.Close(); err != nil {
		t.Fatal(err)
	}
	if gotKey.Load() != "key-value-1234" {
		t.Errorf("server saw X-Api-Key %v", gotKey.Load())
	}
	data, err := os.ReadFile(trace)
	if err != nil || !bytes.Contains(data, []byte(`"method":"tools/list"`)) {
		t.Fatalf("trace: %v %s", err, data)
	}
	if bytes.Contains(data, []byte("key-value-1234")) {
		t.Error("secret in the trace")
	}
}

// TestConnectSSEFallback: a config entry with only a URL is guessed to be
// streamable HTTP; the server speaks HTTP+SSE, so Connect falls back.
func TestConnectSSEFallback(t *testing.T) {
	var sse *server.SSEServer
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { sse.ServeHTTP(w, r) }))
	defer ts.Close()
	sse = server.NewSSEServer(demo.New(demo.Options{}), server.WithBaseURL(ts.URL), server.WithSSEEndpoint("/events"))
	cfg := selConfig(t, `{"mcpServers": {"old": {"url": "`+ts.URL+`/events"}}}`)
	tgt, err := Resolve(Selection{Server: "old", Configs: []string{cfg}, Timeout: 10 * time.Second}, selEnv(t, nil), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !tgt.RetrySSE || tgt.Source.Kind != HTTP {
		t.Fatalf("not a guessed HTTP entry: %+v", tgt)
	}
	s, err := Connect(ctxT(t, 20*time.Second), tgt)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Source().Kind != SSE || s.Info().Name != demo.Name {
		t.Errorf("connected over %s to %q", s.Source().Kind, s.Info().Name)
	}
	if set, err := s.Tools(ctxT(t, 20*time.Second)); err != nil || set.Find("file_read") == nil {
		t.Errorf("tools over SSE: %v", err)
	}
}

func TestConnectErrors(t *testing.T) {
	env := selEnv(t, map[string]string{"TOK": "bearer-secret-99"})
	ctx := ctxT(t, 20*time.Second)

	tgt, err := Resolve(Selection{ToolsFile: filepath.Join(t.TempDir(), "none.json")}, env, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Connect(ctx, tgt)
	var ce *ConnectError
	if !errors.As(err, &ce) || Classify(err) != ClassUsage || !strings.Contains(err.Error(), "no such file") || !strings.HasPrefix(err.Error(), "offline: ") {
		t.Errorf("missing tool list: %v (class %v)", err, Classify(err))
	}

	tgt, err = Resolve(Selection{Command: []string{"/nonexistent/server"}}, env, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err = Connect(ctx, tgt); Classify(err) != ClassConnection || !strings.Contains(err.Error(), "/nonexistent/server") {
		t.Errorf("missing command: %v (class %v)", err, Classify(err))
	}

	tgt, err = Resolve(Selection{URL: "http://127.0.0.1:1/mcp?key=query-secret-77", Headers: []string{"X-Key: header-secret-42"},
		BearerTokenEnv: "TOK", Timeout: 2 * time.Second}, env, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Connect(ctx, tgt)
	if Classify(err) != ClassConnection || !strings.Contains(err.Error(), "X-Key") {
		t.Errorf("refused: %v (class %v)", err, Classify(err))
	}
	for _, secret := range []string{"header-secret-42", "bearer-secret-99", "query-secret-77"} {
		if err != nil && strings.Contains(err.Error(), secret) {
			t.Errorf("%s leaked: %q", secret, err)
		}
	}
}

func TestDraftKey(t *testing.T) {
	if k := DraftKey(Source{Kind: InProcess, Name: "whatever"}); k != "demo" {
		t.Errorf("in-process key %q", k)
	}
	short := Source{Kind: Stdio, Command: "srv", Args: []string{"-v"}}
	if k := DraftKey(short); k != short.String() {
		t.Errorf("short key %q", k)
	}
	long := Source{Kind: Stdio, Command: "srv", Args: []string{strings.Repeat("a", 200)}}
	long2 := Source{Kind: Stdio, Command: "srv", Args: []string{strings.Repeat("a", 199) + "b"}}
	k1, k2 := DraftKey(long), DraftKey(long2)
	if len(k1) != 80 || k1 == k2 || !strings.HasPrefix(k1, long.String()[:60]) {
		t.Errorf("long keys %q %q", k1, k2)
	}
}

func TestParseHeader(t *testing.T) {
	for _, bad := range []string{"nocolon", ": v", "Bad Name: v", "X: a\nb", "X(: v"} {
		if _, _, err := ParseHeader(bad); err == nil {
			t.Errorf("header %q accepted", bad)
		}
	}
	if k, v, err := ParseHeader("  X-Key :  sekrit value "); err != nil || k != "X-Key" || v != "sekrit value" {
		t.Errorf("ParseHeader = %q %q %v", k, v, err)
	}
	if k, v, err := ParseHeader("X-Empty:"); err != nil || k != "X-Empty" || v != "" {
		t.Errorf("empty value: %q %q %v", k, v, err)
	}
}

func FuzzParseHeader(f *testing.F) {
	f.Add("Authorization: Bearer x")
	f.Add("X:")
	f.Add("\x1b]52;c;aGk=\x07: v")
	f.Fuzz(func(t *testing.T, s string) {
		k, v, err := ParseHeader(s)
		if err != nil {
			if strings.ContainsRune(err.Error(), 0x1b) {
				t.Fatalf("error message carries ESC: %q", err.Error())
			}
			return
		}
		if k == "" || strings.ContainsAny(k, " :\r\n") || strings.ContainsAny(v, "\r\n\x00") {
			t.Fatalf("accepted %q as %q: %q", s, k, v)
		}
	})
}

// TestConnectKeepsTargetOpen: a failed Connect leaves the trace open for
// the next attempt, as the workbench's reconnect needs.
func TestConnectKeepsTargetOpen(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	tgt, err := Resolve(Selection{Trace: trace}, selEnv(t, nil), Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Connect(ctx, tgt); err == nil {
		t.Fatal("connected with a cancelled context")
	}
	s, err := Connect(ctxT(t, 20*time.Second), tgt)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := tgt.Close(); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(trace); !bytes.Contains(data, []byte(`"dir":"recv"`)) {
		t.Errorf("trace after a retry: %s", data)
	}
}
