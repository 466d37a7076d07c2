package config

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestZedSettings(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "proj")
	p := filepath.Join(proj, ".zed", "settings.json")
	place(t, "zed_settings.json", p)
	s, err := Load(Env{Getenv: envOf("ZED_GH_TOKEN", "ghp_zedToken0123456789abcdef")}, p)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Names(), []string{"github", "postgres", "you-com", "mcp-server-context7"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Names = %v, want %v", got, want)
	}
	gh := mustFind(t, s, "github")
	if gh.Transport != Stdio || gh.Command != "npx" || gh.Env["GITHUB_PERSONAL_ACCESS_TOKEN"] != "ghp_zedToken0123456789abcdef" || gh.Source.Format != Zed {
		t.Errorf("github = %v (format %q)", gh, gh.Source.Format)
	}
	pg := mustFind(t, s, "postgres")
	if pg.Command != "/usr/local/bin/pg-mcp" || !reflect.DeepEqual(pg.Args, []string{"--dsn", "postgresql://zed:zedPgPw42@localhost/app"}) || pg.Env["LOG_LEVEL"] != "debug" {
		t.Errorf("older command object: %q %q %v", pg.Command, pg.Args, pg.Env)
	}
	if strings.Contains(pg.String(), "zedPgPw42") {
		t.Errorf("password shown: %s", pg.String())
	}
	you := mustFind(t, s, "you-com")
	if you.Transport != HTTP || !you.Guessed || you.Headers["Authorization"] != "Bearer zedBearer0123456789abc" {
		t.Errorf("remote: %v guessed=%v", you.Transport, you.Guessed)
	}
	_, _, err = s.Find("mcp-server-context7")
	if err == nil || !strings.Contains(err.Error(), "Zed extension") {
		t.Errorf("an extension's server should say why it cannot run: %v", err)
	}
}

func TestCodexConfig(t *testing.T) {
	p := filepath.Join(t.TempDir(), ".codex", "config.toml")
	place(t, "codex_config.toml", p)
	getenv := envOf("FIGMA_OAUTH_TOKEN", "figmaOauth0123456789xyz", "FIGMA_TEAM_ID", "team-42")
	s, err := Load(Env{Getenv: getenv}, p)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Names(), []string{"docs", "figma", "off", "sentry"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Names = %v, want %v (file order)", got, want)
	}
	docs := mustFind(t, s, "docs")
	if docs.Source.Format != Codex || docs.Transport != Stdio || docs.Command != "npx" || len(docs.Args) != 4 ||
		docs.Env["DOCS_API_KEY"] != "codexDocsKey0123456789" || docs.Dir != "/srv" {
		t.Errorf("docs = %#v (format %q)", docs, docs.Source.Format)
	}
	figma := mustFind(t, s, "figma")
	want := map[string]string{"Authorization": "Bearer figmaOauth0123456789xyz", "X-Figma-Region": "us-east-1", "X-Team": "team-42"}
	if figma.Transport != HTTP || figma.Guessed || !reflect.DeepEqual(figma.Headers, want) {
		t.Errorf("figma: %v guessed=%v headers %v", figma.Transport, figma.Guessed, len(figma.Headers))
	}
	if !slices.Contains(figma.Secrets(), "figmaOauth0123456789xyz") {
		t.Error("the bearer token is not among the secrets")
	}
	if !mustFind(t, s, "off").Disabled {
		t.Error("enabled = false not read")
	}
	if sentry := mustFind(t, s, "sentry"); sentry.Env["SENTRY_TOKEN"] != "sntrys_codexSentry0123456789" {
		t.Errorf("a sub-table before its table: env %d entries", len(sentry.Env))
	}
	// An unset bearer variable names the variable, never a value.
	s2, _ := Load(Env{Getenv: envOf("FIGMA_TEAM_ID", "team-42")}, p)
	if _, _, err := s2.Find("figma"); err == nil || !strings.Contains(err.Error(), "FIGMA_OAUTH_TOKEN is not set") {
		t.Errorf("unset bearer_token_env_var: %v", err)
	}
}

func TestCodexConfigErrors(t *testing.T) {
	for _, tc := range []struct{ name, file, want string }{
		{"syntax", "model = \"x\"\n[mcp_servers.a]\ncommand = \n", ".toml:3:"},
		{"no servers", "model = \"x\"\n", "no [mcp_servers.NAME] table"},
		{"servers not a table", "mcp_servers = 3\n", "mcp_servers is a TOML integer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "config.toml")
			write(t, p, tc.file)
			if _, err := Load(Env{}, p); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want %q, got %v", tc.want, err)
			}
		})
	}
	p := filepath.Join(t.TempDir(), "config.toml")
	write(t, p, "[mcp_servers.a]\nurl = \"https://h/mcp\"\nbearer_token_env_var = \"not a name\"\n")
	s, err := Load(Env{}, p)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Find("a"); err == nil || !strings.Contains(err.Error(), "bearer_token_env_var") {
		t.Errorf("bad bearer_token_env_var: %v", err)
	}
}

func TestGeminiSettings(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "proj")
	p := filepath.Join(proj, ".gemini", "settings.json")
	place(t, "gemini_settings.json", p)
	getenv := envOf("REPO_DIR", "/src/repo", "GEMINI_GH_PAT", "github_pat_gemini0123456789", "EVENTS_KEY", "evKey0123456789abcdef")
	s, err := Load(Env{Getenv: getenv}, p)
	if err != nil {
		t.Fatal(err)
	}
	git := mustFind(t, s, "git")
	if git.Source.Format != Gemini || git.Args[2] != "/src/repo" || git.Dir != filepath.Join(proj, "tools") {
		t.Errorf("git: format %q args %q dir %q ($VAR and cwd relative to the project)", git.Source.Format, git.Args, git.Dir)
	}
	gh := mustFind(t, s, "github")
	if gh.Transport != HTTP || gh.Guessed || gh.URL != "https://api.githubcopilot.example/mcp/" || gh.Headers["Authorization"] != "Bearer github_pat_gemini0123456789" {
		t.Errorf("httpUrl: %v guessed=%v %q", gh.Transport, gh.Guessed, gh.URL)
	}
	ev := mustFind(t, s, "events")
	if ev.Transport != SSE || ev.Guessed {
		t.Errorf("a Gemini url is SSE: %v guessed=%v", ev.Transport, ev.Guessed)
	}
	// The same entry outside a Gemini file keeps the usual guess, and its $ stays literal.
	other := filepath.Join(t.TempDir(), "mcp.json")
	write(t, other, `{"mcpServers": {"events": {"url": "http://localhost:8080/events"}, "lit": {"command": "echo", "args": ["$HOME"]}}}`)
	s2, err := Load(Env{Getenv: getenv}, other)
	if err != nil {
		t.Fatal(err)
	}
	if ev := mustFind(t, s2, "events"); ev.Transport != HTTP || !ev.Guessed {
		t.Errorf("url elsewhere: %v guessed=%v", ev.Transport, ev.Guessed)
	}
	if lit := mustFind(t, s2, "lit"); lit.Args[0] != "$HOME" {
		t.Errorf("$HOME outside Gemini files should stay literal: %q", lit.Args)
	}
	s3, _ := Load(Env{}, p)
	if _, _, err := s3.Find("git"); err == nil || !strings.Contains(err.Error(), "REPO_DIR is not set (used as $REPO_DIR") {
		t.Errorf("an unset $VAR: %v", err)
	}
}

func TestWindsurfConfig(t *testing.T) {
	p := filepath.Join(t.TempDir(), ".codeium", "windsurf", "mcp_config.json")
	place(t, "windsurf_mcp_config.json", p)
	s, err := Load(Env{Getenv: envOf("WINDSURF_BRAVE_KEY", "BSA0123456789brave")}, p)
	if err != nil {
		t.Fatal(err)
	}
	brave := mustFind(t, s, "brave-search")
	if brave.Source.Format != Windsurf || brave.Env["BRAVE_API_KEY"] != "BSA0123456789brave" {
		t.Errorf("brave: format %q", brave.Source.Format)
	}
	fig := mustFind(t, s, "remote-figma")
	if fig.Transport != HTTP || fig.URL != "https://figma.example/mcp" {
		t.Errorf("serverUrl: %v %q", fig.Transport, fig.URL)
	}
	if !mustFind(t, s, "paused").Disabled {
		t.Error("disabled not read")
	}
}

// Every client's file is found in its usual place, project files before
// user files, and settings files without servers are not problems.
func TestDiscoverEveryClient(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := filepath.Join(home, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(proj, ".zed", "settings.json"), `{"context_servers": {"zed-proj": {"command": "z"}}}`)
	write(t, filepath.Join(proj, ".gemini", "settings.json"), `{"mcpServers": {"gem-proj": {"command": "g"}}}`)
	write(t, filepath.Join(proj, ".codex", "config.toml"), "[mcp_servers.codex-proj]\ncommand = \"c\"\n")
	place(t, "zed_settings.json", filepath.Join(home, ".config", "zed", "settings.json"))
	place(t, "codex_config.toml", filepath.Join(home, ".codex", "config.toml"))
	place(t, "gemini_settings.json", filepath.Join(home, ".gemini", "settings.json"))
	place(t, "windsurf_mcp_config.json", filepath.Join(home, ".codeium", "windsurf", "mcp_config.json"))
	s, err := discover(Env{Cwd: proj, Home: home, Getenv: envOf()}, "linux")
	if err != nil {
		t.Fatal(err)
	}
	formats := map[string]Format{}
	for _, e := range s.Entries() {
		formats[e.Name] = e.Source.Format
	}
	for name, f := range map[string]Format{"zed-proj": Zed, "gem-proj": Gemini, "codex-proj": Codex, "you-com": Zed,
		"figma": Codex, "events": Gemini, "brave-search": Windsurf} {
		if formats[name] != f {
			t.Errorf("%s: format %q, want %q (found: %v)", name, formats[name], f, formats)
		}
	}
	if names := s.Names(); names[0] != "zed-proj" || names[1] != "gem-proj" || names[2] != "codex-proj" {
		t.Errorf("project files should come first: %v", names)
	}
	if len(s.Problems()) != 0 {
		t.Errorf("problems: %v", s.Problems())
	}
	// Settings files that name no servers are normal when discovered.
	write(t, filepath.Join(proj, ".gemini", "settings.json"), `{"theme": "x"}`)
	write(t, filepath.Join(proj, ".zed", "settings.json"), `{"vim_mode": true}`)
	write(t, filepath.Join(proj, ".codex", "config.toml"), "model = \"x\"\n")
	s, _ = discover(Env{Cwd: proj, Home: home, Getenv: envOf()}, "linux")
	if len(s.Problems()) != 0 {
		t.Errorf("settings without servers reported: %v", s.Problems())
	}
}

func TestSearchPathsNewClients(t *testing.T) {
	paths := func(goos string, env Env) []string {
		var out []string
		for _, c := range searchPaths(env, goos) {
			if c.localDir == "" {
				out = append(out, filepath.ToSlash(c.src.Path))
			}
		}
		return out
	}
	env := Env{Cwd: "/w", Home: "/h", Getenv: envOf("APPDATA", "/appdata")}
	for goos, want := range map[string][]string{
		"linux":   {"/w/.zed/settings.json", "/w/.gemini/settings.json", "/w/.codex/config.toml", "/h/.config/zed/settings.json", "/h/.codex/config.toml", "/h/.gemini/settings.json", "/h/.codeium/windsurf/mcp_config.json"},
		"darwin":  {"/h/.config/zed/settings.json", "/h/.codex/config.toml", "/h/.gemini/settings.json", "/h/.codeium/windsurf/mcp_config.json"},
		"windows": {"/appdata/Zed/settings.json", "/h/.codex/config.toml", "/h/.gemini/settings.json", "/h/.codeium/windsurf/mcp_config.json"},
	} {
		got := paths(goos, env)
		for _, p := range want {
			if !slices.Contains(got, p) {
				t.Errorf("%s: missing %s in %v", goos, p, got)
			}
		}
	}
	got := paths("linux", Env{Cwd: "/w", Home: "/h", Getenv: envOf("CODEX_HOME", "/ch", "XDG_CONFIG_HOME", "/x")})
	if !slices.Contains(got, "/ch/config.toml") || !slices.Contains(got, "/x/zed/settings.json") {
		t.Errorf("CODEX_HOME / XDG_CONFIG_HOME not honoured: %v", got)
	}
}

func TestFormatOf(t *testing.T) {
	for path, want := range map[string]Format{
		"/p/.zed/settings.json":                  Zed,
		"/h/.config/zed/settings.json":           Zed,
		"/h/.codex/config.toml":                  Codex,
		"/anywhere/servers.toml":                 Codex,
		"/p/.gemini/settings.json":               Gemini,
		"/h/.codeium/windsurf/mcp_config.json":   Windsurf,
		"/h/.config/Code/User/settings.json":     VSCode,
		"/h/Claude/claude_desktop_config.json":   ClaudeDesktop,
		"/somewhere/else/mcp.json":               Generic,
		"/h/.cursor/mcp.json":                    Cursor,
		"/p/.vscode/mcp.json":                    VSCode,
		"/p/.mcp.json":                           ClaudeCode,
		"/h/.codeium/windsurf/other_config.json": Generic,
	} {
		if got := formatOf(path); got != want {
			t.Errorf("formatOf(%s) = %q, want %q", path, got, want)
		}
	}
}

// List shows every entry with its secrets masked, resolved when it can be
// and as written (still masked) when it cannot, saying why.
func TestList(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, ".zed", "settings.json")
	place(t, "zed_settings.json", p)
	q := filepath.Join(dir, "desk", "claude_desktop_config.json")
	place(t, "claude_desktop_config.json", q)
	write(t, filepath.Join(dir, "dup.json"), `{"mcpServers": {"github": {"command": "other"}}}`)
	s, err := Load(Env{Home: dir}, p, q, filepath.Join(dir, "dup.json"))
	if err != nil {
		t.Fatal(err)
	}
	list := s.List()
	by := map[string]Listing{}
	shadowed := 0
	for _, l := range list {
		if l.Shadowed {
			shadowed++
			continue
		}
		by[l.Name] = l
	}
	if len(list) != 9 || shadowed != 3 {
		t.Fatalf("%d listings, %d shadowed: %+v", len(list), shadowed, list)
	}
	all := ""
	for _, l := range list {
		all += strings.Join([]string{l.Name, string(l.Transport), l.Command, l.URL, l.Problem, strings.Join(l.Env, ","), strings.Join(l.Headers, ",")}, " ") + "\n"
	}
	for _, secret := range []string{"zedPgPw42", "zedQueryKey0123456789", "zedBearer0123456789abc", "gh-desktop-secret", "pgSecretPw77", "desktopBearer"} {
		if strings.Contains(all, secret) {
			t.Errorf("listing shows %q:\n%s", secret, all)
		}
	}
	gh := by["github"] // from the Zed file: ZED_GH_TOKEN is unset
	if !strings.HasPrefix(gh.Problem, "env.GITHUB_PERSONAL_ACCESS_TOKEN: environment variable ZED_GH_TOKEN is not set") || gh.Command != "npx -y @modelcontextprotocol/server-github" ||
		!reflect.DeepEqual(gh.Env, []string{"GITHUB_PERSONAL_ACCESS_TOKEN"}) || gh.Source.Format != Zed {
		t.Errorf("github: %+v", gh)
	}
	if pg := by["postgres"]; pg.Problem != "" || !strings.HasPrefix(pg.Command, "/usr/local/bin/pg-mcp --dsn ") || pg.Transport != Stdio {
		t.Errorf("postgres: %+v", pg)
	}
	if you := by["you-com"]; you.Transport != HTTP || !strings.HasPrefix(you.URL, "https://api.you.example/mcp?api_key=") || !reflect.DeepEqual(you.Headers, []string{"Authorization"}) {
		t.Errorf("you-com: %+v", you)
	}
	if ext := by["mcp-server-context7"]; !strings.HasPrefix(ext.Problem, "is provided by a Zed extension") {
		t.Errorf("extension: %+v", ext)
	}
	if rn := by["remote-notes"]; rn.URL != "https://notes.example.com/mcp" || rn.Source.Format != ClaudeDesktop {
		t.Errorf("remote-notes: %+v", rn)
	}
}

// FuzzLoadTOML feeds arbitrary text through a Codex config's path: TOML,
// the conversion to JSON values, normalize, resolve and List. Nothing may
// panic, no env value may be printed, and a token-like value that reaches a
// listing only by expansion (not written in the file) must be masked.
func FuzzLoadTOML(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "codex_config.toml"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte("[mcp_servers.a]\nurl = \"https://h/mcp\"\nbearer_token_env_var = \"T\"\nenv_http_headers = { X = \"T\" }\n"))
	f.Add([]byte("mcp_servers = [1, 2]\n"))
	f.Add([]byte("[[mcp_servers.a.args]]\nx = 1979-05-27T07:32:00Z\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := &Set{env: Env{Home: "/h", Cwd: "/w", Getenv: envOf("T", "tok0123456789abcdef")}}
		src := Source{Path: "/h/.codex/config.toml", Format: Codex}
		if err := s.addTOML(src, data, "/w"); err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		s.markShadowed()
		for _, l := range s.List() {
			if !strings.Contains(string(data), "tok0123456789abcdef") && strings.Contains(l.Command+l.URL+l.Problem, "tok0123456789abcdef") {
				t.Fatalf("listing shows a secret: %+v", l)
			}
		}
		for _, e := range s.Entries() {
			if srv, _, err := s.Find(e.Name); err == nil {
				for k, v := range srv.Redacted().Env {
					if v != "***" {
						t.Fatalf("env %s not masked", k)
					}
				}
			}
		}
	})
}
