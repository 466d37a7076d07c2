package policy

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// variants is a server listing one tool under name variants, a read the
// server vouches for and a read by name only.
const variants = `[
	{"name": "delete_file", "inputSchema": {"type": "object"}},
	{"name": "Delete_File", "inputSchema": {"type": "object"}},
	{"name": "deleteFile", "inputSchema": {"type": "object"}},
	{"name": "delete-file\u200b", "inputSchema": {"type": "object"}},
	{"name": "read_note", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}},
	{"name": "list_items", "inputSchema": {"type": "object"}}]`

func variantCodec(t *testing.T, o calls.Options) *calls.Codec {
	t.Helper()
	set, err := toolset.Parse([]byte(variants))
	if err != nil {
		t.Fatal(err)
	}
	return calls.New(set, o)
}

// TestDenyByIdentity: --deny delete_file refuses every variant of the name,
// whichever of its names the call used, and says by which name when it is
// not the real one.
func TestDenyByIdentity(t *testing.T) {
	codec := variantCodec(t, calls.Options{})
	p, err := New(Rules{Deny: []string{"delete_file"}, Yes: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"delete_file", "Delete_File", "deleteFile", "delete-file\u200b"} {
		c := CallFor(codec, tool)
		d := p.Check(c)
		if d.Verdict != Deny || d.Rule != `--deny "delete_file"` || !p.Denies(c) {
			t.Errorf("%q: %s %s (%s)", tool, d.Verdict, d.Rule, d.Reason)
		}
		if strings.ContainsRune(d.Reason, '\u200b') || strings.ContainsRune(tool, '\u200b') && !strings.Contains(d.Reason, `delete-file\u200b`) {
			t.Errorf("%q: the reason does not show the invisible character: %q", tool, d.Reason)
		}
	}
	for _, tool := range []string{"read_note", "list_items"} {
		if c := CallFor(codec, tool); p.Check(c).Verdict == Deny || p.Denies(c) {
			t.Errorf("%s refused by --deny delete_file", tool)
		}
	}
}

// TestPatternsMatchEveryName: a pattern matches a tool by its short code
// and its AQL operation name as well as its real name, in any case; and
// the reason names the tool and the name that matched.
func TestPatternsMatchEveryName(t *testing.T) {
	codec := variantCodec(t, calls.Options{})
	code := codec.Code("Delete_File")
	a, err := codec.Adapter()
	if err != nil {
		t.Fatal(err)
	}
	op := a.ForTool("Delete_File").Name
	if code == "Delete_File" || op == "Delete_File" || op == "delete_file" {
		t.Fatalf("the test needs a code and an operation name of their own: %q %q", code, op)
	}
	for _, pat := range []string{code, strings.ToUpper(code), op, "DELETE_FILE_*"} {
		p, err := New(Rules{Deny: []string{pat}, Yes: true})
		if err != nil {
			t.Fatal(err)
		}
		d := p.Check(CallFor(codec, "Delete_File"))
		if d.Verdict != Deny || !strings.Contains(d.Reason, `tool "Delete_File" (as "`) {
			t.Errorf("--deny %q: %s (%s)", pat, d.Verdict, d.Reason)
		}
	}
	// --allow matches only names that reach the tool: its code and
	// operation name do, its variant spelling does not.
	p, err := New(Rules{Allow: []string{op}, Yes: true})
	if err != nil {
		t.Fatal(err)
	}
	if d := p.Check(CallFor(codec, "Delete_File")); !d.Allowed() {
		t.Errorf("--allow %q (its operation name): %s", op, d.Reason)
	}
	p, err = New(Rules{Allow: []string{"delete_file"}, Yes: true})
	if err != nil {
		t.Fatal(err)
	}
	for tool, want := range map[string]bool{"delete_file": true, "Delete_File": true, "deleteFile": false, "delete-file\u200b": false} {
		if got := p.Check(CallFor(codec, tool)).Allowed(); got != want {
			t.Errorf("--allow delete_file, %q: allowed %v, want %v", tool, got, want)
		}
	}
}

// TestLiteralDenyRefusesVariants: a --deny pattern without wildcards
// refuses every spelling of its words, whichever spelling it is written in.
func TestLiteralDenyRefusesVariants(t *testing.T) {
	p, err := New(Rules{Deny: []string{"DeleteFile"}, Yes: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"delete_file", "Delete-File", "delete.file\u200b", "DELETEFILE"} {
		if d := p.Check(known(name, unannotated)); d.Verdict != Deny {
			t.Errorf("--deny DeleteFile lets %q run: %s", name, d.Reason)
		}
	}
	for _, name := range []string{"delete_files", "undelete_file"} {
		if d := p.Check(known(name, unannotated)); d.Verdict == Deny {
			t.Errorf("--deny DeleteFile refuses %q", name)
		}
	}
	// A glob is matched as written, against every name and the variant.
	g, _ := New(Rules{Deny: []string{"Delete*"}, Yes: true})
	if g.Check(known("delete_file", unannotated)).Verdict != Deny || g.Check(known("remove_file", unannotated)).Verdict == Deny {
		t.Error("--deny Delete* matches wrongly")
	}
}

// TestVariant is the spelling variants share.
func TestVariant(t *testing.T) {
	for in, want := range map[string]string{
		"Delete_File": "delete_file", "delete-file": "delete_file", "deleteFile": "delete_file",
		"delete_file\u200b": "delete_file", "DELETE.FILE": "delete_file", "删除": "", "": "",
	} {
		if got := Variant(in); got != want {
			t.Errorf("Variant(%q) = %q, want %q", in, got, want)
		}
	}
	// A tool whose name has no ASCII words has no variant form: a --deny
	// "op" (the AQL fallback name) must not catch it by accident, and an
	// empty variant matches no pattern but "*".
	p, _ := New(Rules{Deny: []string{"op"}, Yes: true})
	if p.Check(known("删除", additive)).Verdict == Deny {
		t.Error(`--deny op refuses a tool named 删除`)
	}
}

// TestDestructiveRuleIsAQLs: the policy's destructive rule is the one the
// AQL endpoints' annotations use, for every annotation and category.
func TestDestructiveRuleIsAQLs(t *testing.T) {
	anns := []toolset.Annotations{readOnly, destructive, additive, unannotated, roButDestroyer, {ReadOnlyHint: b(false)}}
	for _, a := range anns {
		for _, c := range aql.Categories() {
			got := IsDestructive(Call{Tool: "t", Known: true, Annotations: a, Category: Category(c.Family())})
			want, _ := aql.Destructive(a, c)
			if got != want {
				t.Errorf("%+v %s: policy %v, aql %v", a, c, got, want)
			}
		}
	}
}

// TestNameNeverGrantsReadOnly: a tool classified READ by its name alone is
// not read-only to --read-only, and needs --yes like any unannotated tool;
// a DELETE that says readOnlyHint: true (drop_all) is refused by
// --read-only and needs --yes.
func TestNameNeverGrantsReadOnly(t *testing.T) {
	set, err := toolset.Parse([]byte(`[
		{"name": "list_items", "inputSchema": {"type": "object"}},
		{"name": "list_and_drop", "inputSchema": {"type": "object"}},
		{"name": "drop_all", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}},
		{"name": "read_note", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}]`))
	if err != nil {
		t.Fatal(err)
	}
	codec := calls.New(set, calls.Options{})
	def, _ := New(Rules{})
	ro, _ := New(Rules{ReadOnly: true, Yes: true})
	for tool, want := range map[string][2]Verdict{
		"list_items":    {Confirm, Deny},
		"list_and_drop": {Confirm, Deny},
		"drop_all":      {Confirm, Deny},
		"read_note":     {Allow, Allow},
	} {
		c := CallFor(codec, tool)
		if got := [2]Verdict{def.Check(c).Verdict, ro.Check(c).Verdict}; got != want {
			t.Errorf("%s (category %s): default, --read-only = %v, want %v", tool, c.Category, got, want)
		}
	}
	if c := CallFor(codec, "list_and_drop"); c.Category != Delete {
		t.Errorf("list_and_drop is %q, want delete", c.Category)
	}
}

// globQuote writes name as a pattern that matches only itself.
func globQuote(name string) string {
	var b strings.Builder
	for _, r := range name {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// FuzzDenyIdentity: denying a name refuses it in any letter case and under
// every spelling that shares its words (separators changed, invisible
// characters between words), and never panics on a hostile name.
func FuzzDenyIdentity(f *testing.F) {
	f.Add("delete_file", "Delete-File\u200b")
	f.Add("DeleteFile", "delete.file")
	f.Add("删除", "x")
	f.Add("a*b", "A*B")
	f.Fuzz(func(t *testing.T, name, other string) {
		if !utf8.ValidString(name) || name == "" {
			return
		}
		p, err := New(Rules{Deny: []string{globQuote(name)}, Yes: true})
		if err != nil {
			if strings.Contains(name, ",") {
				return // a comma separates patterns
			}
			t.Fatalf("a quoted name is not a pattern: %q: %v", name, err)
		}
		if strings.Contains(name, ",") || strings.TrimSpace(name) != name {
			return
		}
		if d := p.Check(known(strings.ToUpper(name), unannotated)); d.Verdict != Deny && strings.EqualFold(strings.ToUpper(name), name) {
			t.Fatalf("--deny %q lets %q run: %s", name, strings.ToUpper(name), d.Reason)
		}
		if Variant(name) != "" && Variant(other) == Variant(name) {
			if d := p.Check(known(other, unannotated)); d.Verdict != Deny {
				t.Fatalf("--deny %q lets its variant %q run: %s", name, other, d.Reason)
			}
		}
	})
}
