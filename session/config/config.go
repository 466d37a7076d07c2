// Package config reads the MCP server configuration files that MCP clients
// already keep, so `mcpterm --server NAME` reaches the same servers the user
// has set up for Claude, Cursor, VS Code, Zed, Codex, Gemini CLI or Windsurf
// without a config of its own.
//
// Shapes understood (JSON with comments and trailing commas, as VS Code and
// Zed write them, and Codex's TOML):
//
//   - Claude Desktop claude_desktop_config.json, Cursor mcp.json, Claude Code
//     .mcp.json and ~/.claude.json: {"mcpServers": {NAME: {...}}}; ~/.claude.json
//     also {"projects": {DIR: {"mcpServers": ...}}} for the local scope.
//   - VS Code .vscode/mcp.json and the user mcp.json: {"servers": {NAME: {...}},
//     "inputs": [...]}, and settings.json's {"mcp": {"servers": ...}}.
//   - Zed settings.json: {"context_servers": {NAME: {...}}}, with the command
//     as a string or, in older files, as {"path", "args", "env"}.
//   - Codex config.toml: [mcp_servers.NAME] tables (TOML, see toml.go), with
//     bearer_token_env_var, http_headers and env_http_headers for HTTP.
//   - Gemini CLI settings.json: {"mcpServers": ...} where "httpUrl" is a
//     streamable HTTP server and a plain "url" the legacy SSE transport.
//   - Windsurf mcp_config.json: {"mcpServers": ...}, "serverUrl" for HTTP.
//
// A server is {type?, command, args, env, envFile?, cwd?} for stdio or
// {type?, url, headers} for HTTP; type is "stdio", "http" (alias
// "streamable-http", "streamableHttp") or "sse". Without a type, a command
// means stdio and a url means streamable HTTP, or SSE when the URL path ends
// in /sse (Server.Guessed says the type was inferred, so a caller may fall
// back to the other HTTP transport). Every client's spelling is accepted in
// every file (people copy snippets between them), with one exception the
// file's client decides: in a Gemini CLI file a plain "url" means SSE, as
// Gemini CLI documents it.
//
// Variables are expanded in command, args, env, envFile, cwd, url and
// headers. mcpterm accepts the union of what the clients do, because people
// copy snippets between these files: ${VAR} and ${VAR:-default} (Claude
// Code), ${env:VAR}, ${userHome}, ${workspaceFolder},
// ${workspaceFolderBasename}, ${pathSeparator} and ${/} (VS Code, Cursor,
// Windsurf), and in Gemini CLI files $VAR as well.
// An unset variable without a default is an error naming it; ${input:ID}
// (a VS Code prompt) cannot be answered outside VS Code and is an error that
// says so.
//
// The API:
//
//   - Discover(cwd, home, getenv): the usual places, nearest first (see
//     SearchPaths); files that do not exist are skipped, broken ones are
//     reported by Problems and in Find's not-found error.
//   - Load(env, paths...): named files (--config), which must exist and parse.
//   - Open(env, paths): Load when paths are given, else Discover: the one
//     choice `--server NAME [--config FILE]` and `mcpterm servers` share.
//   - (*Set).Find(name): the resolved Server and where it came from; an unknown
//     name gets an error listing the available ones, with a "did you mean".
//   - (*Set).Choose(name, Trust): Find under the project config trust rule
//     (trust.go): an entry of a project file (.mcp.json … in the current
//     directory or a parent) is used only once the file is trusted as it
//     is now; what --server NAME uses on every face.
//   - (*Set).Entries(), Names(): what a picker shows; List(): every server
//     with its command or URL masked, as `mcpterm servers` prints them.
//   - Server.Redacted(), String(): views safe to print; Server.Secrets(): the
//     values to hand to safe.NewRedactor for history, audit and traces.
//
// Env and header values never appear in String, Redacted or any error of this
// package; errors name variables and fields, never their values.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcpterm/mcpterm/convert/nearest"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// Transport is how mcpterm talks to a configured server.
type Transport string

const (
	Stdio Transport = "stdio" // a child process on stdin/stdout
	HTTP  Transport = "http"  // streamable HTTP
	SSE   Transport = "sse"   // the legacy HTTP+SSE transport
)

// Format names the client whose file a server came from; it decides nothing
// about parsing (all shapes are accepted everywhere) but tells the user which
// file to edit.
type Format string

const (
	ClaudeDesktop Format = "Claude Desktop"
	ClaudeCode    Format = "Claude Code"
	Cursor        Format = "Cursor"
	VSCode        Format = "VS Code"
	Zed           Format = "Zed"
	Codex         Format = "Codex"
	Gemini        Format = "Gemini CLI"
	Windsurf      Format = "Windsurf"
	Generic       Format = "mcpServers"
)

// Source is a config file, and which scope of it a server came from.
type Source struct {
	Path   string
	Format Format
	// Scope is "project", "user" or "local" (Claude Code's per-project
	// section of ~/.claude.json); empty for files given with --config.
	// Only "project" files need trust (trust.go): the others are the
	// user's own or named by the user.
	Scope string
	// Hash is the hex SHA-256 of the bytes read from the file, the very
	// bytes parsed, so trust given to one content never covers another.
	Hash string
	home string
}

// IsProject reports a project config: a file found in the current
// directory or one of its parents (not the home directory), which whoever
// controls that directory — a cloned repository — wrote.
func (s Source) IsProject() bool { return s.Scope == "project" }

// String shows the path with the home directory as ~, plus the client.
func (s Source) String() string {
	p := s.Path
	if s.home != "" {
		if rel, err := filepath.Rel(s.home, p); err == nil && !strings.HasPrefix(rel, "..") {
			p = filepath.Join("~", rel)
		}
	}
	if s.Scope == "local" {
		return p + " (" + string(s.Format) + ", this project)"
	}
	return p + " (" + string(s.Format) + ")"
}

// Server is one resolved server: variables expanded, env files read,
// transport decided. Its Env and Headers hold secrets; print Redacted() or
// String(), never the fields.
type Server struct {
	Name      string
	Transport Transport
	// Guessed is set when the file gave no type and Transport was inferred
	// from command/url; for HTTP a caller may retry with SSE.
	Guessed bool
	Command string
	Args    []string
	Env     map[string]string // added to the inherited environment
	Dir     string            // working directory for Command; "" = inherit
	URL     string
	Headers map[string]string
	// Disabled is set when the file marks the server "disabled": true (Cline,
	// Windsurf) or "enabled": false; mcpterm still lets you name it.
	Disabled bool
	Source   Source

	// secrets holds values that came from expanding credential-looking
	// variables, so they are redacted wherever they ended up.
	secrets []string
}

// Env is what resolution needs from the outside world: the variables, the
// home directory and the current directory (for ${workspaceFolder} in user
// files). Getenv may be nil for an empty environment.
type Env struct {
	Cwd    string
	Home   string
	Getenv func(string) string
}

func (e Env) lookup(name string) (string, bool) {
	if e.Getenv == nil {
		return "", false
	}
	v := e.Getenv(name)
	return v, v != ""
}

// Entry is a server as listed, before resolution: enough for a picker.
type Entry struct {
	Name      string
	Transport Transport // best guess from the raw fields; "" if unclear
	Source    Source
	Disabled  bool
	// Shadowed is set when a nearer file defines the same name; Find returns
	// the nearer one.
	Shadowed bool

	raw    *ojson.Value
	dir    string            // the project directory the file belongs to
	inputs map[string]string // VS Code input descriptions by id
	// problem is why the entry cannot be used whatever the environment
	// (a Zed extension's server, which Zed starts itself); Find reports it.
	problem error
}

// Set is the servers of one or more config files, nearest first.
type Set struct {
	env      Env
	entries  []Entry
	files    []Source
	searched []string
	problems []error
}

// maxFileSize bounds what is read from a config file; ~/.claude.json keeps
// conversation state and can reach megabytes, real server lists are tiny.
const maxFileSize = 64 << 20

// Load reads the named files, in order of precedence. Every file must exist
// and parse; it is the --config route, where a mistake should stop the user.
func Load(env Env, paths ...string) (*Set, error) {
	s := &Set{env: env}
	for _, p := range paths {
		src := Source{Path: p, Format: formatOf(p), home: env.Home}
		if err := s.readFile(src, projectDirOf(p), ""); err != nil {
			return nil, err
		}
	}
	s.markShadowed()
	return s, nil
}

// Discover reads every config file in the usual places (SearchPaths), nearest
// first. Missing files are skipped; unreadable or malformed ones are kept as
// Problems so one broken file does not hide the servers of the others.
func Discover(cwd, home string, getenv func(string) string) (*Set, error) {
	return discover(Env{Cwd: cwd, Home: home, Getenv: getenv}, goos())
}

func discover(env Env, goos string) (*Set, error) {
	if env.Cwd == "" {
		return nil, errors.New("config: no current directory to search from")
	}
	s := &Set{env: env}
	for _, c := range searchPaths(env, goos) {
		if c.localDir == "" {
			s.searched = append(s.searched, c.src.Path)
		}
		err := s.readFile(c.src, c.dir, c.localDir)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			s.problems = append(s.problems, err)
		}
	}
	s.markShadowed()
	return s, nil
}

// Open reads the named files when there are any (Load), else the usual
// places (Discover): what `--server NAME [--config FILE]` reads, and what
// `mcpterm servers` lists.
func Open(env Env, paths []string) (*Set, error) {
	if len(paths) > 0 {
		return Load(env, paths...)
	}
	return Discover(env.Cwd, env.Home, env.Getenv)
}

// Entries lists every server found, nearest file first, shadowed duplicates
// included (marked).
func (s *Set) Entries() []Entry { return append([]Entry(nil), s.entries...) }

// Names lists the distinct server names, nearest file first.
func (s *Set) Names() []string {
	var names []string
	for _, e := range s.entries {
		if !e.Shadowed {
			names = append(names, e.Name)
		}
	}
	return names
}

// Searched lists the files Discover looked for (nothing for Load).
func (s *Set) Searched() []string { return append([]string(nil), s.searched...) }

// Files lists the config files that were read.
func (s *Set) Files() []Source { return append([]Source(nil), s.files...) }

// Problems lists config files that exist but could not be used.
func (s *Set) Problems() []error { return append([]error(nil), s.problems...) }

// Find resolves the server called name (exact match; the nearest file
// wins), whatever the file's trust: Choose is the lookup that applies it,
// the one a selection makes.
func (s *Set) Find(name string) (Server, Source, error) {
	for _, e := range s.entries {
		if e.Name == name && !e.Shadowed {
			srv, err := s.resolve(e)
			return srv, e.Source, err
		}
	}
	return Server{}, Source{}, s.notFound(name)
}

func (s *Set) notFound(name string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "config: no server named %q", name)
	names := s.Names()
	switch {
	case len(names) == 0 && len(s.files) == 0 && len(s.searched) > 0:
		b.WriteString(": no mcpServers config found; looked in " + strings.Join(s.searched, ", "))
	case len(names) == 0:
		b.WriteString(": the config files define no servers")
	default:
		if m := suggest(name, names); m != "" {
			fmt.Fprintf(&b, "; did you mean %q?", m)
		}
		b.WriteString(" Available: " + strings.Join(names, ", "))
		var files []string
		for _, f := range s.files {
			files = append(files, f.String())
		}
		b.WriteString(" (from " + strings.Join(files, "; ") + ")")
	}
	for _, p := range s.problems {
		b.WriteString("\n  also: " + p.Error())
	}
	return errors.New(b.String())
}

// suggest picks the closest name: a case-insensitive match, else the
// smallest edit distance within a third of the name's length (at least 2).
func suggest(name string, names []string) string {
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return n
		}
	}
	best, bestD := "", max(2, len(name)/3)+1
	for _, n := range names {
		if d := nearest.Distance(strings.ToLower(name), strings.ToLower(n), bestD); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

func (s *Set) markShadowed() {
	seen := map[string]bool{}
	for i := range s.entries {
		e := &s.entries[i]
		e.Shadowed = seen[e.Name]
		seen[e.Name] = true
	}
}

// formatOf names the client from a file's path.
func formatOf(path string) Format {
	base := filepath.Base(path)
	dir := filepath.Base(filepath.Dir(path))
	switch {
	case base == "claude_desktop_config.json":
		return ClaudeDesktop
	case base == ".mcp.json" || base == ".claude.json":
		return ClaudeCode
	case dir == ".cursor":
		return Cursor
	case dir == ".vscode" || (dir == "User" && (base == "mcp.json" || base == "settings.json")):
		return VSCode
	case isTOML(path) || dir == ".codex":
		return Codex
	case dir == ".zed" || (strings.EqualFold(dir, "zed") && base == "settings.json"):
		return Zed
	case dir == ".gemini":
		return Gemini
	case base == "mcp_config.json" && dir == "windsurf":
		return Windsurf
	}
	return Generic
}

// projectDirOf is the directory ${workspaceFolder} means for a file: the
// parent of a client's dot directory (.vscode, .cursor, .zed, .gemini,
// .codex), else the file's own directory.
func projectDirOf(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	dir := filepath.Dir(abs)
	if projectDotDirs[filepath.Base(dir)] {
		return filepath.Dir(dir)
	}
	return dir
}

// projectDotDirs are the directories clients keep a project's config in.
var projectDotDirs = map[string]bool{".vscode": true, ".cursor": true, ".zed": true, ".gemini": true, ".codex": true}

// isTOML reports a Codex-style TOML file, by its extension.
func isTOML(path string) bool { return strings.EqualFold(filepath.Ext(path), ".toml") }

// sortedKeys lists a map's keys in order, for stable output.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
