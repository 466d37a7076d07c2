package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenURL runs a $BROWSER script that records its arguments, and refuses
// URLs that would start a local program.
func TestOpenURL(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "args")
	script := filepath.Join(dir, "browser.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf '%s\\n' \"$@\" > "+out+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := func(k string) string {
		if k == "BROWSER" {
			return "/nonexistent/browser:" + script
		}
		return ""
	}
	u := "https://auth.example/authorize?a=1&b=2"
	if err := OpenURL(context.Background(), u, env); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	if strings.TrimSpace(string(got)) != u {
		t.Errorf("the browser got %q, want %q", got, u)
	}
	for _, bad := range []string{"file:///etc/passwd", "javascript:alert(1)", "-x", "http://"} {
		if err := OpenURL(context.Background(), bad, env); err == nil {
			t.Errorf("%q was opened", bad)
		}
	}
}
