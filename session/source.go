package session

import (
	"fmt"
	"io"
	"net/url"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/mcpterm/mcpterm/session/auth"

	"github.com/mark3labs/mcp-go/server"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// SourceKind is the route to a server.
type SourceKind string

const (
	InProcess SourceKind = "inprocess" // an mcp-go server in this process (the built-in demo)
	Stdio     SourceKind = "stdio"     // a child process speaking JSON-RPC on stdin/stdout
	HTTP      SourceKind = "http"      // streamable HTTP
	SSE       SourceKind = "sse"       // the legacy HTTP+SSE transport
	Offline   SourceKind = "offline"   // a saved tool list; no server at all
)

// Source says which server to talk to. It is plain data so the command line,
// a config file and the UI can all build one; secrets in Env and Headers are
// never shown by String.
type Source struct {
	Kind SourceKind
	Name string // shown to the user: a config entry's name, "demo", ...

	// InProcess.
	Server *server.MCPServer

	// Stdio. The server's environment is the safe default part of
	// Options.Environ (DefaultEnvNames), or all of it with InheritEnv,
	// with Env over it.
	Command    string
	Args       []string
	Env        map[string]string
	Dir        string
	InheritEnv bool

	// HTTP and SSE. BearerTokenEnv names an environment variable holding a
	// token sent as "Authorization: Bearer ...", so the token itself never
	// sits on a command line.
	URL            string
	Headers        map[string]string
	BearerTokenEnv string

	// Offline: a parsed tool list (Tools) or a file to load (ToolsFile).
	Tools     *toolset.Set
	ToolsFile string
}

// String describes the source for people: command and arguments, URL, the
// names (not values) of extra environment variables and headers.
func (s Source) String() string {
	var b strings.Builder
	switch s.Kind {
	case InProcess:
		b.WriteString("in-process")
		if s.Name != "" {
			b.WriteString(" " + s.Name)
		}
		return b.String()
	case Stdio:
		b.WriteString("stdio: " + s.Command)
		for _, a := range s.Args {
			b.WriteString(" " + shellQuote(a))
		}
		if len(s.Env) > 0 {
			b.WriteString(" (env " + strings.Join(sortedKeys(s.Env), ", ") + ")")
		}
	case HTTP, SSE:
		b.WriteString(string(s.Kind) + ": " + redactURL(s.URL))
		keys := sortedKeys(s.Headers)
		if s.BearerTokenEnv != "" {
			keys = append(keys, "Authorization from $"+s.BearerTokenEnv)
		}
		if len(keys) > 0 {
			b.WriteString(" (headers " + strings.Join(keys, ", ") + ")")
		}
	case Offline:
		b.WriteString("offline")
		if s.ToolsFile != "" {
			b.WriteString(": " + s.ToolsFile)
		}
	default:
		b.WriteString(string(s.Kind))
	}
	if s.Name != "" {
		return s.Name + " (" + b.String() + ")"
	}
	return b.String()
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`;&|<>()*?[]{}!#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// redactURL hides userinfo passwords and query values, the usual places
// for tokens in URLs.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			q.Set(k, "xxxxx")
		}
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// DefaultMaxTimeFactor makes a call's default overall deadline a multiple
// of its idle timeout: long enough for a job that reports progress, short
// enough that one reporting forever is stopped.
const DefaultMaxTimeFactor = 10

// Options tune a session. The zero value is usable.
type Options struct {
	ClientName    string // sent as clientInfo.name; default "mcpterm"
	ClientVersion string // default "dev"
	// ProtocolVersion pins the protocol revision. Empty means the newest:
	// 2026-07-28 through server/discover when the server speaks it, else the
	// initialize handshake at 2025-11-25 (and whatever older revision the
	// server answers with, down to 2024-11-05).
	ProtocolVersion string
	// ConnectTimeout bounds Open and Reconnect; default 30 s.
	ConnectTimeout time.Duration
	// DiscoverTimeout bounds the server/discover probe that tells a
	// 2026-07-28 server from an older one; default 3 s.
	DiscoverTimeout time.Duration
	// CallTimeout is how long a call may go without an answer or a progress
	// notification; default 60 s.
	CallTimeout time.Duration
	// MaxCallTime is a call's overall deadline, which progress
	// notifications do not extend (the command line's --max-time); default
	// DefaultMaxTimeFactor × CallTimeout.
	MaxCallTime time.Duration
	// Trace, when set, receives every JSON-RPC message as a JSON line.
	Trace io.Writer
	// MaxMessageBytes bounds one message from a stdio server; default 64 MiB.
	MaxMessageBytes int
	// Environ is mcpterm's environment, of which a stdio server gets the
	// safe default variables (all with Source.InheritEnv); default
	// os.Environ().
	Environ []string
	// Redactor, when set, is the session's: the tap adds to it the values
	// of secret-named arguments of every tools/call sent (before the trace
	// line is written), and hides its secrets in the tap's previews. Resolve
	// sets the Target's.
	Redactor *safe.Redactor
	// Getenv resolves BearerTokenEnv; default os.Getenv.
	Getenv func(string) string
	// OnCall is told about every finished call, whatever its outcome, so a
	// history can be kept even when the server dies mid-call.
	OnCall func(*CallResult)
	// Roots, when set, declares the roots capability and answers
	// roots/list with its list; its Set sends roots/list_changed.
	Roots *Roots
	// Asker, when set, declares sampling and elicitation (form and URL) and
	// answers them; nil declares neither (see clientside.go).
	Asker Asker
	// AskTimeout bounds how long a server's sampling or elicitation request
	// may wait for its answer; default 10 min (a person may be typing).
	AskTimeout time.Duration
	// OAuth, when set, lets an HTTP or SSE session authorize itself with
	// OAuth 2.1 when the server answers 401 (session/auth); Resolve sets it
	// for --url and HTTP --server selections without their own credentials.
	// The session adds every token to Redactor and publishes the
	// authorization URL as a notice event, besides Config.Notify. Nil: a 401
	// is an error that says how to log in.
	OAuth *auth.Config
	// OAuthNotify, when set, is told the OAuth flow's remarks as they
	// happen (the authorization URL to open, first of all): the face's own
	// place to show them while Connect is still waiting (the command line's
	// stderr, the workbench's flash). They are notice events too.
	OAuthNotify func(msg string)
}

func (o Options) withDefaults() Options {
	if o.ClientName == "" {
		o.ClientName = "mcpterm"
	}
	if o.ClientVersion == "" {
		o.ClientVersion = "dev"
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = 30 * time.Second
	}
	if o.DiscoverTimeout <= 0 {
		o.DiscoverTimeout = 3 * time.Second
	}
	// Leave time for the initialize handshake after a probe that got no
	// answer.
	o.DiscoverTimeout = min(o.DiscoverTimeout, o.ConnectTimeout/2)
	if o.AskTimeout <= 0 {
		o.AskTimeout = 10 * time.Minute
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = 60 * time.Second
	}
	if o.MaxCallTime <= 0 {
		o.MaxCallTime = DefaultMaxTimeFactor * o.CallTimeout
	}
	if o.MaxMessageBytes <= 0 {
		o.MaxMessageBytes = 64 << 20
	}
	if o.Environ == nil {
		o.Environ = os.Environ()
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	return o
}

func (s Source) validate() error {
	switch s.Kind {
	case InProcess:
		if s.Server == nil {
			return fmt.Errorf("in-process source has no server")
		}
	case Stdio:
		if s.Command == "" {
			return fmt.Errorf("stdio source has no command")
		}
	case HTTP, SSE:
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("--url %q: want an http:// or https:// URL", s.URL)
		}
	case Offline:
		if s.Tools == nil && s.ToolsFile == "" {
			return fmt.Errorf("offline source has no tool list")
		}
	default:
		return fmt.Errorf("unknown source kind %q", s.Kind)
	}
	return nil
}

// mergeEnv overlays extra on base (KEY=VALUE lists), later keys winning.
func mergeEnv(base []string, extra map[string]string) []string {
	out := make([]string, 0, len(base)+len(extra))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, over := extra[k]; over {
			continue
		}
		out = append(out, kv)
	}
	for _, k := range sortedKeys(extra) {
		out = append(out, k+"="+extra[k])
	}
	return out
}
