package call

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// Local references and allOf, resolved the way the validator resolves them,
// with bounds: $ref chains of maxRefHops, allOf towers of maxAllOfParts.

func hasShapeSiblings(s *ojson.Value) bool {
	for _, m := range s.Members {
		if m.Key != "$ref" && !annotationKeys[m.Key] && !strings.HasPrefix(m.Key, "x-") {
			return true
		}
	}
	return false
}

func refAsAllOf(s *ojson.Value) *ojson.Value {
	out := ojson.NewObject()
	parts := []*ojson.Value{ojson.NewObject().Set("$ref", s.Get("$ref"))}
	for _, m := range s.Members {
		switch m.Key {
		case "$ref":
		case "allOf":
			if m.Value.Kind == ojson.Array {
				parts = append(parts, m.Value.Items...)
			}
		default:
			out.Set(m.Key, m.Value)
		}
	}
	return out.Set("allOf", ojson.NewArray(parts...))
}

// deref follows local $refs. It reports false for a chain it cannot follow
// (a remote or dangling ref, a cycle, too many hops): such a slot accepts
// anything and the validator has the last word.
func deref(root, s *ojson.Value) (*ojson.Value, string, bool) {
	name := ""
	for hops := 0; ; hops++ {
		if s == nil || s.Kind != ojson.Object {
			return s, name, s != nil
		}
		ref := s.Get("$ref")
		if ref == nil || ref.Kind != ojson.String {
			return s, name, true
		}
		if hasShapeSiblings(s) {
			return s, name, true // folded by the caller
		}
		if hops >= maxRefHops {
			return nil, "", false
		}
		t, n := resolveRef(root, ref.Str)
		if t == nil {
			return nil, "", false
		}
		s, name = t, n
	}
}

// resolveRef resolves a local JSON Pointer reference ("#", "#/$defs/X").
func resolveRef(root *ojson.Value, ref string) (*ojson.Value, string) {
	if !strings.HasPrefix(ref, "#") {
		return nil, ""
	}
	frag, err := url.PathUnescape(ref[1:])
	if err != nil {
		return nil, ""
	}
	if frag == "" {
		return root, ""
	}
	if !strings.HasPrefix(frag, "/") {
		return nil, "" // $anchor references are left to the validator
	}
	cur := root
	name := ""
	for _, tok := range strings.Split(frag[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch {
		case cur == nil:
			return nil, ""
		case cur.Kind == ojson.Object:
			cur = cur.Get(tok)
		case cur.Kind == ojson.Array:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(cur.Items) {
				return nil, ""
			}
			cur = cur.Items[i]
		default:
			return nil, ""
		}
		name = tok
	}
	return cur, name
}

// mergeAllOf folds allOf members (and their own allOf and $refs) into one
// object schema: properties in order of appearance, required united, type
// narrowed, anything else first-wins. It only decides how values are
// written; the validator still checks every member.
func mergeAllOf(root, s *ojson.Value) *ojson.Value {
	var parts []*ojson.Value
	seen := map[*ojson.Value]bool{}
	var flatten func(x *ojson.Value, depth int)
	flatten = func(x *ojson.Value, depth int) {
		if len(parts) >= maxAllOfParts || depth > 16 {
			return
		}
		x, _, ok := deref(root, x)
		if !ok || x == nil || x.Kind != ojson.Object || seen[x] {
			return
		}
		seen[x] = true
		if x.Has("$ref") && hasShapeSiblings(x) {
			x = refAsAllOf(x)
		}
		parts = append(parts, x)
		if all := x.Get("allOf"); all != nil && all.Kind == ojson.Array {
			for _, m := range all.Items {
				flatten(m, depth+1)
			}
		}
	}
	flatten(s, 0)
	out := ojson.NewObject()
	var props *ojson.Value
	var required []*ojson.Value
	reqSeen := map[string]bool{}
	types := tAll
	typed := false
	for _, p := range parts {
		for _, m := range p.Members {
			switch m.Key {
			case "allOf", "$ref", "$defs", "definitions", "$schema", "$id":
			case "properties":
				if m.Value.Kind != ojson.Object {
					continue
				}
				if props == nil {
					props = ojson.NewObject()
				}
				for _, pm := range m.Value.Members {
					if !props.Has(pm.Key) {
						props.Set(pm.Key, pm.Value)
					}
				}
			case "required":
				if m.Value.Kind != ojson.Array {
					continue
				}
				for _, r := range m.Value.Items {
					if r.Kind == ojson.String && !reqSeen[r.Str] {
						reqSeen[r.Str] = true
						required = append(required, r)
					}
				}
			case "type":
				var ts typeSet
				switch m.Value.Kind {
				case ojson.String:
					ts = typeBit(m.Value.Str)
				case ojson.Array:
					for _, it := range m.Value.Items {
						ts |= typeBit(it.StringOr(""))
					}
				}
				if ts&tNumber != 0 {
					ts |= tInteger
				}
				types &= ts
				typed = true
			default:
				if !out.Has(m.Key) {
					out.Set(m.Key, m.Value)
				}
			}
		}
	}
	if typed {
		names := ojson.NewArray()
		for _, t := range typeNames {
			if types&t.bit != 0 && !(t.bit == tInteger && types&tNumber != 0) {
				names.Items = append(names.Items, ojson.NewString(t.name))
			}
		}
		out.Set("type", names)
	}
	if props != nil {
		out.Set("properties", props)
	}
	if len(required) > 0 {
		out.Set("required", ojson.NewArray(required...))
	}
	return out
}
