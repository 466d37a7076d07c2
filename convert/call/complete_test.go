package call

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

// show writes candidates as text[kind], the way the tables below expect.
func show(cs []Candidate) string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Text + "[" + c.Kind.String() + "]"
	}
	return strings.Join(out, " ")
}

// Each kind of candidate, in the order offered, on the fixture tools.
func TestComplete(t *testing.T) {
	r := NewResolver(fixtures(t))
	tests := []struct {
		before string
		word   string
		want   string // the candidates; a trailing " ..." means "begins with"
	}{
		// head position: batch only at the top, codes then names, tool by tool
		{`(`, ``, `batch[batch] fr[tool-code] file_read[tool-name] nu[tool-code] note_update[tool-name] ...`},
		{`(f`, `f`, `fr[tool-code] file_read[tool-name]`},
		{`(FI`, `FI`, `file_read[tool-name]`},
		{`(read`, `read`, `file_read[tool-name]`},
		{`(ba`, `ba`, `batch[batch] batch_paths[tool-name]`},
		{`(batch (1 (`, ``, `fr[tool-code] file_read[tool-name] ...`},
		{"(batch\n  (1 (fr \"/a\"))\n  (2 (n", `n`, `nu[tool-code] note_update[tool-name] ncp[tool-code] notion-create-pages[tool-name]`},
		{`(fi_read`, `fi_read`, `file_read[tool-name]`},
		// batch options, before the entries
		{`(batch `, ``, `:concurrency[batch-option] :stop-on-error[batch-option]`},
		{`(batch :concurrency 2 :s`, `:s`, `:stop-on-error[batch-option]`},
		{`(batch :stop-on-error `, ``, `true[literal] false[literal] :concurrency[batch-option]`},
		{`(batch :concurrency `, ``, ``},
		{`(batch (1 (fr "/a")) `, ``, ``},
		{`(batch (`, ``, ``},
		// parameters, in call order; positional ones count as given
		{`(fr `, ``, `:path[param] :enc[param] :off[param] :lim[param]`},
		{`(fr :`, `:`, `:path[param] :enc[param] :off[param] :lim[param]`},
		{`(fr "/x" `, ``, `:utf8[enum] :base64[enum] :enc[param] :off[param] :lim[param]`},
		{`(fr "/x" :`, `:`, `:utf8[enum] :base64[enum] :enc[param] :off[param] :lim[param]`},
		{`(fr "/x" :utf8 `, ``, `nil[literal] :off[param] :lim[param]`},
		{`(fr "/x" :enc :utf8 `, ``, `:off[param] :lim[param]`},
		{`(fr :enc :utf8 :l`, `:l`, `:lim[param]`},
		{`(fr :paht`, `:paht`, `:path[param]`},
		// enum values of the slot being filled
		{`(fr "/x" :enc `, ``, `:utf8[enum] :base64[enum]`},
		{`(fr "/x" :enc :b`, `:b`, `:base64[enum]`},
		{`(fr "/x" :enc :utf8`, `:utf8`, `:utf8[enum]`},
		{`(fr "/x" :enc "u`, `"u`, `"utf8"[enum]`},
		{`(li "o" "r" :state `, ``, `:open[enum] :closed[enum] :all[enum] nil[literal]`},
		{`(li "o" "r" :sort :reactions-+`, `:reactions-+`, `:reactions-+1[enum]`},
		{`(li "o" "r" :sort :smile`, `:smile`, `:reactions-smile[enum]`},
		{`(ms :version `, ``, `2[enum]`},
		{`(ms :flags (`, ``, `:a[enum] :b[enum] :c[enum]`},
		{`(ms :flags (:a `, ``, `:a[enum] :b[enum] :c[enum]`},
		// nil, true, false where a value of that type goes
		{`(ms :mode `, ``, `true[literal] false[literal]`},
		{`(ms :meta `, ``, `nil[literal] true[literal] false[literal]`},
		{`(ms :nullable `, ``, `nil[literal]`},
		{`(ms :nullable n`, `n`, `nil[literal]`},
		{`(ms :point (`, ``, ``},
		{`(ms :meta (json `, ``, ``},
		// nested record fields: (:field value ...) and a list of records
		{`(dpq "q" () (`, ``, `:json[enum] :csv[enum] :parquet[enum] :format[field] :limit[field] :level1[field]`},
		{`(dpq "q" () (:csv :`, `:`, `:limit[field] :level1[field]`},
		{`(dpq "q" () (:csv :level1 (`, ``, `:level2[field]`},
		{`(dpq "q" () (:csv :level1 (:level2 (:level3 (:level4 (:level5 (`, ``, `:deep[field]`},
		{`(dpq "q" () (:csv) :joins ((`, ``, `:left[field] :right[field] :type[field] :on[field]`},
		{`(dpq "q" () (:csv) :joins (("a" "b" `, ``, `:inner[enum] :type[field] :on[field]`}, // :left names a field
		{`(dpq "q" () (:csv) :joins (("a" "b" :type `, ``, `:inner[enum] :left[enum] :right[enum]`},
		{`(dpq "q" () (:csv) :joins (("a" "b" :inner ((`, ``, `:left[field] :op[field] :right[field]`},
		{`(dpq "q" () (:csv) :joins (("a" "b" :inner (("x" `, ``, `:=[enum] :!=[enum] :<[enum] :>[enum] :op[field] :right[field]`},
		{`(ncp (`, ``, `:page_id[field] :database_id[field]`},
		// tagged unions: the tags at the head of the list, then the variant's fields
		{`(nu "d" (`, ``, `insert[variant] delete[variant] retain[variant]`},
		{`(nu "d" ((`, ``, `insert[variant] delete[variant] retain[variant]`},
		{`(nu "d" ((d`, `d`, `delete[variant]`},
		{`(nu "d" ((dlete`, `dlete`, `delete[variant]`},
		{`(nu "d" ((delete 1 `, ``, `:len[field]`},
		{`(nu "d" ((delete `, ``, `:pos[field] :len[field]`},
		{`(nu "d" ((:op `, ``, `:insert[variant] :delete[variant] :retain[variant]`},
		{`(nu "d" ((:op "delete" `, ``, `:pos[field] :len[field]`},
		{`(nu "d" ((insert 0 ((`, ``, `paragraph[variant] heading[variant] code[variant] image[variant]`},
		{`(nu "d" ((insert 0 ((heading `, ``, `1[enum] 2[enum] 3[enum] 4[enum] 5[enum] 6[enum] :level[field] :content[field]`},
		{`(nu "d" ((insert 0 ((paragraph "p" () ("x" (`, ``, `:text[field] :bold[field]`},
		{`(nu "d" ((insert 0 ((paragraph "p" () ("x" (:text "y" `, ``, `:bold[field]`},
		{`(nu "d" ((insert 0 ((paragraph "p" () ("x" (:text "y" :bold `, ``, `true[literal] false[literal]`},
		{`(dpq "q" ((`, ``, `sql[variant] mongodb[variant] api[variant]`},
		{`(dpq "q" ((sql `, ``, `:pg[enum] :my[enum] :ch[enum] :driver[field] :host[field] :db[field] :q[field]`},
		{`(sa `, ``, `circle[variant] rect[variant]`},
		{`(sa rect 1 2 `, ``, `:mm[enum] :cm[enum] :in[enum] :unit[param]`},
		{`(sa rect 1 2 :unit :c`, `:c`, `:cm[enum]`},
		// a trailing list parameter takes its elements inline
		{`(bp "/" `, ``, `:paths[param]`},
		{`(bp "/" "a" "b" `, ``, ``},
		// string keys, once named arguments have begun
		{`(ms :point (1 2) "x`, `"x`, `"x-weird key"[param]`},
		{`(ms "x`, `"x`, ``},
		// nowhere to complete
		{`fr`, ``, ``},
		{`(fr ; :p`, ``, ``},
		{`(zz `, ``, ``},
		{`(fr "/x") (`, ``, `batch[batch] ...`},
		{``, ``, ``},
	}
	for _, tt := range tests {
		c := r.Complete(tt.before)
		got := show(c.Items)
		want, prefix := strings.CutSuffix(tt.want, " ...")
		ok := got == want || prefix && strings.HasPrefix(got, want+" ")
		if !ok || c.Word != tt.word || c.Start != len(tt.before)-len(tt.word) {
			t.Errorf("Complete(%q):\n got  %q at %d: %s\n want %q at %d: %s", tt.before, c.Word, c.Start, got, tt.word, len(tt.before)-len(tt.word), tt.want)
		}
	}
}

// Enum strings that are not keyword-like are offered quoted, with an empty
// word too; a union of enums offers every member's values.
func TestCompleteStrings(t *testing.T) {
	set, err := toolset.Parse([]byte(`{"tools": [{"name": "weather", "inputSchema": {"type": "object",
		"properties": {"city": {"enum": ["New York", "Paris", "Zürich"]}, "units": {"anyOf": [{"enum": ["metric"]}, {"const": "imperial"}, {"type": "null"}]}},
		"required": ["city"]}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	r := NewResolver(set)
	for _, tt := range []struct{ before, word, want string }{
		{`(weather `, ``, `"New York"[enum] :Paris[enum] :Zürich[enum] :city[param] :units[param]`},
		{`(weather "`, `"`, `"New York"[enum] "Paris"[enum] "Zürich"[enum]`},
		{`(weather "Z`, `"Z`, `"Zürich"[enum]`},
		{`(weather :P`, `:P`, `:Paris[enum]`},
		{`(weather :z`, `:z`, `:Zürich[enum]`},
		{`(weather :Paris `, ``, `:metric[enum] :imperial[enum] nil[literal] :units[param]`},
		{`(weather :Paris :units `, ``, `:metric[enum] :imperial[enum] nil[literal]`},
	} {
		c := r.Complete(tt.before)
		if got := show(c.Items); got != tt.want || c.Word != tt.word {
			t.Errorf("Complete(%q):\n got  %q: %s\n want %q: %s", tt.before, c.Word, got, tt.word, tt.want)
		}
	}
}

// Details: a tool's description, a parameter's type, the slot's type for
// its values, a variant's fields.
func TestCompleteDetails(t *testing.T) {
	r := NewResolver(fixtures(t))
	detail := func(before, text string) string {
		for _, c := range r.Complete(before).Items {
			if c.Text == text {
				return c.Detail
			}
		}
		t.Errorf("Complete(%q) does not offer %s", before, text)
		return ""
	}
	for _, tt := range []struct{ before, text, want string }{
		{`(f`, `file_read`, `Read file content`},
		{`(f`, `fr`, `file_read: Read file content`},
		{`(fr `, `:enc`, `:utf8|:base64`},
		{`(fr `, `:lim`, `(opt integer)`},
		{`(fr "/x" :enc `, `:utf8`, `:utf8|:base64`},
		{`(nu "d" (`, `delete`, `(rec (pos integer) (len integer))`},
		{`(dpq "q" () (`, `:level1`, `(rec (opt (level2 (rec (opt (level3 (rec ...)))))))`},
		{`(`, `batch`, batchDetail},
	} {
		if got := detail(tt.before, tt.text); got != tt.want {
			t.Errorf("Complete(%q): %s has detail %q, want %q", tt.before, tt.text, got, tt.want)
		}
	}
}

// Signature help names the call, the parameter at the cursor, its type,
// values and requiredness, and the path into nested values.
func TestSignature(t *testing.T) {
	r := NewResolver(fixtures(t))
	tests := []struct {
		before string
		tool   string // "" when there is no signature
		entry  string
		param  string // "" for Param -1
		path   string
		typ    string
		enum   string
		req    bool
		vari   string
	}{
		{`(fr`, "file_read", "", "", "", "", "", false, ""},
		{`(fr `, "file_read", "", "path", "path", "string", "", true, ""},
		{`(fr "/et`, "file_read", "", "path", "path", "string", "", true, ""},
		{`(fr "/x" `, "file_read", "", "enc", "enc", ":utf8|:base64", ":utf8 :base64", false, ""},
		{`(fr "/x" :enc :u`, "file_read", "", "enc", "enc", ":utf8|:base64", ":utf8 :base64", false, ""},
		{`(fr "/x" :lim `, "file_read", "", "lim", "lim", "(opt integer)", "", false, ""},
		{`(fr "/x" :enc :utf8 `, "file_read", "", "", "", "", "", false, ""},
		{`(fr "/x" :enc :utf8 :o`, "file_read", "", "off", "off", "(opt integer)", "", false, ""},
		{`(fr :enc`, "file_read", "", "enc", "enc", ":utf8|:base64", ":utf8 :base64", false, ""},
		{`(fr :l`, "file_read", "", "lim", "lim", "(opt integer)", "", false, ""},
		{`(fr "/x" :utf`, "file_read", "", "enc", "enc", ":utf8|:base64", ":utf8 :base64", false, ""},
		{"(batch\n  (1 (fr \"/a\"))\n  (b2 (fr \"/b\" :enc ", "file_read", "b2", "enc", "enc", ":utf8|:base64", ":utf8 :base64", false, ""},
		{`(batch (7 (fr`, "file_read", "7", "", "", "", "", false, ""},
		{`(nu "d" ((delete 1 `, "note_update", "", "ops", "ops/0/len", "integer", "", true, "delete"},
		{`(nu "d" ((insert 0 ((heading `, "note_update", "", "ops", "ops/0/blocks/0/level", "(or 1 2 3 4 5 6)", "1 2 3 4 5 6", true, "heading"},
		{`(nu "d" (`, "note_update", "", "ops", "ops/0", "(or (insert ...) (delete ...) (retain ...))", "", false, ""},
		{`(dpq "q" () (:csv :level1 (:level2 (`, "data_platform_query", "", "out", "out/level1/level2/level3", "(rec (opt (level4 (rec (opt (level5 (rec ...)))))))", "", false, ""},
		{`(bp "/" "a" `, "batch_paths", "", "paths", "paths/1", "string", "", false, ""},
		{`(bp "/" `, "batch_paths", "", "paths", "paths", "(list string)", "", false, ""},
		{`(f`, "", "", "", "", "", "", false, ""},
		{`(`, "", "", "", "", "", "", false, ""},
		{`(batch `, "", "", "", "", "", "", false, ""},
		{`(zz "x" `, "", "", "", "", "", "", false, ""},
		{`(fr ; "x" `, "", "", "", "", "", "", false, ""},
	}
	for _, tt := range tests {
		sig, ok := r.Signature(tt.before)
		if tt.tool == "" {
			if ok {
				t.Errorf("Signature(%q) = %+v, want none", tt.before, sig)
			}
			continue
		}
		param := ""
		if sig.Param >= 0 {
			param = sig.ParamName
		}
		if !ok || sig.Tool != tt.tool || sig.Entry != tt.entry || param != tt.param || strings.Join(sig.Path, "/") != tt.path ||
			sig.Type != tt.typ || strings.Join(sig.Enum, " ") != tt.enum || sig.Required != tt.req || sig.Variant != tt.vari {
			t.Errorf("Signature(%q) = %v %+v\n want tool %s entry %q param %q path %q type %q enum %q required %v variant %q",
				tt.before, ok, sig, tt.tool, tt.entry, tt.param, tt.path, tt.typ, tt.enum, tt.req, tt.vari)
		}
	}
}

// The declaration is the one-tool term form, and ParamDecl points at the
// parameter's own declaration in it.
func TestSignatureDeclaration(t *testing.T) {
	r := NewResolver(fixtures(t))
	sig, ok := r.Signature(`(fr "/x" :enc `)
	if !ok {
		t.Fatal("no signature")
	}
	if !strings.HasPrefix(sig.Decl, "(declare\n (fr file_read (path string)") || sig.Code != "fr" {
		t.Errorf("declaration %q, code %q", sig.Decl, sig.Code)
	}
	if got := sig.Decl[sig.ParamDecl.Start:sig.ParamDecl.End]; got != `(enc :utf8|:base64 :default "utf8")` {
		t.Errorf("ParamDecl %v is %q", sig.ParamDecl, got)
	}
	for _, tool := range r.set.Tools {
		sig, ok := r.Signature("(" + r.Code(tool.Name) + " ")
		if !ok || sig.Tool != tool.Name || !strings.Contains(sig.Decl, "("+r.Code(tool.Name)+" ") {
			t.Errorf("%s: signature %v %+v", tool.Name, ok, sig)
		}
		if sig.Param >= 0 && !strings.HasPrefix(sig.Decl[sig.ParamDecl.Start:], "("+sig.ParamName+" ") &&
			!strings.HasPrefix(sig.Decl[sig.ParamDecl.Start:], `("`+sig.ParamName+`" `) {
			t.Errorf("%s: parameter %s declared at %v: %q", tool.Name, sig.ParamName, sig.ParamDecl, sig.Decl[sig.ParamDecl.Start:])
		}
	}
}

// A Resolver is shared by the composer's keystrokes and its other readers:
// completion's tables are built under their lock.
func TestCompleteConcurrent(t *testing.T) {
	r := NewResolver(fixtures(t))
	texts := []string{`(`, `(fr "/x" `, `(nu "d" ((insert 0 ((heading `, `(dpq "q" () (:csv :level1 (`, `(li "o" "r" :sort :`}
	done := make(chan []string)
	for g := 0; g < 4; g++ {
		go func() {
			var out []string
			for _, s := range texts {
				out = append(out, show(r.Complete(s).Items))
				if sig, ok := r.Signature(s); ok {
					out = append(out, sig.Type)
				}
			}
			done <- out
		}()
	}
	first := <-done
	for g := 1; g < 4; g++ {
		if got := <-done; !slices.Equal(got, first) {
			t.Errorf("concurrent completions differ:\n%q\n%q", got, first)
		}
	}
}
