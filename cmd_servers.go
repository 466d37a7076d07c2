package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/config"
)

// serversOptions are servers' flags.
type serversOptions struct {
	configs listFlag
	names   bool
	of      outputFlags
}

// serversFlags builds servers' flag set.
func (c *cli) serversFlags() (*flag.FlagSet, *serversOptions) {
	fs := newFlagSet("servers",
		"usage: mcpterm servers [--config FILE]... [--output text|json] [--names]",
		"",
		"Lists every server configured in the MCP clients' config files that --server NAME reads:",
		"Claude Code (.mcp.json, ~/.claude.json), Claude Desktop, Cursor, VS Code, Zed, Codex,",
		"Gemini CLI and Windsurf, project files (this directory and its parents) before user files.",
		"Each line: name, transport, command or URL (secrets masked; env and header values never",
		"shown, only their names), and the file. A name defined again further away is marked",
		"shadowed: --server picks the nearer one. A project file (this directory or a parent)",
		"is marked with its trust: --server takes a project entry only from a file trusted as it",
		"is now (or with --trust-project); until then the user's own entry of the same name is",
		"used (marked used). It connects to nothing; of the server selection it takes --config only.")
	var o serversOptions
	fs.Var(&o.configs, "config", "read this config `FILE` instead of the usual places (repeatable)")
	fs.BoolVar(&o.names, "names", false, "print only the names --server takes, one a line (for shell completion)")
	o.of.register(fs, "text", "json")
	return fs, &o
}

// runServers lists the configured servers (config.Open, the files --server
// NAME reads, and config.List, their masked descriptions).
func (c *cli) runServers(args []string) int {
	fs, o := c.serversFlags()
	pos, cmdline, code, ok := c.parseFlags(fs, args)
	if !ok {
		return code
	}
	c.jsonErrors(o.of.output == "json")
	if err := o.of.check(); err != nil {
		fmt.Fprintln(c.stderr, "mcpterm servers:", err)
		return exitUsage
	}
	if len(pos) > 0 || len(cmdline) > 0 {
		fmt.Fprintln(c.stderr, "mcpterm servers: takes no arguments and no server selection but --config (it lists the configured servers)")
		return exitUsage
	}
	env := config.Env{Cwd: c.cwd, Home: c.home, Getenv: c.getenv}
	if env.Cwd == "" {
		env.Cwd, _ = os.Getwd()
	}
	if env.Home == "" {
		env.Home, _ = os.UserHomeDir()
	}
	set, err := config.Open(env, o.configs)
	if err != nil {
		fmt.Fprintf(c.stderr, "mcpterm servers: %s\n", safe.Line(err.Error()))
		return exitUsage
	}
	list, err := set.ListTrust(session.TrustStore(session.Env{Getenv: c.getenv, Cwd: env.Cwd, Home: env.Home}))
	if err != nil {
		fmt.Fprintf(c.stderr, "mcpterm servers: warning: %s\n", safe.Line(err.Error()))
	}
	for _, p := range set.Problems() {
		fmt.Fprintf(c.stderr, "mcpterm servers: warning: %s\n", safe.Line(p.Error()))
	}
	switch {
	case o.names:
		for _, n := range set.Names() {
			fmt.Fprintln(c.stdout, safe.Name(n))
		}
	case o.of.output == "json":
		c.emitJSON(nil, o.of.maxOutput, serversJSON(set, list))
	default:
		c.emit(nil, o.of.maxOutput, serversText(set, list))
	}
	return exitOK
}

// serverJSON is one server in `servers --output json`; every key is always
// there.
type serverJSON struct {
	Name      string   `json:"name"`
	Transport string   `json:"transport"`
	Command   string   `json:"command"`
	URL       string   `json:"url"`
	Env       []string `json:"env"`
	Headers   []string `json:"headers"`
	File      string   `json:"file"`
	Client    string   `json:"client"`
	Scope     string   `json:"scope"`
	Disabled  bool     `json:"disabled"`
	Shadowed  bool     `json:"shadowed"`
	// Trust is "user" (no trust needed), or for a project file
	// "untrusted", "changed", "declined" or "trusted".
	Trust string `json:"trust"`
	// Fallback: shadowed, but used, since the nearer entries are
	// untrusted project entries.
	Fallback bool   `json:"fallback"`
	Problem  string `json:"problem"`
}

func serversJSON(set *config.Set, list []config.Listing) string {
	out := struct {
		Servers  []serverJSON `json:"servers"`
		Files    []string     `json:"files"`
		Searched []string     `json:"searched"`
		Problems []string     `json:"problems"`
	}{Servers: []serverJSON{}, Files: []string{}, Searched: orEmpty(set.Searched()), Problems: []string{}}
	for _, l := range list {
		out.Servers = append(out.Servers, serverJSON{
			Name: l.Name, Transport: string(l.Transport), Command: l.Command, URL: l.URL,
			Env: orEmpty(l.Env), Headers: orEmpty(l.Headers), File: l.Source.Path, Client: string(l.Source.Format),
			Scope: l.Source.Scope, Disabled: l.Disabled, Shadowed: l.Shadowed, Trust: l.Trust.String(), Fallback: l.Fallback,
			Problem: l.Problem,
		})
	}
	for _, f := range set.Files() {
		out.Files = append(out.Files, f.Path)
	}
	for _, p := range set.Problems() {
		out.Problems = append(out.Problems, p.Error())
	}
	b, _ := json.MarshalIndent(out, "", "  ")
	return string(b)
}

// serversText is the table: name, transport, command or URL, file; then a
// line per problem under its server, and a summary.
func serversText(set *config.Set, list []config.Listing) string {
	if len(list) == 0 {
		searched := set.Searched()
		if len(searched) == 0 {
			return "(no servers configured in the files given)"
		}
		return fmt.Sprintf("(no servers configured; looked in %s)", strings.Join(searched, ", "))
	}
	nameW, transW := len("NAME"), len("TRANSPORT")
	for _, l := range list {
		nameW = max(nameW, len(safe.Name(l.Name)))
		transW = max(transW, len(l.Transport))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-*s  %-*s  %s  %s\n", nameW, "NAME", transW, "TRANSPORT", "COMMAND OR URL", "(FILE)")
	shadowed, untrusted := 0, 0
	for _, l := range list {
		target := l.Command + l.URL
		if target == "" {
			target = "-"
		}
		if len(l.Env) > 0 {
			target += " [env " + strings.Join(l.Env, ", ") + "]"
		}
		if len(l.Headers) > 0 {
			target += " [headers " + strings.Join(l.Headers, ", ") + "]"
		}
		var marks []string
		if l.Disabled {
			marks = append(marks, "disabled")
		}
		if m := trustMark(l.Trust); m != "" {
			marks = append(marks, m)
		}
		if !l.Trust.Usable() {
			untrusted++
		}
		switch {
		case l.Fallback:
			marks = append(marks, "used: the project's is not trusted")
		case l.Shadowed:
			marks = append(marks, "shadowed")
			shadowed++
		}
		mark := ""
		if len(marks) > 0 {
			mark = " [" + strings.Join(marks, ", ") + "]"
		}
		transport := string(l.Transport)
		if transport == "" {
			transport = "?"
		}
		fmt.Fprintf(&b, "%-*s  %-*s  %s  (%s)%s\n", nameW, safe.Name(l.Name), transW, transport, target, l.Source.String(), mark)
		if l.Problem != "" {
			fmt.Fprintf(&b, "%-*s  ! %s\n", nameW, "", safe.Line(l.Problem))
		}
	}
	fmt.Fprintf(&b, "(%d servers in %d files", len(list), len(set.Files()))
	if shadowed > 0 {
		fmt.Fprintf(&b, "; %d shadowed by a nearer file", shadowed)
	}
	if untrusted > 0 {
		fmt.Fprintf(&b, "; %d from project files not trusted: --trust-project uses them", untrusted)
	}
	b.WriteString(")")
	return b.String()
}

// trustMark is a project entry's mark in the table: its file's trust.
func trustMark(t config.TrustState) string {
	switch t {
	case config.Untrusted:
		return "project: not trusted"
	case config.Changed:
		return "project: changed since you answered"
	case config.Declined:
		return "project: declined"
	case config.Trusted:
		return "project: trusted"
	}
	return ""
}
