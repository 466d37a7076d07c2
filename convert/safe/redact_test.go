package safe

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	tests := []struct {
		name, text string
		secrets    []string
		want       string
	}{
		{"single", "token=ghp_abc123 ok", []string{"ghp_abc123"}, "token=*** ok"},
		{"every occurrence", "k1 k1 k1", []string{"k1k1"}, "k1 k1 k1"},
		{"repeated", "s3cr3t and s3cr3t", []string{"s3cr3t"}, "*** and ***"},
		{"longest wins on overlap", "abcdefgh", []string{"abcd", "abcdefgh"}, "***"},
		{"overlap other order", "abcdefgh", []string{"abcdefgh", "abcd"}, "***"},
		{"short values ignored", "a 1 yes", []string{"1", "yes", ""}, "a 1 yes"},
		{"json escaped form", `{"v":"pa\"ss\\word"}`, []string{`pa"ss\word`}, `{"v":"***"}`},
		{"no secrets", "text", nil, "text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Redact(tt.text, tt.secrets); got != tt.want {
				t.Errorf("Redact(%q, %q) = %q, want %q", tt.text, tt.secrets, got, tt.want)
			}
		})
	}
	var nilR *Redactor
	if got := nilR.Redact("x"); got != "x" {
		t.Errorf("nil redactor changed text: %q", got)
	}
}

func TestRedactorJSON(t *testing.T) {
	r := NewRedactor([]string{"sk-live-123456", "987654321"})
	tests := []struct{ in, want string }{
		{`{"q":"use sk-live-123456 now","n":987654321,"m":1}`, `{"q":"use *** now","n":"***","m":1}`},
		{`{"password":"hunter2","api_key":"x","apiKey":"y","author":"me","key":"k","max_tokens":5}`,
			`{"password":"***","api_key":"***","apiKey":"***","author":"me","key":"k","max_tokens":5}`},
		{`{"nested":{"list":["sk-live-123456",{"client_secret":"zz"}]}}`, `{"nested":{"list":["***",{"client_secret":"***"}]}}`},
		{`{"z":1,"a":2}`, `{"z":1,"a":2}`},
		{`not json sk-live-123456`, `"not json ***"`},
		{``, ``},
	}
	for _, tt := range tests {
		got := string(r.JSON([]byte(tt.in)))
		if got != tt.want {
			t.Errorf("JSON(%s) = %s, want %s", tt.in, got, tt.want)
		}
		if got != "" && !json.Valid([]byte(got)) {
			t.Errorf("JSON(%s) = %s is not valid JSON", tt.in, got)
		}
	}
}

func TestIsSecretName(t *testing.T) {
	yes := []string{"Authorization", "authorization", "Proxy-Authorization", "Cookie", "X-Api-Key",
		"GITHUB_TOKEN", "GITHUB_PERSONAL_ACCESS_TOKEN", "client_secret", "DB_PASSWORD", "OPENAI_API_KEY",
		"AWS_SECRET_ACCESS_KEY", "PGPASSWD", "DB_PASS", "x-auth-token", "Mcp-Session-Id", "SSH_PRIVATE_KEY"}
	no := []string{"PATH", "HOME", "DEBUG", "Content-Type", "Accept", "PWD", "NODE_ENV", "LOG_LEVEL", "User-Agent"}
	for _, n := range yes {
		if !IsSecretName(n) {
			t.Errorf("IsSecretName(%q) = false", n)
		}
	}
	for _, n := range no {
		if IsSecretName(n) {
			t.Errorf("IsSecretName(%q) = true", n)
		}
	}
	argYes := []string{"password", "api_key", "apiKey", "access-token", "clientSecret", "Authorization", "private_key"}
	argNo := []string{"key", "author", "sort_key", "path", "query", "name", "monkey"}
	for _, n := range argYes {
		if !IsSecretArg(n) {
			t.Errorf("IsSecretArg(%q) = false", n)
		}
	}
	for _, n := range argNo {
		if IsSecretArg(n) {
			t.Errorf("IsSecretArg(%q) = true", n)
		}
	}
}

func TestPropertyRedactedTextHasNoSecret(t *testing.T) {
	secrets := []string{"ghp_0123456789", "0123", "tok\"en\\x", "ééééé"}
	r := NewRedactor(secrets)
	fill := []string{"a", " ", "0", "1", "2", "3", "ghp_", "é", "\"", "\\", "tok", "en", "x"}
	for i := range 5000 {
		var b strings.Builder
		for j := range 30 {
			if (i+j)%7 == 0 {
				b.WriteString(secrets[(i*j)%len(secrets)])
			} else {
				b.WriteString(fill[(i*31+j*17)%len(fill)])
			}
		}
		out := r.Redact(b.String())
		for _, s := range secrets {
			if strings.Contains(out, s) {
				t.Fatalf("Redact(%q) = %q still contains %q", b.String(), out, s)
			}
		}
	}
}

func FuzzRedactorJSON(f *testing.F) {
	f.Add([]byte(`{"a":"secret-value","token":"t"}`), "secret-value")
	f.Add([]byte(`[1,2,"x"]`), "xxxx")
	f.Add([]byte(`nope`), "nope")
	f.Fuzz(func(t *testing.T, raw []byte, secret string) {
		r := NewRedactor([]string{secret})
		out := r.JSON(raw)
		if len(out) > 0 && !json.Valid(out) {
			t.Fatalf("JSON(%q) = %q is not valid JSON", raw, out)
		}
		if len(secret) >= MinSecretLen && strings.Contains(r.Redact(string(raw)), secret) {
			t.Fatalf("Redact left %q in %q", secret, r.Redact(string(raw)))
		}
	})
}

func BenchmarkRedact(b *testing.B) {
	r := NewRedactor([]string{"ghp_0123456789abcdef", "sk-live-abcdefghijkl", "hunter2hunter2"})
	s := strings.Repeat("some ordinary result text with an id 12345 and ghp_0123456789abcdef inside\n", 1000)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = r.Redact(s)
	}
}

func TestRedactMaskCannotRebuildSecret(t *testing.T) {
	if got := Redact("aa***", []string{"a***"}); strings.Contains(got, "a***") {
		t.Fatalf("got %q", got)
	}
}
