package ui

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/history"
	"github.com/mcpterm/mcpterm/session/policy"
	"github.com/mcpterm/mcpterm/themes"
	"github.com/mcpterm/mcpterm/tokens"
)

// Session is the one seam between the workbench and the world: a live (or
// offline) session with one MCP server, in session's own types.
// *session.Session is the implementation; tests run the in-process demo
// server through it. Every method may block on the network, so the model
// calls them only from tea.Cmds.
type Session interface {
	Info() session.Info
	IsOffline() bool
	Tools(ctx context.Context) (*toolset.Set, error)
	// Call runs one tools/call; the runner calls it for every item of a run.
	Call(ctx context.Context, req session.CallRequest) *session.CallResult
	Resources(ctx context.Context) ([]mcp.Resource, error)
	ResourceTemplates(ctx context.Context) ([]mcp.ResourceTemplate, error)
	Prompts(ctx context.Context) ([]mcp.Prompt, error)
	ReadResource(ctx context.Context, uri string) (*session.ResourceContents, error)
	GetPrompt(ctx context.Context, name string, args map[string]string) (*session.PromptMessages, error)
	// Feed streams the session's events and protocol messages (what it
	// retained first) until ctx ends.
	Feed(ctx context.Context) <-chan session.FeedItem
	Close() error
}

var _ Session = (*session.Session)(nil)

// Options are the workbench's dependencies and settings. Everything that
// does I/O comes in through Connect, History, Drafts and the file
// functions, so a test can point them at the demo server and a temporary
// directory; the rest of mcpterm (convert, tokens, session's runner) is
// used as it is.
type Options struct {
	// Connect opens the session; it runs in a Cmd, and again at every
	// reconnect.
	Connect func(ctx context.Context) (Session, error)
	// Target says what Connect connects to, while it does (no secrets).
	Target string
	// Trust, when set, is asked before anything connects (ui/trust.go):
	// the selection resolved to an untrusted project config's server.
	Trust *TrustPrompt
	// Notices are shown once at start: what the command line would print
	// on stderr before connecting (a project entry set aside …).
	Notices []string

	Overrides aql.Overrides  // --aql-map: AQL categories and operation names
	Policy    *policy.Policy // nil: the default rules (destructive calls ask first)
	// History is the call log `mcpterm call` writes too: every call run
	// here is recorded in it, and the composer's ↑ reads this server's
	// calls back from it. nil keeps no history.
	History *history.Log
	// Drafts keeps the composer's text across runs under DraftKey (one
	// draft per server); nil keeps it for this run only.
	Drafts   *history.Drafts
	DraftKey string
	// Server names the server in history entries; "" uses the name the
	// server gives.
	Server string

	// Counters load the tokenizers; nil makes a fresh set.
	Counters *tokens.Counters
	Encoding string // the encoding shown first, default tokens.DefaultEncoding

	// Settled, when set, runs once (in a Cmd) after the first token report
	// is shown: the start-up is over, and the caller may give back the
	// memory its garbage took (cmd_tui.go returns it to the OS).
	Settled func()

	// Sanitize makes untrusted text safe to print; nil uses convert/safe.
	// Whatever it is, tabs are expanded after it.
	Sanitize func(string) string

	Theme      themes.Choice
	ReadFile   func(path string) ([]byte, error)
	WriteFile  func(path string, data []byte) error
	Now        func() time.Time
	WorkingDir string // where relative save/open paths resolve
	// Roots, when set, are the roots the session offers: the Server tab
	// lists and changes them (roots.go).
	Roots *session.Roots
	// Ask, when set, is the session's Asker: the server's sampling and
	// elicitation requests open a dialog here (ask.go).
	Ask *AskBridge
	// Notice, when set, carries remarks made while Connect is still
	// running (the OAuth flow's authorization URL) into the flash
	// (notice.go).
	Notice *NoticeBridge
	// OpenURL opens a URL-mode elicitation's link when the person asks;
	// nil is session.OpenURL with this process's $BROWSER.
	OpenURL func(ctx context.Context, url string) error
	// DisableMouse keeps the terminal's own selection working.
	DisableMouse bool
}

func (o Options) withDefaults() Options {
	if o.Counters == nil {
		o.Counters = tokens.NewCounters()
	}
	if o.Encoding == "" {
		o.Encoding = tokens.DefaultEncoding
	}
	if o.Sanitize == nil {
		o.Sanitize = safe.Text
	}
	o.Sanitize = expandTabs(o.Sanitize)
	if o.ReadFile == nil {
		o.ReadFile = os.ReadFile
	}
	if o.WriteFile == nil {
		o.WriteFile = func(path string, data []byte) error { return history.WriteFileAtomic(path, data, 0o644) }
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Theme.Name == "" {
		o.Theme.Name = "auto"
	}
	if o.DraftKey == "" {
		o.DraftKey = "default"
	}
	return o
}

// expandTabs wraps a sanitiser so no tab reaches the screen: a tab moves the
// terminal's cursor to the next tab stop, which no width computation can
// predict, and would tear the pane frames.
func expandTabs(f func(string) string) func(string) string {
	return func(s string) string {
		s = f(s)
		if !strings.Contains(s, "\t") {
			return s
		}
		var b strings.Builder
		col := 0
		for _, r := range s {
			switch r {
			case '\t':
				n := 4 - col%4
				b.WriteString(strings.Repeat(" ", n))
				col += n
			case '\n':
				b.WriteRune(r)
				col = 0
			default:
				b.WriteRune(r)
				col++
			}
		}
		return b.String()
	}
}
