package gateway

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session/policy"
)

// Confirming a destructive call through the client. The policy wants a
// person to agree before a destructive tool runs (policy.Confirm), and a
// model cannot agree for them; but the person is behind the model's client,
// and a client that declared elicitation can ask them. So when a client's
// call needs confirmation, the gateway itself sends that client one
// elicitation/create (form mode, one boolean "confirm" field) naming the
// server, each destructive tool and its arguments (secret-named values
// masked, each line sanitised and cut), once for the whole call however
// many destructive calls a batch holds. Only an accept with confirm: true
// runs it; a decline, a cancel, an error, the client leaving or no answer
// within confirmTimeout refuse it, with a tool error and an audit line
// saying the person did not agree. A client without form elicitation (or
// on a protocol revision without server-initiated requests) keeps the old
// rule: refused unless --yes matches.

// confirmTimeout bounds how long a call waits for the person's answer.
const confirmTimeout = 5 * time.Minute

// Bounds of the question's text: the tools listed, and each one's line.
const (
	maxConfirmListed = 16
	maxConfirmLine   = 400
)

// confirmField is the form's one field.
const confirmField = "confirm"

// ruleDeclined marks a decision the person was asked about and did not
// confirm; refusal words it for the model.
const ruleDeclined = "declined"

// confirmFor is the runner's RunOptions.Confirm for a client's call (ctx is
// the call's request context, which names the client session): it asks the
// person through that client when it can, and returns false without asking
// when it cannot. The decisions of the items it asked about and that were
// not confirmed get a reason saying so, which the runner records.
func (g *Gateway) confirmFor(ctx context.Context, plan *calls.Plan) func(context.Context, []policy.Decision) bool {
	return func(_ context.Context, decs []policy.Decision) bool {
		cs := server.ClientSessionFromContext(ctx)
		if cs == nil {
			return false
		}
		name := clientName(cs)
		if why := canAsk(cs, lacksForm); why != "" {
			g.notef("refused a destructive call of %s without asking: %s %s", name, name, why)
			return false
		}
		ok, why := g.askConfirm(ctx, name, plan, decs)
		if why == "" && !ok {
			g.notef("refused a destructive call of %s without asking: %s speaks a protocol revision without server-initiated requests", name, name)
			return false
		}
		if ok {
			g.notef("%s confirmed %s", name, confirmSubject(plan, decs))
			return true
		}
		g.notef("refused %s: %s", confirmSubject(plan, decs), why)
		for i := range decs {
			if decs[i].Verdict != policy.Confirm {
				continue
			}
			decs[i].Rule = ruleDeclined
			decs[i].Reason = strings.TrimSuffix(decs[i].Reason, "; pass --yes to run it") + ", and " + why
		}
		return false
	}
}

// lacksForm says what a client's capabilities lack for a form-mode
// elicitation ("" if nothing); an empty elicitation capability is form mode.
func lacksForm(c mcp.ClientCapabilities) string {
	e := c.Elicitation
	switch {
	case e == nil:
		return "did not declare elicitation"
	case e.Form == nil && e.URL != nil:
		return "did not declare form-mode elicitation"
	}
	return ""
}

// askConfirm sends the question and reads the answer: ok only for an
// accept with confirm: true; otherwise why says what happened, as the end
// of a sentence about the call, or is "" when the client could not be
// asked at all (a revision without server-initiated requests).
func (g *Gateway) askConfirm(ctx context.Context, name string, plan *calls.Plan, decs []policy.Decision) (ok bool, why string) {
	ctx, cancel := context.WithTimeoutCause(ctx, confirmTimeout, errors.New("no answer in time"))
	defer cancel()
	schema := map[string]any{
		"type": "object",
		"properties": map[string]any{
			confirmField: map[string]any{
				"type":        "boolean",
				"title":       "Run it",
				"description": "Run the destructive call(s) listed above",
				"default":     false,
			},
		},
		"required": []string{confirmField},
	}
	req := mcp.ElicitationRequest{
		Request: mcp.Request{Method: string(mcp.MethodElicitationCreate)},
		Params: mcp.ElicitationParams{
			Mode: mcp.ElicitationModeForm, Message: g.confirmMessage(plan, decs), RequestedSchema: schema,
		},
	}
	res, err := g.srv.RequestElicitation(ctx, req)
	switch {
	case errors.Is(err, server.ErrServerInitiatedRequestUnsupported):
		return false, "" // not asked: the old rule stands
	case err != nil && ctx.Err() != nil:
		return false, fmt.Sprintf("the person gave no answer through %s within %s, so it was not run", name, confirmTimeout)
	case err != nil:
		return false, fmt.Sprintf("%s could not ask the person (%s), so it was not run", name, clipText(safe.Line(err.Error())))
	}
	if err := checkElicitation(res, false); err != nil {
		return false, fmt.Sprintf("%s answered the question with %s, so it was not run", name, safe.Line(err.Error()))
	}
	switch res.Action {
	case mcp.ElicitationResponseActionAccept:
		if m, isMap := res.Content.(map[string]any); isMap && m[confirmField] == true {
			return true, ""
		}
		return false, fmt.Sprintf("the person declined it when %s asked (%s was not checked)", name, confirmField)
	case mcp.ElicitationResponseActionCancel:
		return false, fmt.Sprintf("the person cancelled the question %s asked, so it was not run", name)
	}
	return false, fmt.Sprintf("the person declined it when %s asked", name)
}

// confirmMessage is the question: the server, then each call needing
// confirmation with its arguments, bounded and on one line each.
func (g *Gateway) confirmMessage(plan *calls.Plan, decs []policy.Decision) string {
	var lines []string
	for i, d := range decs {
		if d.Verdict != policy.Confirm || i >= len(plan.Items) {
			continue
		}
		lines = append(lines, confirmLine(plan.Items[i]))
	}
	var b strings.Builder
	what := "a destructive tool"
	if len(lines) > 1 {
		what = fmt.Sprintf("%d destructive tools", len(lines))
	}
	fmt.Fprintf(&b, "The agent using the mcpterm gateway wants to run %s of the server %s:\n", what, safe.Name(g.serverName()))
	for i, l := range lines {
		if i == maxConfirmListed {
			fmt.Fprintf(&b, "  ... and %d more\n", len(lines)-i)
			break
		}
		b.WriteString("  " + l + "\n")
	}
	if len(lines) > 1 {
		b.WriteString("Run them all? Nothing of this call runs unless you confirm.")
	} else {
		b.WriteString("Run it? Nothing runs unless you confirm.")
	}
	return b.String()
}

// confirmLine is one call of the question: the tool's name spelt visibly
// and its arguments as JSON with secret-named values masked, on one line,
// cut to maxConfirmLine bytes.
func confirmLine(it calls.Item) string {
	args := "{}"
	if it.Arguments != nil {
		args = string(safe.NewRedactor(nil).JSON([]byte(it.Arguments.Compact())))
	}
	line, _ := safe.Cut(safe.Line(safe.Name(it.Tool)+" "+args), maxConfirmLine)
	return line
}

// confirmSubject names the calls asked about, for the operator's notes.
func confirmSubject(plan *calls.Plan, decs []policy.Decision) string {
	var names []string
	for i, d := range decs {
		if d.Verdict == policy.Confirm && i < len(plan.Items) {
			names = append(names, safe.Name(plan.Items[i].Tool))
		}
	}
	if len(names) > maxConfirmListed {
		names = append(names[:maxConfirmListed], fmt.Sprintf("and %d more", len(names)-maxConfirmListed))
	}
	return "destructive call of " + strings.Join(names, ", ")
}
