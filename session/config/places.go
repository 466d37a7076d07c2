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
// per-project section of ~/.claude.json; then .mcp.json, .cursor/mcp.json and
// .vscode/mcp.json in cwd and each parent up to (not including) home; then
// the user files: ~/.claude.json, Claude Desktop's config, ~/.cursor/mcp.json
// and VS Code's user mcp.json, at the places each client uses on this OS.
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
		for _, f := range []struct {
			rel    string
			format Format
		}{
			{".mcp.json", ClaudeCode},
			{filepath.Join(".cursor", "mcp.json"), Cursor},
			{filepath.Join(".vscode", "mcp.json"), VSCode},
		} {
			out = append(out, candidate{
				src: Source{Path: filepath.Join(dir, f.rel), Format: f.format, Scope: "project", home: home},
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
	appData := ""
	if env.Getenv != nil {
		appData = env.Getenv("APPDATA")
	}
	switch goos {
	case "darwin":
		support := filepath.Join(home, "Library", "Application Support")
		user(filepath.Join(support, "Claude", "claude_desktop_config.json"), ClaudeDesktop)
		user(filepath.Join(home, ".cursor", "mcp.json"), Cursor)
		user(filepath.Join(support, "Code", "User", "mcp.json"), VSCode)
	case "windows":
		if appData == "" {
			appData = filepath.Join(home, "AppData", "Roaming")
		}
		user(filepath.Join(appData, "Claude", "claude_desktop_config.json"), ClaudeDesktop)
		user(filepath.Join(home, ".cursor", "mcp.json"), Cursor)
		user(filepath.Join(appData, "Code", "User", "mcp.json"), VSCode)
	default:
		xdg := ""
		if env.Getenv != nil {
			xdg = env.Getenv("XDG_CONFIG_HOME")
		}
		if xdg == "" || !filepath.IsAbs(xdg) {
			xdg = filepath.Join(home, ".config")
		}
		user(filepath.Join(xdg, "Claude", "claude_desktop_config.json"), ClaudeDesktop)
		user(filepath.Join(home, ".cursor", "mcp.json"), Cursor)
		user(filepath.Join(xdg, "Code", "User", "mcp.json"), VSCode)
	}
	return out
}
