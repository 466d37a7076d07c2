package aql

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// IsAQL reports whether src is an AQL document rather than an S-expression
// or a JSON {"name", "arguments"} call: a JSON object with an "operation"
// or an "operations" member. Front ends that accept several call syntaxes
// use it to pick the reader; it does not validate anything else.
func IsAQL(src []byte) bool {
	t := bytes.TrimSpace(src)
	if len(t) == 0 || t[0] != '{' || len(t) > MaxRequestBytes {
		return false
	}
	v, err := ojson.Parse(t)
	if err != nil || v.Kind != ojson.Object {
		return false
	}
	return v.Has("operation") || v.Has("operations")
}

// LooksLikeAQL decides which syntax a front end parses some text with: AQL
// when IsAQL holds, and also when the text is meant as AQL but is not (yet)
// valid — a half-typed or oversized object that names "operation" — so the
// user gets an AQL error rather than a puzzling S-expression one.
func LooksLikeAQL(src []byte) bool {
	if IsAQL(src) {
		return true
	}
	t := bytes.TrimSpace(src)
	return len(t) > 0 && t[0] == '{' && bytes.Contains(t, []byte(`"operation`)) &&
		(len(t) > MaxRequestBytes || !json.Valid(t))
}

// Via is the MCP tool that carries an operation in the adapter's mode
// (mcp_aql, or mcp_aql_<category>), "" for an unknown operation. A front end
// that reads AQL outside any tool call uses it to route each request to the
// endpoint it belongs to.
func (a *Adapter) Via(operation string) string {
	if operation == "introspect" {
		return a.mcpTool(Read)
	}
	if op := a.byName[operation]; op != nil {
		return a.mcpTool(op.Category())
	}
	return ""
}

// ToAQL writes a real tools/call as the AQL request that Prepare turns back
// into the same call: operation name for the tool, snake_case parameter
// names for the schema's. It is what `mcpterm call --dry-run --print aql`
// prints. Parameters stay flat; UPDATE's input object is optional here.
func (a *Adapter) ToAQL(c ToolCall) (*ojson.Value, error) {
	op := a.byTool[c.Name]
	if op == nil {
		return nil, fmt.Errorf("aql: no tool named %q on this server", c.Name)
	}
	params := ojson.NewObject()
	if c.Arguments != nil {
		if c.Arguments.Kind != ojson.Object {
			return nil, fmt.Errorf("aql: arguments of %q are a %s, want an object", c.Name, c.Arguments.Kind)
		}
		for _, m := range c.Arguments.Members {
			p, _ := op.param(m.Key)
			if p == nil {
				// An undeclared argument that AQL reads as something else.
				switch {
				case strings.HasPrefix(m.Key, "_"):
					return nil, fmt.Errorf("aql: argument %q of %q has no AQL spelling: AQL drops underscore names as metadata", m.Key, c.Name)
				case m.Key == "fields" && op.Fields, m.Key == "input" && op.Input:
					return nil, fmt.Errorf("aql: argument %q of %q has no AQL spelling: AQL reads %q as its own parameter", m.Key, c.Name, m.Key)
				}
				params.Set(m.Key, m.Value)
				continue
			}
			params.Set(p.Name, m.Value)
		}
	}
	return ojson.NewObject().Set("operation", ojson.NewString(op.Name)).Set("params", params), nil
}

// BatchToAQL writes several calls as one AQL batch {"operations": [...]}.
func (a *Adapter) BatchToAQL(calls []ToolCall) (*ojson.Value, error) {
	ops := ojson.NewArray()
	for _, c := range calls {
		r, err := a.ToAQL(c)
		if err != nil {
			return nil, err
		}
		ops.Items = append(ops.Items, r)
	}
	return ojson.NewObject().Set("operations", ops), nil
}
