package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
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
			return toolErr("invalid arguments for %s:\n- %s", t.Name, strings.Join(explain(ve), "\n- "))
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

var english = message.NewPrinter(language.English)

// explain flattens a validation error into one line per problem.
func explain(e *jsonschema.ValidationError) []string {
	var out []string
	walkErr(e, &out)
	if len(out) == 0 {
		out = append(out, e.Error())
	}
	return slices.Compact(out)
}

func walkErr(e *jsonschema.ValidationError, out *[]string) {
	switch k := e.ErrorKind.(type) {
	case *kind.OneOf:
		if k.Subschemas != nil {
			*out = append(*out, at(e.InstanceLocation)+k.LocalizedString(english))
			return
		}
		walkUnion(e, out)
		return
	case *kind.AnyOf:
		walkUnion(e, out)
		return
	}
	if len(e.Causes) == 0 {
		*out = append(*out, at(e.InstanceLocation)+e.ErrorKind.LocalizedString(english))
		return
	}
	for _, c := range e.Causes {
		walkErr(c, out)
	}
}

// walkUnion explains a failed oneOf/anyOf. When the variants are told apart
// by a const member (a discriminator), it reports either the bad
// discriminator or the chosen variant's own errors.
func walkUnion(e *jsonschema.ValidationError, out *[]string) {
	loc := e.InstanceLocation
	var chosen []*jsonschema.ValidationError
	var wants []string
	var got any
	var member string
	for _, branch := range e.Causes {
		c, name := discriminator(branch, loc)
		if c == nil {
			chosen = append(chosen, branch)
			continue
		}
		wants = append(wants, fmt.Sprintf("%q", fmt.Sprint(c.Want)))
		got, member = c.Got, name
	}
	switch {
	case len(chosen) == 0 && len(wants) > 0:
		*out = append(*out, fmt.Sprintf("%s%s is not one of %s", at(append(slices.Clone(loc), member)), quoteValue(got), strings.Join(wants, ", ")))
	case len(chosen) == 1 && len(wants) > 0:
		walkErr(chosen[0], out)
	default:
		var alts []string
		for i, branch := range e.Causes {
			var sub []string
			walkErr(branch, &sub)
			alts = append(alts, fmt.Sprintf("(%d) %s", i+1, strings.Join(sub, "; ")))
		}
		*out = append(*out, fmt.Sprintf("%smatches none of the %d alternatives: %s", at(loc), len(e.Causes), strings.Join(alts, " ")))
	}
}

// discriminator finds a const failure on a direct member of the union's
// value inside one branch.
func discriminator(e *jsonschema.ValidationError, loc []string) (*kind.Const, string) {
	if c, ok := e.ErrorKind.(*kind.Const); ok && len(e.InstanceLocation) == len(loc)+1 && slices.Equal(e.InstanceLocation[:len(loc)], loc) {
		return c, e.InstanceLocation[len(loc)]
	}
	for _, c := range e.Causes {
		if k, name := discriminator(c, loc); k != nil {
			return k, name
		}
	}
	return nil, ""
}

func quoteValue(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func at(loc []string) string {
	if len(loc) == 0 {
		return ""
	}
	return "at /" + strings.Join(loc, "/") + ": "
}
