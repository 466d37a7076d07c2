package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/server"
	"github.com/mcpterm/mcpterm/session/demo"
	"github.com/mcpterm/mcpterm/session/peers"
)

// sessCLI runs mcpterm in-process with the given environment (XDG_STATE_HOME
// always points into a temporary directory, so history stays out of $HOME)
// and returns the exit code and both streams.
func sessCLI(t *testing.T, env map[string]string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	state := t.TempDir()
	var out, errOut bytes.Buffer
	c := &cli{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut, getenv: func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	}}
	code := c.run(args)
	return code, out.String(), errOut.String()
}

// The selection flags fill a session.Selection, mixed with positional
// arguments; session's own tests cover ParseHeader and Resolve.
func TestServerFlagsParse(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	var sf serverFlags
	sf.register(fs)
	pos, cmdline, err := parseInterleaved(fs, []string{"(f 1)", "--url", "http://h/mcp", "--header", "A: b", "second", "--header", "C:d", "--", "srv", "--flag"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(pos, "|") != "(f 1)|second" || strings.Join(cmdline, "|") != "srv|--flag" || sf.URL != "http://h/mcp" || strings.Join(sf.Headers, "|") != "A: b|C:d" {
		t.Fatalf("pos %q cmdline %q url %q headers %q", pos, cmdline, sf.URL, sf.Headers)
	}
	fs = flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	sf = serverFlags{}
	sf.register(fs)
	if _, _, err := parseInterleaved(fs, []string{"--header", "Bad Name: v"}); err == nil || len(sf.Headers) != 0 {
		t.Errorf("a bad --header was taken: %v %q", err, sf.Headers)
	}
}

func TestServerSelectionErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"tools", "--url", "http://x", "--tools", "f.json"}, "choose one server"},
		{[]string{"tools", "--sse"}, "--sse needs --url"},
		{[]string{"tools", "--header", "A: b"}, "--header needs"},
		{[]string{"tools", "--config", "x.json"}, "--config needs --server"},
		{[]string{"tools", "--url", "http://x", "--bearer-token-env", "MCPTERM_UNSET_VAR"}, "MCPTERM_UNSET_VAR"},
		{[]string{"tools", "--header", "bad"}, "want 'Name: value'"},
		{[]string{"tools", "--url", "ftp://x"}, "http://"},
		{[]string{"tools", "--tools", "/nonexistent/tools.json"}, "no such file"},
		{[]string{"tools", "--format", "nope"}, "not a known format"},
		{[]string{"tools", "stray"}, "unexpected argument"},
	}
	for _, tc := range cases {
		code, _, errOut := sessCLI(t, nil, "", tc.args...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stderr %q (want %q)", tc.args, code, errOut, tc.want)
		}
	}
}

func TestServerConnectFailures(t *testing.T) {
	code, _, errOut := sessCLI(t, nil, "", "tools", "--", "/nonexistent/server")
	if code != exitConnect || !strings.Contains(errOut, "/nonexistent/server") {
		t.Errorf("missing command: exit %d %q", code, errOut)
	}
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	code, _, errOut = sessCLI(t, map[string]string{"TOK": "bearer-secret-99"}, "", "tools", "--url", "http://127.0.0.1:1/mcp?key=query-secret-77",
		"--timeout", "2s", "--header", "X-Key: header-secret-42", "--bearer-token-env", "TOK", "--trace", trace)
	if code != exitConnect || !strings.Contains(errOut, "X-Key") {
		t.Errorf("refused: exit %d %q", code, errOut)
	}
	tr, _ := os.ReadFile(trace)
	for _, secret := range []string{"header-secret-42", "bearer-secret-99", "query-secret-77"} {
		if strings.Contains(errOut, secret) || strings.Contains(string(tr), secret) {
			t.Errorf("%s leaked: %q", secret, errOut)
		}
	}
}

// TestServerFromConfig resolves --server through an mcpServers file and
// keeps the header secret out of everything printed and traced.
func TestServerFromConfig(t *testing.T) {
	srv := httptest.NewServer(server.NewStreamableHTTPServer(demo.New(demo.Options{Seed: 1})))
	defer srv.Close()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "mcp.json")
	body := `{"mcpServers": {"remote": {"type": "http", "url": "` + srv.URL + `/mcp", "headers": {"X-Api-Key": "${DEMO_KEY}"}},
		"local": {"command": "/nonexistent/bin", "env": {"TOKEN": "abc"}}}}`
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(dir, "trace.jsonl")
	env := map[string]string{"DEMO_KEY": "key-value-1234"}
	code, out, errOut := sessCLI(t, env, "", "tools", "--server", "remote", "--config", cfg, "--trace", trace)
	if code != exitOK || !strings.Contains(out, "file_read") {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	tr, err := os.ReadFile(trace)
	if err != nil || !bytes.Contains(tr, []byte(`"method":"tools/list"`)) {
		t.Fatalf("trace: %v %s", err, tr)
	}
	if bytes.Contains(tr, []byte("key-value-1234")) || strings.Contains(out+errOut, "key-value-1234") {
		t.Error("secret leaked")
	}
	code, _, errOut = sessCLI(t, env, "", "tools", "--server", "nope", "--config", cfg)
	if code != exitUsage || !strings.Contains(errOut, "remote") {
		t.Errorf("unknown server: exit %d %q", code, errOut)
	}
	code, _, errOut = sessCLI(t, env, "", "tools", "--server", "local", "--config", cfg)
	if code != exitConnect || strings.Contains(errOut, "abc") {
		t.Errorf("local: exit %d %q", code, errOut)
	}
}

// TestDemoServerSubprocess runs the real binary as a stdio server for
// itself: `mcpterm tools -- mcpterm demo-server`.
func TestSessionOverDemoServerSubprocess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "mcpterm")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	code, out, errOut := sessCLI(t, nil, "", "tools", "--", bin, "demo-server")
	if code != exitOK || !strings.Contains(out, "long_task") {
		t.Fatalf("tools over stdio: exit %d %s %s", code, out, errOut)
	}
	code, out, errOut = sessCLI(t, nil, "", "call", "--output", "json", `(batch :concurrency 2 (a (list_todos)) (b (file_read "/docs/README.md" :limit 5)))`, "--", bin, "demo-server")
	if code != exitOK {
		t.Fatalf("batch over stdio: exit %d %s %s", code, out, errOut)
	}
	var res struct {
		Results []struct {
			ID     string          `json:"id"`
			Result json.RawMessage `json:"result"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Results) != 2 || res.Results[1].ID != "b" || !strings.Contains(string(res.Results[1].Result), "# mcp") {
		t.Errorf("batch output %v: %s", err, out)
	}
}

// TestEverythingCLI drives the reference server through the command line.
func TestEverythingCLI(t *testing.T) {
	p, err := peers.Everything(context.Background(), os.Getenv)
	if err != nil {
		if errors.Is(err, peers.ErrNoNode) && os.Getenv("CI") != "true" {
			t.Skipf("end-to-end test skipped: %v", err)
		}
		t.Fatal(err)
	}
	sel := []string{"--", p.Node, p.Entry, "stdio"}
	code, out, errOut := sessCLI(t, nil, "", append([]string{"tools"}, sel...)...)
	if code != exitOK || !strings.Contains(out, "get-sum") {
		t.Fatalf("tools: exit %d %s %s", code, out, errOut)
	}
	code, out, errOut = sessCLI(t, nil, "", append([]string{"call", `{"name":"get-sum","arguments":{"a":20,"b":22}}`}, sel...)...)
	if code != exitOK || !strings.Contains(out, "42") {
		t.Errorf("call: exit %d %s %s", code, out, errOut)
	}
	code, out, errOut = sessCLI(t, nil, "", append([]string{"prompts", "--get", "args-prompt", "--arg", "city=Porto"}, sel...)...)
	if code != exitOK || !strings.Contains(out, "Porto") {
		t.Errorf("prompts: exit %d %s %s", code, out, errOut)
	}
	code, out, errOut = sessCLI(t, nil, "", append([]string{"resources", "--read", "demo://resource/dynamic/text/1"}, sel...)...)
	if code != exitOK || out == "" {
		t.Errorf("resources: exit %d %s %s", code, out, errOut)
	}
}
