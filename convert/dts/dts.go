// Package dts renders a tool list as TypeScript declarations, the other
// compact form the MCP-Term design notes compare against. It is a reading
// aid and a token-count baseline, not a lossless form: constraints become
// JSDoc tags and some keywords are not carried at all.
package dts

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/term"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// maxDepth bounds nesting; deeper types print as unknown.
const maxDepth = 64

// Render returns the declarations: one type alias per shared type, then an
// interface Tools with one method per tool.
//
// The tool list goes through MCP-Term first, so references are already
// resolved to deduplicated, uniquely named types, with the same names the
// MCP-Term form uses.
//
// Like the json baseline it carries only what a model receives: name,
// description and input schema; RenderFull adds titles, annotation tags and
// return types from outputSchema.
func Render(set *toolset.Set) (string, error) { return render(set, true) }

// RenderFull renders the whole tool, for reading rather than counting.
func RenderFull(set *toolset.Set) (string, error) { return render(set, false) }

func render(set *toolset.Set, modelFacing bool) (string, error) {
	doc, err := term.Render(set, term.Options{ModelFacing: modelFacing})
	if err != nil {
		return "", err
	}
	canon, err := term.Parse(doc.Text)
	if err != nil {
		return "", fmt.Errorf("dts: %w", err)
	}
	w := &writer{names: map[string]string{}, used: map[string]bool{}}
	defs := map[string]*ojson.Value{}
	var order []string
	for _, t := range canon.Tools {
		for _, s := range []*ojson.Value{t.InputSchema, t.OutputSchema} {
			if d := s.Get("$defs"); d != nil && d.Kind == ojson.Object {
				for _, m := range d.Members {
					if _, ok := defs[m.Key]; !ok {
						defs[m.Key] = m.Value
						order = append(order, m.Key)
					}
				}
			}
		}
	}
	sort.Strings(order)
	for _, name := range order {
		w.names[name] = w.ident(name)
	}
	var b strings.Builder
	for _, name := range order {
		s := defs[name]
		if d := s.Get("description").StringOr(""); d != "" {
			b.WriteString(comment(d, ""))
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "type %s = %s;\n", w.names[name], w.typ(s, 0))
	}
	b.WriteString("interface Tools {\n")
	for _, t := range canon.Tools {
		var tags []string
		if t.Title != "" {
			tags = append(tags, "@title "+t.Title)
		}
		a := t.Annotations
		for _, h := range []struct {
			v   *bool
			tag string
		}{{a.ReadOnlyHint, "@readOnly"}, {a.DestructiveHint, "@destructive"}, {a.IdempotentHint, "@idempotent"}, {a.OpenWorldHint, "@openWorld"}} {
			if h.v != nil {
				tags = append(tags, fmt.Sprintf("%s %t", h.tag, *h.v))
			}
		}
		doc := t.Description
		if len(tags) > 0 {
			if doc != "" {
				doc += "\n"
			}
			doc += strings.Join(tags, "\n")
		}
		if doc != "" {
			b.WriteString(comment(doc, "  "))
			b.WriteByte('\n')
		}
		out := "unknown"
		if t.OutputSchema != nil {
			out = w.typ(t.OutputSchema, 0)
		}
		fmt.Fprintf(&b, "  %s(args: %s): %s;\n", propName(t.Name), w.typ(t.InputSchema, 0), out)
	}
	b.WriteString("}\n")
	return term.EscapeHidden(b.String()), nil
}

type writer struct {
	names map[string]string // $defs name -> TypeScript name
	used  map[string]bool
}

func (w *writer) ident(name string) string {
	var b strings.Builder
	for i, r := range name {
		if r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || (i > 0 && r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	s := b.String()
	if s == "" || reserved[s] {
		s = "T" + s
	}
	base := s
	for k := 2; w.used[s]; k++ {
		s = fmt.Sprintf("%s%d", base, k)
	}
	w.used[s] = true
	return s
}

var reserved = map[string]bool{
	"string": true, "number": true, "boolean": true, "unknown": true, "never": true, "null": true,
	"object": true, "any": true, "Tools": true, "Record": true, "Partial": true, "type": true,
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || (i > 0 && r >= '0' && r <= '9')) {
			return false
		}
	}
	return true
}

func propName(s string) string {
	if isIdent(s) {
		return s
	}
	return ojson.Quote(s)
}

// comment writes a JSDoc block; "*/" inside text is broken up.
func comment(text, indent string) string {
	text = strings.ReplaceAll(text, "*/", "*\\/")
	lines := strings.Split(text, "\n")
	if len(lines) == 1 {
		return indent + "/** " + text + " */"
	}
	var b strings.Builder
	b.WriteString(indent + "/**")
	for _, l := range lines {
		b.WriteString("\n" + indent + " * " + l)
	}
	b.WriteString("\n" + indent + " */")
	return b.String()
}

func (w *writer) typ(s *ojson.Value, depth int) string {
	if s == nil || depth > maxDepth {
		return "unknown"
	}
	if s.Kind == ojson.Bool {
		if s.Bool {
			return "unknown"
		}
		return "never"
	}
	if s.Kind != ojson.Object {
		return "unknown"
	}
	if ref := s.Get("$ref").StringOr(""); ref != "" {
		if name, ok := strings.CutPrefix(ref, "#/$defs/"); ok {
			if ts, ok := w.names[name]; ok {
				return ts
			}
		}
		return "unknown"
	}
	if c := s.Get("const"); c != nil {
		return literal(c)
	}
	if e := s.Get("enum"); e != nil && e.Kind == ojson.Array && len(e.Items) > 0 {
		parts := make([]string, len(e.Items))
		for i, it := range e.Items {
			parts[i] = literal(it)
		}
		return strings.Join(parts, " | ")
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if a := s.Get(k); a != nil && a.Kind == ojson.Array && len(a.Items) > 0 {
			return w.join(a.Items, " | ", depth)
		}
	}
	if a := s.Get("allOf"); a != nil && a.Kind == ojson.Array && len(a.Items) > 0 {
		return w.join(a.Items, " & ", depth)
	}
	if s.Has("not") && len(s.Members) == 1 && len(s.Get("not").Members) == 0 {
		return "never"
	}
	t := s.Get("type")
	if t != nil && t.Kind == ojson.Array {
		parts := make([]string, 0, len(t.Items))
		for _, it := range t.Items {
			c := s.Clone()
			c.Set("type", it)
			parts = append(parts, w.typ(c, depth+1))
		}
		return strings.Join(parts, " | ")
	}
	switch t.StringOr("") {
	case "string":
		return "string"
	case "number", "integer":
		return "number"
	case "boolean":
		return "boolean"
	case "null":
		return "null"
	case "array":
		if pi := s.Get("prefixItems"); pi != nil && pi.Kind == ojson.Array {
			parts := make([]string, len(pi.Items))
			for i, it := range pi.Items {
				parts[i] = w.typ(it, depth+1)
			}
			return "[" + strings.Join(parts, ", ") + "]"
		}
		it := s.Get("items")
		if it == nil {
			return "unknown[]"
		}
		inner := w.typ(it, depth+1)
		if strings.ContainsAny(inner, "|&") && !strings.HasPrefix(inner, "{") {
			inner = "(" + inner + ")"
		}
		return inner + "[]"
	case "object", "":
		if s.Has("properties") || t != nil || s.Has("additionalProperties") {
			return w.object(s, depth)
		}
	}
	return "unknown"
}

func (w *writer) join(items []*ojson.Value, sep string, depth int) string {
	parts := make([]string, len(items))
	for i, it := range items {
		parts[i] = w.typ(it, depth+1)
	}
	return strings.Join(parts, sep)
}

func (w *writer) object(s *ojson.Value, depth int) string {
	props := s.Get("properties")
	req := map[string]bool{}
	if r := s.Get("required"); r != nil && r.Kind == ojson.Array {
		for _, it := range r.Items {
			req[it.StringOr("")] = true
		}
	}
	var fields []string
	if props != nil && props.Kind == ojson.Object {
		for _, p := range props.Members {
			f := ""
			if doc := fieldDoc(p.Value); doc != "" {
				f = comment(doc, "") + " "
			}
			opt := "?"
			if req[p.Key] {
				opt = ""
			}
			fields = append(fields, f+propName(p.Key)+opt+": "+w.typ(p.Value, depth+1))
		}
	}
	if ap := s.Get("additionalProperties"); ap != nil && !(ap.Kind == ojson.Bool && !ap.Bool) {
		v := w.typ(ap, depth+1)
		if props == nil {
			if pn := s.Get("propertyNames"); pn != nil {
				return "Partial<Record<" + w.typ(pn, depth+1) + ", " + v + ">>"
			}
			return "Record<string, " + v + ">"
		}
		fields = append(fields, "[key: string]: "+v)
	}
	if len(fields) == 0 {
		return "{}"
	}
	return "{ " + strings.Join(fields, "; ") + " }"
}

// fieldDoc is a property's description plus its constraints as JSDoc tags.
func fieldDoc(s *ojson.Value) string {
	if s.Kind != ojson.Object {
		return ""
	}
	var parts []string
	if d := s.Get("description").StringOr(""); d != "" {
		parts = append(parts, d)
	}
	for _, k := range []string{"format", "pattern", "minLength", "maxLength", "minimum", "maximum",
		"exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "uniqueItems", "default"} {
		if v := s.Get(k); v != nil {
			parts = append(parts, "@"+k+" "+v.Compact())
		}
	}
	return strings.Join(parts, " ")
}

func literal(v *ojson.Value) string { return v.Compact() }
