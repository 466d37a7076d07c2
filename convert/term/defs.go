package term

import (
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// countUnused records the $defs/definitions entries no reference reached.
func (r *renderer) countUnused(set *toolset.Set) {
	for _, t := range set.Tools {
		for _, root := range []*ojson.Value{t.InputSchema, t.OutputSchema} {
			if root == nil || root.Kind != ojson.Object {
				continue
			}
			for _, key := range []string{"$defs", "definitions"} {
				defs := root.Get(key)
				if defs == nil || defs.Kind != ojson.Object {
					continue
				}
				for _, m := range defs.Members {
					k := defKey{root, "/" + key + "/" + escapePointer(m.Key)}
					if _, ok := r.defByKey[k]; !ok && !r.inlined[k] {
						r.left.add("unused "+key, memberBytes(m.Key, m.Value))
					}
				}
			}
		}
	}
}

func (r *renderer) defFor(root *ojson.Value, ref string) int {
	target, ptr, _ := resolvePointer(root, ref)
	key := defKey{root, ptr}
	if i, ok := r.defByKey[key]; ok {
		return i
	}
	hint := "Root"
	if i := strings.LastIndexByte(ptr, '/'); i >= 0 && i+1 < len(ptr) {
		hint = unescapePointer(ptr[i+1:])
	}
	i := len(r.defs)
	r.defs = append(r.defs, &def{root: root, ptr: ptr, schema: target, hint: hint})
	r.refNodes = append(r.refNodes, nil)
	r.defByKey[key] = i
	return i
}

// refTo returns a placeholder symbol for def i; finish fills in its name.
func (r *renderer) refTo(i int) *sexpr.Node {
	n := sexpr.Sym("")
	r.refNodes[i] = append(r.refNodes[i], n)
	if r.deps != nil {
		*r.deps = append(*r.deps, i)
	}
	return n
}

func (r *renderer) renderDef(i int) {
	d := r.defs[i]
	if d.ready {
		return
	}
	saved := r.deps
	r.deps = &d.deps
	c := ctx{root: d.root, hint: d.hint, top: true}
	s := d.schema
	if s.Kind == ojson.Object && r.localOK(s, c) {
		if desc := s.Get("description"); desc != nil && desc.Kind == ojson.String {
			d.doc = r.fieldDoc(desc.Str)
			s = without(s, "description")
		}
	}
	d.body = r.typeOf(s, c)
	d.ready = true
	r.deps = saved
}

func without(s *ojson.Value, key string) *ojson.Value {
	c := &ojson.Value{Kind: ojson.Object, Members: make([]ojson.Member, 0, len(s.Members))}
	for _, m := range s.Members {
		if m.Key != key {
			c.Members = append(c.Members, m)
		}
	}
	return c
}

// fieldDoc passes a field, type or variant description through, or drops it
// in the lean variant.
func (r *renderer) fieldDoc(s string) string {
	if r.opts.Lean && s != "" {
		r.drop.add("field descriptions", len(s))
		return ""
	}
	return s
}

// finish gives every definition its final name: identical definitions (the
// same $defs block repeated in every tool, or the same type under two names)
// share one deftype, found by partition refinement so that recursive types
// compare correctly; name clashes between different types get numbered.
func (r *renderer) finish() []*sexpr.Node {
	n := len(r.defs)
	if n == 0 {
		r.fixEscapes()
		return nil
	}
	for _, nodes := range r.refNodes {
		for _, x := range nodes {
			x.Text = "§"
		}
	}
	for _, e := range r.escapes {
		for _, ref := range e.refs {
			ref.str.Str = "§"
		}
		e.node.Text = e.val.Compact()
	}
	class := make([]int, n)
	ids := map[string]int{}
	for i, d := range r.defs {
		sig := d.body.String() + "\x00" + d.doc
		id, ok := ids[sig]
		if !ok {
			id = len(ids)
			ids[sig] = id
		}
		class[i] = id
	}
	count := len(ids)
	for iter := 0; iter < n+1; iter++ {
		next := make([]int, n)
		ids = map[string]int{}
		var sb strings.Builder
		for i, d := range r.defs {
			sb.Reset()
			sb.WriteString(itoa(class[i]))
			for _, dep := range d.deps {
				sb.WriteByte(',')
				sb.WriteString(itoa(class[dep]))
			}
			id, ok := ids[sb.String()]
			if !ok {
				id = len(ids)
				ids[sb.String()] = id
			}
			next[i] = id
		}
		class = next
		if len(ids) == count {
			break
		}
		count = len(ids)
	}
	// Name the classes in order of first appearance.
	className := map[int]string{}
	used := map[string]bool{}
	var reps []int
	for i, d := range r.defs {
		if _, ok := className[class[i]]; ok {
			continue
		}
		className[class[i]] = uniqueName(typeName(d.hint, d.ptr != ""), used)
		reps = append(reps, i)
	}
	for i, d := range r.defs {
		d.name = className[class[i]]
		for _, x := range r.refNodes[i] {
			x.Text = d.name
		}
	}
	r.fixEscapes()
	out := make([]*sexpr.Node, 0, len(reps))
	for _, i := range reps {
		d := r.defs[i]
		dt := sexpr.L(sexpr.Sym("deftype"), sexpr.Sym(d.name), d.body)
		if d.doc != "" {
			dt.Items = append(dt.Items, sexpr.Str(d.doc))
		}
		out = append(out, dt)
	}
	return out
}

func (r *renderer) fixEscapes() {
	for _, e := range r.escapes {
		for _, ref := range e.refs {
			ref.str.Str = "#/$defs/" + escapePointer(r.defs[ref.def].name)
		}
		e.node.Text = e.val.Compact()
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	p := len(b)
	for i > 0 {
		p--
		b[p] = byte('0' + i%10)
		i /= 10
	}
	return string(b[p:])
}

// typeName turns a hint (a $defs key, a property name) into a deftype name.
// $defs keys are kept as written when they are usable; other hints are
// CamelCased.
func typeName(hint string, keep bool) string {
	if keep && validTypeName(hint) {
		return hint
	}
	var b strings.Builder
	for _, r := range hint {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '.', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	s := b.String()
	if !keep {
		var cb strings.Builder
		for _, w := range words(hint) {
			cb.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
		s = cb.String()
	}
	if s == "" {
		s = "T"
	}
	if c := s[0]; !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_') {
		s = "T" + s
	}
	if !validTypeName(s) {
		s += "_"
	}
	return s
}

// validTypeName: deftype names are plain identifiers so that they read as
// symbols and need no escaping inside a JSON pointer.
func validTypeName(s string) bool {
	if s == "" || len(s) > 100 || reservedTypeNames[s] || typeHeads[s] {
		return false
	}
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r == '_':
		case (r >= '0' && r <= '9' || r == '.' || r == '-') && i > 0:
		default:
			return false
		}
	}
	return sexpr.IsSymbolText(s)
}

func uniqueName(base string, used map[string]bool) string {
	name := base
	for k := 2; used[name]; k++ {
		name = base + itoa(k)
	}
	used[name] = true
	return name
}

// singular makes an array property's name into its element's type name.
func singular(s string) string {
	switch {
	case strings.HasSuffix(s, "ies") && len(s) > 3:
		return s[:len(s)-3] + "y"
	case strings.HasSuffix(s, "sses"), strings.HasSuffix(s, "xes"), strings.HasSuffix(s, "ches"), strings.HasSuffix(s, "shes"):
		return s[:len(s)-2]
	case strings.HasSuffix(s, "ss"):
		return s
	case strings.HasSuffix(s, "s") && len(s) > 1:
		return s[:len(s)-1]
	}
	return s
}
