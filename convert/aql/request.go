package aql

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// Limits from the spec's payload table (v1.0.0-draft 4.7.5), at its defaults.
const (
	MaxRequestBytes = 1 << 20 // request payload
	MaxDepth        = 32      // object/array nesting, the root counting as 1
	MaxBatch        = 1000    // operations in one batch
)

// Request is one AQL operation call.
type Request struct {
	Operation string
	// Params holds the parameters: top-level members of the request other
	// than operation and params, overlaid by the params object (params wins,
	// spec 4.2). Always an object.
	Params *ojson.Value
	// err is set when the request object itself is malformed; Prepare then
	// answers with it.
	err *Error
}

// Input is one AQL document: a single request or a batch.
type Input struct {
	Request *Request   // single mode document
	Batch   []*Request // {"operations": [...]}; nil when Request is set
}

// IsBatch reports whether the document was {"operations": [...]}.
func (in *Input) IsBatch() bool { return in.Request == nil }

// ParseInput reads an AQL document. Malformed JSON is a plain error with its
// offset, for the caller to report as a usage error. Everything the spec has
// a code for (encoding, size, depth, shape) is an *Error that can be sent
// back as an AQL failure. A malformed item of a batch is not an error here:
// it fails on its own when the batch runs.
func ParseInput(data []byte) (*Input, error) {
	if len(data) > MaxRequestBytes {
		return nil, errorf(CodePayloadTooLarge, details("limit_type", "request_size", "limit_value", MaxRequestBytes, "actual_value", len(data), "unit", "bytes"),
			"Payload exceeds request_size limit of %d", MaxRequestBytes)
	}
	if !utf8.Valid(data) {
		off := invalidUTF8At(data)
		return nil, errorf(CodeInvalidEncoding, details("byte_offset", off), "Invalid character encoding in request (byte %d)", off)
	}
	v, err := ojson.Parse(data)
	if errors.Is(err, ojson.ErrTooDeep) {
		return nil, errorf(CodePayloadTooLarge, details("limit_type", "nesting_depth", "limit_value", MaxDepth, "unit", "levels"),
			"Payload exceeds nesting_depth limit of %d", MaxDepth)
	}
	if err != nil {
		return nil, fmt.Errorf("aql: invalid JSON: %w", err)
	}
	return FromValue(v)
}

func invalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// checkValue applies the depth limit to an already parsed document (one that
// arrived as tools/call arguments, say).
func checkValue(v *ojson.Value) *Error {
	if d := depth(v, 1); d > MaxDepth {
		return errorf(CodePayloadTooLarge, details("limit_type", "nesting_depth", "limit_value", MaxDepth, "actual_value", d, "unit", "levels"),
			"Payload exceeds nesting_depth limit of %d", MaxDepth)
	}
	return nil
}

// depth counts nesting levels, stopping early once past the limit.
func depth(v *ojson.Value, level int) int {
	if v == nil || v.Kind != ojson.Object && v.Kind != ojson.Array {
		return level - 1
	}
	if level > MaxDepth {
		return level
	}
	best := level
	for _, it := range v.Items {
		if d := depth(it, level+1); d > best {
			best = d
		}
	}
	for _, m := range v.Members {
		if d := depth(m.Value, level+1); d > best {
			best = d
		}
	}
	return best
}

// FromValue reads an AQL document that is already parsed, such as the
// arguments of a tools/call to mcp_aql. An object with "operation" is one
// request; one with "operations" and no "operation" is a batch.
func FromValue(v *ojson.Value) (*Input, error) {
	if v == nil || v.Kind != ojson.Object {
		kind := "nothing"
		if v != nil {
			kind = v.Kind.String()
		}
		return nil, errorf(CodeInvalidType, details("param_name", "request", "expected_type", "object", "actual_type", kind),
			"Request expected 'object', got '%s'", kind)
	}
	if aerr := checkValue(v); aerr != nil {
		return nil, aerr
	}
	if !v.Has("operation") && v.Has("operations") {
		ops := v.Get("operations")
		if ops.Kind != ojson.Array {
			return nil, errorf(CodeInvalidType, details("param_name", "operations", "expected_type", "array", "actual_type", ops.Kind.String()),
				"Parameter 'operations' expected 'array', got '%s'", ops.Kind)
		}
		if len(ops.Items) > MaxBatch {
			return nil, errorf(CodePayloadTooLarge, details("limit_type", "array_elements", "limit_value", MaxBatch, "actual_value", len(ops.Items), "unit", "elements"),
				"Payload exceeds array_elements limit of %d", MaxBatch)
		}
		var extra []string
		for _, m := range v.Members {
			if m.Key != "operations" && !strings.HasPrefix(m.Key, "_") {
				extra = append(extra, m.Key)
			}
		}
		if len(extra) > 0 {
			return nil, errorf(CodeUnknownParam, details("operation", "batch", "unknown_params", extra, "valid_params", []string{"operations"}),
				"Unknown parameter(s) for a batch: %s", strings.Join(extra, ", "))
		}
		in := &Input{Batch: make([]*Request, 0, len(ops.Items))}
		for _, item := range ops.Items {
			in.Batch = append(in.Batch, requestFrom(item, true))
		}
		return in, nil
	}
	r := requestFrom(v, false)
	if r.err != nil {
		return nil, r.err
	}
	return &Input{Request: r}, nil
}

// requestFrom reads one {"operation", "params", ...top-level params} object.
func requestFrom(v *ojson.Value, inBatch bool) *Request {
	r := &Request{Params: ojson.NewObject()}
	if v.Kind != ojson.Object {
		r.err = errorf(CodeInvalidType, details("param_name", "operation", "expected_type", "object", "actual_type", v.Kind.String()),
			"Batch item expected 'object', got '%s'", v.Kind)
		return r
	}
	op := v.Get("operation")
	switch {
	case op == nil && inBatch && v.Has("operations"):
		r.err = errorf(CodeMissingParam, details("param_name", "operation"), "Missing required parameter 'operation' (batches do not nest)")
		return r
	case op == nil:
		r.err = errorf(CodeMissingParam, details("param_name", "operation"), "Missing required parameter 'operation'")
		return r
	case op.Kind != ojson.String:
		r.err = errorf(CodeInvalidType, details("param_name", "operation", "expected_type", "string", "actual_type", op.Kind.String()),
			"Parameter 'operation' expected 'string', got '%s'", op.Kind)
		return r
	case op.Str == "":
		r.err = errorf(CodeMissingParam, details("param_name", "operation"), "Missing required parameter 'operation' (it is empty)")
		return r
	}
	r.Operation = op.Str
	for _, m := range v.Members {
		if m.Key != "operation" && m.Key != "params" {
			r.Params.Set(m.Key, m.Value)
		}
	}
	if p := v.Get("params"); p != nil {
		switch p.Kind {
		case ojson.Object:
			for _, m := range p.Members {
				r.Params.Set(m.Key, m.Value)
			}
		case ojson.Null:
		default:
			r.err = errorf(CodeInvalidType, details("param_name", "params", "expected_type", "object", "actual_type", p.Kind.String(), "operation", r.Operation),
				"Parameter 'params' expected 'object', got '%s'", p.Kind)
		}
	}
	return r
}

// ToolCall is the real tools/call a request turns into.
type ToolCall struct {
	Name      string
	Arguments *ojson.Value // always an object
}

// Params is the tools/call params object {"name", "arguments"}.
func (c ToolCall) Params() *ojson.Value {
	return ojson.NewObject().Set("name", ojson.NewString(c.Name)).Set("arguments", c.Arguments)
}

// Step is a request made ready: either answered locally (introspect, or a
// failure found before any I/O) or a ToolCall to run upstream.
type Step struct {
	Operation string
	// Local is the complete OperationResult when no call is needed.
	Local *ojson.Value
	Call  *ToolCall
	// Fields is the client-side projection to apply to the call's result.
	Fields []string
}

// Prepare checks a request that arrived through the MCP tool named via
// (SingleTool or a semantic endpoint tool such as "mcp_aql_read") and turns
// it into a Step. It never does I/O.
func (a *Adapter) Prepare(via string, r *Request) Step {
	st := Step{Operation: r.Operation}
	if r.err != nil {
		st.Local = r.err.Response()
		return st
	}
	c, aerr := a.endpointOf(via)
	if aerr != nil {
		st.Local = aerr.Response()
		return st
	}
	if r.Operation == "introspect" {
		st.Local = a.prepareIntrospect(c, r)
		return st
	}
	op := a.byName[r.Operation]
	if op == nil {
		st.Local = a.notFound(r.Operation).Response()
		return st
	}
	if a.Mode == Semantic && op.Category() != c {
		st.Local = mismatch(op.Name, op.Category(), c).Response()
		return st
	}
	call, fields, aerr := op.arguments(r.Params)
	if aerr != nil {
		st.Local = aerr.Response()
		return st
	}
	st.Call, st.Fields = call, fields
	return st
}

// endpointOf maps the receiving tool to its category; "" means single mode.
func (a *Adapter) endpointOf(via string) (Category, *Error) {
	if a.Mode == Single {
		if via != SingleTool && via != "" {
			return "", errorf(CodeNotFoundOp, details("operation", via), "Unknown tool '%s': in single mode every operation goes through %s", via, SingleTool)
		}
		return "", nil
	}
	for _, c := range a.Endpoints() {
		if c.Tool() == via {
			return c, nil
		}
	}
	var tools []string
	for _, c := range a.Endpoints() {
		tools = append(tools, c.Tool())
	}
	return "", errorf(CodeNotFoundOp, details("operation", via, "available", tools), "Unknown endpoint '%s': this server's endpoints are %s", via, strings.Join(tools, ", "))
}

func mismatch(op string, want, got Category) *Error {
	return errorf(CodeEndpointMismatch,
		details("operation", op, "expected_endpoint", string(want), "actual_endpoint", string(got), "mcp_tool", want.Tool()),
		"Operation '%s' must be called via %s, not %s", op, want.Tool(), got.Tool())
}

// prepareIntrospect checks introspect's own parameters and answers it.
func (a *Adapter) prepareIntrospect(c Category, r *Request) *ojson.Value {
	if a.Mode == Semantic && c != Read {
		return mismatch("introspect", Read, c).Response()
	}
	var unknown []string
	for _, m := range r.Params.Members {
		if m.Key != "query" && m.Key != "name" && !strings.HasPrefix(m.Key, "_") {
			unknown = append(unknown, m.Key)
		}
	}
	if len(unknown) > 0 {
		return unknownParams("introspect", unknown, []string{"query", "name"}).Response()
	}
	q := r.Params.Get("query")
	switch {
	case q == nil:
		return errorf(CodeMissingParam, details("param_name", "query", "operation", "introspect"),
			"Missing required parameter 'query'. Expected: string (\"operations\" or \"types\")").Response()
	case q.Kind != ojson.String:
		return invalidType("introspect", "query", "string", q).Response()
	case q.Str != "operations" && q.Str != "types":
		return errorf(CodeInvalidType, details("param_name", "query", "expected_type", `"operations" | "types"`, "actual_type", "string", "value", q.Str, "operation", "introspect"),
			"Parameter 'query' expected '\"operations\" | \"types\"', got '%s'", q.Str).Response()
	}
	n := r.Params.Get("name")
	if n != nil && n.Kind != ojson.String && n.Kind != ojson.Null {
		return invalidType("introspect", "name", "string", n).Response()
	}
	hasName := n != nil && n.Kind == ojson.String
	return a.introspect(q.Str, n.StringOr(""), hasName)
}

func unknownParams(op string, unknown, valid []string) *Error {
	return errorf(CodeUnknownParam, details("operation", op, "unknown_params", unknown, "valid_params", valid),
		"Unknown parameter(s) for operation '%s': %s", op, strings.Join(unknown, ", "))
}

func invalidType(op, name, want string, got *ojson.Value) *Error {
	d := details("param_name", name, "expected_type", want, "actual_type", kindType(got))
	if got.Kind != ojson.Object && got.Kind != ojson.Array && (got.Kind != ojson.String || len(got.Str) <= 200) {
		d.Set("value", got)
	}
	d.Set("operation", ojson.NewString(op))
	return errorf(CodeInvalidType, d, "Parameter '%s' expected '%s', got '%s'", name, want, kindType(got))
}
