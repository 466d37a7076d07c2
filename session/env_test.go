package session

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session/history"
)

func TestServerEnvDefault(t *testing.T) {
	environ := []string{"HOME=/home/u", "PATH=/bin", "GITHUB_TOKEN=ghp_secret0123456789", "LC_ALL=C.UTF-8",
		"XDG_CONFIG_HOME=/home/u/.config", "XDG_SESSION_TYPE=wayland", "SHELL=() { :; }; echo pwned",
		"BASH_FUNC_f%%=() { echo hi; }", "TERM=xterm", "OPENAI_API_KEY=sk-0123456789", "noequals", "=odd"}
	got := serverEnvFor("linux", environ, false, map[string]string{"TERM": "dumb", "EXTRA": "1"})
	want := []string{"HOME=/home/u", "PATH=/bin", "LC_ALL=C.UTF-8", "XDG_CONFIG_HOME=/home/u/.config", "EXTRA=1", "TERM=dumb"}
	if !slices.Equal(got, want) {
		t.Fatalf("serverEnv = %q\nwant %q", got, want)
	}
	got = serverEnvFor("linux", environ, true, map[string]string{"TERM": "dumb"})
	if !slices.Contains(got, "GITHUB_TOKEN=ghp_secret0123456789") || !slices.Contains(got, "TERM=dumb") || slices.Contains(got, "TERM=xterm") {
		t.Fatalf("inherited: %q", got)
	}
	win := serverEnvFor("windows", []string{"Path=C:\\bin", "SystemRoot=C:\\Windows", "GITHUB_TOKEN=x", "LC_ALL=C"}, false, nil)
	if !slices.Equal(win, []string{"Path=C:\\bin", "SystemRoot=C:\\Windows"}) {
		t.Fatalf("windows: %q", win)
	}
	if names := DefaultEnvNames(); !slices.Contains(names, "PATH") {
		t.Fatalf("DefaultEnvNames = %q", names)
	}
}

func TestEnvSecrets(t *testing.T) {
	got := envSecrets([]string{"GITHUB_TOKEN=ghp_secret0123456789", "TOKENIZERS_PARALLELISM=false",
		"XDG_SESSION_CLASS=user", "KEYTIMEOUT=1", "DB_PASS=abc", "HOME=/home/u",
		"DATABASE_URL=postgres://app:dbpass-0123@db/app", "HTTPS_PROXY=http://proxy:3128", "GIT_AUTHOR_NAME=Alice Smith"})
	want := []string{"ghp_secret0123456789", "dbpass-0123"}
	if !slices.Equal(got, want) {
		t.Fatalf("envSecrets = %q, want %q", got, want)
	}
}

func TestParseEnvFlags(t *testing.T) {
	getenv := func(k string) string { return map[string]string{"GITHUB_TOKEN": "ghp_fromenv0123456"}[k] }
	vars, secrets, err := parseEnvFlags([]string{"A=1", "A=2", "EMPTY=", "GITHUB_TOKEN", "API_KEY=key-0123456789", "X=a=b"}, getenv)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"A": "2", "EMPTY": "", "GITHUB_TOKEN": "ghp_fromenv0123456", "API_KEY": "key-0123456789", "X": "a=b"}
	if len(vars) != len(want) {
		t.Fatalf("vars = %q", vars)
	}
	for k, v := range want {
		if vars[k] != v {
			t.Fatalf("vars[%s] = %q, want %q", k, vars[k], v)
		}
	}
	if !slices.Equal(secrets, []string{"ghp_fromenv0123456", "key-0123456789"}) {
		t.Fatalf("secrets = %q", secrets)
	}
	for flag, msg := range map[string]string{
		"=x":        "want NAME=VALUE or NAME",
		"UNSET_VAR": "--env UNSET_VAR: the variable is empty or unset here",
		"A B=c":     "may not contain blanks",
		"N=a\x00b":  "may not contain NUL",
	} {
		if _, _, err := parseEnvFlags([]string{flag}, getenv); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("--env %q: %v, want %q", flag, err, msg)
		}
	}
}

func TestResolveEnv(t *testing.T) {
	env := selEnv(t, map[string]string{"GITHUB_TOKEN": "ghp_fromenv0123456"})
	env.Environ = []string{"GITHUB_TOKEN=ghp_fromenv0123456", "HOME=/h", "MY_SECRET=my-secret-value-1"}
	tg, err := Resolve(Selection{Command: []string{"srv"}, Env: []string{"API_TOKEN=tok-0123456789", "PLAIN=v", "GITHUB_TOKEN"}, InheritEnv: true}, env, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	src := tg.Source
	if !src.InheritEnv || src.Env["API_TOKEN"] != "tok-0123456789" || src.Env["PLAIN"] != "v" || src.Env["GITHUB_TOKEN"] != "ghp_fromenv0123456" {
		t.Fatalf("source: %+v", src)
	}
	if !slices.Equal(tg.Options.Environ, env.Environ) || tg.Options.Redactor != tg.Redactor {
		t.Fatalf("options: environ %q, redactor shared %v", tg.Options.Environ, tg.Options.Redactor == tg.Redactor)
	}
	if got := tg.Redactor.Redact("ghp_fromenv0123456 tok-0123456789 my-secret-value-1 v /h"); got != "*** *** *** v /h" {
		t.Fatalf("redacted: %q", got)
	}
	if s := src.String(); strings.Contains(s, "tok-0123456789") {
		t.Fatalf("String shows a value: %s", s)
	}

	// Every target hides the environment's secrets, whatever the server.
	demo, err := Resolve(Selection{}, env, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := demo.Redactor.Redact("my-secret-value-1"); got != "***" {
		t.Fatalf("demo target: %q", got)
	}

	cfg := selConfig(t, `{"mcpServers": {"remote": {"type": "http", "url": "http://127.0.0.1:1/mcp"},
		"local": {"command": "srv", "env": {"FROM_BLOCK": "/srv/a", "OVER": "block"}}}}`)
	tg, err = Resolve(Selection{Server: "local", Configs: []string{cfg}, Env: []string{"OVER=flag"}}, env, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tg.Source.Env["FROM_BLOCK"] != "/srv/a" || tg.Source.Env["OVER"] != "flag" || tg.Source.InheritEnv {
		t.Fatalf("config source env: %+v", tg.Source.Env)
	}
	for _, tc := range []struct {
		sel  Selection
		want string
	}{
		{Selection{Env: []string{"A=b"}}, "--env and --inherit-env are for stdio servers"},
		{Selection{InheritEnv: true, URL: "http://127.0.0.1:1/mcp"}, "--env and --inherit-env are for stdio servers"},
		{Selection{InheritEnv: true, ToolsFile: "t.json"}, "--env and --inherit-env are for stdio servers"},
		{Selection{Server: "remote", Configs: []string{cfg}, Env: []string{"A=b"}}, `"remote" is reached over HTTP`},
		{Selection{Command: []string{"srv"}, Env: []string{"NOT_SET_ANYWHERE"}}, "--env NOT_SET_ANYWHERE"},
	} {
		_, err := Resolve(tc.sel, env, Options{})
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Resolve(%+v) = %v, want a usage error %q", tc.sel, err, tc.want)
		}
	}
}

// TestTapLearnsSecretArguments: the password of a tools/call is hidden in
// the trace line of the request that carries it, in the answer that
// echoes it and in the tap's previews; a secret across the preview's or
// the trace's cut leaves no clear start.
func TestTapLearnsSecretArguments(t *testing.T) {
	const pw = "hunter2-tap-0123456789"
	r := safe.NewRedactor(nil)
	var trace bytes.Buffer
	tap := newTap(&redactingWriter{w: &trace, r: r}).withRedactor(r)
	tap.record(Sent, KindRequest, "1", "tools/call",
		[]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"login","arguments":{"user":"bob","password":"`+pw+`"}}}`), "")
	tap.record(Received, KindResponse, "1", "tools/call",
		[]byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"welcome bob, your password is `+pw+`"}]}}`), "")
	pad := strings.Repeat("x", maxTapPreview-40)
	tap.record(Received, KindNotification, "", "notifications/message", []byte(`{"text":"`+pad+pw+pad+`"}`), "")
	if strings.Contains(trace.String(), "hunter2") || strings.Count(trace.String(), "***") < 2 {
		t.Fatalf("trace:\n%s", trace.String())
	}
	for _, m := range tap.Messages() {
		if strings.Contains(m.Payload, "hunter2") || strings.Contains(m.Payload, pw[:4]) {
			t.Fatalf("preview of %s holds the password: %.200q", m.Method, m.Payload)
		}
	}
	if last := tap.Messages()[2]; !last.Truncated || len(last.Payload) > maxTapPreview {
		t.Fatalf("preview not cut: %d bytes, truncated %v", len(last.Payload), last.Truncated)
	}

	// A message larger than the trace keeps: its clipped start is
	// redacted before the cut.
	trace.Reset()
	big := bytes.Repeat([]byte("y"), maxTraceBytes-50)
	big = append(append(append([]byte("not json "), big...), pw...), bytes.Repeat([]byte("z"), 1000)...)
	tap.record(Received, KindNotification, "", "x", big, "")
	if strings.Contains(trace.String(), "hunter") || !strings.Contains(trace.String(), `"clipped"`) {
		t.Fatalf("clipped trace line holds the password's start (%d bytes)", trace.Len())
	}
}

// fakeCaller answers every call with a text echoing its arguments.
type fakeCaller struct {
	mu   sync.Mutex
	seen []string
}

func (f *fakeCaller) Call(_ context.Context, req CallRequest) *CallResult {
	args := req.Arguments.Compact()
	f.mu.Lock()
	f.seen = append(f.seen, args)
	f.mu.Unlock()
	raw := ojson.NewObject().Set("content", ojson.NewArray(ojson.NewObject().Set("type", ojson.NewString("text")).Set("text", ojson.NewString("got "+args))))
	return &CallResult{ID: req.ID, Tool: req.Tool, Arguments: req.Arguments, Raw: raw}
}

// TestRunnerLearnsPlanSecrets: every entry of a batch carries the batch's
// source, so the passwords of all its calls must be known before the first
// entry is written; and the summary is redacted before it is cut.
func TestRunnerLearnsPlanSecrets(t *testing.T) {
	pw1, pw2 := "first-pw-0123456789", "second-pw-0123456789"
	hist, err := history.Open(filepath.Join(t.TempDir(), "history.jsonl"), history.Options{Redactor: safe.NewRedactor(nil)})
	if err != nil {
		t.Fatal(err)
	}
	src := `(batch (1 (login :password "` + pw1 + `")) (2 (login :password "` + pw2 + `")))`
	plan := &calls.Plan{Batch: true, Source: src, Items: []calls.Item{
		{ID: "1", Tool: "login", Arguments: obj(t, `{"password":"`+pw1+`"}`)},
		{ID: "2", Tool: "login", Arguments: obj(t, `{"password":"`+pw2+`"}`)},
	}}
	fc := &fakeCaller{}
	res := NewRunner(fc, nil, RunnerOptions{History: hist}).Run(context.Background(), plan, RunOptions{Confirmed: true})
	if res.Refused || len(fc.seen) != 2 || !strings.Contains(fc.seen[0], pw1) {
		t.Fatalf("run: refused %v, sent %q", res.Refused, fc.seen)
	}
	es, err := hist.Recent(0)
	if err != nil || len(es) != 2 {
		t.Fatalf("%d entries, %v", len(es), err)
	}
	for _, e := range es {
		line := e.Batch + e.Summary + string(e.Arguments) + e.Source
		if strings.Contains(line, "pw-0123") || !strings.Contains(e.Batch, `:password "***"`) || !strings.HasPrefix(e.Summary, "got ") {
			t.Fatalf("entry holds a password: %+v", e)
		}
	}
}
