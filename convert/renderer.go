package convert

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/term"
	"github.com/mcpterm/mcpterm/convert/termtool"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// Renderer renders one tool list in every form: the whole document of a
// form and the per-tool texts behind a tool's figure in it. It exists so
// that `mcpterm tokens`, the workbench's counts and its side-by-side pane
// render a tool by one rule: whatever asks the same Renderer gets the same
// text, and the token report counts exactly these texts.
//
// What the forms share across a server is worked out once, on first use:
// the server-wide short codes, the AQL adapters (single and semantic) and
// their introspect exchanges. Rendering every tool of an n-tool server is
// therefore linear in n. A Renderer never changes after NewRenderer (its
// lazy parts are built under sync.Once), so it is safe for concurrent use;
// the set it was built for must not be modified while it is in use.
//
// A renderer that panics is contained: the panic becomes the error of that
// form's text, never a crash, because tool lists come from servers and no
// renderer is trusted to survive every one of them.
type Renderer struct {
	set   *toolset.Set
	ov    aql.Overrides
	forms []Form
	index map[string]int // report name, then CLI name -> forms index

	toolsOnce sync.Once
	tools     map[string]*toolset.Tool // first tool of each name

	codesOnce sync.Once
	codes     map[string]string

	modes [2]lazyAQL // by aql.Mode: Single, Semantic

	describerOnce sync.Once
	describer     *termtool.Describer // term_lazy's describe answers

	// last is the last tool's term text: a tool's describe answer is that
	// same text (the one tool's declarations, model-facing, with its
	// server-wide code), and a report asks for the term cell just before
	// the term_lazy one, so one slot spares the second render without
	// holding a copy of every tool's text.
	lastMu   sync.Mutex
	lastTool *toolset.Tool
	lastTerm string
}

// lazyAQL is one mode's adapter and introspect exchanges, built once.
type lazyAQL struct {
	once      sync.Once
	adapter   *aql.Adapter
	exchanges []aql.IntrospectCost
	byTool    map[string]int // tool name -> index of its operation's exchange
	err       error
}

// TextRole says what one per-tool text is.
type TextRole string

const (
	// RoleDocument is the form rendered for a set holding only the tool
	// (with its server-wide short code): every form but the AQL ones.
	RoleDocument TextRole = "document"
	// RoleRequest is the request a model sends for the tool's details: for
	// an AQL form the introspect request for the tool's operation,
	// {"operation":"introspect","params":{"query":"operations","name":OP}};
	// for term_lazy the describe call's arguments, {"expr":"(describe CODE)"}.
	RoleRequest TextRole = "request"
	// RoleAnswer is the answer a model reads back for that request.
	RoleAnswer TextRole = "answer"
)

// ToolText is one of the texts a tool's figure in a form counts; the
// figure is the sum of their counts.
type ToolText struct {
	Role TextRole
	Text string
}

// ErrNoOperation is returned (wrapped, with the tool's name) for an AQL
// form's texts of a tool the adapter has no operation for.
var ErrNoOperation = errors.New("no AQL operation for this tool")

// NewRenderer returns the Renderer of set under the AQL overrides ov (nil
// for none), over convert.FormsFor(ov).
func NewRenderer(set *toolset.Set, ov aql.Overrides) *Renderer {
	return NewRendererWith(set, ov, nil)
}

// NewRendererWith is NewRenderer over the given forms (nil means
// FormsFor(ov)), for reports over a chosen or injected set of forms. The
// AQL forms' whole documents come from their Render (pass FormsFor(ov) so
// they follow ov too); their per-tool texts always use ov.
func NewRendererWith(set *toolset.Set, ov aql.Overrides, forms []Form) *Renderer {
	if forms == nil {
		forms = FormsFor(ov)
	}
	if set == nil {
		set = &toolset.Set{}
	}
	r := &Renderer{set: set, ov: ov, forms: slices.Clone(forms), index: make(map[string]int, 2*len(forms))}
	for i, f := range r.forms {
		if _, dup := r.index[f.Name]; !dup {
			r.index[f.Name] = i
		}
	}
	for i, f := range r.forms {
		if _, dup := r.index[f.CLIName]; !dup && f.CLIName != "" {
			r.index[f.CLIName] = i
		}
	}
	return r
}

// Set is the tool list the Renderer renders.
func (r *Renderer) Set() *toolset.Set { return r.set }

// Overrides are the AQL overrides the Renderer was built with.
func (r *Renderer) Overrides() aql.Overrides { return r.ov }

// Forms lists the Renderer's forms in report order (a copy).
func (r *Renderer) Forms() []Form { return slices.Clone(r.forms) }

// Form finds one of the Renderer's forms by report name or CLI name.
func (r *Renderer) Form(name string) (Form, bool) {
	i, ok := r.index[name]
	if !ok {
		return Form{}, false
	}
	return r.forms[i], true
}

// Document is the whole document of a form for the set, exactly what
// `mcpterm convert --to FORM` prints: the form's own Render.
func (r *Renderer) Document(form string) (string, error) {
	f, ok := r.Form(form)
	if !ok {
		return "", fmt.Errorf("unknown form %q", form)
	}
	return contain(func() (string, error) { return f.Render(r.set) }, f)
}

// ToolTexts are the texts behind tool's figure in form, in order: for
// every form but the Deferred ones a single RoleDocument text, the form
// rendered for a set holding only the tool with its server-wide short
// code; for aql_single and aql_semantic the tool's operation introspect
// exchange, its RoleRequest then its RoleAnswer text (the upfront AQL
// document is paid once per server, the details per operation); for
// term_lazy likewise the tool's describe exchange. A tool with no AQL
// operation gets an error wrapping ErrNoOperation.
//
// In a hand-built set that repeats a name, the first tool of the name
// answers for it (toolset.Parse rejects such lists).
func (r *Renderer) ToolTexts(form, tool string) ([]ToolText, error) {
	f, ok := r.Form(form)
	if !ok {
		return nil, fmt.Errorf("unknown form %q", form)
	}
	t := r.tool(tool)
	if t == nil {
		return nil, fmt.Errorf("no tool named %q in the list", tool)
	}
	return r.toolTexts(f, t)
}

// ShortCode is tool's server-wide MCP-Term short code (term.ShortCodes
// over every name in the set).
func (r *Renderer) ShortCode(tool string) (string, bool) {
	code, ok := r.shortCodes()[tool]
	return code, ok
}

// Adapter is the set's AQL adapter in mode, under the Renderer's
// overrides, built once. It is shared: read it, never modify it.
func (r *Renderer) Adapter(mode aql.Mode) (*aql.Adapter, error) {
	m, err := r.aql(mode)
	if err != nil {
		return nil, err
	}
	return m.adapter, nil
}

// Introspect lists every introspect exchange of the set in mode (the
// operations list, the types list, then each operation's details in tool
// order; see aql.Adapter.IntrospectCosts), for the AQL true cost.
func (r *Renderer) Introspect(mode aql.Mode) ([]aql.IntrospectCost, error) {
	m, err := r.aql(mode)
	if err != nil {
		return nil, err
	}
	return slices.Clone(m.exchanges), nil
}

// LazyForm is the term-lazy gateway's form: its upfront document lists
// the tools one line each, and a tool's texts are its describe exchange.
const LazyForm = "term_lazy"

// Deferred says whether form's upfront document leaves each tool's details
// for a later call (AQL's introspect, term-lazy's describe), so that a
// tool's texts are that exchange rather than a one-tool document, and the
// form's true cost is more than its document.
func Deferred(form string) bool {
	_, isAQL := AQLMode(form)
	return isAQL || form == LazyForm
}

// AQLMode says whether form is one of the MCP-AQL forms, whose per-tool
// texts are introspect exchanges, and which adapter mode it renders.
func AQLMode(form string) (aql.Mode, bool) {
	switch form {
	case "aql_single":
		return aql.Single, true
	case "aql_semantic":
		return aql.Semantic, true
	}
	return 0, false
}

// toolTexts renders f for t, by the rules ToolTexts states.
func (r *Renderer) toolTexts(f Form, t *toolset.Tool) ([]ToolText, error) {
	if f.Render == nil {
		return nil, errNoRenderer
	}
	if mode, isAQL := AQLMode(f.Name); isAQL {
		m, err := r.aql(mode)
		if err != nil {
			return nil, err
		}
		i, ok := m.byTool[t.Name]
		if !ok {
			return nil, fmt.Errorf("%w: %q", ErrNoOperation, t.Name)
		}
		x := m.exchanges[i]
		return []ToolText{{Role: RoleRequest, Text: x.Request}, {Role: RoleAnswer, Text: x.Answer}}, nil
	}
	if f.Name == LazyForm {
		return r.describe(f, t)
	}
	text, err := contain(func() (string, error) { return r.renderOne(f, t) }, f)
	if err != nil {
		return nil, err
	}
	if f.Name == describedForm {
		r.lastMu.Lock()
		r.lastTool, r.lastTerm = t, text
		r.lastMu.Unlock()
	}
	return []ToolText{{Role: RoleDocument, Text: text}}, nil
}

// describedForm is the form whose one-tool text is a describe answer:
// renderOne gives it term.Options{ModelFacing: true} and the tool's
// server-wide code, as Describer.Answer renders a request for one tool.
const describedForm = "term"

// describedText is t's term text if it was the last one rendered and code
// is the code it was rendered with, else "".
func (r *Renderer) describedText(t *toolset.Tool, code string) string {
	if c, ok := r.shortCodes()[t.Name]; !ok || c != code {
		return ""
	}
	r.lastMu.Lock()
	defer r.lastMu.Unlock()
	if r.lastTool != t {
		return ""
	}
	return r.lastTerm
}

// describe is t's describe exchange in the term-lazy mode: the arguments
// of (describe CODE) with t's server-wide code, and the gateway's answer,
// from the Describer the gateway itself answers with.
func (r *Renderer) describe(f Form, t *toolset.Tool) ([]ToolText, error) {
	r.describerOnce.Do(func() { r.describer = termtool.NewDescriber(r.set, r.shortCodes()) })
	code := r.describer.Code(t.Name)
	if code == "" {
		code = t.Name // a describe request takes the name as well
	}
	answer := r.describedText(t, code) // rendered already, for the term cell
	if answer == "" {
		var err error
		answer, err = contain(func() (string, error) {
			return r.describer.Answer(termtool.Request{Tools: []string{code}})
		}, f)
		if err != nil {
			return nil, err
		}
	}
	return []ToolText{{Role: RoleRequest, Text: termtool.DescribeArguments(code)}, {Role: RoleAnswer, Text: answer}}, nil
}

// renderOne is a non-AQL form rendered for a set holding only t. The term
// forms get t's server-wide short code, which a one-tool set would not
// give it; the map handed to term.Render holds only that one code, since
// term.Render walks the whole map and a server-wide one would make
// rendering every tool quadratic.
func (r *Renderer) renderOne(f Form, t *toolset.Tool) (string, error) {
	one := Single(r.set, t)
	opts, isTerm := TermOptions(f.Name)
	if !isTerm {
		return f.Render(one)
	}
	if code, ok := r.shortCodes()[t.Name]; ok {
		opts.Codes = map[string]string{t.Name: code}
	}
	return renderTerm(opts)(one)
}

var errNoRenderer = errors.New("form has no renderer")

// contain runs a form's renderer, turning a panic into an error so one
// broken renderer costs only its own texts.
func contain(render func() (string, error), f Form) (text string, err error) {
	if f.Render == nil {
		return "", errNoRenderer
	}
	defer func() {
		if p := recover(); p != nil {
			text, err = "", fmt.Errorf("renderer panicked: %v", p)
		}
	}()
	return render()
}

func (r *Renderer) tool(name string) *toolset.Tool {
	r.toolsOnce.Do(func() {
		r.tools = make(map[string]*toolset.Tool, len(r.set.Tools))
		for _, t := range r.set.Tools {
			if _, dup := r.tools[t.Name]; !dup {
				r.tools[t.Name] = t
			}
		}
	})
	return r.tools[name]
}

func (r *Renderer) shortCodes() map[string]string {
	r.codesOnce.Do(func() {
		names := make([]string, len(r.set.Tools))
		for i, t := range r.set.Tools {
			names[i] = t.Name
		}
		r.codes = term.ShortCodes(names)
	})
	return r.codes
}

// aql builds mode's adapter and exchanges once; a panic while building
// them is that mode's error.
func (r *Renderer) aql(mode aql.Mode) (*lazyAQL, error) {
	if mode != aql.Single && mode != aql.Semantic {
		return nil, fmt.Errorf("unknown AQL mode %d", mode)
	}
	m := &r.modes[mode]
	m.once.Do(func() {
		defer func() {
			if p := recover(); p != nil {
				m.adapter, m.exchanges, m.byTool = nil, nil, nil
				m.err = fmt.Errorf("introspect answers panicked: %v", p)
			}
		}()
		a, err := aql.New(r.set, r.ov, mode)
		if err != nil {
			m.err = err
			return
		}
		m.adapter = a
		m.exchanges = a.IntrospectCosts()
		m.byTool = make(map[string]int, len(r.set.Tools))
		for i, x := range m.exchanges {
			if _, dup := m.byTool[x.Tool]; x.Operation != "" && !dup {
				m.byTool[x.Tool] = i
			}
		}
	})
	return m, m.err
}
