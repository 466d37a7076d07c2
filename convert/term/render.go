package term

import (
	"fmt"
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// Options select a rendering. The zero value is the lossless form.
type Options struct {
	// Lean cuts tool descriptions to their first sentence and drops the
	// descriptions and titles inside schemas; Document.Dropped says what
	// went. Validation is unaffected: only annotations are dropped.
	Lean bool
	// ModelFacing renders only what an LLM API receives for a tool — name,
	// description, input schema — so the form compares like for like with the
	// json baseline. Title, annotations and outputSchema are then left out and
	// counted in LeftOut; without it the document carries the whole tool.
	ModelFacing bool
	// Codes, when set, gives tools their short codes instead of computing
	// them from this set's names — so one tool rendered alone keeps the code
	// it has in its whole server's document.
	Codes map[string]string
}

// Omission is one kind of content a rendering did not carry, so callers can
// say what a compact form costs instead of hiding it.
type Omission struct {
	What  string // the key ("$schema", "x-foo", "icons") or kind ("field descriptions")
	Count int
	Bytes int // size in the server's minified JSON (or, for text, its UTF-8 bytes)
}

// Document is a rendered tool list plus the account of what it left out.
type Document struct {
	Text  string
	Codes map[string]string // tool name -> short code
	// LeftOut lists what is not model-facing and therefore never rendered
	// ($schema, icons, _meta, x-*, execution, unused $defs).
	LeftOut []Omission
	// Dropped lists what the lean variant removed on purpose.
	Dropped []Omission
}

// maxSchemaDepth bounds inline nesting. Each schema level costs up to four
// list levels in the printed form, and the reader stops at 200, so anything
// deeper is written as a raw JSON escape (a single string).
const maxSchemaDepth = 40

// maxOutputFactor bounds a document's size relative to its tool JSON.
const maxOutputFactor = 16

// maxDataDepth bounds nesting of defaults, examples and other literal data
// written as lists; deeper data becomes (json "...").
const maxDataDepth = 24

// Render converts a whole tool list to one MCP-Term document. It works on
// the whole list at once because deftypes are shared across tools: a $defs
// block every tool repeats is written once, and short codes must be unique
// within the server. It fails only when the document would grow far beyond
// the input (schemas that point into themselves over and over).
func Render(set *toolset.Set, opts Options) (*Document, error) {
	r := newRenderer(opts)
	names := make([]string, len(set.Tools))
	for i, t := range set.Tools {
		names[i] = t.Name
	}
	codes := ShortCodes(names)
	for name, code := range opts.Codes {
		if _, ok := codes[name]; ok {
			codes[name] = code
		}
	}
	tools := make([]*sexpr.Node, len(set.Tools))
	for i, t := range set.Tools {
		tools[i] = r.tool(t, codes[t.Name])
	}
	for i := 0; i < len(r.defs); i++ {
		r.renderDef(i)
	}
	r.countUnused(set)
	deftypes := r.finish()
	deftypes = r.extractReused(tools, deftypes)
	deftypes = orderByUse(tools, deftypes)

	var b strings.Builder
	for _, g := range Groups(set) {
		b.WriteString("(declare")
		if g.Server != "" {
			b.WriteString(" :server ")
			b.WriteString(nameNode(g.Server).String())
		}
		for _, i := range g.Tools {
			b.WriteString("\n ")
			b.WriteString(tools[i].String())
		}
		b.WriteString(")\n")
	}
	for _, d := range deftypes {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	text := EscapeHidden(b.String())
	// Output stays proportional to input; the bound is far above what
	// any real schema needs (pointer references into nested schemas are the
	// only thing rendered twice).
	if len(text) > 1<<16 {
		in := 0
		for _, t := range set.Tools {
			in += approxSize(t.Raw, 0) + approxSize(t.InputSchema, 0)
		}
		if limit := maxOutputFactor*in + 1<<16; len(text) > limit {
			return nil, fmt.Errorf("term: rendering would take %d bytes for about %d bytes of tool JSON (limit %d); the schemas refer into themselves too many times", len(text), in, limit)
		}
	}
	return &Document{Text: text, Codes: codes, LeftOut: r.left.list(), Dropped: r.drop.list()}, nil
}

// approxSize is about the minified JSON size of v, without building it.
func approxSize(v *ojson.Value, depth int) int {
	if v == nil || depth > ojson.MaxDepth {
		return 0
	}
	switch v.Kind {
	case ojson.String:
		return len(v.Str) + 2
	case ojson.Number:
		return len(v.Num)
	case ojson.Array:
		n := 2
		for _, it := range v.Items {
			n += approxSize(it, depth+1) + 1
		}
		return n
	case ojson.Object:
		n := 2
		for _, m := range v.Members {
			n += len(m.Key) + 4 + approxSize(m.Value, depth+1)
		}
		return n
	}
	return 4
}

// tally accumulates omissions by key, in first-seen order.
type tally struct {
	idx   map[string]int
	items []Omission
}

func (t *tally) add(what string, bytes int) {
	if t.idx == nil {
		t.idx = map[string]int{}
	}
	i, ok := t.idx[what]
	if !ok {
		i = len(t.items)
		t.idx[what] = i
		t.items = append(t.items, Omission{What: what})
	}
	t.items[i].Count++
	t.items[i].Bytes += bytes
}

func (t *tally) list() []Omission { return t.items }

func memberBytes(k string, v *ojson.Value) int { return len(ojson.Quote(k)) + 1 + len(v.Compact()) }

type defKey struct {
	root *ojson.Value
	ptr  string
}

// def is one named type: a $defs entry (or any other $ref target), a tagged
// union, or a reused record.
type def struct {
	root   *ojson.Value
	ptr    string
	schema *ojson.Value
	hint   string
	body   *sexpr.Node
	doc    string
	deps   []int
	ready  bool // body already built (tagged unions)
	name   string
}

type escapeFix struct {
	node *sexpr.Node // the string node inside (json "...")
	val  *ojson.Value
	refs []escapeRef
}

type escapeRef struct {
	str *ojson.Value
	def int
}

type renderer struct {
	opts     Options
	left     tally
	drop     tally
	defs     []*def
	defByKey map[defKey]int
	refNodes [][]*sexpr.Node
	escapes  []*escapeFix
	deps     *[]int
	inlined  map[defKey]bool // $defs entries used as a whole input schema
}

func newRenderer(opts Options) *renderer {
	return &renderer{opts: opts, defByKey: map[defKey]int{}, inlined: map[defKey]bool{}}
}

type ctx struct {
	root  *ojson.Value
	depth int
	hint  string
	top   bool // the schema is a def's own body
}

func (c ctx) in(hint string) ctx {
	return ctx{root: c.root, depth: c.depth + 1, hint: hint}
}

// ---- tools ----

var toolKnownKeys = set("name", "title", "description", "inputSchema", "input_schema", "outputSchema", "annotations")
var toolLeftOut = set("icons", "_meta")

// taskSupports are the execution.taskSupport values written :task WORD; any
// other execution object goes into the tool's (json ...) as it is.
var taskSupports = set("required", "optional", "forbidden")

// taskSupportOf is WORD of an execution that is exactly
// {"taskSupport": WORD} with WORD one of taskSupports, or "".
func taskSupportOf(ex *ojson.Value) string {
	if ex == nil || ex.Kind != ojson.Object || len(ex.Members) != 1 || ex.Members[0].Key != "taskSupport" {
		return ""
	}
	if v := ex.Members[0].Value; v.Kind == ojson.String && taskSupports[v.Str] {
		return v.Str
	}
	return ""
}

// taskFlag is the :task flag of a tool that can run as a task. The
// default, forbidden, is not written: an execution saying only that is
// accounted as left out, and reads back as no execution, which means the
// same.
func taskFlag(ex *ojson.Value) []*sexpr.Node {
	if w := taskSupportOf(ex); w != "" && w != "forbidden" {
		return []*sexpr.Node{sexpr.Kw("task"), sexpr.Sym(w)}
	}
	return nil
}

func (r *renderer) tool(t *toolset.Tool, code string) *sexpr.Node {
	n := sexpr.L(sexpr.Sym(code), nameNode(t.Name))
	in := t.InputSchema
	c := ctx{root: in, hint: t.Name}
	in = r.unwrapRootRef(in)
	if in.Kind == ojson.Object && in.Get("type").StringOr("") == "object" && r.localOK(in, c) {
		m := normalize(r.strip(in))
		items, rest := r.recContent(m, c, "")
		n.Items = append(n.Items, items...)
		var pairs []*sexpr.Node
		for _, mb := range rest {
			if mb.Key == "type" {
				continue
			}
			pairs = append(pairs, r.pair(mb, c)...)
		}
		if len(pairs) > 0 {
			n.Items = append(n.Items, sexpr.L(append([]*sexpr.Node{sexpr.Sym("in")}, pairs...)...))
		}
	} else {
		n.Items = append(n.Items, sexpr.L(sexpr.Sym("input"), r.typeOf(in, c)))
	}
	if r.opts.ModelFacing {
		r.leaveOutToolExtras(t)
		return r.describe(n, t)
	}
	if t.OutputSchema != nil {
		oc := ctx{root: t.OutputSchema, hint: t.Name + "Result"}
		out := r.typeOf(t.OutputSchema, oc)
		if out.Kind == sexpr.Keyword || out.Kind == sexpr.Bool {
			out = sexpr.L(sexpr.Sym("const"), out)
		}
		n.Items = append(n.Items, sexpr.Sym("->"), out)
	}
	extra := ojson.NewObject()
	if raw := t.Raw; raw != nil && raw.Kind == ojson.Object {
		if a := raw.Get("annotations"); a != nil {
			if a.Kind != ojson.Object {
				extra.Set("annotations", a)
			} else {
				n.Items = append(n.Items, flags(a)...)
				rest := ojson.NewObject()
				for _, m := range a.Members {
					if _, isHint := hintFlags[m.Key]; isHint && m.Value.Kind == ojson.Bool {
						continue
					}
					rest.Set(m.Key, m.Value)
				}
				if len(rest.Members) > 0 {
					extra.Set("annotations", rest)
				}
			}
		}
		// execution says how the tool may be called (task-augmented or
		// not): behaviour, so the whole form keeps it.
		task := taskFlag(raw.Get("execution"))
		n.Items = append(n.Items, task...)
		for _, m := range raw.Members {
			switch {
			case toolKnownKeys[m.Key]:
			case m.Key == "execution" && task != nil:
			case toolLeftOut[m.Key] || strings.HasPrefix(m.Key, "x-") || m.Key == "execution" && taskSupportOf(m.Value) == "forbidden":
				r.left.add(m.Key, memberBytes(m.Key, m.Value))
			default:
				extra.Set(m.Key, m.Value)
			}
		}
		if tv := raw.Get("title"); tv != nil && tv.Kind != ojson.String {
			extra.Set("title", tv)
		}
		if dv := raw.Get("description"); dv != nil && dv.Kind != ojson.String {
			extra.Set("description", dv)
		}
	}
	if t.Title != "" {
		n.Items = append(n.Items, sexpr.Kw("title"), sexpr.Str(t.Title))
	}
	if len(extra.Members) > 0 {
		n.Items = append(n.Items, sexpr.L(sexpr.Sym("json"), sexpr.Str(extra.Compact())))
	}
	return r.describe(n, t)
}

// leaveOutToolExtras counts the members of a tool that the model-facing form
// does not carry, so the account of what was left out stays complete.
func (r *renderer) leaveOutToolExtras(t *toolset.Tool) {
	raw := t.Raw
	if raw == nil || raw.Kind != ojson.Object {
		return
	}
	for _, m := range raw.Members {
		switch {
		case m.Key == "name" || m.Key == "description" || m.Key == "inputSchema" || m.Key == "input_schema":
		default:
			r.left.add(m.Key, memberBytes(m.Key, m.Value))
		}
	}
}

// describe appends the tool's description, cut to one sentence when lean.
func (r *renderer) describe(n *sexpr.Node, t *toolset.Tool) *sexpr.Node {
	if t.Description != "" {
		desc := t.Description
		if r.opts.Lean {
			short := FirstSentence(desc)
			if len(short) < len(desc) {
				r.drop.add("tool description beyond the first sentence", len(desc)-len(short))
			}
			desc = short
		}
		n.Items = append(n.Items, sexpr.Str(desc))
	}
	return n
}

// hintFlags maps annotation hints to their flag names.
var hintFlags = map[string]string{
	"readOnlyHint": "ro", "destructiveHint": "destructive", "idempotentHint": "idempotent", "openWorldHint": "open-world",
}

var hintOrder = []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}

func flags(a *ojson.Value) []*sexpr.Node {
	var out []*sexpr.Node
	for _, h := range hintOrder {
		v := a.Get(h)
		if v == nil || v.Kind != ojson.Bool {
			continue
		}
		f := hintFlags[h]
		if !v.Bool {
			f = "not-" + f
		}
		out = append(out, sexpr.Kw(f))
	}
	return out
}

// nameNode prints a tool name bare when it reads back as the same symbol.
func nameNode(name string) *sexpr.Node {
	if sexpr.IsSymbolText(name) && plain(name) && name != "->" {
		return sexpr.Sym(name)
	}
	return sexpr.Str(name)
}

// paramName prints a property name bare unless it could be mistaken for a
// type form or a number.
func paramName(name string) *sexpr.Node {
	if sexpr.IsSymbolText(name) && plain(name) && !typeHeads[name] && !reservedTypeNames[name] {
		return sexpr.Sym(name)
	}
	return sexpr.Str(name)
}

// unwrapRootRef follows an input schema that is only a $ref (as some
// generators write it) to the object it names.
func (r *renderer) unwrapRootRef(s *ojson.Value) *ojson.Value {
	root := s
	for i := 0; i < 8 && s != nil && s.Kind == ojson.Object; i++ {
		ref := s.Get("$ref")
		if ref == nil || ref.Kind != ojson.String {
			return s
		}
		for _, m := range s.Members {
			switch {
			case m.Key == "$ref", m.Key == "$defs", m.Key == "definitions", leftOutKey(m.Key):
			default:
				return s
			}
		}
		t, ptr, ok := resolvePointer(root, ref.Str)
		if !ok || t == s || t.Kind != ojson.Object {
			return s
		}
		r.inlined[defKey{root, ptr}] = true
		s = t
	}
	return s
}

// strip removes keys that are not model-facing, counting them. The lean
// variant also drops descriptions and titles here, before anything decides
// how to write the rest.
func (r *renderer) strip(s *ojson.Value) []ojson.Member {
	out := make([]ojson.Member, 0, len(s.Members))
	for _, m := range s.Members {
		if leftOutKey(m.Key) {
			r.left.add(m.Key, memberBytes(m.Key, m.Value))
			continue
		}
		if r.opts.Lean && m.Value.Kind == ojson.String {
			switch m.Key {
			case "description":
				r.drop.add("field descriptions", len(m.Value.Str))
				continue
			case "title":
				r.drop.add("field titles", len(m.Value.Str))
				continue
			}
		}
		out = append(out, m)
	}
	return out
}

// localOK checks the things that force a schema into a raw JSON escape:
// keys MCP-Term cannot spell, references it cannot follow, values of the
// wrong shape, and nesting beyond the printable depth.
func (r *renderer) localOK(s *ojson.Value, c ctx) bool {
	if c.depth > maxSchemaDepth {
		return false
	}
	if s.Kind == ojson.Bool {
		return true
	}
	if s.Kind != ojson.Object {
		return false
	}
	for _, m := range s.Members {
		k, v := m.Key, m.Value
		if leftOutKey(k) {
			continue
		}
		if !sexpr.IsKeywordText(k) || !plain(k) {
			return false
		}
		switch k {
		case "$ref":
			if v.Kind != ojson.String {
				return false
			}
			if _, _, ok := resolvePointer(c.root, v.Str); !ok {
				return false
			}
			continue
		case "$dynamicRef", "$recursiveRef", "$dynamicAnchor", "$recursiveAnchor":
			return false
		case "items":
			if v.Kind == ojson.Array {
				if s.Has("prefixItems") {
					return false
				}
				for _, it := range v.Items {
					if it.Kind != ojson.Object && it.Kind != ojson.Bool {
						return false
					}
				}
				continue
			}
		case "dependencies":
			if v.Kind != ojson.Object || s.Has("dependentRequired") || s.Has("dependentSchemas") {
				return false
			}
			for _, d := range v.Members {
				if d.Value.Kind != ojson.Array && d.Value.Kind != ojson.Object && d.Value.Kind != ojson.Bool {
					return false
				}
			}
			continue
		case "type":
			if !validTypeValue(v) {
				return false
			}
			continue
		}
		switch classOf(k) {
		case kwSchema:
			if v.Kind != ojson.Object && v.Kind != ojson.Bool {
				return false
			}
		case kwSchemaArr:
			if v.Kind != ojson.Array {
				return false
			}
			for _, it := range v.Items {
				if it.Kind != ojson.Object && it.Kind != ojson.Bool {
					return false
				}
			}
		case kwSchemaMap:
			if v.Kind != ojson.Object {
				return false
			}
			for _, it := range v.Members {
				if it.Value.Kind != ojson.Object && it.Value.Kind != ojson.Bool {
					return false
				}
			}
		}
	}
	return true
}

func validTypeValue(v *ojson.Value) bool {
	switch v.Kind {
	case ojson.String:
		_, ok := typeWord[v.Str]
		return ok
	case ojson.Array:
		if len(v.Items) == 0 {
			return false
		}
		seen := map[string]bool{}
		for _, it := range v.Items {
			if it.Kind != ojson.String || seen[it.Str] {
				return false
			}
			if _, ok := typeWord[it.Str]; !ok {
				return false
			}
			seen[it.Str] = true
		}
		return true
	}
	return false
}

// normalize rewrites draft-07 spellings into their 2020-12 equivalents, so
// the reconstructed schema (which is read as 2020-12) means the same.
func normalize(ms []ojson.Member) []ojson.Member {
	var items *ojson.Value
	for _, m := range ms {
		if m.Key == "items" && m.Value.Kind == ojson.Array {
			items = m.Value
		}
	}
	hasDeps := false
	for _, m := range ms {
		if m.Key == "dependencies" {
			hasDeps = true
		}
	}
	if items == nil && !hasDeps {
		return ms
	}
	out := make([]ojson.Member, 0, len(ms)+1)
	for _, m := range ms {
		switch {
		case m.Key == "items" && items != nil:
			out = append(out, ojson.Member{Key: "prefixItems", Value: items})
		case m.Key == "additionalItems" && items != nil:
			out = append(out, ojson.Member{Key: "items", Value: m.Value})
		case m.Key == "dependencies":
			reqs, schemas := ojson.NewObject(), ojson.NewObject()
			for _, d := range m.Value.Members {
				if d.Value.Kind == ojson.Array {
					reqs.Set(d.Key, d.Value)
				} else {
					schemas.Set(d.Key, d.Value)
				}
			}
			if len(reqs.Members) > 0 {
				out = append(out, ojson.Member{Key: "dependentRequired", Value: reqs})
			}
			if len(schemas.Members) > 0 {
				out = append(out, ojson.Member{Key: "dependentSchemas", Value: schemas})
			}
		default:
			out = append(out, m)
		}
	}
	return out
}
