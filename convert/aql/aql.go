// Package aql puts MCP-AQL (v1.0.0-draft) in front of any MCP server, without
// the server's help: it classifies each tool into a CRUDE category, names it
// as a snake_case operation, renders the server as one `mcp_aql` tool or as
// the `mcp_aql_<category>` semantic endpoints, answers `introspect` locally,
// and turns AQL requests and batches into the real tools/call requests.
//
// Everything here is pure. The caller does the I/O: it hands the adapter the
// tool list, and for calls an Executor that runs a tools/call upstream.
// See docs/aql.md for the mapping rules and what of the spec is implemented.
package aql

import (
	"fmt"
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// SpecVersion is the MCP-AQL draft this package follows; introspection
// reports it in _protocol.version.
const SpecVersion = "1.0.0-draft"

// Category is one of the five standard semantic categories (CRUDE).
type Category string

// The standard semantic categories, in CRUDE order.
const (
	Create  Category = "CREATE"
	Read    Category = "READ"
	Update  Category = "UPDATE"
	Delete  Category = "DELETE"
	Execute Category = "EXECUTE"
)

// Categories lists the categories in CRUDE order, the order endpoints and
// operation lists are rendered in.
var categories = [...]Category{Create, Read, Update, Delete, Execute}

// Categories returns the five categories in CRUDE order.
func Categories() []Category { return categories[:] }

// ParseCategory accepts a category in any letter case ("read", "READ").
func ParseCategory(s string) (Category, bool) {
	c := Category(strings.ToUpper(strings.TrimSpace(s)))
	for _, k := range categories {
		if k == c {
			return c, true
		}
	}
	return "", false
}

// Family is the lowercase endpoint-family name the spec uses in
// introspection's "endpoint" field ("read").
func (c Category) Family() string { return strings.ToLower(string(c)) }

// Tool is the semantic-mode MCP tool that carries this category.
func (c Category) Tool() string { return "mcp_aql_" + c.Family() }

// Permissions are the spec's fixed permission flags per category (section 6.1).
func (c Category) Permissions() (readOnly, destructive bool) {
	switch c {
	case Read:
		return true, false
	case Create:
		return false, false
	}
	return false, true
}

// SingleTool is the one tool of single mode.
const SingleTool = "mcp_aql"

// Mode selects how the adapter exposes operations.
type Mode int

const (
	// Single exposes everything through one tool, mcp_aql.
	Single Mode = iota
	// Semantic exposes one tool per non-empty CRUDE category.
	Semantic
)

func (m Mode) String() string {
	if m == Semantic {
		return "semantic"
	}
	return "single"
}

// Error codes used by this package. All but VALIDATION_ENDPOINT_MISMATCH and
// VALIDATION_UNKNOWN_FIELD are in the spec's MVP registry; those two are named
// by the spec's prose (operations.md 6.3, v1.0.0-draft 4.5.3).
const (
	CodeMissingParam     = "VALIDATION_MISSING_PARAM"
	CodeInvalidType      = "VALIDATION_INVALID_TYPE"
	CodeUnknownParam     = "VALIDATION_UNKNOWN_PARAM"
	CodeUnknownField     = "VALIDATION_UNKNOWN_FIELD"
	CodeInvalidEncoding  = "VALIDATION_INVALID_ENCODING"
	CodePayloadTooLarge  = "VALIDATION_PAYLOAD_TOO_LARGE"
	CodeEndpointMismatch = "VALIDATION_ENDPOINT_MISMATCH"
	CodeNotFoundOp       = "NOT_FOUND_OPERATION"
	CodeInternal         = "INTERNAL_ERROR"
)

// Error is an AQL failure: it becomes {"success": false, "error": {...}}.
// Being a Go error lets parse and prepare steps return it the usual way.
type Error struct {
	Code    string
	Message string
	Details *ojson.Value // object, or nil
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Object is the ErrorDetail object {code, message, details?}.
func (e *Error) Object() *ojson.Value {
	o := ojson.NewObject().
		Set("code", ojson.NewString(e.Code)).
		Set("message", ojson.NewString(e.Message))
	if e.Details != nil {
		o.Set("details", e.Details)
	}
	return o
}

// Response is the whole failure result {"success": false, "error": {...}}.
func (e *Error) Response() *ojson.Value {
	return ojson.NewObject().Set("success", ojson.NewBool(false)).Set("error", e.Object())
}

// Success wraps data as {"success": true, "data": data}.
func Success(data *ojson.Value) *ojson.Value {
	if data == nil {
		data = ojson.NewNull()
	}
	return ojson.NewObject().Set("success", ojson.NewBool(true)).Set("data", data)
}

// IsSuccess reports whether an OperationResult says success: true.
func IsSuccess(result *ojson.Value) bool {
	s := result.Get("success")
	return s != nil && s.Kind == ojson.Bool && s.Bool
}

func errorf(code string, details *ojson.Value, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Details: details}
}

// details builds a details object from alternating key, value pairs; values
// may be string, []string, int, bool or *ojson.Value.
func details(kv ...any) *ojson.Value {
	o := ojson.NewObject()
	for i := 0; i+1 < len(kv); i += 2 {
		o.Set(kv[i].(string), toValue(kv[i+1]))
	}
	return o
}

func toValue(x any) *ojson.Value {
	switch v := x.(type) {
	case *ojson.Value:
		if v == nil {
			return ojson.NewNull()
		}
		return v
	case string:
		return ojson.NewString(v)
	case []string:
		return strArray(v)
	case int:
		return ojson.NewInt(int64(v))
	case bool:
		return ojson.NewBool(v)
	}
	panic(fmt.Sprintf("aql: details value of type %T", x))
}

func strArray(ss []string) *ojson.Value {
	a := ojson.NewArray()
	for _, s := range ss {
		a.Items = append(a.Items, ojson.NewString(s))
	}
	return a
}
