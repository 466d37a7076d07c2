package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeHome lays out one config file per client under a temporary home and
// project, from session/config's fixtures.
func fakeHome(t *testing.T) (home, proj string) {
	t.Helper()
	root := t.TempDir()
	home = filepath.Join(root, "home")
	proj = filepath.Join(home, "code", "proj")
	fixture := func(name, dst string) {
		data, err := os.ReadFile(filepath.Join("session", "config", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	fixture("dot_mcp.json", filepath.Join(proj, ".mcp.json"))
	fixture("cursor_mcp.json", filepath.Join(home, ".cursor", "mcp.json"))
	fixture("claude_desktop_config.json", filepath.Join(home, ".config", "Claude", "claude_desktop_config.json"))
	fixture("zed_settings.json", filepath.Join(home, ".config", "zed", "settings.json"))
	fixture("codex_config.toml", filepath.Join(home, ".codex", "config.toml"))
	fixture("gemini_settings.json", filepath.Join(home, ".gemini", "settings.json"))
	fixture("windsurf_mcp_config.json", filepath.Join(home, ".codeium", "windsurf", "mcp_config.json"))
	return home, proj
}

// The secrets of the fixtures, none of which may be printed.
var fixtureSecrets = []string{"gh-desktop-secret-0123456789abcdef", "pgSecretPw77", "desktopBearer0123456789XYZ",
	"zedPgPw42", "zedQueryKey0123456789", "zedBearer0123456789abc", "codexDocsKey0123456789",
	"sntrys_codexSentry0123456789", "windsurfBearer0123456789", "cursorHeaderValue123", "sk-ak-Zp4x9QmT2rLw8vYn"}

func TestServersListsEveryClient(t *testing.T) {
	home, proj := fakeHome(t)
	at := func(c *cli) { c.home, c.cwd = home, proj }
	code, out, errOut := testCLI(t, at, "servers")
	if code != exitOK {
		t.Fatalf("exit %d %s", code, errOut)
	}
	for _, want := range []string{
		"NAME", "TRANSPORT", "COMMAND OR URL",
		"api-server", "(~/code/proj/.mcp.json (Claude Code))", // project first
		"filesystem", "(~/.config/Claude/claude_desktop_config.json (Claude Desktop))",
		"python-tool", "(~/.cursor/mcp.json (Cursor))",
		"you-com", "https://api.you.example/mcp?api_key=***", "(~/.config/zed/settings.json (Zed))",
		"figma", "https://mcp.figma.example/mcp [headers Authorization, X-Figma-Region, X-Team]", "(~/.codex/config.toml (Codex))",
		"events", "sse", "(~/.gemini/settings.json (Gemini CLI))",
		"brave-search", "[env BRAVE_API_KEY]", "(~/.codeium/windsurf/mcp_config.json (Windsurf))",
		"[disabled]", "[shadowed]", "! env.GITHUB_PERSONAL_ACCESS_TOKEN: environment variable ZED_GH_TOKEN is not set",
		"postgresql://***@localhost/mydb",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("servers lacks %q:\n%s", want, out)
		}
	}
	for _, s := range fixtureSecrets {
		if strings.Contains(out+errOut, s) {
			t.Errorf("servers shows the secret %q", s)
		}
	}
	if strings.Index(out, "api-server") > strings.Index(out, "filesystem") {
		t.Errorf("the project file should come before the user files:\n%s", out)
	}

	code, out, _ = testCLI(t, at, "servers", "--output", "json")
	var doc struct {
		Servers []map[string]any `json:"servers"`
		Files   []string         `json:"files"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Files) != 7 {
		t.Fatalf("json: exit %d %q", code, clip(out))
	}
	keys := []string{"name", "transport", "command", "url", "env", "headers", "file", "client", "scope", "disabled", "shadowed", "problem"}
	clients := map[string]bool{}
	for _, s := range doc.Servers {
		for _, k := range keys {
			if _, ok := s[k]; !ok {
				t.Errorf("server %v lacks %q", s["name"], k)
			}
		}
		clients[s["client"].(string)] = true
	}
	for _, want := range []string{"Claude Code", "Claude Desktop", "Cursor", "Zed", "Codex", "Gemini CLI", "Windsurf"} {
		if !clients[want] {
			t.Errorf("no server from %s in %v", want, clients)
		}
	}
	for _, s := range fixtureSecrets {
		if strings.Contains(out, s) {
			t.Errorf("servers --output json shows the secret %q", s)
		}
	}

	// --names is what --server takes: the nearest of each name.
	code, out, _ = testCLI(t, at, "servers", "--names")
	names := strings.Fields(out)
	if code != exitOK || !strings.HasPrefix(out, "shared-server\napi-server\n") || strings.Count(out, "github\n") != 1 || len(names) != 22 {
		t.Errorf("--names: %q", out)
	}
	// The same discovery as --server NAME: a listed Codex server resolves
	// the same way through the selection (a bad one says why).
	code, _, errOut = testCLI(t, at, "tools", "--server", "off")
	if code != exitConnect || !strings.Contains(errOut, "old-server") {
		t.Errorf("--server off (from the Codex file): exit %d %q", code, errOut)
	}
	code, _, errOut = testCLI(t, at, "tools", "--server", "mcp-server-context7")
	if code != exitUsage || !strings.Contains(errOut, "Zed extension") {
		t.Errorf("--server of a Zed extension: exit %d %q", code, errOut)
	}
}

func TestServersConfigAndEmpty(t *testing.T) {
	f := writeTemp(t, `{"mcpServers": {"only": {"command": "x", "args": ["--api-key", "k-0123456789abcdefgh"]}}}`)
	code, out, _ := testCLI(t, nil, "servers", "--config", f)
	if code != exitOK || !strings.Contains(out, "only") || !strings.Contains(out, "--api-key ***") || strings.Contains(out, "k-0123456789abcdefgh") {
		t.Errorf("--config: exit %d %q", code, out)
	}
	empty := t.TempDir()
	code, out, _ = testCLI(t, func(c *cli) { c.home, c.cwd = empty, empty }, "servers")
	if code != exitOK || !strings.Contains(out, "no servers configured; looked in") || !strings.Contains(out, ".codex/config.toml") {
		t.Errorf("nothing configured: exit %d %q", code, out)
	}
	broken := t.TempDir()
	os.WriteFile(filepath.Join(broken, ".mcp.json"), []byte("{"), 0o644)
	code, _, errOut := testCLI(t, func(c *cli) { c.home, c.cwd = t.TempDir(), broken }, "servers")
	if code != exitOK || !strings.Contains(errOut, "mcpterm servers: warning: config:") {
		t.Errorf("a broken file: exit %d %q", code, errOut)
	}
	if code, _, errOut := testCLI(t, nil, "servers", "extra"); code != exitUsage || !strings.Contains(errOut, "takes no arguments") {
		t.Errorf("an argument: exit %d %q", code, errOut)
	}
}
