package convert

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/term"
	"github.com/mcpterm/mcpterm/convert/termtool"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/convert/toolset/toolsettest"
)

// testSets is every corpus file plus the convert fixtures that stress the
// renderers (deep schemas, $defs, names whose codes clash when alone).
func testSets(t *testing.T) map[string]*toolset.Set {
	sets := toolsettest.Corpus(t)
	for _, p := range []string{
		filepath.Join("aql", "testdata", "hard.tools.json"),
		filepath.Join("aql", "testdata", "todo.tools.json"),
		filepath.Join("term", "testdata", "edge.tools.json"),
		filepath.Join("term", "testdata", "github.tools.json"),
	} {
		sets[toolsettest.Stem(p)] = toolsettest.Load(t, p)
	}
	return sets
}

// wantToolTexts is the definition of a tool's texts written out the long
// way, independently of the Renderer: the form rendered for a one-tool set
// with the code from the whole server's term.ShortCodes, the tool's
// operation exchange from aql.IntrospectCostsFor, or for term_lazy the
// describe call with that code answered by the term form's declaration
// of the tool.
func wantToolTexts(t *testing.T, set *toolset.Set, ov aql.Overrides, f Form, tool *toolset.Tool) []ToolText {
	t.Helper()
	if mode, ok := AQLMode(f.Name); ok {
		xs, err := aql.IntrospectCostsFor(set, ov, mode)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range xs {
			if x.Operation != "" && x.Tool == tool.Name {
				return []ToolText{{RoleRequest, x.Request}, {RoleAnswer, x.Answer}}
			}
		}
		t.Fatalf("%s: no exchange for %s", f.Name, tool.Name)
	}
	one := Single(set, tool)
	var names []string
	for _, tl := range set.Tools {
		names = append(names, tl.Name)
	}
	codes := term.ShortCodes(names)
	if f.Name == LazyForm {
		d, err := term.Render(one, term.Options{ModelFacing: true, Codes: codes})
		if err != nil {
			return nil
		}
		return []ToolText{{RoleRequest, termtool.DescribeArguments(codes[tool.Name])}, {RoleAnswer, d.Text}}
	}
	if opts, ok := TermOptions(f.Name); ok {
		opts.Codes = codes
		d, err := term.Render(one, opts)
		if err != nil {
			return nil
		}
		return []ToolText{{RoleDocument, d.Text}}
	}
	text, err := f.Render(one)
	if err != nil {
		return nil
	}
	return []ToolText{{RoleDocument, text}}
}

// TestRendererOnCorpus: for every corpus file and fixture and every form,
// the whole document is the form's own Render (what `convert --to` prints)
// and every tool's texts follow the per-tool definition.
func TestRendererOnCorpus(t *testing.T) {
	ov := aql.Overrides{"list_todos": {Operation: "all_todos"}, "clear_completed": {Category: aql.Delete}}
	for name, set := range testSets(t) {
		t.Run(name, func(t *testing.T) {
			for _, o := range []aql.Overrides{nil, ov} {
				r := NewRenderer(set, o)
				if got, want := formNames(r.Forms()), formNames(FormsFor(o)); got != want {
					t.Fatalf("forms %s, want %s", got, want)
				}
				for _, f := range FormsFor(o) {
					want, wantErr := f.Render(set)
					got, err := r.Document(f.Name)
					if got != want || (err == nil) != (wantErr == nil) {
						t.Errorf("%s: document differs from Form.Render (err %v, want %v)", f.Name, err, wantErr)
					}
					if viaCLI, _ := r.Document(f.CLIName); viaCLI != got {
						t.Errorf("%s: document by CLI name %q differs", f.Name, f.CLIName)
					}
					for _, tool := range set.Tools {
						got, err := r.ToolTexts(f.Name, tool.Name)
						want := wantToolTexts(t, set, o, f, tool)
						if want == nil {
							if err == nil {
								t.Errorf("%s/%s: rendered where the definition fails", f.Name, tool.Name)
							}
							continue
						}
						if err != nil || !slices.Equal(got, want) {
							t.Errorf("%s/%s: texts %q (err %v), want %q", f.Name, tool.Name, got, err, want)
						}
					}
				}
			}
		})
	}
}

func formNames(forms []Form) string {
	var names []string
	for _, f := range forms {
		names = append(names, f.Name)
	}
	return strings.Join(names, ",")
}

// TestRendererShortCodes: a term form's per-tool text carries the code the
// tool has in the whole server's document, including for tools whose code
// alone would be another's.
func TestRendererShortCodes(t *testing.T) {
	set, err := toolset.Parse([]byte(`[
	 {"name": "list_todos", "inputSchema": {"type": "object"}},
	 {"name": "long_task", "inputSchema": {"type": "object"}},
	 {"name": "load_table", "inputSchema": {"type": "object"}}]`))
	if err != nil {
		t.Fatal(err)
	}
	r := NewRenderer(set, nil)
	whole, err := r.Document("term")
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range set.Tools {
		code, ok := r.ShortCode(tool.Name)
		if !ok {
			t.Fatalf("no code for %s", tool.Name)
		}
		head := "(" + code + " " + tool.Name
		if !strings.Contains(whole, head) {
			t.Fatalf("the server document has no %q:\n%s", head, whole)
		}
		for _, form := range []string{"term", "term_lean", "term_full"} {
			texts, err := r.ToolTexts(form, tool.Name)
			if err != nil || len(texts) != 1 || texts[0].Role != RoleDocument || !strings.Contains(texts[0].Text, head) {
				t.Errorf("%s/%s: %q (err %v), want a document with %q", form, tool.Name, texts, err, head)
			}
		}
	}
	if _, ok := r.ShortCode("nope"); ok {
		t.Error("a code for a tool not in the list")
	}
}

// TestRendererErrors: unknown forms and tools, an adapter that cannot be
// built, a renderer that panics or is missing, and a tool with no AQL
// operation each fail with an error saying so, and only their own texts.
func TestRendererErrors(t *testing.T) {
	set := toolsettest.Load(t, filepath.Join("aql", "testdata", "todo.tools.json"))
	forms := append(Forms(),
		Form{Name: "boom", Render: func(*toolset.Set) (string, error) { panic("kaboom") }},
		Form{Name: "empty"},
	)
	r := NewRendererWith(set, nil, forms)
	tool := set.Tools[0].Name
	if _, err := r.Document("nope"); err == nil || !strings.Contains(err.Error(), `unknown form "nope"`) {
		t.Errorf("unknown form: %v", err)
	}
	if _, err := r.ToolTexts("json", "nope"); err == nil || !strings.Contains(err.Error(), `no tool named "nope"`) {
		t.Errorf("unknown tool: %v", err)
	}
	for _, form := range []string{"boom", "empty"} {
		want := map[string]string{"boom": "renderer panicked: kaboom", "empty": "form has no renderer"}[form]
		if _, err := r.Document(form); err == nil || err.Error() != want {
			t.Errorf("%s document: %v, want %q", form, err, want)
		}
		if _, err := r.ToolTexts(form, tool); err == nil || err.Error() != want {
			t.Errorf("%s texts: %v, want %q", form, err, want)
		}
	}
	if texts, err := r.ToolTexts("json", tool); err != nil || len(texts) != 1 {
		t.Errorf("json beside broken forms: %v %v", texts, err)
	}

	// Two tools mapped to one operation: the adapter cannot be built, so
	// the AQL forms fail with its reason and every other form renders.
	bad := aql.Overrides{"list_todos": {Operation: "same"}, "get_todo": {Operation: "same"}}
	r = NewRenderer(set, bad)
	for _, form := range []string{"aql_single", "aql_semantic"} {
		mode, _ := AQLMode(form)
		_, err := r.ToolTexts(form, tool)
		if err == nil || !strings.Contains(err.Error(), "both map to operation") {
			t.Errorf("%s: %v", form, err)
		}
		if _, err := r.Adapter(mode); err == nil {
			t.Errorf("%s: adapter built from contradicting overrides", form)
		}
		if _, err := r.Introspect(mode); err == nil {
			t.Errorf("%s: introspect listed from contradicting overrides", form)
		}
	}
	if _, err := r.ToolTexts("term", tool); err != nil {
		t.Errorf("term beside a broken adapter: %v", err)
	}
	if _, err := r.Adapter(aql.Mode(7)); err == nil {
		t.Error("adapter for an unknown mode")
	}

	// A tool the list does not hold has no operation (through the
	// one-string wrapper, the only way to hand the Renderer such a tool).
	stray := &toolset.Tool{Name: "stray", InputSchema: set.Tools[0].InputSchema}
	aqlForm, _ := FormByName("aql_single")
	_, err := ToolRenderer(set)(aqlForm, stray)
	if !errors.Is(err, ErrNoOperation) || !strings.Contains(err.Error(), `"stray"`) {
		t.Errorf("stray tool: %v", err)
	}
}

// TestToolRendererIsTheRenderer: the one-string wrapper returns the
// Renderer's texts, the AQL exchange as request and answer on two lines.
func TestToolRendererIsTheRenderer(t *testing.T) {
	set := toolsettest.Load(t, filepath.Join("aql", "testdata", "todo.tools.json"))
	r, one := NewRenderer(set, nil), ToolRenderer(set)
	for _, f := range Forms() {
		for _, tool := range set.Tools {
			texts, err := r.ToolTexts(f.Name, tool.Name)
			if err != nil {
				t.Fatal(err)
			}
			var parts []string
			for _, x := range texts {
				parts = append(parts, x.Text)
			}
			if got, err := one(f, tool); err != nil || got != strings.Join(parts, "\n") {
				t.Errorf("%s/%s: %q (err %v)", f.Name, tool.Name, got, err)
			}
		}
	}
}

// TestRendererConcurrent: a fresh Renderer used from many goroutines at
// once (so its lazy parts are built under contention) gives what a Renderer
// used from one goroutine gives. Run with -race.
func TestRendererConcurrent(t *testing.T) {
	set := toolsettest.Load(t, filepath.Join("aql", "testdata", "todo.tools.json"))
	serial := NewRenderer(set, nil)
	want := map[string]string{}
	key := func(form, tool string) string { return form + "/" + tool }
	flat := func(texts []ToolText, err error) string { return fmt.Sprintf("%q %v", texts, err) }
	for _, f := range serial.Forms() {
		doc, err := serial.Document(f.Name)
		want[key(f.Name, "")] = fmt.Sprintf("%q %v", doc, err)
		for _, tool := range set.Tools {
			want[key(f.Name, tool.Name)] = flat(serial.ToolTexts(f.Name, tool.Name))
		}
	}
	shared := NewRenderer(set, nil)
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			forms := shared.Forms()
			for i := range forms {
				f := forms[(i+g)%len(forms)]
				for j := range set.Tools {
					tool := set.Tools[(j+g)%len(set.Tools)].Name
					if got := flat(shared.ToolTexts(f.Name, tool)); got != want[key(f.Name, tool)] {
						errs <- key(f.Name, tool)
					}
					if _, ok := shared.ShortCode(tool); !ok {
						errs <- "code " + tool
					}
				}
				doc, err := shared.Document(f.Name)
				if got := fmt.Sprintf("%q %v", doc, err); got != want[key(f.Name, "")] {
					errs <- key(f.Name, "")
				}
			}
			if _, err := shared.Introspect(aql.Mode(g % 2)); err != nil {
				errs <- err.Error()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error("differs under concurrency:", e)
	}
}

// TestRendererIntrospect: the exchange list is the adapter's, in its order,
// and callers get their own copy.
func TestRendererIntrospect(t *testing.T) {
	set := toolsettest.Load(t, filepath.Join("aql", "testdata", "todo.tools.json"))
	r := NewRenderer(set, nil)
	for _, mode := range []aql.Mode{aql.Single, aql.Semantic} {
		want, err := aql.IntrospectCostsFor(set, nil, mode)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.Introspect(mode)
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("%s: %d exchanges (err %v), want %d", mode, len(got), err, len(want))
		}
		got[0].Answer = "changed"
		if again, _ := r.Introspect(mode); again[0].Answer == "changed" {
			t.Fatalf("%s: Introspect hands out its own slice", mode)
		}
		a, err := r.Adapter(mode)
		if err != nil || a.Mode != mode || len(a.Ops) != len(set.Tools) {
			t.Fatalf("%s: adapter %v, %v", mode, a, err)
		}
		if b, _ := r.Adapter(mode); b != a {
			t.Fatalf("%s: adapter built twice", mode)
		}
	}
}

// FuzzRenderer: for any tool list, no renderer's panic escapes; every
// form's document is its Render's; every tool's texts either fail or follow
// the roles of their form; a term form's text holds the server-wide code.
func FuzzRenderer(f *testing.F) {
	f.Add(`[{"name":"list_todos"},{"name":"long_task"},{"name":"load_table"}]`)
	f.Add(`{"tools":[{"name":"a\u001b[2J","description":"d. More.","inputSchema":{"type":"object","properties":{"p":{"enum":[1,"x"]},"q":{"$ref":"#/$defs/Q"}},"$defs":{"Q":{"type":"array","items":{"$ref":"#/$defs/Q"}}}}}]}`)
	f.Add(`[{"name":"delete_all","annotations":{"destructiveHint":true}},{"name":"get","inputSchema":true}]`)
	f.Fuzz(func(t *testing.T, doc string) {
		if len(doc) > 4096 {
			return
		}
		set, err := toolset.Parse([]byte(doc))
		if err != nil {
			return
		}
		r := NewRenderer(set, nil)
		for _, form := range r.Forms() {
			got, err := r.Document(form.Name)
			if want, wantErr := form.Render(set); got != want || (err == nil) != (wantErr == nil) {
				t.Fatalf("%s: document differs from Render", form.Name)
			}
			_, isAQL := AQLMode(form.Name)
			_, isTerm := TermOptions(form.Name)
			for _, tool := range set.Tools {
				texts, err := r.ToolTexts(form.Name, tool.Name)
				if err != nil {
					continue
				}
				switch {
				case isAQL:
					if len(texts) != 2 || texts[0].Role != RoleRequest || texts[1].Role != RoleAnswer || !strings.Contains(texts[0].Text, `"introspect"`) {
						t.Fatalf("%s/%s: %q", form.Name, tool.Name, texts)
					}
				case form.Name == LazyForm:
					code, _ := r.ShortCode(tool.Name)
					if len(texts) != 2 || texts[0].Text != termtool.DescribeArguments(code) || texts[1].Role != RoleAnswer || !strings.Contains(texts[1].Text, "("+code+" ") {
						t.Fatalf("%s/%s: %q", form.Name, tool.Name, texts)
					}
				case len(texts) != 1 || texts[0].Role != RoleDocument:
					t.Fatalf("%s/%s: %q", form.Name, tool.Name, texts)
				case isTerm:
					code, _ := r.ShortCode(tool.Name)
					if !strings.Contains(texts[0].Text, "("+code+" ") {
						t.Fatalf("%s/%s: no server code %q in %q", form.Name, tool.Name, code, texts[0].Text)
					}
				}
			}
		}
	})
}
