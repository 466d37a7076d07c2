package policy

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpterm/mcpterm/convert/toolset/toolsettest"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

func b(v bool) *bool { return &v }

var (
	readOnly       = toolset.Annotations{ReadOnlyHint: b(true)}
	destructive    = toolset.Annotations{ReadOnlyHint: b(false), DestructiveHint: b(true)}
	additive       = toolset.Annotations{ReadOnlyHint: b(false), DestructiveHint: b(false)}
	unannotated    = toolset.Annotations{}
	roButDestroyer = toolset.Annotations{ReadOnlyHint: b(true), DestructiveHint: b(true)}
)

func known(name string, a toolset.Annotations) Call {
	return Call{Tool: name, Known: true, Annotations: a}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name   string
		rules  Rules
		call   Call
		want   Verdict
		rule   string
		reason string // a fragment the reason must contain
	}{
		{"read-only tool, no rules", Rules{}, known("list_todos", readOnly), Allow, "non-destructive", "readOnlyHint: true"},
		{"additive tool, no rules", Rules{}, known("create_todo", additive), Allow, "non-destructive", "destructiveHint: false"},
		{"destructive needs --yes", Rules{}, known("delete_todo", destructive), Confirm, "destructive", "pass --yes"},
		{"destructive with --yes", Rules{Yes: true}, known("delete_todo", destructive), Allow, "--yes", "confirmed by --yes"},
		{"MCP default is destructive", Rules{}, known("update_todo", unannotated), Confirm, "destructive", "MCP treats as destructive"},
		{"readOnlyHint false alone is destructive", Rules{}, known("x", toolset.Annotations{ReadOnlyHint: b(false)}), Confirm, "destructive", "no destructiveHint"},
		{"read-only wins over destructiveHint", Rules{}, known("peek", roButDestroyer), Allow, "non-destructive", "readOnlyHint: true"},
		{"category delete escalates", Rules{}, Call{Tool: "purge", Known: true, Annotations: additive, Category: Delete}, Confirm, "destructive", "classified as a delete"},
		{"category delete beats readOnlyHint", Rules{}, Call{Tool: "rm", Known: true, Annotations: readOnly, Category: Delete}, Confirm, "destructive", "whatever its readOnlyHint"},
		{"category read cannot relax", Rules{}, Call{Tool: "drop", Known: true, Annotations: destructive, Category: Read}, Confirm, "destructive", "destructiveHint: true"},
		{"unknown tool is destructive", Rules{}, Call{Tool: "ghost"}, Confirm, "destructive", "not in the server's tool list"},
		{"deny pattern", Rules{Deny: []string{"delete_*"}}, known("delete_todo", destructive), Deny, `--deny "delete_*"`, `refused by --deny "delete_*"`},
		{"deny wins over allow", Rules{Allow: []string{"*"}, Deny: []string{"delete_todo"}, Yes: true}, known("delete_todo", destructive), Deny, `--deny "delete_todo"`, "refused"},
		{"deny wins over --yes and read-only tool", Rules{Deny: []string{"list_*"}, Yes: true}, known("list_todos", readOnly), Deny, `--deny "list_*"`, "refused"},
		{"allow list match", Rules{Allow: []string{"list_*", "get_*"}}, known("get_todo", readOnly), Allow, "non-destructive", "allowed"},
		{"allow list miss", Rules{Allow: []string{"list_*", "get_*"}}, known("create_todo", additive), Deny, "--allow", `matches none of --allow "list_*", "get_*"`},
		{"allow comma list", Rules{Allow: []string{"list_*,get_*"}}, known("get_todo", readOnly), Allow, "non-destructive", ""},
		{"allow does not imply --yes", Rules{Allow: []string{"delete_*"}}, known("delete_todo", destructive), Confirm, "destructive", "pass --yes"},
		{"read-only mode allows read-only", Rules{ReadOnly: true}, known("read_file", readOnly), Allow, "non-destructive", ""},
		{"read-only mode refuses additive", Rules{ReadOnly: true}, known("create_todo", additive), Deny, "--read-only", "not annotated readOnlyHint: true"},
		{"read-only mode refuses unannotated", Rules{ReadOnly: true, Yes: true}, known("x", unannotated), Deny, "--read-only", "--read-only runs nothing else"},
		{"read-only mode refuses unknown", Rules{ReadOnly: true}, Call{Tool: "ghost"}, Deny, "--read-only", "not in the server's tool list"},
		{"read-only mode and category delete", Rules{ReadOnly: true, Yes: true}, Call{Tool: "rm", Known: true, Annotations: readOnly, Category: Delete}, Deny, "--read-only", "classified as a delete"},
		{"question mark", Rules{Allow: []string{"get_tod?"}}, known("get_todo", readOnly), Allow, "", ""},
		{"dots are literal", Rules{Allow: []string{"github.*"}}, known("github.create_issue", additive), Allow, "", ""},
		{"dots are literal miss", Rules{Allow: []string{"github.*"}}, known("githubXcreate", additive), Deny, "--allow", ""},
		{"slash is ordinary", Rules{Deny: []string{"fs*"}}, known("fs/write", destructive), Deny, `--deny "fs*"`, ""},
		{"class", Rules{Deny: []string{"[dx]*"}}, known("delete_todo", destructive), Deny, `--deny "[dx]*"`, ""},
		{"negated class", Rules{Allow: []string{"[!d]*"}}, known("delete_todo", destructive), Deny, "--allow", ""},
		{"case blind", Rules{Deny: []string{"DELETE_*"}}, known("delete_todo", destructive), Deny, `--deny "DELETE_*"`, ""},
		{"--yes PATTERN confirms a match", Rules{YesFor: []string{"delete_*"}}, known("delete_todo", destructive), Allow, `--yes "delete_*"`, `confirmed by --yes "delete_*"`},
		{"--yes PATTERN any case, comma list", Rules{YesFor: []string{"purge,DELETE_TODO"}}, known("delete_todo", destructive), Allow, `--yes "DELETE_TODO"`, ""},
		{"--yes PATTERN leaves another tool asking", Rules{YesFor: []string{"delete_todo"}}, known("drop_table", destructive), Confirm, "destructive", "pass --yes"},
		{"--yes PATTERN does not pass --deny", Rules{YesFor: []string{"*"}, Deny: []string{"delete_*"}}, known("delete_todo", destructive), Deny, `--deny "delete_*"`, ""},
		{"--yes PATTERN does not pass --read-only", Rules{YesFor: []string{"*"}, ReadOnly: true}, known("delete_todo", destructive), Deny, "--read-only", ""},
		{"--yes PATTERN on a harmless tool changes nothing", Rules{YesFor: []string{"list_*"}}, known("list_todos", readOnly), Allow, "non-destructive", ""},
		{"--yes PATTERN matches the short code", Rules{YesFor: []string{"rm"}}, Call{Tool: "delete_todo", Names: []string{"rm"}, Known: true, Annotations: destructive}, Allow, `--yes "rm"`, `(as "rm")`},
		{"hostile name is shown safely", Rules{Allow: []string{"a"}}, known("evil\x1b]52;c;AAAA\x07name", readOnly), Deny, "--allow", `"evilname"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(tt.rules)
			if err != nil {
				t.Fatal(err)
			}
			d := p.Check(tt.call)
			if d.Verdict != tt.want {
				t.Fatalf("verdict %s, want %s (reason: %s)", d.Verdict, tt.want, d.Reason)
			}
			if d.Allowed() != (tt.want == Allow) {
				t.Errorf("Allowed() = %v", d.Allowed())
			}
			if tt.rule != "" && d.Rule != tt.rule {
				t.Errorf("rule %q, want %q", d.Rule, tt.rule)
			}
			if !strings.Contains(d.Reason, tt.reason) {
				t.Errorf("reason %q lacks %q", d.Reason, tt.reason)
			}
			if d.Reason == "" || !strings.Contains(d.Reason, "tool ") {
				t.Errorf("reason should name the tool: %q", d.Reason)
			}
			if strings.ContainsAny(d.Reason, "\x1b\x07") {
				t.Errorf("reason carries control characters: %q", d.Reason)
			}
			if d.Destructive != IsDestructive(tt.call) {
				t.Errorf("Destructive %v disagrees with IsDestructive", d.Destructive)
			}
		})
	}
}

func TestBadPatterns(t *testing.T) {
	for _, pat := range []string{"[abc", `trailing\`, "[z-a]*", `[a\`} {
		_, err := New(Rules{Allow: []string{pat}})
		if err == nil || !strings.Contains(err.Error(), "--allow") || !strings.Contains(err.Error(), pat) {
			t.Errorf("pattern %q: %v", pat, err)
		}
	}
	if _, err := New(Rules{Deny: []string{"[abc"}}); err == nil || !strings.Contains(err.Error(), "--deny") {
		t.Errorf("deny: %v", err)
	}
	if p, err := New(Rules{Allow: []string{" , "}}); err != nil || !p.Check(known("x", readOnly)).Allowed() {
		t.Errorf("an empty allow list entry must not refuse everything: %v", err)
	}
}

func TestGlob(t *testing.T) {
	tests := []struct {
		pat, name string
		want      bool
	}{
		{"*", "", true}, {"*", "anything", true}, {"", "", true}, {"", "a", false},
		{"a*b*c", "abc", true}, {"a*b*c", "aXXbYYc", true}, {"a*b*c", "aXXbYY", false},
		{"*_todo", "delete_todo", true}, {"*_todo", "delete_todos", false},
		{"?", "é", true}, {"??", "é", false}, {"[é-ê]x", "êx", true},
		{`\*`, "*", true}, {`\*`, "a", false}, {`a\?`, "a?", true},
		{"[]]", "]", true}, {"[!]]", "a", true}, {"[a-]", "-", true},
		{"**x", "abx", true}, {"*a*a*a*a*a*b", strings.Repeat("a", 60), false},
	}
	for _, tt := range tests {
		p, err := compile(tt.pat)
		if err != nil {
			t.Fatalf("compile(%q): %v", tt.pat, err)
		}
		if got := p.match(tt.name); got != tt.want {
			t.Errorf("%q matches %q = %v, want %v", tt.pat, tt.name, got, tt.want)
		}
	}
}

func FuzzGlob(f *testing.F) {
	f.Add("a*b?[c-d]", "axbyc")
	f.Add(`[!x]\*`, "y*")
	f.Fuzz(func(t *testing.T, pat, name string) {
		p, err := compile(pat)
		if err != nil {
			return
		}
		p.match(name)
		// a pattern with no special characters matches itself, in any case
		if !strings.ContainsAny(pat, `*?[\`) && utf8.ValidString(name) && p.match(name) != strings.EqualFold(pat, name) {
			t.Fatalf("literal %q vs %q", pat, name)
		}
	})
}

func TestCap(t *testing.T) {
	out, cut := Cap(strings.Repeat("x", 5000), 2000)
	if len(out) > 2000 || cut == 0 || !strings.HasSuffix(out, "…(cut "+strconv.Itoa(cut)+" bytes)") {
		t.Fatalf("Cap: %d bytes, cut %d, ends %q", len(out), cut, out[len(out)-20:])
	}
	if out, cut := Cap("short", 2000); out != "short" || cut != 0 {
		t.Fatalf("short text changed: %q %d", out, cut)
	}
	if out, cut := Cap("no limit", 0); out != "no limit" || cut != 0 {
		t.Fatalf("n=0 should not cap: %q %d", out, cut)
	}
}

// TestRealServerAnnotations runs the rules over the corpus's real tool lists.
func TestRealServerAnnotations(t *testing.T) {
	dir := corpusDir(t)
	load := func(name string) *toolset.Set {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		set, err := toolset.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		return set
	}
	fs := load("server-filesystem.tools.json")
	ro, _ := New(Rules{ReadOnly: true})
	var allowed []string
	for _, tool := range fs.Tools {
		if ro.Check(CallOf(tool.Name, tool, "")).Allowed() {
			allowed = append(allowed, tool.Name)
		}
	}
	for _, name := range []string{"read_file", "list_directory", "search_files"} {
		if !contains(allowed, name) {
			t.Errorf("--read-only refused %s", name)
		}
	}
	for _, name := range []string{"write_file", "edit_file", "move_file", "create_directory"} {
		if contains(allowed, name) {
			t.Errorf("--read-only allowed %s", name)
		}
	}
	def, _ := New(Rules{})
	mem := load("server-memory.tools.json")
	for _, tool := range mem.Tools {
		d := def.Check(CallOf(tool.Name, tool, ""))
		wantConfirm := strings.HasPrefix(tool.Name, "delete_")
		if (d.Verdict == Confirm) != wantConfirm {
			t.Errorf("%s: %s (%s)", tool.Name, d.Verdict, d.Reason)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func corpusDir(t *testing.T) string { return toolsettest.CorpusDir(t) }

func TestYesForBadPatternIsAnError(t *testing.T) {
	_, err := New(Rules{YesFor: []string{"delete_[x"}})
	if err == nil || !strings.Contains(err.Error(), "--yes") {
		t.Fatalf("New with a broken --yes pattern: %v, want an error naming --yes", err)
	}
}
