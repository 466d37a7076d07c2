package ui

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/convert/toolset/toolsettest"
)

// shapeGen makes arguments for a tool from its schema as convert/call
// reads it (call.Shape, the form's own reading), deterministically from a
// seed: every optional field in or out, every variant, empty lists and
// records, strings a reader could take for keywords, numbers or nil. Most
// of what it makes is valid; the tests keep what the codec accepts.
type shapeGen struct{ rnd *rand.Rand }

func newShapeGen(seed uint64) *shapeGen {
	return &shapeGen{rnd: rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d))}
}

var genStrings = []string{
	"", "plain", "with space", `quote " and \ backslash`, "line\nbreak\ttab", "unicode ✓ 漢字 🙂",
	":keyword", "12", "-3.5e2", "nil", "true", "(paren", "json", "x_1", "A", "doc.md",
	"mongodb://mongo.demo.internal:27017", "https://example.com/a?b=c", "\u0001ctl", "\x1b[31mred",
}

func (g *shapeGen) n(k int) int { return g.rnd.IntN(k) }

func (g *shapeGen) value(sh *call.Shape, depth int) *ojson.Value {
	if sh == nil || sh.Never() {
		return ojson.NewNull()
	}
	if c := sh.Const(); c != nil {
		return c.Clone()
	}
	if enum, ok := sh.Enum(); ok && len(enum) > 0 {
		return enum[g.n(len(enum))].Clone()
	}
	if sh.Nullable() && g.n(6) == 0 {
		return ojson.NewNull()
	}
	if sh.Union() {
		if prop, tags := sh.Tag(); prop != "" {
			tag := tags[g.n(len(tags))]
			obj := ojson.NewObject().Set(prop, ojson.NewString(tag))
			rest := g.object(sh.Variant(tag), depth)
			obj.Members = append(obj.Members, rest.Members...)
			return obj
		}
		alts := sh.Alternatives()
		return g.value(alts[g.n(len(alts))], depth+1)
	}
	if sh.Any() {
		return g.anyValue(depth)
	}
	types := sh.Types()
	if len(types) == 0 {
		return ojson.NewNull()
	}
	switch types[g.n(len(types))] {
	case "boolean":
		return ojson.NewBool(g.n(2) == 0)
	case "integer":
		return g.integer(sh)
	case "number":
		if g.n(2) == 0 {
			return g.integer(sh)
		}
		return ojson.NewNumber(strconv.Itoa(g.n(1000)) + ".25")
	case "string":
		return ojson.NewString(g.str(sh))
	case "array":
		lo, _ := intKeyword(sh, "minItems")
		hi, ok := intKeyword(sh, "maxItems")
		if !ok || hi > lo+3 {
			hi = lo + 3
		}
		if depth > 5 {
			hi = lo
		}
		arr := ojson.NewArray()
		for i := 0; i < lo+g.n(hi-lo+1); i++ {
			arr.Items = append(arr.Items, g.value(sh.Item(i), depth+1))
		}
		return arr
	case "object":
		return g.object(sh, depth)
	}
	return ojson.NewNull()
}

func (g *shapeGen) object(sh *call.Shape, depth int) *ojson.Value {
	obj := ojson.NewObject()
	if sh.Record() {
		for _, p := range sh.Fields() {
			if p.Required || depth < 5 && g.n(2) == 0 {
				obj.Set(p.Name, g.value(p.Shape, depth+1))
			}
		}
	}
	if sh.ExtraDeclared() && !sh.ExtraPatterns() && depth < 5 {
		for i := g.n(3); i > 0; i-- {
			key := []string{"k", "X-Trace", "with space", "1", "x_y"}[g.n(5)]
			obj.Set(key, g.value(sh.ExtraShape(key), depth+1))
		}
	}
	return obj
}

func (g *shapeGen) anyValue(depth int) *ojson.Value {
	switch g.n(5) {
	case 0:
		return ojson.NewString(genStrings[g.n(len(genStrings))])
	case 1:
		return ojson.NewInt(int64(g.n(100)))
	case 2:
		return ojson.NewObject()
	case 3:
		if depth < 4 {
			return ojson.NewObject().Set("a", g.anyValue(depth+1)).Set("b c", ojson.NewBool(true))
		}
	}
	return ojson.NewArray(ojson.NewNull(), ojson.NewString("x"))
}

func (g *shapeGen) integer(sh *call.Shape) *ojson.Value {
	s := sh.Schema()
	lo, hi := int64(-50), int64(5000)
	if v := s.Get("minimum"); v != nil {
		if n, err := strconv.ParseInt(string(v.Num), 10, 64); err == nil {
			lo = n
		}
	}
	if v := s.Get("maximum"); v != nil {
		if n, err := strconv.ParseInt(string(v.Num), 10, 64); err == nil {
			hi = n
		}
	}
	if hi < lo {
		hi = lo
	}
	return ojson.NewInt(lo + int64(g.n(int(min(hi-lo+1, 1<<20)))))
}

func (g *shapeGen) str(sh *call.Shape) string {
	s := sh.Schema()
	if f := s.Get("format").StringOr(""); f == "uri" {
		return "https://example.com/" + strconv.Itoa(g.n(100))
	}
	cands := genStrings
	if p := s.Get("pattern").StringOr(""); p != "" {
		re, err := regexp.Compile(p)
		if err != nil {
			return ""
		}
		var fit []string
		for _, c := range genStrings {
			if re.MatchString(c) {
				fit = append(fit, c)
			}
		}
		cands = fit
	}
	if len(cands) == 0 {
		return ""
	}
	out := cands[g.n(len(cands))]
	if lo, ok := intKeyword(sh, "minLength"); ok && len([]rune(out)) < lo {
		out += strings.Repeat("x", lo-len([]rune(out)))
	}
	if hi, ok := intKeyword(sh, "maxLength"); ok && len([]rune(out)) > hi {
		out = string([]rune(out)[:hi])
	}
	return out
}

// validCalls makes n valid calls of tool (as the codec prints them at
// width), from seeds; it fails when too few of the attempts are valid.
func validCalls(t testing.TB, k *formKit, tool string, n, width int) []string {
	t.Helper()
	sh := k.codec.Resolver().InputShape(tool)
	var out []string
	tries := 0
	for seed := uint64(1); len(out) < n && tries < 20*n; seed++ {
		tries++
		g := newShapeGen(seed)
		args := g.object(sh, 0)
		plan := &calls.Plan{Syntax: calls.SExpr, Items: []calls.Item{{Tool: tool, Arguments: args}}}
		text, err := k.codec.Print(plan, calls.SExpr, width)
		if err != nil {
			continue
		}
		if _, err := k.codec.Read(text); err != nil {
			continue
		}
		out = append(out, text)
	}
	if len(out) < n {
		t.Fatalf("%s: only %d valid calls of %d attempts", tool, len(out), tries)
	}
	return out
}

// TestFormRoundTrip: for random valid calls of every demo tool — nested
// records, tagged-union variants (note_update's Op and Block,
// data_platform_query's Source and Transformation), maps, raw JSON
// slots — Load(read(call)) makes a form whose Call() is the same call,
// with nothing kept as raw JSON that a field could hold.
func TestFormRoundTrip(t *testing.T) {
	k := demoFormKit(t)
	for _, tl := range k.set.Tools {
		t.Run(tl.Name, func(t *testing.T) {
			f := k.form(t, tl.Name, 140, 40)
			width := f.layout().callW
			n := 150 / formSweepStep
			if testing.Short() {
				n = 30
			}
			for _, src := range validCalls(t, k, tl.Name, n, width) {
				plan, err := k.codec.Read(src)
				if err != nil {
					t.Fatal(err)
				}
				f := k.form(t, tl.Name, 140, 40)
				if err := f.Load(&plan.Items[0]); err != nil {
					t.Fatalf("Load(%s): %v", src, err)
				}
				got, _, err := f.Call()
				if err != nil {
					t.Fatalf("Load(%s) then Call: %v\n%s", src, err, got)
				}
				if got != src {
					t.Fatalf("round trip\n%s\nbecame\n%s", src, got)
				}
				// Drawing it at any size keeps the rectangle.
				checkFormSize(t, f, 60+len(src)%100, 8+len(src)%40)
			}
		})
	}
}

// TestFormLoadKeepsWhatNoFieldHolds: undeclared properties (which the
// schema's default admits) and a value of no member of a union are kept as
// raw JSON, named in Load's error, and written back unchanged.
func TestFormLoadKeepsWhatNoFieldHolds(t *testing.T) {
	set, err := toolset.Parse([]byte(`[{"name": "t", "inputSchema": {"type": "object",
		"properties": {
			"a": {"type": "object", "properties": {"x": {"type": "integer"}}},
			"u": {"anyOf": [{"type": "string", "maxLength": 2}, {"type": "array", "items": {"type": "integer"}}]}
		}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	k := newFormKit(set)
	src := `(t :a (json "{\"x\":1,\"extra\":true}") :u "abc")`
	plan, err := k.codec.ReadCalls(src)
	if err != nil {
		// The validator refuses "abc" (maxLength); build the item by hand.
		plan = &calls.Plan{Items: []calls.Item{{Tool: "t"}}}
		args, _ := ojson.Parse([]byte(`{"a": {"x": 1, "extra": true}, "u": {"no": "member"}}`))
		plan.Items[0].Arguments = args
	}
	f := k.form(t, "t", 100, 20)
	lerr := f.Load(&plan.Items[0])
	var le *formLoadError
	if lerr == nil || !asLoadError(lerr, &le) {
		t.Fatalf("Load: %v, want a *formLoadError", lerr)
	}
	if len(le.notes) != 2 || !strings.Contains(le.notes[0], "a: properties the schema does not declare") || !strings.Contains(le.notes[1], "u: no member") {
		t.Fatalf("notes %q", le.notes)
	}
	ps := &problems{}
	got, _ := f.root.value("", ps)
	if !ojson.Equal(got, plan.Items[0].Arguments) {
		t.Fatalf("kept %s, loaded %s", got.Compact(), plan.Items[0].Arguments.Compact())
	}
	view := ansi.Strip(f.View())
	if !strings.Contains(view, "kept as raw JSON") {
		t.Fatalf("the view does not say what was kept as raw JSON:\n%s", view)
	}
}

func asLoadError(err error, out **formLoadError) bool {
	le, ok := err.(*formLoadError)
	*out = le
	return ok
}

// checkFormSize draws f at w x h and checks the rectangle.
func checkFormSize(t testing.TB, f *toolForm, w, h int) {
	t.Helper()
	f.SetSize(w, h)
	view := f.View()
	lines := strings.Split(view, "\n")
	if len(lines) != h {
		t.Fatalf("%dx%d: %d lines", w, h, len(lines))
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Fatalf("%dx%d: line %d is %d cells: %q", w, h, i, got, ansi.Strip(l))
		}
	}
	if bad := inertProblem(view); bad != "" {
		t.Fatalf("%dx%d: %s on screen:\n%s", w, h, bad, ansi.Strip(view))
	}
}

// inertProblem names the first thing in a view that could act on the
// terminal: any escape but SGR styling (ESC [ digits ; : m), a C0
// control but the line break, DEL, a C1 control.
func inertProblem(view string) string {
	for i := 0; i < len(view); {
		r, n := utf8.DecodeRuneInString(view[i:])
		if r == 0x1b {
			j := i + 1
			if j < len(view) && view[j] == '[' {
				j++
				for j < len(view) && (view[j] >= '0' && view[j] <= '9' || view[j] == ';' || view[j] == ':') {
					j++
				}
				if j < len(view) && view[j] == 'm' {
					i = j + 1
					continue
				}
			}
			return fmt.Sprintf("the escape %q", view[i:min(i+8, len(view))])
		}
		if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f {
			return fmt.Sprintf("the control %U", r)
		}
		i += n
	}
	return ""
}

// TestFormRoundTripCorpus: the same over every tool of the corpus and of
// convert/call's schema fixtures (refs, allOf, tuples, unions of every
// kind): whatever the codec accepts, the form reads into its fields and
// writes again unchanged.
func TestFormRoundTripCorpus(t *testing.T) {
	sets := toolsettest.Corpus(t)
	sets["call-fixtures"] = toolsettest.Load(t, filepath.Join("..", "convert", "call", "testdata", "fixtures.tools.json"))
	n := 20 / formSweepStep
	for name, set := range sets {
		k := newFormKit(set)
		for _, tl := range set.Tools {
			f := k.form(t, tl.Name, 140, 40)
			width := f.layout().callW
			sh := k.codec.Resolver().InputShape(tl.Name)
			for seed := uint64(1); seed <= uint64(4*n); seed++ {
				g := newShapeGen(seed)
				args := g.value(sh, 0)
				if args.Kind != ojson.Object {
					continue
				}
				plan := &calls.Plan{Syntax: calls.SExpr, Items: []calls.Item{{Tool: tl.Name, Arguments: args}}}
				src, err := k.codec.Print(plan, calls.SExpr, width)
				if err != nil {
					continue
				}
				read, err := k.codec.Read(src)
				if err != nil {
					continue
				}
				f := k.form(t, tl.Name, 140, 40)
				if err := f.Load(&read.Items[0]); err != nil {
					t.Errorf("%s %s: Load(%s): %v", name, tl.Name, src, err)
				}
				got, _, _ := f.Call()
				if got != src {
					t.Fatalf("%s %s: round trip\n%s\nbecame\n%s", name, tl.Name, src, got)
				}
			}
		}
	}
}
