package call

import (
	"strings"
	"sync"
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

func TestTemplate(t *testing.T) {
	r := NewResolver(fixtures(t))
	for tool, want := range map[string]string{
		"file_read":           `(fr :path "")`,
		"fr":                  `(fr :path "")`,
		"note_update":         `(nu :doc "" :ops ())`,
		"data_platform_query": `(dpq :qid "" :srcs () :out (:format :json))`,
		"notion-create-pages": `(ncp :parent (:page_id "") :pages ())`,
		"misc_shapes":         `(ms)`,
		"no_such_tool":        ``,
	} {
		if got := r.Template(tool); got != want {
			t.Errorf("Template(%s) = %s, want %s", tool, got, want)
		}
	}
	// A template of a tagged-union parameter starts with the first variant.
	set, _ := toolset.Parse([]byte(`[{"name":"op","inputSchema":{"type":"object","required":["o"],"properties":{"o":{"oneOf":[
		{"type":"object","required":["kind","n"],"properties":{"kind":{"const":"add"},"n":{"type":"integer"}}},
		{"type":"object","required":["kind"],"properties":{"kind":{"const":"clear"}}}]}}}}]`))
	if got := NewResolverCodes(set, nil).Template("op"); got != `(op :o (add :n 0))` {
		t.Errorf("union template: %s", got)
	}
}

// Every template reads (validation may still ask for real values).
func TestTemplatesRead(t *testing.T) {
	sets := []*toolset.Set{fixtures(t)}
	for _, f := range corpusFiles(t) {
		sets = append(sets, loadSet(t, f))
	}
	for _, set := range sets {
		r := NewResolver(set)
		for _, tool := range set.Tools {
			tpl := r.Template(tool.Name)
			b, err := r.Read(tpl)
			if err != nil {
				t.Errorf("%s: template %s does not read: %v", tool.Name, tpl, err)
				continue
			}
			if b.Calls[0].Tool != tool.Name {
				t.Errorf("%s: template %s calls %s", tool.Name, tpl, b.Calls[0].Tool)
			}
		}
	}
}

func TestFormatHeads(t *testing.T) {
	set, err := toolset.Parse([]byte(`[
		{"name":"batch","inputSchema":{"type":"object","properties":{"x":{"type":"integer"}}}},
		{"name":"has space","inputSchema":{"type":"object"}},
		{"name":"json","inputSchema":{"type":"object"}}]`))
	if err != nil {
		t.Fatal(err)
	}
	r := NewResolverCodes(set, nil)
	for _, tt := range []struct {
		tool, args, want string
	}{
		{"batch", `{"x":1}`, `("batch" :x 1)`},
		{"has space", `{"k":"v"}`, `("has space" :k "v")`},
		{"json", `{}`, `("json")`},
	} {
		c := Call{Tool: tt.tool, Arguments: mustJSON(t, tt.args)}
		got, err := r.Format(c)
		if err != nil || got != tt.want {
			t.Errorf("Format(%s %s) = %s, %v; want %s", tt.tool, tt.args, got, err, tt.want)
			continue
		}
		b, err := r.Parse(got)
		if err != nil || b.Calls[0].Tool != tt.tool {
			t.Errorf("%s does not read back as a call of %q: %v", got, tt.tool, err)
		}
	}
	// Names instead of codes on request.
	r2 := NewResolver(fixtures(t))
	r2.UseNames = true
	if got, _ := r2.Format(Call{Tool: "file_read", Arguments: mustJSON(t, `{"path":"/x"}`)}); got != `(file_read "/x")` {
		t.Errorf("UseNames: %s", got)
	}
}

// Arguments that only undeclared keys make up cannot be written as a call;
// Format says so rather than printing something that reads differently.
func TestFormatRefusesWhatDoesNotReadBack(t *testing.T) {
	r := NewResolver(fixtures(t))
	_, err := r.Format(Call{Tool: "batch_paths", Arguments: mustJSON(t, `{"other":1}`)})
	if kindOf(err) != ErrNotCallable {
		t.Errorf("got %v, want a not-representable error", err)
	}
	// ... but JSON input holding them still reads and validates.
	if _, err := r.Parse(`{"name":"bp","arguments":{"root":"/","other":1}}`); err != nil {
		t.Errorf("JSON call with an extra key: %v", err)
	}
	// with a required parameter present, the extra key is written by string
	got, err := r.Format(Call{Tool: "batch_paths", Arguments: mustJSON(t, `{"root":"/","other":1}`)})
	if err != nil || got != `(bp :root "/" "other" 1)` {
		t.Errorf("extra key with a parameter: %s, %v", got, err)
	}
	if _, err := r.Format(Call{Tool: "nope"}); kindOf(err) != ErrUnknownTool {
		t.Errorf("unknown tool: %v", err)
	}
}

// A Resolver is shared by the UI and by concurrent batch calls.
func TestResolverConcurrent(t *testing.T) {
	r := NewResolver(fixtures(t))
	srcs := []string{
		`(nu "doc.md" (insert 0 ((paragraph "intro" () ("Hello world")))) (delete 20 5))`,
		call4KB(),
		`(fr "/x" :off 1.5)`,
		`{"name":"li","arguments":{"owner":"o","repo":"r","page":0}}`,
	}
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				src := srcs[(w+i)%len(srcs)]
				b, err := r.Parse(src)
				if err != nil {
					if !strings.Contains(err.Error(), ":") {
						t.Errorf("%s: %v", src, err)
					}
					continue
				}
				for _, c := range b.Calls {
					if _, err := r.Format(c); err != nil {
						t.Errorf("Format: %v", err)
					}
				}
				_ = r.Template("dpq")
			}
		}()
	}
	wg.Wait()
	_ = ojson.NewNull()
}

// An inputSchema that is itself a union: (TOOL TAG ARG ...) for a tagged one,
// the members tried in order for an untagged one.
func TestTopLevelUnion(t *testing.T) {
	set, err := toolset.Parse([]byte(`[
	 {"name":"shape","inputSchema":{"type":"object","oneOf":[
		{"type":"object","required":["kind","r"],"properties":{"kind":{"const":"circle"},"r":{"type":"number"}}},
		{"type":"object","required":["kind","w","h"],"properties":{"kind":{"const":"rect"},"w":{"type":"number"},"h":{"type":"number"}}}]}},
	 {"name":"lookup","inputSchema":{"anyOf":[
		{"type":"object","required":["id"],"properties":{"id":{"type":"integer"}},"additionalProperties":false},
		{"type":"object","required":["name"],"properties":{"name":{"type":"string"}},"additionalProperties":false}]}}]`))
	if err != nil {
		t.Fatal(err)
	}
	r := NewResolverCodes(set, nil)
	for _, tt := range []struct{ src, args, canon string }{
		{`(shape circle 2)`, `{"kind":"circle","r":2}`, `(shape circle 2)`},
		{`(shape rect :h 1 :w 3)`, `{"kind":"rect","w":3,"h":1}`, `(shape rect 3 1)`},
		{`(lookup 7)`, `{"id":7}`, `(lookup 7)`},
		{`(lookup "ada")`, `{"name":"ada"}`, `(lookup "ada")`},
		{`(lookup :name "ada")`, `{"name":"ada"}`, `(lookup "ada")`},
	} {
		b, err := r.Parse(tt.src)
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if got := b.Calls[0].Arguments.Compact(); got != tt.args {
			t.Errorf("%s reads as %s, want %s", tt.src, got, tt.args)
		}
		if got, err := r.Format(b.Calls[0]); err != nil || got != tt.canon {
			t.Errorf("%s: canonical %s (%v), want %s", tt.src, got, err, tt.canon)
		}
	}
	if _, err := r.Parse(`(shape square 1)`); err == nil || !strings.Contains(err.Error(), "1:8: unknown variant: found symbol square") {
		t.Errorf("unknown variant at the top: %v", err)
	}
	if _, err := r.Parse(`(shape rect 1)`); err == nil || !strings.Contains(err.Error(), "1:14: missing required parameter h") {
		t.Errorf("missing field of a top-level variant: %v", err)
	}
	if got := r.Template("shape"); got != `(shape circle :r 0)` {
		t.Errorf("template: %s", got)
	}
}
