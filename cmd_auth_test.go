package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/session/auth"
	"github.com/mcpterm/mcpterm/session/auth/authtest"
)

// authCLI runs the command line against an OAuth-protected test server
// with its own config and state directories and the headless browser.
func authCLI(t *testing.T) (run func(args ...string) (int, string, string), config, state string) {
	run, _, config, state = authCLISetup(t)
	return run, config, state
}

// authCLISetup is authCLI that also gives the cli adjustment it makes, for
// commands run another way (serve).
func authCLISetup(t *testing.T) (run func(args ...string) (int, string, string), setup func(*cli), config, state string) {
	t.Helper()
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed (the headless browser script uses it)")
	}
	browser, err := filepath.Abs(filepath.Join("session", "auth", "testdata", "follow-redirects.sh"))
	if err != nil {
		t.Fatal(err)
	}
	config, state = t.TempDir(), t.TempDir()
	env := map[string]string{"XDG_CONFIG_HOME": config, "XDG_STATE_HOME": state, "BROWSER": browser}
	home := t.TempDir()
	setup = func(c *cli) {
		c.getenv = func(k string) string { return env[k] }
		c.home = home
	}
	run = func(args ...string) (int, string, string) {
		return testCLI(t, setup, args...)
	}
	return run, setup, config, state
}

// TestAuthTokensNeverShown: a call that authorizes by itself, then
// status, logout: the tokens appear in no output, no trace, no history,
// only in the 0600 token file.
func TestAuthTokensNeverShown(t *testing.T) {
	srv := authtest.New(authtest.Options{Refresh: true})
	defer srv.Close()
	run, setup, config, state := authCLISetup(t)
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	var outputs []string
	code, out, errOut := run("call", "--trace", trace, "--audit", audit, "(whoami)", "--url", srv.MCPURL())
	outputs = append(outputs, out, errOut)
	if code != exitOK || !strings.Contains(out, "hello") {
		t.Fatalf("call: %d\n%s\n%s", code, out, errOut)
	}
	// The gateway uses the stored token: its audit log, its answer and its
	// stderr do not carry it either.
	gwAudit := filepath.Join(t.TempDir(), "gateway-audit.jsonl")
	gw, stop := serveCLIWith(t, setup, "--audit", gwAudit, "--url", srv.MCPURL())
	res := serveCall(t, gw, "mcp_term", map[string]any{"expr": "(whoami)"})
	if !strings.Contains(serveText(res), "hello") {
		t.Errorf("through the gateway: %q", serveText(res))
	}
	_, gwErr := stop()
	outputs = append(outputs, serveText(res), gwErr)
	if !strings.Contains(errOut, "in your browser: "+srv.URL+"/authorize?") {
		t.Errorf("the authorization URL is not on stderr: %s", errOut)
	}
	code, out, errOut = run("auth", "status")
	outputs = append(outputs, out, errOut)
	if code != exitOK || !strings.Contains(out, srv.MCPURL()) || !strings.Contains(out, "refresh token kept") {
		t.Errorf("status: %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = run("auth", "status", "--url", srv.MCPURL(), "--output", "json")
	outputs = append(outputs, out, errOut)
	if code != exitOK || !strings.Contains(out, `"refresh_token": true`) {
		t.Errorf("status json: %d\n%s\n%s", code, out, errOut)
	}
	tokenFile := filepath.Join(config, "mcpterm", auth.FileName)
	st, err := os.Stat(tokenFile)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("token file: %v %v", st, err)
	}
	issued := srv.Issued()
	if len(issued) == 0 {
		t.Fatal("no token issued")
	}
	files := []string{trace, audit, gwAudit}
	_ = filepath.Walk(state, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 2 {
		t.Errorf("no history file written under %s", state)
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		outputs = append(outputs, string(raw))
	}
	for _, tok := range issued {
		for i, o := range outputs {
			if strings.Contains(o, tok) {
				t.Errorf("output %d carries a token: %s", i, o)
			}
		}
	}
	if raw, _ := os.ReadFile(tokenFile); !strings.Contains(string(raw), issued[0]) {
		t.Errorf("the token file does not hold the token")
	}
	if code, out, _ := run("auth", "logout", "--url", srv.MCPURL()); code != exitOK || !strings.Contains(out, "logged out") {
		t.Errorf("logout: %d %s", code, out)
	}
	if _, out, _ := run("auth", "status"); !strings.Contains(out, "no stored OAuth tokens") {
		t.Errorf("status after logout: %s", out)
	}
}

func TestAuthLogin(t *testing.T) {
	srv := authtest.New(authtest.Options{})
	defer srv.Close()
	run, _, _ := authCLI(t)
	code, out, errOut := run("auth", "login", "--url", srv.MCPURL())
	if code != exitOK || !strings.Contains(out, "logged in to") {
		t.Fatalf("login: %d\n%s\n%s", code, out, errOut)
	}
	if code, out, errOut := run("tools", "--url", srv.MCPURL()); code != exitOK || !strings.Contains(out, "whoami") || strings.Contains(errOut, "browser") {
		t.Errorf("tools after login: %d\n%s\n%s", code, out, errOut)
	}
	if n := srv.Authorizes(); n != 1 {
		t.Errorf("%d authorizations, want 1 (login's)", n)
	}
	for _, args := range [][]string{{"auth"}, {"auth", "dance"}, {"auth", "login"}, {"auth", "login", "--", "cat"}, {"call", "--client-secret-env", "X", "(a)", "--url", srv.MCPURL()}} {
		if code, _, errOut := run(args...); code != exitUsage || errOut == "" {
			t.Errorf("%v: %d %q", args, code, errOut)
		}
	}
}
