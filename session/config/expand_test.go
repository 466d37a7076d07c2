package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExpand(t *testing.T) {
	x := &expander{
		env:    Env{Home: "/home/h", Getenv: envOf("A", "alpha", "EMPTY", "", "GITHUB_TOKEN", "gh-secret-value", "B", "beta")},
		dir:    "/proj/ws",
		inputs: map[string]string{"k": "Your key"},
	}
	sep := string(filepath.Separator)
	tests := []struct{ in, want, err string }{
		{"plain", "plain", ""},
		{"${A}", "alpha", ""},
		{"x-${A}-${B}-y", "x-alpha-beta-y", ""},
		{"${env:A}", "alpha", ""},
		{"${MISSING:-fallback}", "fallback", ""},
		{"${EMPTY:-fallback}", "fallback", ""},
		{"${A:-fallback}", "alpha", ""},
		{"${MISSING:-}", "", ""},
		{"${MISSING:-${B}}", "beta", ""},
		{"${MISSING:-${ALSO_MISSING:-deep}}", "deep", ""},
		{"${MISSING:-a:-b}", "a:-b", ""},
		{"${userHome}/x", "/home/h/x", ""},
		{"${workspaceFolder}/src", "/proj/ws/src", ""},
		{"${workspaceFolderBasename}", "ws", ""},
		{"a${pathSeparator}b${/}c", "a" + sep + "b" + sep + "c", ""},
		{"$A and $HOME stay", "$A and $HOME stay", ""},
		{"${unclosed", "${unclosed", ""},
		{"price: $5 {x}", "price: $5 {x}", ""},
		{"${MISSING}", "", "environment variable MISSING is not set"},
		{"${env:MISSING}", "", "used as ${env:MISSING}"},
		{"${EMPTY}", "", "EMPTY is not set"},
		{"${input:k}", "", `${input:k} ("Your key") is a value VS Code prompts for`},
		{"${command:pick}", "", "unsupported variable ${command:pick}"},
		{"${env:1BAD}", "", "not a valid variable name"},
		{"${}", "", "unsupported variable ${}"},
		{strings.Repeat("${M:-", 12) + "x" + strings.Repeat("}", 12), "", "nested deeper"},
	}
	for _, tt := range tests {
		got, err := x.expand(tt.in, "args[0]")
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.HasPrefix(err.Error(), "args[0]: ") {
				t.Errorf("expand(%q): want error %q, got %q, %v", tt.in, tt.err, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("expand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if len(x.secrets) != 0 {
		t.Errorf("no credential variable was used, secrets = %d", len(x.secrets))
	}
	if _, err := x.expand("${GITHUB_TOKEN}", "env.X"); err != nil {
		t.Fatal(err)
	}
	if len(x.secrets) != 1 || x.secrets[0] != "gh-secret-value" {
		t.Errorf("credential variable value not noted as a secret")
	}
}

func TestTokenLike(t *testing.T) {
	for _, v := range []string{"ghp_aB3dE5gH7jK9mN1pQ3sT", "sk-ant-api03-abcdef123456", "0f8fad5b-d9cb-469f-a165-70867728950e"} {
		if !tokenLike(v) {
			t.Errorf("tokenLike(%q) = false", v)
		}
	}
	for _, v := range []string{"production", "/usr/local/bin/node18", "https://example.com/v1/mcp", "short1",
		"hello world 123456789", `C:\Users\me\bin\tool123`, "./relative/path2024x"} {
		if tokenLike(v) {
			t.Errorf("tokenLike(%q) = true", v)
		}
	}
}

// FuzzLoad feeds arbitrary bytes through the path a config file's content
// takes: JSONC, decode, resolve every server, and print it. (It skips the
// file write, which made the fuzzer crawl.)
func FuzzLoad(f *testing.F) {
	for _, name := range []string{"claude_desktop_config.json", "dot_mcp.json", "cursor_mcp.json", "vscode_mcp.json", "claude.json",
		"zed_settings.json", "gemini_settings.json", "windsurf_mcp_config.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"mcpServers":{"a":{"command":"${A:-${B:-${C}}}","args":[1,true,null]}}}`))
	f.Add([]byte(`{"servers":{"a":{"type":"http","url":"http://h","headers":{"K":"${env:X}"}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := &Set{env: Env{Home: "/h", Cwd: "/w", Getenv: envOf("A", "a", "X", "x")}}
		src := Source{Path: "/w/.vscode/mcp.json", Format: VSCode}
		if err := s.addData(src, data, "/w", ""); err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		s.markShadowed()
		for _, l := range s.List() {
			if strings.Contains(l.Command+l.URL, "gh-desktop-secret") {
				t.Fatalf("listing shows a secret: %+v", l)
			}
		}
		for _, e := range s.Entries() {
			srv, _, err := s.Find(e.Name)
			if err != nil {
				continue
			}
			_ = srv.String()
			r := srv.Redacted()
			for k, v := range r.Env {
				if v != "***" {
					t.Fatalf("env %s not masked", k)
				}
			}
		}
	})
}
