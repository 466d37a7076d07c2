package session

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
)

// Bounds on a completion/complete answer. The protocol caps values at 100;
// a server that sends more, or values longer than a line anyone would pick,
// gets them cut here, once, for every face.
const (
	MaxCompletionValues = 100
	maxCompletionValue  = 1024 // bytes per value
	maxCompletionInput  = 4096 // bytes of the value being completed, and of each context argument
)

// ErrNoCompletions is Complete on a server that did not declare the
// completions capability: it would answer -32601, so nothing is sent.
var ErrNoCompletions = errors.New("the server does not offer completions (no completions capability)")

// CompleteRef says what a completion is for: a prompt's argument (Prompt,
// ref/prompt) or a resource template's variable (URI, the template as the
// server listed it, ref/resource). Exactly one is set.
type CompleteRef struct {
	Prompt string
	URI    string
}

func (r CompleteRef) String() string {
	if r.Prompt != "" {
		return "prompt " + r.Prompt
	}
	return "resource template " + r.URI
}

// Completion is a server's suggestions for one argument, bounded: at most
// MaxCompletionValues values, each valid UTF-8 and at most a kilobyte, no
// empty or repeated ones. Values are NOT sanitised: a face does that.
type Completion struct {
	Values []string
	// Total is what the server says exists (0: it did not say).
	Total int
	// HasMore says there are values beyond these: the server said so, or
	// it sent more than the bound.
	HasMore bool
}

// CanComplete reports whether the server declared completions.
func (s *Session) CanComplete() bool {
	c, err := s.current()
	return err == nil && c.info.Capabilities.Completions != nil
}

// Complete asks the server to complete the argument arg of ref, whose text
// so far is value; filled holds the other arguments already filled in
// (the protocol's context.arguments, which lets a server narrow one
// argument by another). It is bounded by the call timeout, and sends
// nothing to a server without the completions capability.
func (s *Session) Complete(ctx context.Context, ref CompleteRef, arg, value string, filled map[string]string) (*Completion, error) {
	c, err := s.current()
	if err != nil {
		return nil, err
	}
	if c.info.Capabilities.Completions == nil {
		return nil, ErrNoCompletions
	}
	var r any
	switch {
	case ref.Prompt != "" && ref.URI == "":
		r = mcp.PromptReference{Type: "ref/prompt", Name: ref.Prompt}
	case ref.URI != "" && ref.Prompt == "":
		r = mcp.ResourceReference{Type: "ref/resource", URI: ref.URI}
	default:
		return nil, errors.New("complete: name either a prompt or a resource template")
	}
	if arg == "" {
		return nil, errors.New("complete: no argument name")
	}
	if len(value) > maxCompletionInput {
		return nil, fmt.Errorf("complete %s: the value is %d bytes; completions are asked for at most %d", ref, len(value), maxCompletionInput)
	}
	req := mcp.CompleteRequest{}
	req.Params.Ref = r
	req.Params.Argument = mcp.CompleteArgument{Name: arg, Value: value}
	for k, v := range filled {
		if k == arg || v == "" || len(v) > maxCompletionInput {
			continue
		}
		if req.Params.Context.Arguments == nil {
			req.Params.Context.Arguments = map[string]string{}
		}
		req.Params.Context.Arguments[k] = v
	}
	ctx, cancel := context.WithTimeoutCause(ctx, s.opts.CallTimeout, ErrTimeout)
	defer cancel()
	ctx, capt := withCapture(ctx)
	res, err := c.client.Complete(ctx, req)
	if err != nil {
		return nil, s.classify(ctx, err, capt, "completion/complete")
	}
	return boundCompletion(res.Completion), nil
}

// boundCompletion applies the bounds of Completion to what a server sent.
func boundCompletion(in mcp.Completion) *Completion {
	out := &Completion{Total: max(in.Total, 0), HasMore: in.HasMore}
	seen := map[string]bool{}
	for _, v := range in.Values {
		if len(out.Values) == MaxCompletionValues {
			out.HasMore = true
			break
		}
		if !utf8.ValidString(v) {
			v = string([]rune(v)) // invalid bytes become U+FFFD
		}
		v = clipText(v, maxCompletionValue)
		if v == "" || seen[v] {
			continue
		}
		seen[v] = true
		out.Values = append(out.Values, v)
	}
	if out.Total > 0 && out.Total < len(out.Values) {
		out.Total = len(out.Values) // a total below what was sent is not believed
	}
	return out
}
