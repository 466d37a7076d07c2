package gateway

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/policy"
)

func boolp(b bool) *bool { return &b }

// mixedTool is one tool of mixedServer: a name and its annotations as the
// server sends them (nil hints are left out).
type mixedTool struct {
	name    string
	ro, de  *bool
	comment string
}

// mixedTools are every kind of tool the honest-annotation rule has to tell
// apart: a read the server vouches for, a read by name only, a read that
// also drops, a delete that lies readOnlyHint: true, an additive create,
// and one tool under two name variants.
var mixedTools = []mixedTool{
	{"read_note", boolp(true), nil, "Reads a note."},
	{"list_items", nil, nil, "Lists the items."},
	{"list_and_drop", nil, nil, "Lists the rows of a table, then drops it."},
	{"drop_all", boolp(true), nil, "Drops every table."},
	{"add_note", boolp(false), boolp(false), "Adds a note."},
	{"delete_file", nil, nil, "Deletes a file."},
	{"Delete_File", nil, nil, "Deletes a file, under a variant of the name."},
}

// mixedServer serves tools; a call answers "ran NAME", so a test sees which
// tool a name reached.
func mixedServer(tools []mixedTool) *server.MCPServer {
	srv := server.NewMCPServer("mixed", "1.0.0", server.WithToolCapabilities(false))
	for _, mt := range tools {
		tool := mcp.NewToolWithRawSchema(mt.name, mt.comment, []byte(`{"type":"object","properties":{"q":{"type":"string"}}}`))
		tool.Annotations = mcp.ToolAnnotation{ReadOnlyHint: mt.ro, DestructiveHint: mt.de}
		name := mt.name
		srv.AddTool(tool, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("ran " + name), nil
		})
	}
	return srv
}

func mixedSession(t testing.TB, tools []mixedTool) *session.Session {
	return openSession(t, session.Source{Kind: session.InProcess, Name: "mixed", Server: mixedServer(tools)}, session.Options{})
}

func pick(names ...string) []mixedTool {
	var out []mixedTool
	for _, n := range names {
		for _, mt := range mixedTools {
			if mt.name == n {
				out = append(out, mt)
			}
		}
	}
	return out
}

// hintsOf lists the gateway's tools as "NAME ro=BOOL de=BOOL".
func hintsOf(t *testing.T, g *Gateway) map[string]string {
	t.Helper()
	c, _ := inProcessClient(t, g)
	res, err := c.ListTools(ctxT(t, 10*time.Second), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, tool := range res.Tools {
		a := tool.Annotations
		if a.ReadOnlyHint == nil || a.DestructiveHint == nil {
			t.Fatalf("%s has no readOnlyHint or destructiveHint: %+v", tool.Name, a)
		}
		h := "ro=false"
		if *a.ReadOnlyHint {
			h = "ro=true"
		}
		if *a.DestructiveHint {
			h += " de=true"
		} else {
			h += " de=false"
		}
		out[tool.Name] = h
		if strings.Contains(tool.Description, "safe, read-only") && !*a.ReadOnlyHint {
			t.Errorf("%s promises safe reads but is not annotated read-only: %q", tool.Name, tool.Description)
		}
	}
	return out
}

// TestHonestAnnotationsEveryEndpoint: in every mode, each tool the gateway
// lists is read-only only when every upstream tool it carries is annotated
// readOnlyHint: true and is not destructive by mcpterm's rule (drop_all's
// readOnlyHint does not make a DELETE safe; list_items' name does not make
// it a read-only tool), and destructive when any is.
func TestHonestAnnotationsEveryEndpoint(t *testing.T) {
	const (
		roSafe = "ro=true de=false"
		rwSafe = "ro=false de=false"
		rwDest = "ro=false de=true"
	)
	cases := []struct {
		name  string
		tools []mixedTool
		want  map[Mode]map[string]string
	}{
		{"all of them", mixedTools, map[Mode]map[string]string{
			ModeTerm:        {DefaultTermTool: rwDest},
			ModeAQLSingle:   {aql.SingleTool: rwDest},
			ModeAQLSemantic: {"mcp_aql_create": rwSafe, "mcp_aql_read": rwDest, "mcp_aql_delete": rwDest},
		}},
		{"vouched reads", pick("read_note"), map[Mode]map[string]string{
			ModeTerm:        {DefaultTermTool: roSafe},
			ModeAQLSingle:   {aql.SingleTool: roSafe},
			ModeAQLSemantic: {"mcp_aql_read": roSafe},
		}},
		{"a read by name only", pick("read_note", "list_items"), map[Mode]map[string]string{
			ModeTerm:        {DefaultTermTool: rwDest},
			ModeAQLSingle:   {aql.SingleTool: rwDest},
			ModeAQLSemantic: {"mcp_aql_read": rwDest},
		}},
		{"a delete lying readOnlyHint", pick("read_note", "drop_all"), map[Mode]map[string]string{
			ModeTerm:        {DefaultTermTool: rwDest},
			ModeAQLSingle:   {aql.SingleTool: rwDest},
			ModeAQLSemantic: {"mcp_aql_read": roSafe, "mcp_aql_delete": rwDest},
		}},
		{"a read that drops", pick("read_note", "list_and_drop"), map[Mode]map[string]string{
			ModeTerm:        {DefaultTermTool: rwDest},
			ModeAQLSingle:   {aql.SingleTool: rwDest},
			ModeAQLSemantic: {"mcp_aql_read": roSafe, "mcp_aql_delete": rwDest},
		}},
	}
	for _, tc := range cases {
		up := mixedSession(t, tc.tools)
		for _, m := range Modes() {
			t.Run(tc.name+"/"+string(m), func(t *testing.T) {
				got := hintsOf(t, newGateway(t, up, Options{Mode: m, Policy: allowAll(t)}))
				want := tc.want[m]
				if m == ModeTermLazy {
					// term-lazy's one tool is term mode's, listed briefly.
					want = tc.want[ModeTerm]
				}
				if len(got) != len(want) {
					t.Errorf("tools %v, want %v", got, want)
				}
				for name, w := range want {
					if got[name] != w {
						t.Errorf("%s: %s, want %s", name, got[name], w)
					}
				}
			})
		}
	}
}

// TestHonestAnnotationsFollowThePolicy: the hints describe the tools the
// gateway lists, so a policy that leaves out every unvouched tool makes the
// gateway's tools read-only.
func TestHonestAnnotationsFollowThePolicy(t *testing.T) {
	up := mixedSession(t, mixedTools)
	ro, err := policy.New(policy.Rules{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for m, want := range map[Mode]map[string]string{
		ModeTerm:        {DefaultTermTool: "ro=true de=false"},
		ModeAQLSingle:   {aql.SingleTool: "ro=true de=false"},
		ModeAQLSemantic: {"mcp_aql_read": "ro=true de=false"},
	} {
		got := hintsOf(t, newGateway(t, up, Options{Mode: m, Policy: ro}))
		if len(got) != len(want) {
			t.Errorf("%s under --read-only: %v, want %v", m, got, want)
		}
		for name, w := range want {
			if got[name] != w {
				t.Errorf("%s under --read-only: %s is %s, want %s", m, name, got[name], w)
			}
		}
	}
}

// TestDestructiveThroughAnyEndpoint: the policy confirms a tool its rule
// calls destructive whichever endpoint carries it. list_and_drop, put on
// the READ endpoint by --aql-map, is refused through mcp_aql_read without
// --yes (nothing reaches the upstream) and runs with it; by its own
// classification it is a DELETE, refused through mcp_aql_read as an
// endpoint mismatch and through mcp_aql_delete without --yes.
func TestDestructiveThroughAnyEndpoint(t *testing.T) {
	ask, err := policy.New(policy.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	asRead := aql.Overrides{"list_and_drop": {Category: aql.Read}}
	call := `{"operation":"list_and_drop"}`

	up := mixedSession(t, mixedTools)
	g := newGateway(t, up, Options{Mode: ModeAQLSemantic, Policy: ask, Overrides: asRead})
	if h := hintsOf(t, g)["mcp_aql_read"]; h != "ro=false de=true" {
		t.Errorf("mcp_aql_read carrying list_and_drop: %s", h)
	}
	c, _ := inProcessClient(t, g)
	r := callTool(t, c, "mcp_aql_read", call)
	if !r.IsError {
		t.Fatalf("list_and_drop through mcp_aql_read without --yes: %s", text(r))
	}
	contains(t, text(r), `refused: tool \"list_and_drop\" is destructive`, "started without --yes")
	for _, m := range up.Tap().Messages() {
		if m.Method == "tools/call" {
			t.Fatalf("a refused call reached the upstream: %s", m.Payload)
		}
	}
	yes := newGateway(t, up, Options{Mode: ModeAQLSemantic, Policy: allowAll(t), Overrides: asRead})
	yc, _ := inProcessClient(t, yes)
	if r := callTool(t, yc, "mcp_aql_read", call); r.IsError || !strings.Contains(text(r), "ran list_and_drop") {
		t.Errorf("list_and_drop with --yes: %s", text(r))
	}

	plain := newGateway(t, up, Options{Mode: ModeAQLSemantic, Policy: ask})
	pc, _ := inProcessClient(t, plain)
	contains(t, text(callTool(t, pc, "mcp_aql_read", call)), "VALIDATION_ENDPOINT_MISMATCH", "mcp_aql_delete")
	r = callTool(t, pc, "mcp_aql_delete", call)
	contains(t, text(r), `refused: tool \"list_and_drop\" is destructive (classified as a delete)`)

	// drop_all says readOnlyHint: true; its name makes it a delete.
	term := newGateway(t, up, Options{Mode: ModeTerm, Policy: ask})
	tc, _ := inProcessClient(t, term)
	r = termCall(t, tc, `(drop_all)`)
	if !r.IsError || !strings.Contains(text(r), `refused: tool \"drop_all\" is destructive (classified as a delete, whatever its readOnlyHint says)`) {
		t.Errorf("drop_all: %s", text(r))
	}
}

// TestGatewayDenyByIdentity: --deny delete_file leaves out both variants
// in every mode; no name of theirs reaches anything, and no refusal
// suggests either.
func TestGatewayDenyByIdentity(t *testing.T) {
	deny, err := policy.New(policy.Rules{Deny: []string{"delete_file"}, Yes: true})
	if err != nil {
		t.Fatal(err)
	}
	up := mixedSession(t, mixedTools)
	term := newGateway(t, up, Options{Mode: ModeTerm, Policy: deny})
	if got := strings.Join(term.st.Load().hidden, ", "); got != "Delete_File, delete_file" {
		t.Errorf("left out: %s", got)
	}
	tc, _ := inProcessClient(t, term)
	res, err := tc.ListTools(ctxT(t, 10*time.Second), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if d := res.Tools[0].Description; strings.Contains(strings.ToLower(d), "delete_file") {
		t.Errorf("a denied tool is described: %s", d)
	}
	for _, expr := range []string{`(delete_file)`, `(Delete_File)`, `(df)`, `(def)`, `(delete_fil)`, `(DELETE_FILE)`} {
		r := termCall(t, tc, expr)
		_, hint, _ := strings.Cut(text(r), expr[1:len(expr)-1])
		if !r.IsError || !strings.HasPrefix(text(r), "(err unknown-tool") || strings.Contains(strings.ToLower(hint), "delete_file") ||
			!strings.Contains(hint, "; expected one of an da lad li rn") {
			t.Errorf("%s: %s", expr, text(r))
		}
	}
	for _, m := range []Mode{ModeAQLSingle, ModeAQLSemantic} {
		g := newGateway(t, up, Options{Mode: m, Policy: deny})
		c, _ := inProcessClient(t, g)
		via := aql.SingleTool
		if m == ModeAQLSemantic {
			via = "mcp_aql_delete"
			if _, ok := hintsOf(t, g)[via]; !ok {
				via = "mcp_aql_read"
			}
		}
		for _, op := range []string{"delete_file", "delete_file_2", "Delete_File", "delete_fil"} {
			r := callTool(t, c, via, `{"operation":"`+op+`"}`)
			got := text(r)
			d := obj(t, got).Get("error").Get("details")
			if !r.IsError || !strings.Contains(got, "NOT_FOUND_OPERATION") || strings.Contains(got, "Did you mean 'delete_file") ||
				strings.Contains(strings.ToLower(d.Get("did_you_mean").Compact()+d.Get("available").Compact()), "delete_file") {
				t.Errorf("%s %s: %s", m, op, got)
			}
		}
	}
	for _, msg := range up.Tap().Messages() {
		if msg.Method == "tools/call" {
			t.Fatalf("a call reached the upstream: %s", msg.Payload)
		}
	}
}

// TestGatewayLeavesOutInheritedNames: leaving a tool out can hand its
// short code to another; a pattern naming that code leaves the heir out
// too, so the code the client sees reaches nothing the policy denies.
func TestGatewayLeavesOutInheritedNames(t *testing.T) {
	tools := []mixedTool{
		{"drop_table", nil, nil, "Drops a table."},
		{"delete_todo", nil, nil, "Deletes a todo."},
		{"read_note", boolp(true), nil, "Reads a note."},
	}
	up := mixedSession(t, tools)
	// In the full list delete_todo is "dt" and drop_table "drt"; without
	// delete_todo, drop_table would be "dt".
	deny, err := policy.New(policy.Rules{Deny: []string{"dt"}, Yes: true})
	if err != nil {
		t.Fatal(err)
	}
	g := newGateway(t, up, Options{Mode: ModeTerm, Policy: deny})
	if got := strings.Join(g.st.Load().hidden, ","); got != "delete_todo,drop_table" {
		t.Errorf("left out: %s", got)
	}
	c, _ := inProcessClient(t, g)
	if r := termCall(t, c, `(dt)`); !r.IsError || strings.Contains(text(r), "ran ") {
		t.Errorf("(dt): %s", text(r))
	}
	if r := termCall(t, c, `(rn)`); r.IsError {
		t.Errorf("(rn): %s", text(r))
	}
}
