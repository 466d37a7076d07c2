package call

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// Completion is consistent with what reads back. For random valid calls
// from the schemas (each alone and as a batch entry), cut at every byte:
// Complete and Signature never panic, the word is the text from Start to
// the cut, and Signature names a real tool. Just after each complete name
// the reader decides — a tool, a parameter, a field, an enum value, a
// variant tag, nil/true/false in a typed slot — that name is among the
// candidates of its own prefix. "The reader decides" is found out by the
// reader itself: the name is decided when writing anything else there
// (:zzzq, zzzq, "zzzq") makes Read fail at exactly that place.
func completionProperty(t *testing.T, set *toolset.Set, samples int) {
	r := NewResolver(set)
	checked := 0
	for _, tool := range set.Tools {
		for seed := 0; seed < samples; seed++ {
			steps := 0
			g := newGen(r.newParser(tool, &steps, false), uint64(seed)*104729+uint64(len(tool.Name)))
			args := g.value(tool.InputSchema, 0)
			src, err := r.Format(Call{Tool: tool.Name, Arguments: args})
			if err != nil {
				continue
			}
			if seed%3 == 1 {
				src = "(batch :concurrency 2\n  (1 " + src + ")\n  (two " + src + "))"
			}
			checkCuts(t, r, src)
			checked += checkNames(t, r, src)
		}
	}
	t.Logf("%s: %d names checked", set.Server, checked)
	if checked == 0 {
		t.Errorf("no name in any generated call was checked")
	}
}

func checkCuts(t *testing.T, r *Resolver, src string) {
	t.Helper()
	for i := 0; i <= len(src); i++ {
		before := src[:i]
		c := r.Complete(before)
		if c.Start < 0 || c.Start > i || before[c.Start:] != c.Word {
			t.Fatalf("Complete(%q): word %q at %d is not the text from there to the cursor", before, c.Word, c.Start)
		}
		for _, it := range c.Items {
			if it.Text == "" || it.Kind < KindToolCode || it.Kind > KindKey {
				t.Fatalf("Complete(%q): malformed candidate %+v", before, it)
			}
		}
		if sig, ok := r.Signature(before); ok {
			if r.Lookup(sig.Tool) == nil || sig.Decl == "" {
				t.Fatalf("Signature(%q) = %+v: no such tool, or no declaration", before, sig)
			}
			if sig.Param >= 0 && (sig.ParamName == "" || sig.ParamDecl.End > len(sig.Decl) || sig.ParamDecl.Start > sig.ParamDecl.End) {
				t.Fatalf("Signature(%q): parameter %d %q declared at %v of %d bytes", before, sig.Param, sig.ParamName, sig.ParamDecl, len(sig.Decl))
			}
		}
	}
}

// checkNames checks every name the reader decides in src and says how many
// there were.
func checkNames(t *testing.T, r *Resolver, src string) int {
	t.Helper()
	nodes, err := sexpr.ParseLimits(src, readLimits)
	if err != nil {
		t.Fatalf("canonical text does not read: %v\n%s", err, src)
	}
	n := 0
	var visit func(x *sexpr.Node)
	visit = func(x *sexpr.Node) {
		if x.Kind == sexpr.List {
			if isEscape(x) {
				return
			}
			for _, it := range x.Items {
				visit(it)
			}
			return
		}
		if x.Pos.Offset == x.End.Offset || x.Kind == sexpr.Number {
			return
		}
		at, end := x.Pos.Offset, x.End.Offset
		name := src[at:end]
		c := r.Complete(src[:end])
		if c.Word != name || c.Start != at {
			t.Errorf("Complete(%q): word %q at %d, want %q at %d", src[:end], c.Word, c.Start, name, at)
			return
		}
		if !decided(r, src, x) {
			return
		}
		n++
		if !slices.ContainsFunc(c.Items, func(it Candidate) bool { return it.Text == name }) {
			t.Errorf("Complete(%q): the reader takes only certain words here, but %s is not among %s",
				src[:end], name, texts(c.Items))
		}
	}
	for _, x := range nodes {
		visit(x)
	}
	return n
}

// decided reports whether the reader rejects, at x, anything but x.
func decided(r *Resolver, src string, x *sexpr.Node) bool {
	other := "zzzq"
	switch x.Kind {
	case sexpr.Keyword:
		other = ":zzzq"
	case sexpr.String:
		other = `"zzzq"`
	}
	_, err := r.Read(src[:x.Pos.Offset] + other + src[x.End.Offset:])
	var ce *Error
	return errors.As(err, &ce) && ce.Pos.Offset == x.Pos.Offset
}

func texts(cs []Candidate) string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Text
	}
	return "[" + strings.Join(out, " ") + "]"
}

func TestCompletionPropertyFixtures(t *testing.T) {
	samples := 60
	if testing.Short() {
		samples = 15
	}
	completionProperty(t, fixtures(t), samples)
}

func TestCompletionPropertyCorpus(t *testing.T) {
	samples := 6
	if testing.Short() {
		samples = 2
	}
	for _, f := range corpusFiles(t) {
		t.Run(filepath.Base(f), func(t *testing.T) { completionProperty(t, loadSet(t, f), samples) })
	}
}

// Arguments with every optional parameter given, so the deep corners of
// the fixtures are reached too.
func TestCompletionPropertyDeep(t *testing.T) {
	r := NewResolver(fixtures(t))
	for _, tool := range r.set.Tools {
		for seed := 0; seed < 20; seed++ {
			steps := 0
			g := newGen(r.newParser(tool, &steps, false), uint64(seed)+99)
			v := g.p.view(tool.InputSchema)
			args := g.value(tool.InputSchema, 0)
			if v.record {
				for _, k := range v.sorder {
					if pr := v.params[k]; args.Get(pr.name) == nil {
						args.Set(pr.name, g.value(pr.schema, 1))
					}
				}
			}
			if args.Kind != ojson.Object {
				continue
			}
			src, err := r.Format(Call{Tool: tool.Name, Arguments: args})
			if err != nil {
				continue
			}
			checkCuts(t, r, src)
			checkNames(t, r, src)
		}
	}
}
