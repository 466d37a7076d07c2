package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// envOf makes a getenv from pairs.
func envOf(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

// place copies a fixture from testdata to dir/rel, with PROJECT_DIR replaced.
func place(t *testing.T, fixture, dst string, repl ...string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", fixture))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for i := 0; i+1 < len(repl); i += 2 {
		s = strings.ReplaceAll(s, repl[i], repl[i+1])
	}
	write(t, dst, s)
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func mustFind(t *testing.T, s *Set, name string) Server {
	t.Helper()
	srv, _, err := s.Find(name)
	if err != nil {
		t.Fatalf("Find(%q): %v", name, err)
	}
	return srv
}

func TestClaudeDesktopConfig(t *testing.T) {
	s, err := Load(Env{Home: "/home/alice"}, filepath.Join("testdata", "claude_desktop_config.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Names(), []string{"filesystem", "github", "postgres", "remote-notes"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Names = %v, want %v (file order)", got, want)
	}
	fs := mustFind(t, s, "filesystem")
	if fs.Transport != Stdio || !fs.Guessed || fs.Command != "npx" || len(fs.Args) != 4 || fs.Args[3] != "/Users/alice/Downloads" {
		t.Fatalf("filesystem = %#v / %q", fs, fs.Args)
	}
	if fs.Source.Format != ClaudeDesktop {
		t.Errorf("format %q", fs.Source.Format)
	}
	gh := mustFind(t, s, "github")
	if gh.Env["GITHUB_PERSONAL_ACCESS_TOKEN"] != "gh-desktop-secret-0123456789abcdef" {
		t.Fatalf("github env = %d entries", len(gh.Env))
	}
	rn := mustFind(t, s, "remote-notes")
	if rn.Transport != HTTP || !rn.Guessed || rn.URL != "https://notes.example.com/mcp" ||
		rn.Headers["Authorization"] != "Bearer desktopBearer0123456789XYZ" {
		t.Fatalf("remote-notes: %v %v %q", rn.Transport, rn.Guessed, rn.URL)
	}
	pg := mustFind(t, s, "postgres")
	if str := pg.String(); strings.Contains(str, "pgSecretPw77") || strings.Contains(str, "app:") {
		t.Errorf("postgres password shown: %s", str)
	}
}

func TestClaudeCodeMcpJSON(t *testing.T) {
	getenv := envOf("API_KEY", "sk-test-0123456789abcdef", "HOME", "/home/bob",
		"DATABASE_URL", "postgres://u:dbpw-secret-value@db/x", "DB_PASSWORD", "hunter2hunter2")
	s, err := Load(Env{Home: "/home/bob", Getenv: getenv}, filepath.Join("testdata", "dot_mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	api := mustFind(t, s, "api-server")
	if api.Transport != HTTP || api.Guessed {
		t.Errorf("api-server transport %v guessed %v", api.Transport, api.Guessed)
	}
	if api.URL != "https://api.example.com/mcp" {
		t.Errorf("default not applied: %q", api.URL)
	}
	if api.Headers["Authorization"] != "Bearer sk-test-0123456789abcdef" {
		t.Errorf("header not expanded")
	}
	s2, _ := Load(Env{Getenv: envOf("API_BASE_URL", "https://staging.example.com", "API_KEY", "k")},
		filepath.Join("testdata", "dot_mcp.json"))
	if api2 := mustFind(t, s2, "api-server"); api2.URL != "https://staging.example.com/mcp" {
		t.Errorf("set variable should beat the default: %q", api2.URL)
	}
	sentry := mustFind(t, s, "sentry")
	if sentry.Transport != SSE || sentry.Guessed {
		t.Errorf("sentry %v", sentry.Transport)
	}
	db := mustFind(t, s, "db")
	if db.Command != "/home/bob/bin/db-mcp" || !reflect.DeepEqual(db.Args, []string{"--dsn", "postgres://u:dbpw-secret-value@db/x", "--mode=readonly"}) {
		t.Errorf("db command %q args %q", db.Command, db.Args)
	}
	if db.Env["DB_PASSWORD"] != "hunter2hunter2" || db.Env["LOG_LEVEL"] != "info" {
		t.Errorf("db env not expanded")
	}
	// a missing variable is an error naming it, only when that server is used
	s3, err := Load(Env{}, filepath.Join("testdata", "dot_mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	mustFind(t, s3, "sentry")
	_, _, err = s3.Find("api-server")
	if err == nil || !strings.Contains(err.Error(), "API_KEY is not set") || !strings.Contains(err.Error(), "headers.Authorization") {
		t.Fatalf("want an error naming API_KEY and the field, got %v", err)
	}
}

func TestCursorConfig(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	place(t, "cursor_mcp.json", filepath.Join(proj, ".cursor", "mcp.json"))
	s, err := Load(Env{Getenv: envOf("CURSOR_TEST_KEY", "cursor-key-value-1")}, filepath.Join(proj, ".cursor", "mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	sn := mustFind(t, s, "server-name")
	if sn.Env["API_KEY"] != "cursor-key-value-1" || sn.Source.Format != Cursor {
		t.Errorf("server-name env/format wrong: %v", sn.Source.Format)
	}
	py := mustFind(t, s, "python-tool")
	if py.Args[0] != filepath.Join(proj, "tools", "mcp_server.py") || py.Env["PYTHONPATH"] != proj {
		t.Errorf("workspaceFolder not the project dir: %q %q", py.Args, py.Env["PYTHONPATH"])
	}
	rem := mustFind(t, s, "remote")
	if rem.Transport != HTTP || rem.Headers["API_KEY"] != "cursorHeaderValue123" {
		t.Errorf("remote wrong")
	}
	z := mustFind(t, s, "zapier")
	if z.Transport != SSE || !z.Guessed {
		t.Errorf("a /sse URL without type should be guessed SSE, got %v", z.Transport)
	}
	if strings.Contains(z.String(), "sk-ak-Zp4x9QmT2rLw8vYn") {
		t.Errorf("token in URL path shown: %s", z.String())
	}
}

func TestVSCodeConfig(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "ws")
	place(t, "vscode_mcp.json", filepath.Join(proj, ".vscode", "mcp.json"))
	write(t, filepath.Join(proj, ".env"), "# comment\nexport FROM_FILE=one\nOVERRIDE=from-file\nQUOTED=\"a b\\nc\"\nSINGLE='x $y'\nTRAIL=v # note\n")
	getenv := envOf("VSCODE_TEST_TOKEN", "vs-token-abcdef", "GH_COPILOT_TOKEN", "gho_copilot0123456789")
	s, err := Load(Env{Home: "/home/carol", Getenv: getenv}, filepath.Join(proj, ".vscode", "mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Names(); !reflect.DeepEqual(got, []string{"Perplexity", "local", "fetch"}) {
		t.Fatalf("Names = %v", got)
	}
	_, _, err = s.Find("Perplexity")
	if err == nil || !strings.Contains(err.Error(), "${input:perplexity-key}") ||
		!strings.Contains(err.Error(), "Perplexity API Key") || !strings.Contains(err.Error(), "${env:NAME}") {
		t.Fatalf("input error unclear: %v", err)
	}
	local := mustFind(t, s, "local")
	want := map[string]string{"FROM_FILE": "one", "OVERRIDE": "from-json", "QUOTED": "a b\nc", "SINGLE": "x $y",
		"TRAIL": "v", "HOME_DIR": "/home/carol", "TOKEN": "vs-token-abcdef"}
	if !reflect.DeepEqual(local.Env, want) {
		t.Errorf("env = %v\nwant %v", local.Env, want)
	}
	if local.Args[0] != filepath.Join(proj, "build", "index.js") {
		t.Errorf("args %q", local.Args)
	}
	fetch := mustFind(t, s, "fetch")
	if fetch.Transport != HTTP || fetch.Headers["Authorization"] != "Bearer gho_copilot0123456789" {
		t.Errorf("fetch wrong: %v", fetch.Transport)
	}
	if local.Source.Format != VSCode {
		t.Errorf("format %v", local.Source.Format)
	}
}

func TestVSCodeSettingsShape(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "Code", "User", "settings.json")
	write(t, p, `{"editor.fontSize": 14, "mcp": {"servers": {"s": {"type": "stdio", "command": "srv"}}}}`)
	s, err := Load(Env{}, p)
	if err != nil {
		t.Fatal(err)
	}
	if srv := mustFind(t, s, "s"); srv.Command != "srv" || srv.Source.Format != VSCode {
		t.Errorf("got %v", srv)
	}
}

func TestDiscoverPrecedence(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home", "u")
	proj := filepath.Join(home, "code", "proj")
	cwd := filepath.Join(proj, "sub", "dir")
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(proj, ".mcp.json"), `{"mcpServers": {"both": {"command": "from-project-mcp"}, "proj-only": {"command": "p"}}}`)
	write(t, filepath.Join(proj, ".vscode", "mcp.json"), `{"servers": {"both": {"type": "stdio", "command": "from-vscode"}, "vs": {"type":"stdio","command":"v"}}}`)
	write(t, filepath.Join(cwd, ".cursor", "mcp.json"), `{"mcpServers": {"near": {"command": "n"}}}`)
	write(t, filepath.Join(home, ".cursor", "mcp.json"), `{"mcpServers": {"both": {"command": "from-user-cursor"}, "user-cursor": {"command": "uc"}}}`)
	write(t, filepath.Join(home, ".config", "Claude", "claude_desktop_config.json"), `{"mcpServers": {"desk": {"command": "d"}}}`)
	place(t, "claude.json", filepath.Join(home, ".claude.json"), "PROJECT_DIR", filepath.ToSlash(proj))
	// a file above home must not be read
	write(t, filepath.Join(root, "home", ".mcp.json"), `{"mcpServers": {"above-home": {"command": "x"}}}`)

	s, err := discover(Env{Cwd: cwd, Home: home, Getenv: envOf()}, "linux")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"local-tool", "near", "both", "proj-only", "vs", "user-tool", "desk", "user-cursor"}
	if got := s.Names(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Names = %v\nwant   %v", got, want)
	}
	both, src, err := s.Find("both")
	if err != nil || both.Command != "from-project-mcp" || src.Path != filepath.Join(proj, ".mcp.json") || src.Scope != "project" {
		t.Fatalf("both = %q from %v (%v)", both.Command, src, err)
	}
	shadowed := 0
	for _, e := range s.Entries() {
		if e.Name == "both" && e.Shadowed {
			shadowed++
		}
	}
	if shadowed != 2 {
		t.Errorf("want 2 shadowed copies of both, got %d", shadowed)
	}
	lt := mustFind(t, s, "local-tool")
	if lt.Source.Scope != "local" || !strings.Contains(lt.Source.String(), "~") {
		t.Errorf("local-tool source %v", lt.Source)
	}
	if len(s.Problems()) != 0 {
		t.Errorf("problems: %v", s.Problems())
	}
}

func TestDiscoverKeepsGoingPastBrokenFile(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	cwd := filepath.Join(root, "work")
	write(t, filepath.Join(cwd, ".mcp.json"), "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}\n    \"b\": {}\n  }\n}\n")
	write(t, filepath.Join(home, ".cursor", "mcp.json"), `{"mcpServers": {"good": {"command": "g"}}}`)
	s, err := Discover(cwd, home, envOf())
	if err != nil {
		t.Fatal(err)
	}
	mustFind(t, s, "good")
	if len(s.Problems()) != 1 || !strings.Contains(s.Problems()[0].Error(), ".mcp.json:4:5") {
		t.Fatalf("want one problem at .mcp.json:4:5, got %v", s.Problems())
	}
	_, _, err = s.Find("a")
	if err == nil || !strings.Contains(err.Error(), "also: ") || !strings.Contains(err.Error(), ".mcp.json:4:5") {
		t.Fatalf("not-found error should mention the broken file: %v", err)
	}
}

func TestSearchPathsPerOS(t *testing.T) {
	env := Env{Cwd: "/w", Home: "/h", Getenv: envOf("APPDATA", `/appdata`)}
	paths := func(goos string) []string {
		var out []string
		for _, c := range searchPaths(env, goos) {
			if c.localDir == "" {
				out = append(out, filepath.ToSlash(c.src.Path))
			}
		}
		return out
	}
	has := func(list []string, p string) bool {
		for _, x := range list {
			if x == p {
				return true
			}
		}
		return false
	}
	linux, mac, win := paths("linux"), paths("darwin"), paths("windows")
	for _, p := range []string{"/w/.mcp.json", "/w/.cursor/mcp.json", "/w/.vscode/mcp.json", "/.mcp.json",
		"/h/.claude.json", "/h/.config/Claude/claude_desktop_config.json", "/h/.cursor/mcp.json", "/h/.config/Code/User/mcp.json"} {
		if !has(linux, p) {
			t.Errorf("linux: missing %s in %v", p, linux)
		}
	}
	if !has(mac, "/h/Library/Application Support/Claude/claude_desktop_config.json") {
		t.Errorf("darwin: %v", mac)
	}
	if !has(win, "/appdata/Claude/claude_desktop_config.json") || !has(win, "/appdata/Code/User/mcp.json") {
		t.Errorf("windows: %v", win)
	}
	xdg := Env{Cwd: "/w", Home: "/h", Getenv: envOf("XDG_CONFIG_HOME", "/x")}
	found := false
	for _, c := range searchPaths(xdg, "linux") {
		found = found || filepath.ToSlash(c.src.Path) == "/x/Claude/claude_desktop_config.json"
	}
	if !found {
		t.Error("XDG_CONFIG_HOME not honoured for Claude Desktop")
	}
	if got := SearchPaths("/w", "/h", envOf()); len(got) == 0 || got[0] != filepath.Join("/w", ".mcp.json") {
		t.Errorf("SearchPaths = %v", got)
	}
}

func TestNotFound(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, ".mcp.json")
	write(t, p, `{"mcpServers": {"github": {"command": "g"}, "filesystem": {"command": "f"}}}`)
	s, err := Load(Env{}, p)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"gitub": `did you mean "github"?`, "GitHub": `did you mean "github"?`,
		"filesytem": `did you mean "filesystem"?`} {
		_, _, err := s.Find(name)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "Available: github, filesystem") {
			t.Errorf("Find(%q): %v", name, err)
		}
	}
	_, _, err = s.Find("zzzzzzzz")
	if err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("no suggestion expected for a far name: %v", err)
	}
	other := t.TempDir()
	empty, _ := discover(Env{Cwd: filepath.Join(other, "nowhere"), Home: filepath.Join(other, "h")}, "linux")
	_, _, err = empty.Find("x")
	if err == nil || !strings.Contains(err.Error(), "no mcpServers config found; looked in") {
		t.Errorf("empty discovery: %v", err)
	}
}

func TestBadConfigs(t *testing.T) {
	tests := []struct{ name, file, server, want string }{
		{"syntax with position", "{\n \"mcpServers\": {\n  \"a\": {\"command\": \"x\",, }\n }\n}", "", ":3:"},
		{"not an object", `[1,2]`, "", "want map"},
		{"no servers", `{"other": 1}`, "", `neither "mcpServers" nor "servers"`},
		{"servers not object", `{"mcpServers": [1]}`, "", "want an object of NAME"},
		{"unknown type", `{"mcpServers": {"a": {"type": "websocket", "url": "ws://x"}}}`, "a", `unknown "type" "websocket"`},
		{"both command and url", `{"mcpServers": {"a": {"command": "x", "url": "http://x"}}}`, "a", `both "command" and "url"`},
		{"neither", `{"mcpServers": {"a": {"args": []}}}`, "a", `neither "command"`},
		{"stdio without command", `{"mcpServers": {"a": {"type": "stdio", "url": "http://x"}}}`, "a", `"command" must be`},
		{"args not list", `{"mcpServers": {"a": {"command": "x", "args": "-v"}}}`, "a", `"args" is a JSON string`},
		{"arg object", `{"mcpServers": {"a": {"command": "x", "args": [{}]}}}`, "a", `args[0] is a JSON object`},
		{"env list", `{"mcpServers": {"a": {"command": "x", "env": ["A=1"]}}}`, "a", `"env" is a JSON array`},
		{"bad scheme", `{"mcpServers": {"a": {"url": "ftp://x/y"}}}`, "a", "http:// or https://"},
		{"no host", `{"mcpServers": {"a": {"url": "http:///mcp"}}}`, "a", "no host"},
		{"bad header name", `{"mcpServers": {"a": {"url": "http://h", "headers": {"Bad Name": "v"}}}}`, "a", "not a valid HTTP header name"},
		{"unsupported variable", `{"mcpServers": {"a": {"command": "${config:foo}"}}}`, "a", "unsupported variable ${config:foo}"},
		{"server not object", `{"mcpServers": {"a": "npx x"}}`, "a", "is a JSON string, want an object"},
		{"missing env file", `{"servers": {"a": {"type": "stdio", "command": "x", "envFile": "nope.env"}}}`, "a", "envFile"},
		{"type not string", `{"mcpServers": {"a": {"type": 1, "command": "x"}}}`, "a", `"type" is a JSON number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "mcp.json")
			write(t, p, tt.file)
			s, err := Load(Env{}, p)
			if tt.server == "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("Load: want error containing %q, got %v", tt.want, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			_, _, err = s.Find(tt.server)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), `server "a"`) {
				t.Fatalf("Find: want error containing %q, got %v", tt.want, err)
			}
		})
	}
	if _, err := Load(Env{}, filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("Load of a missing file should fail")
	}
}

func TestDisabledAndTransportAliases(t *testing.T) {
	p := filepath.Join(t.TempDir(), "mcp.json")
	write(t, p, `{"mcpServers": {
		"off": {"command": "x", "disabled": true},
		"off2": {"command": "x", "enabled": false},
		"sh": {"type": "streamable-http", "url": "https://h/mcp"},
		"sh2": {"type": "streamableHttp", "serverUrl": "https://h/mcp"},
		"num": {"command": "x", "args": [8080, true], "env": {"PORT": 3000}}
	}}`)
	s, err := Load(Env{}, p)
	if err != nil {
		t.Fatal(err)
	}
	if !mustFind(t, s, "off").Disabled || !mustFind(t, s, "off2").Disabled {
		t.Error("disabled not read")
	}
	for _, n := range []string{"sh", "sh2"} {
		if srv := mustFind(t, s, n); srv.Transport != HTTP || srv.URL != "https://h/mcp" {
			t.Errorf("%s: %v %q", n, srv.Transport, srv.URL)
		}
	}
	num := mustFind(t, s, "num")
	if !reflect.DeepEqual(num.Args, []string{"8080", "true"}) || num.Env["PORT"] != "3000" {
		t.Errorf("scalars: %q %v", num.Args, num.Env)
	}
}

func TestDiscoverFromHome(t *testing.T) {
	home := t.TempDir()
	write(t, filepath.Join(home, ".cursor", "mcp.json"), `{"mcpServers": {"c": {"command": "c"}}}`)
	write(t, filepath.Join(home, ".mcp.json"), `{"mcpServers": {"m": {"command": "m"}}}`)
	s, err := Discover(home, home, envOf())
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Names(); !reflect.DeepEqual(got, []string{"m", "c"}) {
		t.Fatalf("Names = %v", got)
	}
	if n := len(s.Files()); n != 2 {
		t.Fatalf("%d files read, want 2 (no file twice)", n)
	}
	if c := mustFind(t, s, "c"); !strings.HasPrefix(c.Source.String(), filepath.Join("~", ".cursor", "mcp.json")) {
		t.Errorf("source shown as %q", c.Source.String())
	}
}
