package call

import (
	"strconv"
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// notation writes a schema's type in MCP-Term notation (docs/mcp-term.md),
// the language error messages use to say what was expected. Deep types are
// cut to "..." and named ones ($defs) stay names past the first level.
func (c *viewCache) notation(root, s *ojson.Value, depth int) string {
	v := c.get(root, s)
	if v.never {
		return "nothing"
	}
	if depth > 0 && v.name != "" {
		return v.name
	}
	if depth > 2 {
		return "..."
	}
	var base string
	switch {
	case v.constV != nil:
		base = "(const " + valueText(v.constV) + ")"
	case v.hasEnum:
		return enumText(v.enum, 100)
	case v.tag != nil:
		parts := make([]string, len(v.tag.values))
		for i, t := range v.tag.values {
			parts[i] = "(" + headText(t) + " ...)"
		}
		base = "(or " + strings.Join(parts, " ") + ")"
	case len(v.alts) > 0 && !v.ownShape():
		if len(v.alts) == 1 {
			base = c.notation(root, v.alts[0], depth)
			break
		}
		parts := make([]string, len(v.alts))
		for i, a := range v.alts {
			parts[i] = c.notation(root, a, depth+1)
		}
		base = "(or " + strings.Join(parts, " ") + ")"
	default:
		base = c.shapeNotation(root, v, depth)
	}
	if v.nullable && base != "null" && base != "any" {
		return "(opt " + base + ")"
	}
	return base
}

func (c *viewCache) shapeNotation(root *ojson.Value, v *view, depth int) string {
	ts := v.types &^ tNull
	if !v.typed {
		switch {
		case v.record || v.objHint:
			ts = tObject
		case v.arrHint:
			ts = tArray
		default:
			return "any"
		}
	}
	var parts []string
	for _, t := range typeNames {
		if ts&t.bit == 0 {
			continue
		}
		switch t.bit {
		case tBool:
			parts = append(parts, "bool")
		case tNumber, tInteger, tString:
			parts = append(parts, t.name)
		case tArray:
			switch {
			case len(v.prefix) > 0:
				items := make([]string, len(v.prefix))
				for i, p := range v.prefix {
					items[i] = c.notation(root, p, depth+1)
				}
				parts = append(parts, "(tuple "+strings.Join(items, " ")+")")
			default:
				parts = append(parts, "(list "+c.notation(root, v.items, depth+1)+")")
			}
		case tObject:
			parts = append(parts, c.objectNotation(root, v, depth))
		}
	}
	switch len(parts) {
	case 0:
		if v.types&tNull != 0 {
			return "null"
		}
		return "nothing"
	case 1:
		return parts[0]
	}
	return "(or " + strings.Join(parts, " ") + ")"
}

func (c *viewCache) objectNotation(root *ojson.Value, v *view, depth int) string {
	if !v.record {
		return "(map string " + c.notation(root, v.extra, depth+1) + ")"
	}
	if depth >= 2 {
		return "(rec ...)"
	}
	var b strings.Builder
	b.WriteString("(rec")
	opened := false
	for i, p := range v.params {
		if i == 8 {
			b.WriteString(" ...")
			break
		}
		if !p.required && !opened {
			b.WriteString(" (opt")
			opened = true
		}
		b.WriteString(" (")
		b.WriteString(p.name)
		b.WriteByte(' ')
		b.WriteString(c.notation(root, p.schema, depth+1))
		b.WriteByte(')')
	}
	if opened {
		b.WriteByte(')')
	}
	b.WriteByte(')')
	return b.String()
}

// enumText lists allowed values: :a|:b|:c when all are keyword-like strings,
// otherwise (or "New York" 1 nil).
func enumText(vals []*ojson.Value, max int) string {
	allKw := len(vals) > 1
	for _, e := range vals {
		if e.Kind != ojson.String || !sexpr.IsKeywordText(e.Str) {
			allKw = false
			break
		}
	}
	more := ""
	if len(vals) > max {
		more = " ... (" + strconv.Itoa(len(vals)-max) + " more)"
		vals = vals[:max]
	}
	parts := make([]string, len(vals))
	for i, e := range vals {
		if allKw {
			parts[i] = ":" + e.Str
		} else {
			parts[i] = valueText(e)
		}
	}
	if allKw {
		return strings.Join(parts, "|") + more
	}
	if len(parts) == 1 && more == "" {
		return parts[0]
	}
	return "(or " + strings.Join(parts, " ") + more + ")"
}

// valueText writes a JSON value as MCP-Term data, strings as keywords when
// they can be (that is how enum members are written).
func valueText(x *ojson.Value) string {
	if x.Kind == ojson.String && sexpr.IsKeywordText(x.Str) {
		return ":" + x.Str
	}
	n := anyNode(x, 0)
	return clip(n.String())
}

func headText(tag string) string {
	if sexpr.IsSymbolText(tag) {
		return tag
	}
	return sexpr.Str(tag).String()
}
