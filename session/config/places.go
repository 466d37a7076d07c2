package config

import (
	"path/filepath"
	"runtime"
)

func goos() string { return runtime.GOOS }

type candidate struct {
	src Source
	dir string // what ${workspaceFolder} means for this file
	// localDir, for ~/.claude.json, selects its per-project section for this
	// directory and its ancestors instead of the top-level mcpServers.
	localDir string
}

// SearchPaths lists, nearest first, the files Discover reads: Claude Code's
// per-project section of ~/.claude.json; then .mcp.json, .cursor/mcp.json,
// .vscode/mcp.json, .zed/settings.json, .gemini/settings.json and
// .codex/config.toml in cwd and each parent up to (not including) home; then
// the user files: ~/.claude.json, Claude Desktop's config, ~/.cursor/mcp.json,
// VS Code's user mcp.json, Zed's settings.json, Codex's config.toml
// ($CODEX_HOME or ~/.codex), ~/.gemini/settings.json and Windsurf's
// ~/.codeium/windsurf/mcp_config.json, at the places each client uses on
// this OS.
func SearchPaths(cwd, home string, getenv func(string) string) []string {
	var out []string
	for _, c := range searchPaths(Env{Cwd: cwd, Home: home, Getenv: getenv}, goos()) {
		if c.localDir == "" {
			out = append(out, c.src.Path)
		}
	}
	return out
}

func searchPaths(env Env, goos string) []candidate {
	var out []candidate
	home := env.Home
	cwd := filepath.Clean(env.Cwd)
	if home != "" {
		home = filepath.Clean(home)
		out = append(out, candidate{
			src:      Source{Path: filepath.Join(home, ".claude.json"), Format: ClaudeCode, Scope: "local", home: home},
			dir:      cwd,
			localDir: cwd,
		})
	}
	for dir := cwd; ; {
		if home != "" && dir == home && dir != cwd {
			break
		}
		// The home directory's own files (cwd is home) are the user's
		// config, whatever client reads them as a project's.
		scope := "project"
		if home != "" && dir == home {
			scope = "user"
		}
		for _, f := range []struct {
			rel    string
			format Format
		}{
			{".mcp.json", ClaudeCode},
			{filepath.Join(".cursor", "mcp.json"), Cursor},
			{filepath.Join(".vscode", "mcp.json"), VSCode},
			{filepath.Join(".zed", "settings.json"), Zed},
			{filepath.Join(".gemini", "settings.json"), Gemini},
			{filepath.Join(".codex", "config.toml"), Codex},
		} {
			out = append(out, candidate{
				src: Source{Path: filepath.Join(dir, f.rel), Format: f.format, Scope: scope, home: home},
				dir: dir,
			})
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if home == "" {
		return out
	}
	user := func(path string, f Format) {
		for _, c := range out {
			if c.src.Path == path && c.localDir == "" {
				return // already read as a project file (cwd is home)
			}
		}
		out = append(out, candidate{src: Source{Path: path, Format: f, Scope: "user", home: home}, dir: cwd})
	}
	user(filepath.Join(home, ".claude.json"), ClaudeCode)
	getenv := func(name string) string {
		if env.Getenv == nil {
			return ""
		}
		return env.Getenv(name)
	}
	appData := getenv("APPDATA")
	switch goos {
	case "darwin":
		support := filepath.Join(home, "Library", "Application Support")
		user(filepath.Join(support, "Claude", "claude_desktop_config.json"), ClaudeDesktop)
		user(filepath.Join(home, ".cursor", "mcp.json"), Cursor)
		user(filepath.Join(support, "Code", "User", "mcp.json"), VSCode)
		user(filepath.Join(home, ".config", "zed", "settings.json"), Zed) // Zed keeps ~/.config on macOS too
	case "windows":
		if appData == "" {
			appData = filepath.Join(home, "AppData", "Roaming")
		}
		user(filepath.Join(appData, "Claude", "claude_desktop_config.json"), ClaudeDesktop)
		user(filepath.Join(home, ".cursor", "mcp.json"), Cursor)
		user(filepath.Join(appData, "Code", "User", "mcp.json"), VSCode)
		user(filepath.Join(appData, "Zed", "settings.json"), Zed)
	default:
		xdg := getenv("XDG_CONFIG_HOME")
		if xdg == "" || !filepath.IsAbs(xdg) {
			xdg = filepath.Join(home, ".config")
		}
		user(filepath.Join(xdg, "Claude", "claude_desktop_config.json"), ClaudeDesktop)
		user(filepath.Join(home, ".cursor", "mcp.json"), Cursor)
		user(filepath.Join(xdg, "Code", "User", "mcp.json"), VSCode)
		user(filepath.Join(xdg, "zed", "settings.json"), Zed)
	}
	// Codex, Gemini CLI and Windsurf use the same places on every OS.
	codexHome := getenv("CODEX_HOME")
	if codexHome == "" || !filepath.IsAbs(codexHome) {
		codexHome = filepath.Join(home, ".codex")
	}
	user(filepath.Join(codexHome, "config.toml"), Codex)
	user(filepath.Join(home, ".gemini", "settings.json"), Gemini)
	user(filepath.Join(home, ".codeium", "windsurf", "mcp_config.json"), Windsurf)
	return out
}
