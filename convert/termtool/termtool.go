// Package termtool is the text of the gateway's one MCP-Term tool
// (mcp_term): its input schema, the how-to that opens its description, the
// description of the term and term-lazy modes, and the answers to a lazy
// (describe ...) request. It is pure and is the one place these texts
// exist: the gateway builds its tool from it, and `mcpterm tokens` counts
// the gateway's figures from it, so the count is of what a client receives.
package termtool

import (
	"fmt"
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/term"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// Name is the tool's default name.
const Name = "mcp_term"

// InputSchema is the tool's input schema: one string, expr.
// The how-to says what expr holds, so the property carries no description
// of its own: every token here is paid once per gateway.
const InputSchema = `{"type":"object","properties":{"expr":{"type":"string"}},"required":["expr"]}`

// howTo says, once per gateway, how to write a call and what comes back.
// Every word is paid by every conversation, so it is terse: the call form,
// batches, the JSON alternative (convert/calls reads {"name","arguments"}
// too), how to write each kind of value — the things a model cannot guess
// from the declarations — and the two answer shapes.
const howTo = `%s's tools in MCP-Term. expr: (CODE ARG... :NAME VAL...), (batch (1 CALL) (2 CALL)), or JSON {name,arguments}. Values: "s" 1 true nil :enum; list (A B); record (A :k B) like args; map (:k A). Answer (ok ...) or (err ...).`

// lazyHowTo is howTo's second line in the term-lazy mode: how to get the
// declarations the listing leaves out.
const lazyHowTo = `Below: CODE NAME: summary. (describe CODE...) or (describe :server S) returns full declarations.`

// HowTo is the how-to that opens the term mode's description, for the
// named server ("" says the upstream server). It replaced two sentences
// that cost 85 o200k tokens and said nothing of values or JSON calls; this
// one costs 75.
func HowTo(server string) string {
	if server == "" {
		server = "the upstream server"
	}
	return fmt.Sprintf(howTo, server)
}

// LazyHowTo is the how-to of the term-lazy mode: HowTo and how to describe.
func LazyHowTo(server string) string { return HowTo(server) + "\n" + lazyHowTo }

// Description is the term mode's tool description: the how-to, a blank
// line, then the declarations (term.Document.Text).
func Description(server, declarations string) string {
	return HowTo(server) + "\n\n" + strings.TrimRight(declarations, "\n")
}

// LazyDescription is the term-lazy mode's tool description: the how-to, a
// blank line, then term.Listing of the set.
func LazyDescription(server string, set *toolset.Set, codes map[string]string) string {
	return LazyHowTo(server) + "\n\n" + strings.TrimRight(term.Listing(set, codes), "\n")
}

// Tool is the gateway's one MCP-Term tool as the model receives it, with
// InputSchema as its schema: what the gateway lists (its annotations aside,
// which no model reads) and what `mcpterm tokens` counts, built here once
// so the two cannot drift.
type Tool struct {
	Name        string
	Description string
}

// TermTool is the term mode's tool named name: Description of the
// declarations (term.Document.Text of the visible tools).
func TermTool(name, server, declarations string) Tool {
	return Tool{Name: name, Description: Description(server, declarations)}
}

// LazyTool is the term-lazy mode's tool named name for set: LazyDescription
// with the codes the describe answers and the codec use (nil: the short
// codes of the names, term.ShortCodes).
func LazyTool(name string, set *toolset.Set, codes map[string]string) Tool {
	return Tool{Name: name, Description: LazyDescription(set.Server, set, codes)}
}

// ModelFacing is the tool as an LLM API receives it, {name, description,
// input_schema} minified in a one-item array: the shape of the json
// baseline, so a gateway's figure compares like with like with the
// servers' own lists.
func (t Tool) ModelFacing() string {
	tl := &toolset.Tool{Name: t.Name, Description: t.Description, InputSchema: inputSchema()}
	return (&toolset.Set{Tools: []*toolset.Tool{tl}}).Baseline().Compact()
}

func inputSchema() *ojson.Value {
	v, err := ojson.Parse([]byte(InputSchema))
	if err != nil {
		panic("termtool: InputSchema is not JSON: " + err.Error())
	}
	return v
}
