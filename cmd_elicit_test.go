package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/session/peers"
)

func everythingSel(t *testing.T) []string {
	t.Helper()
	p, err := peers.Everything(context.Background(), os.Getenv)
	if err != nil {
		if errors.Is(err, peers.ErrNoNode) && os.Getenv("CI") != "true" {
			t.Skipf("end-to-end test skipped: %v", err)
		}
		t.Fatal(err)
	}
	return []string{"--", p.Node, p.Entry, "stdio"}
}

// TestElicitCLI answers server-everything's elicitation tools with each
// --elicit policy through `mcpterm call`, over a real stdio subprocess.
func TestElicitCLI(t *testing.T) {
	sel := everythingSel(t)
	call := func(stdin string, args ...string) (int, string, string) {
		t.Helper()
		return sessCLI(t, nil, stdin, append(append([]string{"call", "--output", "json"}, args...), sel...)...)
	}
	form := `{"name":"trigger-elicitation-request","arguments":{}}`

	// Not a terminal: declined by default, with a notice saying how to answer.
	code, out, errOut := call("", form)
	if code != exitOK || !strings.Contains(out, "declined") || !strings.Contains(errOut, "mcpterm: elicitation: declined the form") || !strings.Contains(errOut, "--elicit ask") {
		t.Errorf("default: exit %d %s %s", code, out, errOut)
	}
	// defaults: the form has a required field without a default.
	code, out, errOut = call("", "--elicit", "defaults", form)
	if code != exitOK || !strings.Contains(out, "declined") || !strings.Contains(errOut, "required field has no default (name)") {
		t.Errorf("defaults: exit %d %s %s", code, out, errOut)
	}
	// A file of answers.
	dir := t.TempDir()
	answers := filepath.Join(dir, "answers.json")
	os.WriteFile(answers, []byte(`{"name":"Ada","integer":7,"untitledMultipleSelectEnum":["Piano","Drums"]}`), 0o600)
	code, out, errOut = call("", "--elicit", answers, form)
	for _, want := range []string{`- Name: Ada`, `- Favorite Integer: 7`, `\"Drums\"`} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("file: exit %d, %q lacks %q; %s", code, out, want, errOut)
		}
	}
	// ask, answers piped on stdin, prompts on stderr.
	code, out, errOut = call("y\nGrace\nyes\n\n\n\n\n\n\n\n\n\n\n\n", "--elicit", "ask", form)
	if code != exitOK || !strings.Contains(out, "- Name: Grace") || !strings.Contains(out, "- Agreed to terms: true") || !strings.Contains(errOut, "asks:") || !strings.Contains(errOut, "Your full, legal name") {
		t.Errorf("ask: exit %d %s %s", code, out, errOut)
	}
	// URL mode: ask opens the link with $BROWSER; the other policies decline.
	url := `{"name":"trigger-url-elicitation","arguments":{"url":"https://example.com/consent"}}`
	code, out, errOut = call("", "--elicit", "defaults", url)
	if code != exitOK || !strings.Contains(out, "declined to open the URL") || !strings.Contains(errOut, "https://example.com/consent") {
		t.Errorf("url defaults: exit %d %s %s", code, out, errOut)
	}
	opened := filepath.Join(dir, "opened")
	browser := filepath.Join(dir, "browser.sh")
	os.WriteFile(browser, []byte("#!/bin/sh\necho \"$1\" > "+opened+"\n"), 0o755)
	code, out, errOut = sessCLI(t, map[string]string{"BROWSER": browser}, "y\n", append([]string{"call", "--output", "json", "--elicit", "ask", url}, sel...)...)
	got, _ := os.ReadFile(opened)
	if code != exitOK || !strings.Contains(out, "completed the URL elicitation") || strings.TrimSpace(string(got)) != "https://example.com/consent" {
		t.Errorf("url ask: exit %d %s %s; opened %q", code, out, errOut, got)
	}
}

// TestElicitFlagUsage: a bad --elicit is a usage error before connecting.
func TestElicitFlagUsage(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"a":{"b":1}}`), 0o600)
	for arg, want := range map[string]string{
		"no-such-file.json": "no-such-file.json",
		bad:                 `"a": an answer is a string`,
	} {
		code, _, errOut := sessCLI(t, nil, "", "call", "--elicit", arg, "(x)", "--", "/nonexistent/srv")
		if code != exitUsage || !strings.Contains(errOut, want) || !strings.Contains(errOut, "ask, decline, defaults") {
			t.Errorf("--elicit %s: exit %d %s", arg, code, errOut)
		}
	}
}
