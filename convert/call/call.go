// Package call turns MCP-Term calls into MCP tools/call arguments and back.
//
// A model (or a person on a command line) writes (fr "/etc/hosts" :utf8);
// this package reads it against the tool's JSON Schema into
// {"name": "file_read", "arguments": {"path": "/etc/hosts", "enc": "utf8"}},
// checks the arguments with a real JSON Schema validator, and can write any
// arguments back as the one canonical S-expression. It also reads batches
// (batch (1 CALL) (2 CALL)), accepts the plain JSON forms, and renders
// CallToolResults as (ok ...) / (err CODE "message" ...) data. The syntax and
// its ambiguity rules are specified in docs/mcp-term-calls.md.
//
// The parser is schema-directed: it works from each tool's inputSchema
// directly (local $ref, $defs, definitions, allOf, anyOf/oneOf), so it does
// not depend on how declarations are rendered; only the short codes are
// shared with package term.
package call

import (
	"sync"

	"github.com/mcpterm/mcpterm/convert/nearest"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// Bounds on what one source text may hold.
const (
	MaxSourceBytes = 16 << 20 // a call or batch as text
	MaxBatchCalls  = 1000
	MaxConcurrency = 64
)

// Call is one tools/call request, ready to send.
type Call struct {
	ID        string       // batch id; "" for a single call
	Tool      string       // the tool's real name, whatever the source called it
	Arguments *ojson.Value // a JSON object
	Pos       sexpr.Pos    // where the call starts in the source

	// locate reads the source again, recording where each argument value
	// stands, so a schema validation error can point at the offending
	// argument. Positions cost a map entry per value, so they are only
	// gathered when an error needs them.
	locate func() (*ojson.Value, map[*ojson.Value]sexpr.Pos)
}

// Batch is what one source text asked for: one call, or several with the
// batch options. MCP has no batch request, so the caller runs the calls as
// separate tools/call requests.
type Batch struct {
	Calls       []Call
	IsBatch     bool // written as (batch ...) or a JSON array
	Concurrency int  // calls in flight at once; 0 = one after another
	StopOnError bool // skip the remaining calls after a failure
}

// Resolver reads, checks and writes calls for one tool list. Build it once
// per tool list and reuse it: it caches schema views and compiled validators.
// It is safe for concurrent use.
type Resolver struct {
	set    *toolset.Set
	byName map[string]*toolset.Tool
	byCode map[string]*toolset.Tool
	codeOf map[string]string
	known  []string // names and codes, for "did you mean"
	// unsuggest names tools no "did you mean" may offer (Unsuggest).
	unsuggest func(tool string) bool

	// UseNames makes Format write tool names instead of short codes. Set it
	// before the Resolver is shared.
	UseNames bool

	views    viewCache
	mu       sync.Mutex
	compiled map[string]*compiled
	assist   assist // completion's and signature help's tables (assist.go)
}

// NewResolver builds a Resolver that accepts the short codes package term
// prints in declarations, so a model can call a tool by the code it was shown.
func NewResolver(set *toolset.Set) *Resolver {
	names := make([]string, len(set.Tools))
	for i, t := range set.Tools {
		names[i] = t.Name
	}
	return NewResolverCodes(set, shortCodes(names))
}

// NewResolverCodes is NewResolver with an explicit name -> code table (nil
// for none), for front ends that show their own codes.
func NewResolverCodes(set *toolset.Set, codes map[string]string) *Resolver {
	r := &Resolver{
		set:      set,
		byName:   make(map[string]*toolset.Tool, len(set.Tools)),
		byCode:   map[string]*toolset.Tool{},
		codeOf:   map[string]string{},
		compiled: map[string]*compiled{},
	}
	for _, t := range set.Tools {
		r.byName[t.Name] = t
		r.known = append(r.known, t.Name)
	}
	for _, t := range set.Tools {
		code := codes[t.Name]
		if code == "" || code == t.Name {
			continue
		}
		if _, clash := r.byName[code]; clash {
			continue // a real name always wins
		}
		if _, dup := r.byCode[code]; dup {
			continue
		}
		r.byCode[code] = t
		r.codeOf[t.Name] = code
		r.known = append(r.known, code)
	}
	return r
}

// Unsuggest keeps the tools f reports out of every "did you mean" of an
// unknown tool: a policy's denied tools, so that a refusal never points at
// a tool the policy also refuses (a server listing both delete_file and
// Delete_File). The tools still read, and are refused by the policy with
// its reason. f is asked when an error is built; set it before the
// Resolver is shared.
func (r *Resolver) Unsuggest(f func(tool string) bool) { r.unsuggest = f }

// Suggestable reports whether a "did you mean" may offer tool.
func (r *Resolver) Suggestable(tool string) bool { return r.unsuggest == nil || !r.unsuggest(tool) }

// candidates are the names and codes an unknown tool's "did you mean"
// chooses from.
func (r *Resolver) candidates() []string {
	if r.unsuggest == nil {
		return r.known
	}
	return nearest.Without(r.known, func(s string) bool {
		t := r.Lookup(s)
		return t != nil && r.unsuggest(t.Name)
	})
}

// Set is the tool list the Resolver was built for.
func (r *Resolver) Set() *toolset.Set { return r.set }

// Lookup finds a tool by real name or short code.
func (r *Resolver) Lookup(nameOrCode string) *toolset.Tool {
	if t := r.byName[nameOrCode]; t != nil {
		return t
	}
	return r.byCode[nameOrCode]
}

// Code is the short code of a tool, or its name when it has none.
func (r *Resolver) Code(name string) string {
	if c := r.codeOf[name]; c != "" {
		return c
	}
	return name
}

func (r *Resolver) newParser(t *toolset.Tool, steps *int, where bool) *parser {
	p := &parser{cache: &r.views, root: t.InputSchema, steps: steps}
	if where {
		p.where = map[*ojson.Value]sexpr.Pos{}
	}
	return p
}

func (r *Resolver) unknownTool(n *sexpr.Node, name string) error {
	return errNode(ErrUnknownTool, n, "", "unknown tool %s%s", name, didYouMean(name, r.candidates(), plain))
}

// Parse reads src — an S-expression call, a (batch ...), a JSON
// {"name", "arguments"} object or an array of them — and validates every
// call against its tool's inputSchema.
func (r *Resolver) Parse(src string) (*Batch, error) {
	b, err := r.Read(src)
	if err != nil {
		return nil, err
	}
	for _, c := range b.Calls {
		if err := r.Validate(c); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// Format writes a call as its canonical S-expression. The result always
// reads back to the same arguments; arguments that cannot be written that
// way give an error.
func (r *Resolver) Format(c Call) (string, error) {
	n, err := r.FormatNode(c)
	if err != nil {
		return "", err
	}
	return n.String(), nil
}

// Package-level conveniences build a fresh Resolver each time; front ends
// that parse repeatedly should keep a Resolver instead.

// Parse is NewResolver(set).Parse(src).
func Parse(set *toolset.Set, src string) (*Batch, error) { return NewResolver(set).Parse(src) }

// Format is NewResolver(set).Format(c).
func Format(set *toolset.Set, c Call) (string, error) { return NewResolver(set).Format(c) }

// Validate is NewResolver(set).Validate(c).
func Validate(set *toolset.Set, c Call) error { return NewResolver(set).Validate(c) }

// Template is NewResolver(set).Template(tool).
func Template(set *toolset.Set, tool string) string { return NewResolver(set).Template(tool) }

// Request is the JSON-RPC tools/call request for c with the given id, the
// line `mcpterm call --dry-run --print json` writes.
func Request(id int64, c Call) *ojson.Value {
	args := c.Arguments
	if args == nil {
		args = ojson.NewObject()
	}
	params := ojson.NewObject().Set("name", ojson.NewString(c.Tool)).Set("arguments", args)
	return ojson.NewObject().
		Set("jsonrpc", ojson.NewString("2.0")).
		Set("id", ojson.NewInt(id)).
		Set("method", ojson.NewString("tools/call")).
		Set("params", params)
}
