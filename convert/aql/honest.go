package aql

import (
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// Destructive is mcpterm's destructive rule for a tool the server lists,
// given its annotations and its CRUDE category, with the reason in words.
// It is the one rule every face applies (session/policy calls it for the
// policy's checks and the tool list's marks; the adapter for its endpoints'
// annotations): a DELETE is destructive whatever its hints say; otherwise
// readOnlyHint: true is not destructive, and a tool that is not read-only
// is destructive unless it says destructiveHint: false, MCP's default.
// Annotations are a server's untrusted hints, so they can make a tool
// stricter than its name but never safer than a DELETE.
func Destructive(a toolset.Annotations, c Category) (bool, string) {
	switch {
	case c == Delete && a.ReadOnly():
		return true, "classified as a delete, whatever its readOnlyHint says"
	case c == Delete:
		return true, "classified as a delete"
	case a.ReadOnly():
		return false, "annotated readOnlyHint: true"
	case a.DestructiveHint == nil:
		return true, "not read-only and no destructiveHint, which MCP treats as destructive"
	case *a.DestructiveHint:
		return true, "annotated destructiveHint: true"
	}
	return false, "annotated destructiveHint: false"
}

// ReadOnly reports whether a tool may be shown as read-only: the server
// annotates it readOnlyHint: true and Destructive does not call it
// destructive. A name never grants it: "list_files" without annotations is
// classified READ (for routing) but is not read-only, because nothing but
// its name says so.
func ReadOnly(a toolset.Annotations, c Category) bool {
	d, _ := Destructive(a, c)
	return a.ReadOnly() && !d
}

// ReadOnly reports whether the operation's tool is read-only by ReadOnly.
func (op *Operation) ReadOnly() bool { return ReadOnly(op.Tool.Annotations, op.Category()) }

// Destructive reports whether the operation's tool is destructive by
// Destructive.
func (op *Operation) Destructive() bool {
	d, _ := Destructive(op.Tool.Annotations, op.Category())
	return d
}

// hints are the readOnlyHint and destructiveHint an endpoint carrying ops
// may honestly declare. Clients act on them (some run read-only tools
// without asking), so an endpoint is as safe as its riskiest operation:
// read-only only when the category allows it (the spec's fixed flags,
// Category.Permissions) and every operation is ReadOnly; destructive when
// the category says so or any operation is Destructive. An endpoint with
// no operations of its own (READ with only introspect) keeps the
// category's flags.
func hints(c Category, ops []*Operation) (readOnly, destructive bool) {
	readOnly, destructive = c.Permissions()
	for _, op := range ops {
		if !op.ReadOnly() {
			readOnly = false
		}
		if op.Destructive() {
			destructive = true
		}
	}
	return readOnly, destructive
}

// singleHints are hints for the one mcp_aql tool of single mode, which
// carries every operation.
func (a *Adapter) singleHints() (readOnly, destructive bool) {
	readOnly = true
	for _, op := range a.Ops {
		if !op.ReadOnly() {
			readOnly = false
		}
		if op.Destructive() {
			destructive = true
		}
	}
	return readOnly, destructive
}

// Hints are the readOnlyHint and destructiveHint of the MCP tool name
// (mcp_aql, or mcp_aql_<category> in semantic mode) as Tools declares
// them; ok is false for a name the adapter does not list.
func (a *Adapter) Hints(tool string) (readOnly, destructive, ok bool) {
	if a.Mode == Single {
		if tool != SingleTool {
			return false, false, false
		}
		ro, de := a.singleHints()
		return ro, de, true
	}
	for _, c := range a.Endpoints() {
		if c.Tool() == tool {
			ro, de := hints(c, a.ByCategory(c))
			return ro, de, true
		}
	}
	return false, false, false
}
