package aql

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mcpterm/mcpterm/convert/nearest"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// maxFields bounds a projection's path list.
const maxFields = 256

// arguments validates an operation's params and builds the upstream call.
// Checks run in the spec's order (operations.md 5.4): unknown names first,
// so a typo is reported as such rather than as a missing parameter, then
// missing required ones, then top-level JSON types. Deeper checks (enum,
// ranges, nested shapes) are left to the server, whose own error comes back
// wrapped.
func (op *Operation) arguments(params *ojson.Value) (*ToolCall, []string, *Error) {
	got := map[string]*ojson.Value{} // by real name
	spelled := map[string]string{}   // real name -> how the request spelled it
	var extra []ojson.Member         // undeclared names an open schema takes
	var unknown, dups []string
	var fields []string
	var input *ojson.Value

	take := func(key string, p *Param, v *ojson.Value) {
		if prev, dup := spelled[p.Real]; dup {
			dups = append(dups, fmt.Sprintf("%s (also given as %s)", key, prev))
			return
		}
		spelled[p.Real] = key
		got[p.Real] = v
	}
	for _, m := range params.Members {
		if p, _ := op.param(m.Key); p != nil {
			take(m.Key, p, m.Value)
			continue
		}
		switch {
		case m.Key == "fields" && op.Fields:
			fs, aerr := parseFields(op.Name, m.Value)
			if aerr != nil {
				return nil, nil, aerr
			}
			fields = fs
		case m.Key == "input" && op.Input:
			input = m.Value
		case strings.HasPrefix(m.Key, "_"):
			// metadata (_meta, _request_id): exempt from validation, not forwarded
		case op.Open:
			extra = append(extra, m)
		default:
			unknown = append(unknown, m.Key)
		}
	}
	if len(unknown) > 0 {
		return nil, nil, unknownParams(op.Name, unknown, op.ValidParams())
	}
	if input != nil && input.Kind != ojson.Null {
		if input.Kind != ojson.Object {
			return nil, nil, invalidType(op.Name, "input", "object", input)
		}
		var unknownIn []string
		for _, m := range input.Members {
			if p, _ := op.param(m.Key); p != nil {
				take("input."+m.Key, p, m.Value)
			} else if op.Open {
				extra = append(extra, m)
			} else {
				unknownIn = append(unknownIn, m.Key)
			}
		}
		if len(unknownIn) > 0 {
			valid := make([]string, 0, len(op.Params))
			for _, p := range op.Params {
				valid = append(valid, p.Name)
			}
			return nil, nil, errorf(CodeUnknownField, details("operation", op.Name, "unknown_fields", unknownIn, "valid_fields", valid),
				"Unknown field(s) in input for operation '%s': %s", op.Name, strings.Join(unknownIn, ", "))
		}
	}
	if len(dups) > 0 {
		return nil, nil, errorf(CodeUnknownParam, details("operation", op.Name, "unknown_params", dups, "valid_params", op.ValidParams()),
			"Parameter(s) given twice for operation '%s': %s", op.Name, strings.Join(dups, ", "))
	}
	var missing []string
	var first *Param
	for i, p := range op.Params {
		if p.Required && got[p.Real] == nil {
			missing = append(missing, p.Name)
			if first == nil {
				first = &op.Params[i]
			}
		}
	}
	if first != nil {
		msg := fmt.Sprintf("Missing required parameter '%s'. Expected: %s", first.Name, op.expects(first))
		return nil, nil, &Error{Code: CodeMissingParam, Message: msg,
			Details: details("param_name", first.Name, "operation", op.Name, "missing_params", missing)}
	}
	args := ojson.NewObject()
	for _, p := range op.Params {
		v := got[p.Real]
		if v == nil {
			continue
		}
		if p.types != nil && !typeMatches(kindType(v), p.types) {
			return nil, nil, invalidType(op.Name, p.Name, strings.Join(p.types, " | "), v)
		}
		args.Set(p.Real, v)
	}
	for _, m := range extra {
		if !args.Has(m.Key) {
			args.Set(m.Key, m.Value)
		}
	}
	return &ToolCall{Name: op.Tool.Name, Arguments: args}, fields, nil
}

// expects is the "Expected: type (description)" the spec recommends in
// missing-parameter messages, the description cut short.
func (op *Operation) expects(p *Param) string {
	t := "any"
	if p.types != nil {
		t = strings.Join(p.types, " | ")
	}
	res, _, _ := op.ctx.deref(p.Schema)
	d := p.Schema.Get("description").StringOr(res.Get("description").StringOr(""))
	if d = brief(d); d != "" {
		return t + " (" + d + ")"
	}
	return t
}

// parseFields reads params.fields: an array of dot paths, or the preset
// "full" (no projection). Other presets need knowledge of the server's data
// the adapter does not have, so they are refused with a pointer to paths.
func parseFields(op string, v *ojson.Value) ([]string, *Error) {
	switch v.Kind {
	case ojson.Null:
		return nil, nil
	case ojson.String:
		if v.Str == "full" {
			return nil, nil
		}
		return nil, errorf(CodeInvalidType, details("param_name", "fields", "expected_type", "array", "actual_type", "string", "value", v.Str, "operation", op),
			"Parameter 'fields' expected 'array' of dot paths; the only preset available through this adapter is \"full\"")
	case ojson.Array:
		if len(v.Items) > maxFields {
			return nil, errorf(CodePayloadTooLarge, details("limit_type", "array_elements", "limit_value", maxFields, "actual_value", len(v.Items), "unit", "elements"),
				"Parameter 'fields' exceeds array_elements limit of %d", maxFields)
		}
		out := make([]string, 0, len(v.Items))
		for i, it := range v.Items {
			if it.Kind != ojson.String || it.Str == "" {
				return nil, errorf(CodeInvalidType, details("param_name", fmt.Sprintf("fields[%d]", i), "expected_type", "string", "actual_type", kindType(it), "operation", op),
					"Parameter 'fields[%d]' expected a non-empty 'string' dot path, got '%s'", i, kindType(it))
			}
			out = append(out, it.Str)
		}
		return out, nil
	}
	return nil, invalidType(op, "fields", "array", v)
}

// notFound builds NOT_FOUND_OPERATION with did-you-mean suggestions: the
// operation a real tool name maps to, the snake form of what was asked, and
// near spellings.
func (a *Adapter) notFound(name string) *Error {
	names := []string{"introspect"}
	for _, op := range a.Ops {
		if a.suggestable(op) {
			names = append(names, op.Name)
		}
	}
	var sugg []string
	addS := func(s string) {
		for _, x := range sugg {
			if x == s {
				return
			}
		}
		sugg = append(sugg, s)
	}
	if op := a.byTool[name]; op != nil && a.suggestable(op) {
		addS(op.Name)
	}
	if op := a.byName[SnakeName(name)]; op != nil && a.suggestable(op) {
		addS(op.Name)
	}
	if len(name) <= 128 {
		type cand struct {
			name string
			d    int
		}
		var cs []cand
		limit := len(name)/3 + 1
		if limit > 4 {
			limit = 4
		}
		for _, n := range names {
			if d := nearest.Distance(name, n, limit); d <= limit {
				cs = append(cs, cand{n, d})
			}
		}
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
		for _, x := range cs {
			addS(x.name)
		}
	}
	if len(sugg) > 3 {
		sugg = sugg[:3]
	}
	d := details("operation", name)
	msg := fmt.Sprintf("Unknown operation: '%s'.", name)
	if len(sugg) > 0 {
		d.Set("did_you_mean", strArray(sugg))
		msg += fmt.Sprintf(" Did you mean '%s'?", sugg[0])
	}
	if len(names) <= 30 {
		d.Set("available", strArray(names))
	}
	via := SingleTool
	if a.Mode == Semantic {
		via = Read.Tool()
	}
	msg += fmt.Sprintf(` List operations with {"operation":"introspect","params":{"query":"operations"}} via %s.`, via)
	return &Error{Code: CodeNotFoundOp, Message: msg, Details: d}
}
