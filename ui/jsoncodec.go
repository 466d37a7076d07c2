package ui

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// JSONCodec is the composer's fallback when convert/call is not wired in: it
// runs JSON calls {"name", "arguments"} (or an array of them as a batch) and
// reports S-expression syntax errors with their position, but cannot turn an
// S-expression into arguments.
type JSONCodec struct{}

// Template is a JSON call with the required parameters as placeholders.
func (JSONCodec) Template(set *toolset.Set, tool *toolset.Tool) string {
	args := ojson.NewObject()
	props := tool.InputSchema.Get("properties")
	for _, r := range requiredNames(tool.InputSchema) {
		args.Set(r, placeholder(props.Get(r)))
	}
	return ojson.NewObject().Set("name", ojson.NewString(tool.Name)).Set("arguments", args).Pretty()
}

func requiredNames(schema *ojson.Value) []string {
	var out []string
	if req := schema.Get("required"); req != nil && req.Kind == ojson.Array {
		for _, r := range req.Items {
			if r.Kind == ojson.String {
				out = append(out, r.Str)
			}
		}
	}
	return out
}

// placeholder is a value of the schema's type for a template.
func placeholder(s *ojson.Value) *ojson.Value {
	if s == nil {
		return ojson.NewString("")
	}
	if e := s.Get("enum"); e != nil && e.Kind == ojson.Array && len(e.Items) > 0 {
		return e.Items[0]
	}
	t := s.Get("type")
	if t != nil && t.Kind == ojson.Array && len(t.Items) > 0 {
		t = t.Items[0]
	}
	switch t.StringOr("") {
	case "number", "integer":
		return ojson.NewInt(0)
	case "boolean":
		return ojson.NewBool(false)
	case "array":
		return ojson.NewArray()
	case "object":
		return ojson.NewObject()
	case "null":
		return ojson.NewNull()
	}
	return ojson.NewString("")
}

// Parse accepts {"name", "arguments"} or an array of them.
func (JSONCodec) Parse(set *toolset.Set, src string) (*Parsed, error) {
	t := strings.TrimSpace(src)
	if t == "" {
		return nil, errors.New("empty: write a call")
	}
	if !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "[") {
		if _, err := sexpr.Parse(src); err != nil {
			return nil, err
		}
		return nil, errors.New("this build lacks convert/call, which S-expression calls need; write {\"name\": ..., \"arguments\": {...}}")
	}
	v, err := ojson.Parse([]byte(t))
	if err != nil {
		return nil, fmt.Errorf("JSON: %w", err)
	}
	p := &Parsed{Syntax: "json"}
	items := []*ojson.Value{v}
	if v.Kind == ojson.Array {
		p.Batch = true
		items = v.Items
	}
	for i, it := range items {
		c, err := jsonCall(set, it)
		if err != nil {
			if p.Batch {
				return nil, fmt.Errorf("call %d: %w", i+1, err)
			}
			return nil, err
		}
		if p.Batch {
			c.ID = fmt.Sprint(i + 1)
		}
		p.Calls = append(p.Calls, c)
	}
	return p, nil
}

func jsonCall(set *toolset.Set, v *ojson.Value) (ParsedCall, error) {
	if v.Kind != ojson.Object {
		return ParsedCall{}, fmt.Errorf("a call is an object {\"name\", \"arguments\"}, not a %s", v.Kind)
	}
	name := v.Get("name").StringOr("")
	if name == "" {
		return ParsedCall{}, errors.New("the call has no \"name\"")
	}
	if set != nil && set.Find(name) == nil {
		return ParsedCall{}, fmt.Errorf("unknown tool %q", name)
	}
	args := v.Get("arguments")
	if args != nil && args.Kind != ojson.Object {
		return ParsedCall{}, fmt.Errorf("\"arguments\" is a %s, want an object", args.Kind)
	}
	return ParsedCall{Tool: name, Arguments: args}, nil
}

// ResultTerm needs convert/call.
func (JSONCodec) ResultTerm(*CallResult, int) (string, error) {
	return "", errors.New("the (ok ...) form needs convert/call")
}

// Format re-prints calls; only JSON is available here.
func (JSONCodec) Format(set *toolset.Set, p *Parsed, syntax string) (string, error) {
	if syntax != "json" {
		return "", fmt.Errorf("%s needs convert/call", syntax)
	}
	return formatJSONCalls(p), nil
}

func formatJSONCalls(p *Parsed) string {
	if len(p.Calls) == 1 && !p.Batch {
		return callParams(p.Calls[0]).Pretty()
	}
	arr := ojson.NewArray()
	for _, c := range p.Calls {
		arr.Items = append(arr.Items, callParams(c))
	}
	return arr.Pretty()
}
