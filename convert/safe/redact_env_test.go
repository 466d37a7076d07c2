package safe

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

func TestRedactorAdd(t *testing.T) {
	r := NewRedactor([]string{"first-secret"})
	if got := r.Redact("first-secret second-secret"); got != "*** second-secret" {
		t.Fatalf("before Add: %q", got)
	}
	r.Add("second-secret", "abc", "")
	if got := r.Redact("first-secret second-secret abc"); got != "*** *** abc" {
		t.Fatalf("after Add: %q (short values stay ignored)", got)
	}
	var zero Redactor // the zero value is an empty redactor
	zero.Add("zero-value-secret")
	if got := zero.Redact("a zero-value-secret"); got != "a ***" {
		t.Fatalf("zero Redactor after Add: %q", got)
	}
	var nilR *Redactor
	nilR.Add("x-secret") // no panic
	nilR.AddArgs([]byte(`{"password":"whatever-long"}`))
}

// TestRedactorAddConcurrent runs Add and Redact at once (go test -race):
// a reader sees either generation, never a torn one.
func TestRedactorAddConcurrent(t *testing.T) {
	r := NewRedactor(nil)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := range 200 {
				r.Add(fmt.Sprintf("secret-%d-%d", g, i))
			}
		}()
		go func() {
			defer wg.Done()
			for i := range 200 {
				_ = r.Redact(fmt.Sprintf("text secret-%d-%d text", g, i))
			}
		}()
	}
	wg.Wait()
	for g := range 4 {
		if got := r.Redact(fmt.Sprintf("secret-%d-199", g)); got != "***" {
			t.Fatalf("after the adds: %q", got)
		}
	}
}

func TestRedactorCut(t *testing.T) {
	const secret = "SECRETVALUE123"
	r := NewRedactor([]string{secret})
	// safe.Cut keeps 100 bytes less its marker's 17: the bound falls inside the secret.
	text := strings.Repeat("x", 78) + secret + strings.Repeat("y", 500)
	got, n := r.Cut(text, 100)
	if strings.Contains(got, "SECRET") || !strings.HasPrefix(got, strings.Repeat("x", 78)+"***") || len(got) > 100 || n == 0 {
		t.Fatalf("Cut = %q, %d: the secret across the cut must be hidden whole", got, n)
	}
	// Cutting first, as the history did, leaves the clear start.
	if naive, _ := Cut(text, 100); r.Redact(naive) != naive || !strings.Contains(naive, "SECR") {
		t.Fatalf("the case does not test a secret across the cut: %q", naive)
	}
	// A text far longer than the window: only the window is redacted, the
	// count covers everything left out.
	long := strings.Repeat(secret+" ", 100000)
	got, n = r.Cut(long, 50)
	if strings.Contains(got, "SECRET") || len(got) > 50 || n < len(long)-1000 {
		t.Fatalf("Cut(long) = %q, %d", got, n)
	}
	if got, n := r.Cut("short "+secret, 100); got != "short ***" || n != 0 {
		t.Fatalf("Cut(short) = %q, %d", got, n)
	}
	if got, n := r.CutBytes([]byte(text), 100); strings.Contains(got, "SECRET") || n == 0 {
		t.Fatalf("CutBytes = %q, %d", got, n)
	}
	var nilR *Redactor
	if got, n := nilR.Cut(strings.Repeat("z", 300), 100); len(got) > 100 || n == 0 {
		t.Fatalf("nil Cut = %q, %d", got, n)
	}
}

// TestPropertyCutLeavesNoSecretStart: whatever precedes a secret and
// wherever the bound falls, the cut text never holds the secret's start.
func TestPropertyCutLeavesNoSecretStart(t *testing.T) {
	secrets := []string{"SECRETVALUE123", "QQQQ", "é-secret-é"}
	r := NewRedactor(secrets)
	for pad := 0; pad < 120; pad += 3 {
		for max := 20; max < 140; max += 7 {
			for _, s := range secrets {
				text := strings.Repeat("QQQQ", pad%5) + strings.Repeat(".", pad) + s + strings.Repeat("-", 200)
				got, _ := r.Cut(text, max)
				start := s[:len(s)/2]
				if strings.Contains(got, start) || (max >= 32 && len(got) > max) {
					t.Fatalf("Cut(%q, %d) = %q holds %q", text, max, got, start)
				}
			}
		}
	}
}

func FuzzRedactorCut(f *testing.F) {
	f.Add("xxxxxxxxxxSECRETVALUE123yyyy", 15)
	f.Add("SECRETVALUE123SECRETVALUE123", 3)
	f.Add("é SECRETVALUE123 é", 40)
	f.Fuzz(func(t *testing.T, text string, max int) {
		const secret = "SECRETVALUE123"
		if max < 0 || max > 1<<16 {
			return
		}
		r := NewRedactor([]string{secret})
		got, _ := r.Cut(text, max)
		if max >= 32 && len(got) > max {
			t.Fatalf("Cut(%q, %d) = %q is longer than the bound", text, max, got)
		}
		if strings.Count(text, "SECRETV") == strings.Count(text, secret) && strings.Contains(got, "SECRETV") {
			t.Fatalf("Cut(%q, %d) = %q holds the secret's start", text, max, got)
		}
	})
}

func TestAddArgs(t *testing.T) {
	r := NewRedactor(nil)
	r.AddArgs([]byte(`{"q":"ordinary text","password":"hunter2-pw","auth":{"client_secret":"cs-0123456789"},
		"list":[{"api_key":"ak-0123456789"}],"token":"true","access_token":"abc","max_tokens":500,"author":"alice-smith"}`))
	got := r.Redact("hunter2-pw cs-0123456789 ak-0123456789 true abc 500 alice-smith ordinary text")
	if got != "*** *** *** true abc 500 alice-smith ordinary text" {
		t.Fatalf("Redact after AddArgs = %q", got)
	}
	r.AddArgs([]byte(`not json`)) // ignored
}

func TestIsSecretEnv(t *testing.T) {
	yes := []string{"GITHUB_TOKEN", "OPENAI_API_KEY", "MY_SECRET", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
		"DB_PASSWORD", "PGPASSWD", "DB_PASS", "MYSQL_PWD", "GITHUB_PAT", "GOOGLE_APPLICATION_CREDENTIALS",
		"SSH_PRIVATE_KEY", "APIKEY", "githubToken", "HF_AUTH", "NPM_AUTH_TOKEN", "X_AUTHORIZATION", "XAUTHORITY",
		"GPG_PASSPHRASE", "SESSION_COOKIE", "ANTHROPIC_API_KEY", "KEY"}
	no := []string{"PATH", "HOME", "PWD", "OLDPWD", "XDG_SESSION_CLASS", "XDG_SESSION_TYPE", "DESKTOP_SESSION",
		"SSL_CERT_FILE", "KEYBOARD_LAYOUT", "KEYMAP", "KEYTIMEOUT", "GNOME_KEYRING_CONTROL", "GIT_AUTHOR_NAME",
		"GIT_AUTHOR_EMAIL", "GIT_ASKPASS", "SSH_ASKPASS", "LANG", "TERM", "PATHEXT", "COMPASS_DIR", "TOKENIZERS"}
	for _, n := range yes {
		if !IsSecretEnv(n) {
			t.Errorf("IsSecretEnv(%q) = false", n)
		}
	}
	for _, n := range no[:len(no)-1] {
		if IsSecretEnv(n) {
			t.Errorf("IsSecretEnv(%q) = true", n)
		}
	}
	// TOKENIZERS_PARALLELISM is named like a token; its value is a setting,
	// which SecretValue turns away.
	if !IsSecretEnv("TOKENIZERS_PARALLELISM") || SecretValue("false") {
		t.Error("TOKENIZERS_PARALLELISM=false would be hidden everywhere")
	}
}

func TestSecretValue(t *testing.T) {
	for _, v := range []string{"ghp_0123456789", "hunter2", "604800"} {
		if !SecretValue(v) {
			t.Errorf("SecretValue(%q) = false", v)
		}
	}
	for _, v := range []string{"", "1", "x11", "basic", "true", "FALSE", "disabled", " none "} {
		if SecretValue(v) {
			t.Errorf("SecretValue(%q) = true", v)
		}
	}
}

func BenchmarkRedactorCut(b *testing.B) {
	r := NewRedactor([]string{"ghp_0123456789abcdef", "sk-live-abcdefghijkl", "hunter2hunter2"})
	s := strings.Repeat("some ordinary result text with an id 12345 and ghp_0123456789abcdef inside\n", 100000)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_, _ = r.Cut(s, 200)
	}
}
