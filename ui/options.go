package ui

import (
	"os"
	"strings"
	"time"

	"github.com/mcpterm/mcpterm/convert/safe"

	"github.com/mcpterm/mcpterm/convert"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/themes"
)

// Options are the workbench's dependencies. Everything with I/O comes in
// through here so tests can swap it; nil fields get working fallbacks.
type Options struct {
	Connect    Connector
	Counter    Counter    // nil: no token counts, the panes say so
	Codec      Codec      // nil: JSON calls only
	Renderer   Renderer   // nil: convert.Forms()
	Classifier Classifier // nil: no CRUDE column
	Store      Store      // nil: draft and history kept in memory only
	// Sanitize makes untrusted text safe to print; nil uses a local strip
	// of every escape sequence and control character.
	Sanitize func(string) string

	Theme      themes.Choice
	Encoding   string // initial encoding, default the counter's first
	ReadFile   func(path string) ([]byte, error)
	WriteFile  func(path string, data []byte) error
	Now        func() time.Time
	WorkingDir string // where relative save/open paths resolve

	// DisableMouse keeps the terminal's own selection working.
	DisableMouse bool
}

func (o Options) withDefaults() Options {
	if o.Renderer == nil {
		o.Renderer = FormsRenderer{}
	}
	if o.Codec == nil {
		o.Codec = JSONCodec{}
	}
	if o.Store == nil {
		o.Store = &MemoryStore{}
	}
	if o.Sanitize == nil {
		o.Sanitize = safe.Text
	}
	o.Sanitize = expandTabs(o.Sanitize)
	if o.ReadFile == nil {
		o.ReadFile = os.ReadFile
	}
	if o.WriteFile == nil {
		// The command injects session/history's crash-safe writer; this
		// plain default serves tests and embedders.
		o.WriteFile = func(path string, data []byte) error { return os.WriteFile(path, data, 0o644) }
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Theme.Name == "" {
		o.Theme.Name = "auto"
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

// preferredForms is the cycling order of the right-hand side, by form name in
// convert.Forms(); missing ones are skipped, so forms appear as they land.
var preferredForms = []string{"term", "term_lean", "dts", "aql_introspect"}

// FormsRenderer renders through the convert form registry.
type FormsRenderer struct{}

// Forms lists the registered right-hand forms; json_full stands in while no
// compact form is registered, so the pane still shows something real.
func (FormsRenderer) Forms() []string {
	var out []string
	for _, name := range preferredForms {
		if _, ok := convert.FormByName(name); ok {
			out = append(out, name)
		}
	}
	if len(out) == 0 {
		out = []string{"json_full"}
	}
	return out
}

// Totals is every registered form but the two baseline variants, which
// only restate the baseline.
func (FormsRenderer) Totals() []string {
	var out []string
	for _, f := range convert.Forms() {
		if f.Name != "json_pretty" && f.Name != "json_full" {
			out = append(out, f.Name)
		}
	}
	return out
}

// Render renders the whole set.
func (FormsRenderer) Render(form string, set *toolset.Set) (string, error) {
	f, ok := convert.FormByName(form)
	if !ok {
		return "", errUnknownForm(form)
	}
	return f.Render(set)
}

// RenderTool renders one tool as it stands in its server's document (term
// forms keep the server-wide short code).
func (r FormsRenderer) RenderTool(form string, set *toolset.Set, tool *toolset.Tool) (string, error) {
	f, ok := convert.FormByName(form)
	if !ok {
		return "", errUnknownForm(form)
	}
	return convert.ToolRenderer(set)(f, tool)
}

type errUnknownForm string

func (e errUnknownForm) Error() string { return "form " + string(e) + " is not available" }

// formLabel is the short human name of a form for titles and the header.
func formLabel(form string) string {
	switch form {
	case "json":
		return "JSON"
	case "json_pretty":
		return "JSON pretty"
	case "json_full":
		return "MCP full"
	case "term":
		return "MCP-Term"
	case "term_lean":
		return "term-lean"
	case "term_full":
		return "MCP-Term full"
	case "dts":
		return "TypeScript"
	case "aql_introspect":
		return "AQL introspect"
	case "aql_single":
		return "AQL single"
	case "aql_semantic":
		return "AQL semantic"
	}
	return form
}

// MemoryStore keeps the draft and history for one run only.
type MemoryStore struct {
	draft   string
	history []string
}

func (s *MemoryStore) LoadDraft() (string, error)  { return s.draft, nil }
func (s *MemoryStore) SaveDraft(text string) error { s.draft = text; return nil }
func (s *MemoryStore) AddHistory(src string) error { s.history = append(s.history, src); return nil }
func (s *MemoryStore) History(limit int) ([]string, error) {
	h := s.history
	if limit > 0 && len(h) > limit {
		h = h[len(h)-limit:]
	}
	return append([]string(nil), h...), nil
}
