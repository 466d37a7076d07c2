package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpterm/mcpterm/session/history"
)

// Secrets in mcpterm's own environment, as a shell that exports tokens for
// other tools has them.
const (
	envGitHubToken = "ghp_h12envGitHubToken0123456789abcdef"
	envOpenAIKey   = "sk-h12env-openai-key-0123456789abcdef"
	envMySecret    = "my-secret-h12env-value-4242"
)

// envRun is one mcpterm run against env/echo with everything it wrote.
type envRun struct {
	procResult
	Trace, Audit, History string
	Entries               []history.Entry
	Home                  string
}

// runEnvEcho runs `mcpterm ARGS... --trace --audit -- env/echo` (args
// before the server) with the three secrets and a home of its own in the
// environment, plus extra.
func runEnvEcho(t *testing.T, extra []string, args ...string) envRun {
	t.Helper()
	dir := t.TempDir()
	r := envRun{Home: filepath.Join(dir, "home")}
	if err := os.Mkdir(r.Home, 0o700); err != nil {
		t.Fatal(err)
	}
	trace, audit, state := filepath.Join(dir, "trace.jsonl"), filepath.Join(dir, "audit.jsonl"), filepath.Join(dir, "state")
	env := append([]string{"GITHUB_TOKEN=" + envGitHubToken, "OPENAI_API_KEY=" + envOpenAIKey, "MY_SECRET=" + envMySecret,
		"HOME=" + r.Home, "XDG_STATE_HOME=" + state}, extra...)
	full := append([]string{}, args...)
	full = append(full, "--trace", trace)
	if args[0] == "call" {
		full = append(full, "--audit", audit)
	}
	if !containsArg(args, "--server") {
		full = append(append(full, "--"), hostileServer(t, "env/echo")...)
	}
	r.procResult = runMcpterm(t, 60*time.Second, env, full...)
	r.Trace, r.Audit, r.History = readOrEmpty(t, trace), readOrEmpty(t, audit), readOrEmpty(t, filepath.Join(state, "mcpterm", "history.jsonl"))
	for _, line := range strings.Split(strings.TrimSpace(r.History), "\n") {
		if line == "" {
			continue
		}
		var e history.Entry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("history line %q: %v", line, err)
		}
		r.Entries = append(r.Entries, e)
	}
	return r
}

func containsArg(args []string, a string) bool {
	for _, x := range args {
		if x == a {
			return true
		}
	}
	return false
}

func readOrEmpty(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

// noSecrets fails when any output of r holds one of secrets, whole or
// by its first 12 bytes.
func (r envRun) noSecrets(t *testing.T, secrets ...string) {
	t.Helper()
	outputs := map[string]string{"stdout": r.Stdout, "stderr": r.Stderr, "trace": r.Trace, "audit": r.Audit, "history": r.History}
	for name, text := range outputs {
		for _, s := range secrets {
			if strings.Contains(text, s[:12]) {
				t.Errorf("%s holds the secret %q (or its start):\n%s", name, s, clipEnv(text))
			}
		}
	}
}

func clipEnv(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "…"
	}
	return s
}

// TestHostileEnvDefault: without --inherit-env the server gets the safe
// default environment — HOME and PATH, none of the secrets — and nothing
// mcpterm writes holds them.
func TestHostileEnvDefault(t *testing.T) {
	t.Parallel() // each runs its own processes
	r := runEnvEcho(t, nil, "call", "-e", `(echo :q "hello")`)
	if r.Code != exitOK {
		t.Fatalf("exit %d, stderr %s", r.Code, r.Stderr)
	}
	for _, want := range []string{"HOME=" + r.Home, "PATH=" + os.Getenv("PATH")} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("the server did not see %s:\n%s", want, r.Stdout)
		}
	}
	for _, name := range []string{"GITHUB_TOKEN", "OPENAI_API_KEY", "MY_SECRET", "MCPTERM_HOSTILE_ENV_LEAK"} {
		if strings.Contains(r.Stdout, name+"=") {
			t.Errorf("the server saw %s:\n%s", name, r.Stdout)
		}
	}
	r.noSecrets(t, envGitHubToken, envOpenAIKey, envMySecret)
	if len(r.Entries) != 1 || r.Trace == "" || r.Audit == "" {
		t.Fatalf("want one history entry, a trace and an audit line: %d entries, trace %d bytes, audit %d bytes", len(r.Entries), len(r.Trace), len(r.Audit))
	}
}

// TestHostileEnvInherit: with --inherit-env the server sees the secrets
// and says them, and every output of mcpterm has them masked: stdout, the
// trace, history and the audit log; a secret in the tool list is masked in
// `tools` too.
func TestHostileEnvInherit(t *testing.T) {
	t.Parallel() // each runs its own processes
	r := runEnvEcho(t, nil, "call", "--inherit-env", "-e", `(echo :q "hello")`)
	if r.Code != exitOK {
		t.Fatalf("exit %d, stderr %s", r.Code, r.Stderr)
	}
	for _, name := range []string{"GITHUB_TOKEN", "OPENAI_API_KEY", "MY_SECRET"} {
		if !strings.Contains(r.Stdout, name+"=***") {
			t.Errorf("the server did not see %s (or it was not masked):\n%s", name, clipEnv(r.Stdout))
		}
	}
	r.noSecrets(t, envGitHubToken, envOpenAIKey, envMySecret)
	if !strings.Contains(r.Trace, "GITHUB_TOKEN=***") {
		t.Errorf("the trace lacks the masked answer:\n%s", clipEnv(r.Trace))
	}

	tools := runEnvEcho(t, []string{"MCPTERM_HOSTILE_ENV_LEAK= " + envGitHubToken}, "tools", "--inherit-env")
	if tools.Code != exitOK || !strings.Contains(tools.Stdout, "echo") {
		t.Fatalf("tools: exit %d\nstdout %s\nstderr %s", tools.Code, tools.Stdout, tools.Stderr)
	}
	tools.noSecrets(t, envGitHubToken)
}

// TestHostileEnvFlag: --env NAME=VALUE reaches the server, --env NAME
// passes a variable of mcpterm's environment through, and the values of
// secret-named ones are masked everywhere.
func TestHostileEnvFlag(t *testing.T) {
	t.Parallel() // each runs its own processes
	const flagToken = "flag-token-h12env-0123456789"
	r := runEnvEcho(t, nil, "call", "--env", "FOO_SETTING=hello-from-flag", "--env", "API_TOKEN="+flagToken,
		"--env", "GITHUB_TOKEN", "-e", `(echo :q "hello")`)
	if r.Code != exitOK {
		t.Fatalf("exit %d, stderr %s", r.Code, r.Stderr)
	}
	for _, want := range []string{"FOO_SETTING=hello-from-flag", "API_TOKEN=***", "GITHUB_TOKEN=***"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("the server's environment lacks %s:\n%s", want, clipEnv(r.Stdout))
		}
	}
	if strings.Contains(r.Stdout, "OPENAI_API_KEY") {
		t.Errorf("a variable not named with --env reached the server:\n%s", clipEnv(r.Stdout))
	}
	r.noSecrets(t, envGitHubToken, envOpenAIKey, envMySecret, flagToken)

	bad := runMcpterm(t, 30*time.Second, nil, "tools", "--env", "NOT_SET_H12ENV", "--", "true")
	if bad.Code != exitUsage || !strings.Contains(bad.Stderr, "--env NOT_SET_H12ENV") {
		t.Errorf("--env of an unset variable: exit %d, stderr %q", bad.Code, bad.Stderr)
	}
	bad = runMcpterm(t, 30*time.Second, nil, "tools", "--env", "A=b", "--url", "http://127.0.0.1:1/mcp")
	if bad.Code != exitUsage || !strings.Contains(bad.Stderr, "stdio") {
		t.Errorf("--env with --url: exit %d, stderr %q", bad.Code, bad.Stderr)
	}
}

// TestHostileEnvConfigBlock: a config entry's env block reaches the
// server over the safe default; its credential values are masked.
func TestHostileEnvConfigBlock(t *testing.T) {
	t.Parallel() // each runs its own processes
	const cfgToken = "cfg-token-h12env-abcdef0123"
	srv := hostileServer(t, "env/echo")
	cfg := map[string]any{"mcpServers": map[string]any{"echo": map[string]any{
		"command": srv[0], "args": srv[1:],
		"env": map[string]string{"CONFIG_SETTING": "/srv/from-config", "CONFIG_TOKEN": cfgToken},
	}}}
	b, _ := json.Marshal(cfg)
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	r := runEnvEcho(t, nil, "call", "--server", "echo", "--config", path, "--env", "FLAG_SETTING=over", "-e", `(echo :q "hello")`)
	if r.Code != exitOK {
		t.Fatalf("exit %d, stderr %s", r.Code, r.Stderr)
	}
	for _, want := range []string{"CONFIG_SETTING=/srv/from-config", "CONFIG_TOKEN=***", "FLAG_SETTING=over", "HOME=" + r.Home} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("the server's environment lacks %s:\n%s", want, clipEnv(r.Stdout))
		}
	}
	if strings.Contains(r.Stdout, "GITHUB_TOKEN") {
		t.Errorf("the server inherited GITHUB_TOKEN:\n%s", clipEnv(r.Stdout))
	}
	r.noSecrets(t, envGitHubToken, envOpenAIKey, envMySecret, cfgToken)
}

// TestHostilePasswordArgument: a password argument is masked in every
// field of its history entry (arguments, source, summary), in the audit
// line, on stdout and in both trace lines that carry it (the request and
// the answer echoing it).
func TestHostilePasswordArgument(t *testing.T) {
	t.Parallel() // each runs its own processes
	const pw = "hunter2-h12env-Pa55word"
	r := runEnvEcho(t, nil, "call", "-e", `(echo :q "login `+pw+`" :password "`+pw+`")`)
	if r.Code != exitOK {
		t.Fatalf("exit %d, stderr %s", r.Code, r.Stderr)
	}
	r.noSecrets(t, pw)
	if len(r.Entries) != 1 {
		t.Fatalf("%d history entries", len(r.Entries))
	}
	e := r.Entries[0]
	if !strings.Contains(string(e.Arguments), `"password":"***"`) || !strings.Contains(e.Source, `:password "***"`) ||
		!strings.Contains(e.Summary, "login ***") {
		t.Errorf("the entry does not mask the password in each field: %+v", e)
	}
	if n := strings.Count(r.Trace, "***"); n < 2 {
		t.Errorf("want the password masked in the request and the answer of the trace, %d masks:\n%s", n, clipEnv(r.Trace))
	}
}

// TestHostileSecretAcrossSummaryCut: a secret that straddles the 200 bytes
// the history keeps of a result is hidden whole, not stored as a clear
// prefix: redaction comes before the cut (the summary keeps 183 bytes and
// its "…(cut N bytes)" marker; the secret starts at 175). Both kinds: a secret of the
// environment, and a password learnt from the call's arguments.
func TestHostileSecretAcrossSummaryCut(t *testing.T) {
	t.Parallel() // each runs its own processes
	const pw = "pw-h12env-across-the-cut-0123456789"
	for _, tc := range []struct{ name, secret, expr string }{
		{"env", envMySecret, `(echo :q "` + strings.Repeat("x", 175) + envMySecret + `")`},
		{"argument", pw, `(echo :q "` + strings.Repeat("x", 175) + pw + `" :password "` + pw + `")`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runEnvEcho(t, nil, "call", "-e", tc.expr)
			if r.Code != exitOK || len(r.Entries) != 1 {
				t.Fatalf("exit %d, %d entries, stderr %s", r.Code, len(r.Entries), r.Stderr)
			}
			sum := r.Entries[0].Summary
			if !strings.HasPrefix(sum, strings.Repeat("x", 175)+"***") || len(sum) > history.SummaryBytes {
				t.Errorf("summary %q: want the secret masked whole within %d bytes", sum, history.SummaryBytes)
			}
			r.noSecrets(t, tc.secret)
		})
	}
}

// TestHostileEnvCrashStderr: a server that dies quoting its environment on
// stderr has its words in mcpterm's connection error, with the secrets it
// inherited masked.
func TestHostileEnvCrashStderr(t *testing.T) {
	t.Parallel() // each runs its own processes
	env := []string{"GITHUB_TOKEN=" + envGitHubToken, "OPENAI_API_KEY=" + envOpenAIKey}
	r := runMcpterm(t, 60*time.Second, env, append([]string{"tools", "--inherit-env", "--"}, hostileServer(t, "env/crash")...)...)
	if r.Code != exitConnect || !strings.Contains(r.Stderr, "GITHUB_TOKEN=***") {
		t.Fatalf("exit %d, stderr %s", r.Code, clipEnv(r.Stderr))
	}
	for _, s := range []string{envGitHubToken, envOpenAIKey} {
		if strings.Contains(r.Stdout+r.Stderr, s[:12]) {
			t.Errorf("the output holds %q:\n%s", s, clipEnv(r.Stderr))
		}
	}
}
