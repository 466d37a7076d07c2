package aql

import (
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

// mixed is a tool list with every kind of read: one the server vouches for,
// one by name only, one whose name also drops, one that lies readOnlyHint
// while named as a delete; and an additive create, an unannotated create
// and an execute.
const mixed = `[
	{"name": "read_note", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}},
	{"name": "list_items", "inputSchema": {"type": "object"}},
	{"name": "list_and_drop", "inputSchema": {"type": "object"}},
	{"name": "drop_all", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}},
	{"name": "add_note", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": false, "destructiveHint": false}},
	{"name": "create_file", "inputSchema": {"type": "object"}},
	{"name": "run_job", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": false}}]`

func endpointHints(a *Adapter) map[string]string {
	out := map[string]string{}
	for _, tool := range a.Tools() {
		out[tool.Get("name").Str] = tool.Get("annotations").Compact()
	}
	return out
}

// TestHonestEndpointHints: an endpoint is read-only only when every tool in
// it is annotated readOnlyHint: true and is not destructive by mcpterm's
// rule; destructive when any is. A name never makes an endpoint read-only,
// and the description says what the hints say.
func TestHonestEndpointHints(t *testing.T) {
	const (
		roSafe = `{"readOnlyHint":true,"destructiveHint":false}`
		rwSafe = `{"readOnlyHint":false,"destructiveHint":false}`
		rwDest = `{"readOnlyHint":false,"destructiveHint":true}`
	)
	full := mustSet(t, mixed)
	cases := []struct {
		name  string
		tools []string // a subset of mixed, nil for all
		mode  Mode
		want  map[string]string
	}{
		{"semantic, everything", nil, Semantic, map[string]string{
			"mcp_aql_create": rwDest, "mcp_aql_read": rwDest, "mcp_aql_delete": rwDest, "mcp_aql_execute": rwDest}},
		{"semantic, vouched reads only", []string{"read_note", "add_note", "run_job"}, Semantic, map[string]string{
			"mcp_aql_create": rwSafe, "mcp_aql_read": roSafe, "mcp_aql_execute": rwDest}},
		{"semantic, a read by name only", []string{"read_note", "list_items"}, Semantic, map[string]string{"mcp_aql_read": rwDest}},
		{"semantic, the lying drop_all is not a read", []string{"read_note", "drop_all"}, Semantic, map[string]string{
			"mcp_aql_read": roSafe, "mcp_aql_delete": rwDest}},
		{"semantic, introspect only", []string{}, Semantic, map[string]string{"mcp_aql_read": roSafe}},
		{"single, everything", nil, Single, map[string]string{SingleTool: rwDest}},
		{"single, vouched reads only", []string{"read_note"}, Single, map[string]string{SingleTool: roSafe}},
		{"single, a read by name only", []string{"read_note", "list_items"}, Single, map[string]string{SingleTool: rwDest}},
		{"single, a lying delete", []string{"read_note", "drop_all"}, Single, map[string]string{SingleTool: rwDest}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			set := full
			if tc.tools != nil {
				set = &toolset.Set{Server: "mixed"}
				for _, n := range tc.tools {
					set.Tools = append(set.Tools, full.Find(n))
				}
			}
			a := mustAdapter(t, set, nil, tc.mode)
			got := endpointHints(a)
			if len(got) != len(tc.want) {
				t.Errorf("endpoints %v, want %v", got, tc.want)
			}
			for name, want := range tc.want {
				if got[name] != want {
					t.Errorf("%s: %s, want %s", name, got[name], want)
				}
				ro, de, ok := a.Hints(name)
				if !ok || (ro != strings.Contains(want, `"readOnlyHint":true`)) || (de != strings.Contains(want, `"destructiveHint":true`)) {
					t.Errorf("Hints(%s) = %v %v %v, want %s", name, ro, de, ok, want)
				}
			}
			for _, tool := range a.Tools() {
				d := tool.Get("description").Str
				ro := strings.Contains(tool.Get("annotations").Compact(), `"readOnlyHint":true`)
				if strings.Contains(d, "safe, read-only") != (ro && tool.Get("name").Str == Read.Tool()) {
					t.Errorf("%s is annotated %s but described %q", tool.Get("name").Str, tool.Get("annotations").Compact(), d)
				}
			}
		})
	}
	if _, _, ok := mustAdapter(t, full, nil, Semantic).Hints("mcp_aql_update"); ok {
		t.Error("Hints names an endpoint the adapter does not list")
	}
}

// TestHonestDescriptions: READ and CREATE whose hints do not back their
// promise say so instead.
func TestHonestDescriptions(t *testing.T) {
	a := mustAdapter(t, mustSet(t, mixed), nil, Semantic)
	for _, tool := range a.Tools() {
		d := tool.Get("description").Str
		switch tool.Get("name").Str {
		case "mcp_aql_read":
			if !strings.HasPrefix(d, "mixed: operations that read, by their names; the server does not annotate every one read-only") && !strings.Contains(d, "operations that read, by their names") {
				t.Errorf("read: %q", d)
			}
		case "mcp_aql_create":
			if !strings.Contains(d, "operations that add data, by their names; the server does not annotate every one non-destructive") {
				t.Errorf("create: %q", d)
			}
		}
	}
}

// TestIntrospectPermissionsAreHonest: an operation's permissions in
// introspection are its own, as its annotations and the rule give them.
func TestIntrospectPermissionsAreHonest(t *testing.T) {
	a := mustAdapter(t, mustSet(t, mixed), nil, Semantic)
	for op, want := range map[string]string{
		"read_note":     `{"readOnly":true,"destructive":false}`,
		"list_items":    `{"readOnly":false,"destructive":true}`,
		"list_and_drop": `{"readOnly":false,"destructive":true}`,
		"drop_all":      `{"readOnly":false,"destructive":true}`,
		"add_note":      `{"readOnly":false,"destructive":false}`,
	} {
		d := a.OperationDetails(op)
		if d == nil {
			t.Fatalf("no details for %s", op)
		}
		if got := d.Get("permissions").Compact(); got != want {
			t.Errorf("%s (%s): permissions %s, want %s", op, d.Get("semantic_category").Str, got, want)
		}
	}
}

// TestReadThenDeleteIsDelete: a name that reads and then removes is a
// DELETE, whatever its hints say, so it never lands on the READ endpoint.
func TestReadThenDeleteIsDelete(t *testing.T) {
	for _, src := range []string{
		`{"name": "list_and_drop", "inputSchema": {"type": "object"}}`,
		`{"name": "find_and_remove", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}`,
		`{"name": "getThenDelete", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true, "destructiveHint": false}}`,
	} {
		set := mustSet(t, "["+src+"]")
		c := Classify(set.Tools[0])
		if c.Category != Delete || !c.Conflict || !strings.Contains(c.Reason, "-> DELETE") {
			t.Errorf("%s: %+v", set.Tools[0].Name, c)
		}
	}
	// A later write verb that is not a removal leaves the READ, whose
	// endpoint the annotations then keep from being read-only.
	if c := Classify(mustSet(t, `[{"name": "get_or_create", "inputSchema": {"type": "object"}}]`).Tools[0]); c.Category != Read {
		t.Errorf("get_or_create: %+v", c)
	}
}

// TestUnsuggest: NOT_FOUND_OPERATION never offers an operation of a tool
// the caller unsuggests, in did_you_mean or available; the operation still
// resolves, for the policy to refuse.
func TestUnsuggest(t *testing.T) {
	set := mustSet(t, `[
		{"name": "delete_file", "inputSchema": {"type": "object"}},
		{"name": "Delete_File", "inputSchema": {"type": "object"}},
		{"name": "read_note", "inputSchema": {"type": "object"}}]`)
	a := mustAdapter(t, set, nil, Single)
	if e := a.notFound("delete_fil"); !strings.Contains(e.Details.Compact(), "delete_file") {
		t.Fatalf("without Unsuggest: %s", e.Details.Compact())
	}
	a.Unsuggest(func(tool string) bool { return strings.EqualFold(tool, "delete_file") })
	for _, name := range []string{"delete_fil", "Delete_File", "delete_file_3", "DELETE_FILE"} {
		e := a.notFound(name)
		if strings.Contains(e.Details.Get("did_you_mean").Compact(), "delete_file") || strings.Contains(e.Message, "Did you mean 'delete_file") {
			t.Errorf("%s: a refused operation is suggested: %s %s", name, e.Message, e.Details.Compact())
		}
		if strings.Contains(e.Details.Get("available").Compact(), "delete_file") {
			t.Errorf("%s: available lists a refused operation: %s", name, e.Details.Compact())
		}
	}
	if a.Operation("delete_file") == nil || a.Operation("delete_file_2") == nil {
		t.Error("unsuggested operations must still resolve")
	}
}
