package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/mcpterm/mcpterm/convert/schemaerr"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The demo validates arguments itself rather than with mcp-go's built-in
// check, so that a model gets errors it can act on: one line per problem with
// its JSON pointer, and for tagged unions only the errors of the variant the
// "type" member picked (or the list of valid types), not every variant's.

// maxArgBytes bounds the arguments of one call.
const maxArgBytes = 1 << 20

type checkedTool struct {
	name   string
	schema []byte
	once   sync.Once
	sch    *jsonschema.Schema
	err    error
}

func (ct *checkedTool) compile() (*jsonschema.Schema, error) {
	ct.once.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(ct.schema))
		if err != nil {
			ct.err = err
			return
		}
		c := jsonschema.NewCompiler()
		url := "demo:///tools/" + ct.name + ".json"
		if err := c.AddResource(url, doc); err != nil {
			ct.err = err
			return
		}
		ct.sch, ct.err = c.Compile(url)
	})
	return ct.sch, ct.err
}

// add registers a tool whose arguments are checked against its input schema
// before the handler runs.
func (st *state) add(s *server.MCPServer, t mcp.Tool, h server.ToolHandlerFunc) {
	ct := &checkedTool{name: t.Name, schema: t.RawInputSchema}
	s.AddTool(t, func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		raw, err := rawArgs(req)
		if err != nil {
			return toolErr("%v", err)
		}
		if len(raw) > maxArgBytes {
			return toolErr("arguments are %d bytes; the limit is %d", len(raw), maxArgBytes)
		}
		sch, err := ct.compile()
		if err != nil {
			return nil, fmt.Errorf("%s: input schema: %v", t.Name, err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			return toolErr("arguments are not valid JSON: %v", err)
		}
		if err := sch.Validate(inst); err != nil {
			ve, ok := err.(*jsonschema.ValidationError)
			if !ok {
				return toolErr("invalid arguments for %s: %v", t.Name, err)
			}
			return toolErr("invalid arguments for %s:\n- %s", t.Name, strings.Join(schemaerr.Lines(ve, 0), "\n- "))
		}
		return h(ctx, req)
	})
}

// rawArgs is the call's arguments as JSON text.
func rawArgs(req mcp.CallToolRequest) ([]byte, error) {
	if raw := req.Params.RawArguments; len(raw) > 0 {
		return raw, nil
	}
	switch a := req.Params.Arguments.(type) {
	case nil:
		return []byte("{}"), nil
	case json.RawMessage:
		return a, nil
	}
	b, err := json.Marshal(req.Params.Arguments)
	if err != nil {
		return nil, fmt.Errorf("arguments: %v", err)
	}
	return b, nil
}
