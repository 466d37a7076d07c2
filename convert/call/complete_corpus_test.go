package call

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// Completion on the real servers of the corpus.
func TestCompleteCorpus(t *testing.T) {
	sets := map[string]*toolset.Set{}
	for _, f := range corpusFiles(t) {
		sets[strings.TrimSuffix(filepath.Base(f), ".tools.json")] = loadSet(t, f)
	}
	for _, tt := range []struct{ server, before, want string }{
		{"server-filesystem", `(read_`, `read_file[tool-name] read_text_file[tool-name] read_media_file[tool-name] read_multiple_files[tool-name]`},
		{"server-filesystem", `(rtf "/a" `, `:tail[param] :head[param]`},
		{"server-filesystem", `(ldws "/" `, `:name[enum] :size[enum] :sortBy[param]`},
		{"server-filesystem", `(ef "/a" ((`, `:oldText[field] :newText[field]`},
		{"server-filesystem", `(ef "/a" (("x" "y")) `, `true[literal] false[literal] :dryRun[param]`},
		{"server-filesystem", `(directory`, `directory_tree[tool-name] create_directory[tool-name] list_directory[tool-name] list_directory_with_sizes[tool-name]`},
		{"server-memory", `(ce ((`, `:name[field] :entityType[field] :observations[field]`},
		{"server-memory", `(cr (("a" "b" `, `:relationType[field]`},
		{"server-everything", `(gsc `, `"New York"[enum] :Chicago[enum] "Los Angeles"[enum] :location[param]`},
		{"server-everything", `(gsc "L`, `"Los Angeles"[enum]`},
		{"server-everything", `(get-s`, `get-structured-content[tool-name] get-sum[tool-name]`},
		{"server-sequential-thinking", `(se "t" `, `true[literal] false[literal] :nextThoughtNeeded[param] :thoughtNumber[param] :totalThoughts[param] :isRevision[param] :revisesThought[param] :branchFromThought[param] :branchId[param] :needsMoreThoughts[param]`},
	} {
		set := sets[tt.server]
		if set == nil {
			t.Fatalf("no corpus file for %s", tt.server)
		}
		if got := show(NewResolver(set).Complete(tt.before).Items); got != tt.want {
			t.Errorf("%s: Complete(%q):\n got  %s\n want %s", tt.server, tt.before, got, tt.want)
		}
	}
}

// Every parameter of every corpus tool is offered at the call's start, in
// call order (required ones first), and signature help after its :name
// describes it and points at its declaration.
func TestCompleteCorpusParams(t *testing.T) {
	for _, f := range corpusFiles(t) {
		r := NewResolver(loadSet(t, f))
		for _, tool := range r.set.Tools {
			v := r.views.get(tool.InputSchema, tool.InputSchema)
			if !v.record {
				continue
			}
			head := "(" + r.Code(tool.Name)
			var want []string
			for _, p := range v.params {
				if sexpr.IsKeywordText(p.name) {
					want = append(want, ":"+p.name+"[param]")
				}
			}
			c := r.Complete(head + " ")
			var got []string
			for _, it := range c.Items {
				if it.Kind == KindParam {
					got = append(got, it.Text+"["+it.Kind.String()+"]")
				}
			}
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("%s: Complete(%q) offers %q, want %q", filepath.Base(f), head+" ", got, want)
			}
			for k, p := range v.params {
				if !sexpr.IsKeywordText(p.name) {
					continue
				}
				before := head + " :" + p.name + " "
				sig, ok := r.Signature(before)
				if !ok || sig.Param != k || sig.ParamName != p.name || sig.Required != p.required ||
					sig.Type != r.notation(tool.InputSchema, p.schema) || !strings.HasPrefix(sig.Decl[sig.ParamDecl.Start:], "("+p.name+" ") {
					t.Errorf("%s: Signature(%q) = %v %+v", filepath.Base(f), before, ok, sig)
				}
			}
		}
	}
}
