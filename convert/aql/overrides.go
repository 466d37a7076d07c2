package aql

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// Override fixes one tool's category or operation name, or both; a zero
// field keeps what the adapter would have chosen.
type Override struct {
	Category  Category
	Operation string
}

// Overrides is the parsed --aql-map file, keyed by the real tool name. A
// classification is a guess about a server the user may know better; this
// lets them correct it once and have every rendering and call follow.
type Overrides map[string]Override

// MaxOverrideFile bounds the map file; a real one is a few hundred bytes.
const MaxOverrideFile = 1 << 20

// ParseOverrides reads {"tool_name": {"category": "READ", "operation": "name"}}.
// Unknown keys, unknown categories, names that are not snake_case or are
// reserved, and two tools given the same operation are errors that name the
// offending entry.
func ParseOverrides(data []byte) (Overrides, error) {
	if len(data) > MaxOverrideFile {
		return nil, fmt.Errorf("aql map: file is %d bytes, more than the %d allowed", len(data), MaxOverrideFile)
	}
	root, err := ojson.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("aql map: %w", err)
	}
	if root.Kind != ojson.Object {
		return nil, fmt.Errorf("aql map: top level is a %s, want an object {\"tool_name\": {\"category\": ..., \"operation\": ...}}", root.Kind)
	}
	ov := Overrides{}
	byOp := map[string]string{}
	for _, m := range root.Members {
		e := m.Value
		if e.Kind != ojson.Object {
			return nil, fmt.Errorf("aql map: %q: is a %s, want an object with \"category\" and/or \"operation\"", m.Key, e.Kind)
		}
		var o Override
		for _, f := range e.Members {
			switch f.Key {
			case "category":
				if f.Value.Kind != ojson.String {
					return nil, fmt.Errorf("aql map: %q: category is a %s, want a string", m.Key, f.Value.Kind)
				}
				c, ok := ParseCategory(f.Value.Str)
				if !ok {
					return nil, fmt.Errorf("aql map: %q: unknown category %q (want CREATE, READ, UPDATE, DELETE or EXECUTE)", m.Key, f.Value.Str)
				}
				o.Category = c
			case "operation":
				if f.Value.Kind != ojson.String {
					return nil, fmt.Errorf("aql map: %q: operation is a %s, want a string", m.Key, f.Value.Kind)
				}
				name := f.Value.Str
				if !ValidName(name) {
					return nil, fmt.Errorf("aql map: %q: operation %q is not snake_case (^[a-z][a-z0-9_]*$); %q would be", m.Key, name, SnakeName(name))
				}
				if reserved[name] {
					return nil, fmt.Errorf("aql map: %q: operation %q is reserved by the MCP-AQL spec", m.Key, name)
				}
				if prev, dup := byOp[name]; dup {
					return nil, fmt.Errorf("aql map: %q and %q both map to operation %q", prev, m.Key, name)
				}
				byOp[name] = m.Key
				o.Operation = name
			default:
				return nil, fmt.Errorf("aql map: %q: unknown key %q (want \"category\" and/or \"operation\")", m.Key, f.Key)
			}
		}
		ov[m.Key] = o
	}
	return ov, nil
}

// unknownTools lists override keys that name no tool of the server, sorted.
func (ov Overrides) unknownTools(has func(string) bool) []string {
	var out []string
	for k := range ov {
		if !has(k) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// String renders the overrides back as a map file, sorted by tool name, so
// a user can start from what the adapter chose (see Adapter.Overrides).
func (ov Overrides) String() string {
	keys := make([]string, 0, len(ov))
	for k := range ov {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	root := ojson.NewObject()
	for _, k := range keys {
		o := ov[k]
		e := ojson.NewObject()
		if o.Category != "" {
			e.Set("category", ojson.NewString(string(o.Category)))
		}
		if o.Operation != "" {
			e.Set("operation", ojson.NewString(o.Operation))
		}
		root.Set(k, e)
	}
	return strings.TrimSpace(root.Pretty()) + "\n"
}
