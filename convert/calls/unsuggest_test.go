package calls

import (
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

// TestUnsuggest: with Unsuggest, no unknown-tool error of any syntax
// offers the unsuggested tools, by name or code, nor lists their codes;
// they still read, for the policy to refuse with its reason.
func TestUnsuggest(t *testing.T) {
	set, err := toolset.Parse([]byte(`[
		{"name": "delete_file", "inputSchema": {"type": "object"}},
		{"name": "Delete_File", "inputSchema": {"type": "object"}},
		{"name": "read_note", "inputSchema": {"type": "object"}}]`))
	if err != nil {
		t.Fatal(err)
	}
	denied := func(tool string) bool { return strings.EqualFold(tool, "delete_file") }
	plain := New(set, Options{})
	if _, err := plain.Read(`(delete_fil)`); err == nil || !strings.Contains(err.Error(), "did you mean") {
		t.Fatalf("without Unsuggest the test shows nothing: %v", err)
	}
	c := New(set, Options{Unsuggest: denied})
	code := c.Code("Delete_File")
	for _, src := range []string{`(delete_fil)`, `(Delete_Fil)`, `(DELETE_FILE)`, `(` + code + `x)`, `{"tool":"delete_fil","arguments":{}}`} {
		_, err := c.Read(src)
		if err == nil {
			t.Fatalf("%s read", src)
		}
		msg := err.Error()
		if strings.Contains(msg, "delete_file") || strings.Contains(msg, "Delete_File") || strings.Contains(msg, "mean "+code) {
			t.Errorf("%s: %s", src, msg)
		}
		if node := c.ErrorTerm(err); strings.Contains(node.String(), "Delete_File") || strings.Contains(node.String(), " "+code+" ") {
			t.Errorf("%s as a term: %s", src, node)
		}
	}
	p, err := c.Read(`{"operation":"delete_fil"}`)
	if err != nil || len(p.Items) != 1 || !p.Items[0].IsLocal() {
		t.Fatalf("AQL: %v %+v", err, p)
	}
	if got := p.Items[0].Local.Compact(); !strings.Contains(got, "NOT_FOUND_OPERATION") || strings.Contains(got, "delete_file") {
		t.Errorf("AQL: %s", got)
	}
	for _, src := range []string{`(delete_file)`, `(Delete_File)`, `(` + code + `)`, `{"operation":"delete_file"}`} {
		if _, err := c.Read(src); err != nil {
			t.Errorf("%s must still read: %v", src, err)
		}
	}
}
