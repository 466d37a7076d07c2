package calls

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// Options choose how a Codec reads and prints AQL, and which short codes
// its MCP-Term calls use.
type Options struct {
	// Overrides correct AQL categories and operation names (--aql-map).
	Overrides aql.Overrides
	// Mode is the AQL mode requests arrive in: aql.Single (every operation
	// through mcp_aql) or aql.Semantic (mcp_aql_create|read|...).
	Mode aql.Mode
	// Endpoint, in semantic mode, is the endpoint every request arrives
	// through ("mcp_aql_read", or just "read"), so an operation of another
	// category is refused as the server would refuse it. "" routes each
	// operation to its own endpoint.
	Endpoint string
	// Codes maps tool names to the short codes MCP-Term calls may use and
	// are printed with (the gateway's model-facing codes); nil means the
	// codes `mcpterm convert --to term` prints.
	Codes map[string]string
	// Unsuggest names the tools no "did you mean" may offer, in MCP-Term
	// and AQL alike (the policy's denied tools, policy.Denies); they still
	// read, so that the policy refuses them with its reason.
	Unsuggest func(tool string) bool
}

// Codec reads and prints the calls of one tool list. Build it once per list
// and share it: the resolver caches schema views and validators, and the AQL
// adapter is built once, the first time AQL is needed. It is safe for
// concurrent use.
type Codec struct {
	set *toolset.Set
	o   Options
	r   *call.Resolver

	once    sync.Once
	adapter *aql.Adapter
	aqlErr  error
}

// New is the codec for set.
func New(set *toolset.Set, o Options) *Codec {
	if o.Endpoint != "" {
		if cat, ok := aql.ParseCategory(strings.TrimPrefix(o.Endpoint, "mcp_aql_")); ok {
			o.Endpoint = cat.Tool()
		}
	}
	c := &Codec{set: set, o: o}
	if o.Codes != nil {
		c.r = call.NewResolverCodes(set, o.Codes)
	} else {
		c.r = call.NewResolver(set)
	}
	if o.Unsuggest != nil {
		c.r.Unsuggest(o.Unsuggest)
	}
	return c
}

// Set is the tool list the codec was built for.
func (c *Codec) Set() *toolset.Set { return c.set }

// Resolver is the codec's MCP-Term reader and writer.
func (c *Codec) Resolver() *call.Resolver { return c.r }

// Adapter is the tool list seen through MCP-AQL in the codec's mode, built
// on first use. It fails when the overrides contradict each other; its
// Warnings name override entries for tools the list lacks.
func (c *Codec) Adapter() (*aql.Adapter, error) {
	c.once.Do(func() {
		c.adapter, c.aqlErr = aql.New(c.set, c.o.Overrides, c.o.Mode)
		if c.adapter != nil {
			c.adapter.Unsuggest(c.o.Unsuggest)
		}
	})
	return c.adapter, c.aqlErr
}

// Template is a call of tool with its required parameters as placeholders
// of their types, for a composer to start from; "" for an unknown tool.
func (c *Codec) Template(tool string) string { return c.r.Template(tool) }

// Code is the short code MCP-Term calls use for a tool (its name when it has
// none).
func (c *Codec) Code(tool string) string { return c.r.Code(tool) }

// Category is the tool's CRUDE category as the AQL classification (with the
// overrides) gives it, spelled as package policy spells categories
// ("create", "read", "update", "delete", "execute"); "" for an unknown tool
// or when the overrides are unusable. Every face's destructive rule reads it,
// so a tool --aql-map calls DELETE needs confirming everywhere.
func (c *Codec) Category(tool string) string {
	a, err := c.Adapter()
	if err != nil {
		return ""
	}
	if op := a.ForTool(tool); op != nil {
		return op.Category().Family()
	}
	return ""
}

// SyntaxOf says how src is written: AQL when, past white space and ;
// comment lines, it is (or is plainly meant as) an AQL document
// (aql.LooksLikeAQL); JSON when it starts with { or [; MCP-Term otherwise.
func SyntaxOf(src string) Syntax {
	body := aqlBody(src)
	switch {
	case aql.LooksLikeAQL([]byte(body)):
		return AQL
	case strings.HasPrefix(body, "{") || strings.HasPrefix(body, "["):
		return JSON
	}
	return SExpr
}

// aqlBody is src without the white space and the ; comment lines that may
// precede it, as they may precede any call.
func aqlBody(src string) string {
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case ' ', '\t', '\r', '\n', '\f', '\v':
		case ';':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		default:
			return strings.TrimSpace(src[i:])
		}
	}
	return ""
}

// Read reads src in whichever syntax it is written (SyntaxOf). An MCP-Term
// or JSON call is checked against its tool's schema, and an error is a
// *call.Error with the position it points at. An AQL document is checked as
// the AQL server would check it: a failure of the whole document (size,
// encoding, a malformed batch) is an *aql.Error, malformed JSON a plain
// error, and a request that fails on its own becomes an Item answered
// locally with its AQL failure, as introspect is answered locally with its
// answer.
func (c *Codec) Read(src string) (*Plan, error) {
	if body := aqlBody(src); aql.LooksLikeAQL([]byte(body)) {
		p, err := c.readAQLText(body)
		if err != nil {
			return nil, err
		}
		p.Source = src
		return p, nil
	}
	return c.ReadCalls(src)
}

// ReadCalls reads an MCP-Term call, a (batch ...), or JSON ({"name",
// "arguments"}, a JSON-RPC tools/call request, or a list of them), never
// AQL: what the gateway's term tool accepts.
func (c *Codec) ReadCalls(src string) (*Plan, error) {
	b, err := c.r.Parse(src)
	if err != nil {
		return nil, err
	}
	p := &Plan{Syntax: SExpr, Batch: b.IsBatch, Concurrency: b.Concurrency, StopOnError: b.StopOnError, Source: src}
	if body := aqlBody(src); strings.HasPrefix(body, "{") || strings.HasPrefix(body, "[") {
		p.Syntax = JSON
	}
	p.Items = make([]Item, len(b.Calls))
	for i, cl := range b.Calls {
		p.Items[i] = Item{ID: cl.ID, Tool: cl.Tool, Arguments: cl.Arguments, Pos: cl.Pos}
	}
	return p, nil
}

// readAQLText reads an AQL document as text. ParseInput's checks come
// first, so a payload too large or badly encoded gets its AQL code; the
// document is parsed once and its raw requests are kept for printing.
func (c *Codec) readAQLText(body string) (*Plan, error) {
	data := []byte(body)
	if len(data) > aql.MaxRequestBytes || !utf8.Valid(data) {
		_, err := aql.ParseInput(data)
		return nil, err
	}
	v, err := ojson.Parse(data)
	if err != nil {
		if _, aerr := aql.ParseInput(data); aerr != nil {
			return nil, aerr
		}
		return nil, err
	}
	return c.ReadAQL(v, "")
}

// ReadAQL reads an AQL document that is already parsed — the arguments of a
// tools/call to an AQL endpoint — as arriving through the MCP tool via
// (aql.SingleTool or a semantic endpoint such as "mcp_aql_read"); "" routes
// as the codec's Options say. Failures are as for Read. Batch items get the
// ids "0".."n-1", their index in the batch.
func (c *Codec) ReadAQL(doc *ojson.Value, via string) (*Plan, error) {
	a, err := c.Adapter()
	if err != nil {
		return nil, err
	}
	in, err := aql.FromValue(doc)
	if err != nil {
		return nil, err
	}
	p := &Plan{Syntax: AQL, Batch: in.IsBatch(), Source: doc.Compact()}
	reqs, raws := []*aql.Request{in.Request}, []*ojson.Value{doc}
	if in.IsBatch() {
		reqs, raws = in.Batch, doc.Get("operations").Items
	}
	p.Items = make([]Item, len(reqs))
	for i, r := range reqs {
		st := a.Prepare(c.via(a, via, r.Operation), r)
		it := Item{Operation: st.Operation, Fields: st.Fields, Local: st.Local, step: &st, req: r, raw: raws[i]}
		if p.Batch {
			it.ID = strconv.Itoa(i)
		}
		if st.Call != nil {
			it.Tool, it.Arguments = st.Call.Name, st.Call.Arguments
		}
		p.Items[i] = it
	}
	return p, nil
}

// via is the endpoint a request arrives through: the caller's, else the
// Options' endpoint, else mcp_aql in single mode, else the operation's own
// endpoint (an unknown operation goes to mcp_aql_read, which answers "not
// found" with suggestions).
func (c *Codec) via(a *aql.Adapter, via, operation string) string {
	switch {
	case via != "":
		return via
	case c.o.Endpoint != "":
		return c.o.Endpoint
	case a.Mode == aql.Single:
		return aql.SingleTool
	}
	if v := a.Via(operation); v != "" {
		return v
	}
	return aql.Read.Tool()
}
