package live

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/ui"
)

// Codec reads the composer's text with convert/call (S-expression calls,
// batches, JSON calls) and convert/aql (AQL requests and batches, with
// introspect answered locally), each built once per tool list.
type Codec struct {
	Overrides aql.Overrides

	mu       sync.Mutex
	set      *toolset.Set
	resolver *call.Resolver
	adapter  *aql.Adapter
	aqlErr   error
}

// NewCodec is the composer's call codec.
func NewCodec() *Codec { return &Codec{} }

func (c *Codec) forSet(set *toolset.Set) (*call.Resolver, *aql.Adapter, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.set != set || c.resolver == nil {
		c.set = set
		c.resolver = call.NewResolver(set)
		c.adapter, c.aqlErr = aql.New(set, c.Overrides, aql.Single)
	}
	return c.resolver, c.adapter, c.aqlErr
}

func (c *Codec) Template(set *toolset.Set, tool *toolset.Tool) string {
	r, _, _ := c.forSet(set)
	return r.Template(tool.Name)
}

// Parse detects AQL ({"operation"...} or {"operations": [...]}) and reads
// everything else as MCP-Term or JSON calls.
func (c *Codec) Parse(set *toolset.Set, src string) (*ui.Parsed, error) {
	r, a, aerr := c.forSet(set)
	if isAQL(src) {
		if aerr != nil {
			return nil, aerr
		}
		return parseAQL(a, src)
	}
	b, err := r.Parse(src)
	if err != nil {
		return nil, positioned(err)
	}
	p := &ui.Parsed{Syntax: "sexpr", Batch: b.IsBatch, Concurrency: b.Concurrency, StopOnError: b.StopOnError}
	if t := strings.TrimSpace(src); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		p.Syntax = "json"
	}
	for _, cl := range b.Calls {
		p.Calls = append(p.Calls, ui.ParsedCall{ID: cl.ID, Tool: cl.Tool, Arguments: cl.Arguments})
	}
	return p, nil
}

func isAQL(src string) bool { return aql.LooksLikeAQL([]byte(src)) }

func parseAQL(a *aql.Adapter, src string) (*ui.Parsed, error) {
	in, err := aql.ParseInput([]byte(strings.TrimSpace(src)))
	if err != nil {
		return nil, fmt.Errorf("AQL: %w", err)
	}
	reqs := in.Batch
	if !in.IsBatch() {
		reqs = []*aql.Request{in.Request}
	}
	p := &ui.Parsed{Syntax: "aql", Batch: in.IsBatch()}
	for i, req := range reqs {
		st := a.Prepare(aql.SingleTool, req)
		pc := ui.ParsedCall{Tool: st.Operation}
		if p.Batch {
			pc.ID = fmt.Sprint(i)
		}
		switch {
		case st.Call != nil:
			pc.Tool, pc.Arguments = st.Call.Name, st.Call.Arguments
			pc.Answer = aqlAnswer(st)
		case st.Local != nil && !aql.IsSuccess(st.Local):
			e := st.Local.Get("error")
			msg := fmt.Sprintf("AQL %s: %s", e.Get("code").StringOr("ERROR"), e.Get("message").StringOr("invalid request"))
			if p.Batch {
				msg = fmt.Sprintf("operations[%d]: %s", i, msg)
			}
			return nil, errors.New(msg)
		case st.Local != nil:
			pc.Tool = "introspect"
			pc.Direct = &ui.CallResult{
				Content: []ui.Content{{Type: "text", Text: st.Local.Pretty()}},
				Raw:     ojson.NewObject().Set("content", ojson.NewArray(ojson.NewObject().Set("type", ojson.NewString("text")).Set("text", ojson.NewString(st.Local.Compact())))),
			}
		}
		p.Calls = append(p.Calls, pc)
	}
	return p, nil
}

// aqlAnswer wraps a server's result as the AQL response the request gets
// (projected when it asked for fields), shown as JSON text; the raw result
// stays for the (ok ...) view.
func aqlAnswer(st aql.Step) func(*ui.CallResult) *ui.CallResult {
	return func(res *ui.CallResult) *ui.CallResult {
		resp, _ := aql.Finish(st, res.Raw, nil)
		return &ui.CallResult{
			Content:  []ui.Content{{Type: "text", Text: resp.Pretty()}},
			IsError:  !aql.IsSuccess(resp),
			Raw:      res.Raw,
			Duration: res.Duration,
			Warning:  res.Warning,
		}
	}
}

// callError gives the composer the position of a call error.
type callError struct{ err *call.Error }

func (e callError) Error() string       { return e.err.Error() }
func (e callError) Position() sexpr.Pos { return e.err.Pos }
func (e callError) Unwrap() error       { return e.err }

func positioned(err error) error {
	var ce *call.Error
	if errors.As(err, &ce) && ce.Pos.Line > 0 {
		return callError{ce}
	}
	return err
}

// ResultTerm is the (ok ...) / (err ...) form of a result.
func (c *Codec) ResultTerm(res *ui.CallResult, width int) (string, error) {
	if res == nil || res.Raw == nil {
		return "", errors.New("no result")
	}
	return sexpr.Pretty(call.ResultToTerm(res.Raw), max(width, 40)), nil
}

// Format prints calls as canonical MCP-Term, JSON calls, or AQL requests.
func (c *Codec) Format(set *toolset.Set, p *ui.Parsed, syntax string) (string, error) {
	r, a, aerr := c.forSet(set)
	var live []ui.ParsedCall
	for _, pc := range p.Calls {
		if pc.Direct == nil {
			live = append(live, pc)
		}
	}
	if len(live) == 0 {
		return "", errors.New("nothing to convert: the request is answered locally")
	}
	batch := p.Batch || len(live) > 1
	switch syntax {
	case "sexpr":
		b := &call.Batch{IsBatch: batch, Concurrency: p.Concurrency, StopOnError: p.StopOnError}
		for i, pc := range live {
			id := pc.ID
			if batch && id == "" {
				id = fmt.Sprint(i + 1)
			}
			b.Calls = append(b.Calls, call.Call{ID: id, Tool: pc.Tool, Arguments: pc.Arguments})
		}
		n, err := r.FormatBatch(b)
		if err != nil {
			return "", err
		}
		return sexpr.Pretty(n, 72), nil
	case "json":
		if !batch {
			return jsonCall(live[0]).Pretty(), nil
		}
		arr := ojson.NewArray()
		for _, pc := range live {
			arr.Items = append(arr.Items, jsonCall(pc))
		}
		return arr.Pretty(), nil
	case "aql":
		if aerr != nil {
			return "", aerr
		}
		var reqs []*ojson.Value
		for _, pc := range live {
			op := a.ForTool(pc.Tool)
			if op == nil {
				return "", fmt.Errorf("tool %q has no AQL operation", pc.Tool)
			}
			args := pc.Arguments
			if args == nil {
				args = ojson.NewObject()
			}
			reqs = append(reqs, ojson.NewObject().Set("operation", ojson.NewString(op.Name)).Set("params", args))
		}
		if !batch {
			return reqs[0].Pretty(), nil
		}
		return ojson.NewObject().Set("operations", ojson.NewArray(reqs...)).Pretty(), nil
	}
	return "", fmt.Errorf("unknown syntax %q", syntax)
}

func jsonCall(pc ui.ParsedCall) *ojson.Value {
	args := pc.Arguments
	if args == nil {
		args = ojson.NewObject()
	}
	return ojson.NewObject().Set("name", ojson.NewString(pc.Tool)).Set("arguments", args)
}

var _ ui.Codec = (*Codec)(nil)
