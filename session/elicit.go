package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/elicit"
	"github.com/mcpterm/mcpterm/convert/safe"
)

// The Elicitors a face chooses from. Each reads the requested schema
// through convert/elicit, so what counts as a valid answer is decided once.
// A form (mode "form" or no mode) is answered by each policy as its name
// says; a URL-mode request (mode "url": the server wants the person to
// visit a page, e.g. to sign in) is declined by every policy that has no
// person to ask, and its URL reported, since opening a server's link
// unasked would be the client acting for the person.

// ElicitForm reads the form of a form-mode elicitation. A URL-mode request
// has no form; ask IsURLElicitation first.
func ElicitForm(req mcp.ElicitationRequest) (*elicit.Form, error) {
	return elicit.FromAny(req.Params.RequestedSchema)
}

// IsURLElicitation says whether the request asks the person to visit a URL
// rather than fill in a form.
func IsURLElicitation(req mcp.ElicitationRequest) bool {
	return req.Params.Mode == mcp.ElicitationModeURL
}

// ElicitAction is an elicitation result with the given action and no
// content.
func ElicitAction(a mcp.ElicitationResponseAction) *mcp.ElicitationResult {
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: a}}
}

// ElicitAccept is an accepting result with content.
func ElicitAccept(content map[string]any) *mcp.ElicitationResult {
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: content}}
}

// DeclineElicitor declines every elicitation; Notify (if set) hears why,
// with the server's message sanitised.
type DeclineElicitor struct {
	Notify func(string)
}

// Elicit declines.
func (d DeclineElicitor) Elicit(_ context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	notify(d.Notify, "declined %s from %s: %q (answer with --elicit ask, defaults or a FILE)", what(req), safe.Line(server), safe.Line(req.Params.Message))
	return ElicitAction(mcp.ElicitationResponseActionDecline), nil
}

// DefaultsElicitor accepts every form with the schema's defaults
// (SEP-1034). A form with a required field that has no default cannot be
// answered so, and is declined with a notice naming the fields.
type DefaultsElicitor struct {
	Notify func(string)
}

// Elicit accepts with the defaults, or declines.
func (d DefaultsElicitor) Elicit(_ context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	if IsURLElicitation(req) {
		return declineURL(d.Notify, server, req), nil
	}
	form, err := ElicitForm(req)
	if err != nil {
		return nil, err
	}
	if missing := form.MissingDefaults(); len(missing) > 0 {
		notify(d.Notify, "declined the form from %s: required %s no default (%s)", safe.Line(server), plural(len(missing), "field has", "fields have"), safe.Line(strings.Join(missing, ", ")))
		return ElicitAction(mcp.ElicitationResponseActionDecline), nil
	}
	return ElicitAccept(form.Defaults()), nil
}

// FileElicitor answers every form from one set of answers, read from a
// JSON file: an object of field name to value. A form takes the answers
// for the fields it names, and the schema's defaults for the rest; answers
// for fields it does not name are ignored, so one file can serve several
// forms. When the result does not fit the form, the form is declined with a
// notice naming the field.
type FileElicitor struct {
	Answers map[string]any
	Notify  func(string)
}

// MaxElicitFileBytes bounds an answers file.
const MaxElicitFileBytes = 1 << 20

// LoadElicitFile reads an answers file for FileElicitor. Its errors are
// usage errors: they name the file and what is wrong with it.
func LoadElicitFile(path string) (map[string]any, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--elicit %s: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxElicitFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("--elicit %s: %w", path, err)
	}
	if len(data) > MaxElicitFileBytes {
		return nil, fmt.Errorf("--elicit %s: more than %d bytes", path, MaxElicitFileBytes)
	}
	return ParseElicitAnswers(path, data)
}

// ParseElicitAnswers reads the answers file's content (name is for the
// messages).
func ParseElicitAnswers(name string, data []byte) (map[string]any, error) {
	var answers map[string]any
	if err := json.Unmarshal(data, &answers); err != nil || answers == nil {
		if err == nil {
			err = errors.New("null")
		}
		return nil, fmt.Errorf("--elicit %s: want a JSON object of field name to answer: %v", name, err)
	}
	keys := make([]string, 0, len(answers))
	for k := range answers {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		switch v := answers[k].(type) {
		case string, float64, bool:
		case []any:
			for _, e := range v {
				if _, ok := e.(string); !ok {
					return nil, fmt.Errorf("--elicit %s: %q: a list of answers holds only strings", name, k)
				}
			}
		default:
			return nil, fmt.Errorf("--elicit %s: %q: an answer is a string, number, boolean or list of strings, not %s", name, k, jsonKind(v))
		}
	}
	return answers, nil
}

// Elicit accepts with the file's answers, or declines.
func (e FileElicitor) Elicit(_ context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	if IsURLElicitation(req) {
		return declineURL(e.Notify, server, req), nil
	}
	form, err := ElicitForm(req)
	if err != nil {
		return nil, err
	}
	content := form.Defaults()
	for _, f := range form.Fields {
		if v, ok := e.Answers[f.Name]; ok {
			content[f.Name] = v
		}
	}
	// Validate reports every problem, type ones included; Normalize then
	// only converts.
	if err == nil {
		err = form.Validate(content)
	}
	if err == nil {
		content, err = form.Normalize(content)
	}
	if err != nil {
		notify(e.Notify, "declined the form from %s: the answers file does not fit it: %s", safe.Line(server), safe.Line(strings.ReplaceAll(err.Error(), "\n", "; ")))
		return ElicitAction(mcp.ElicitationResponseActionDecline), nil
	}
	return ElicitAccept(content), nil
}

func declineURL(n func(string), server string, req mcp.ElicitationRequest) *mcp.ElicitationResult {
	notify(n, "declined the URL request from %s: %q asks you to visit %s (answer with --elicit ask to open it)", safe.Line(server), safe.Line(req.Params.Message), safe.Line(req.Params.URL))
	return ElicitAction(mcp.ElicitationResponseActionDecline)
}

func what(req mcp.ElicitationRequest) string {
	if IsURLElicitation(req) {
		return "the URL request"
	}
	return "the form"
}

func notify(n func(string), format string, args ...any) {
	if n != nil {
		n(fmt.Sprintf(format, args...))
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// The order of a form's fields is the order the server wrote its
// properties in. mcp-go decodes a request's params into Go maps, which
// forget it; the session's stdio transport keeps the params' raw text in
// the handler's context, and the ask handler puts the schema back in that
// order (inSentOrder). Over HTTP the text is not at hand and the fields
// come sorted by name.

type rawParamsKey struct{}

// rawParams is the "params" member of a JSON-RPC message, as sent; nil
// when there is none or the line cannot be read.
func rawParams(line []byte) json.RawMessage {
	var m struct {
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(line, &m) != nil {
		return nil
	}
	return m.Params
}

func withRawParams(ctx context.Context, raw json.RawMessage) context.Context {
	if len(raw) == 0 {
		return ctx
	}
	return context.WithValue(ctx, rawParamsKey{}, raw)
}

// inSentOrder replaces the request's decoded schema with its text as the
// server sent it, when the transport kept it and it is the same request.
func inSentOrder(ctx context.Context, req mcp.ElicitationRequest) mcp.ElicitationRequest {
	raw, _ := ctx.Value(rawParamsKey{}).(json.RawMessage)
	if raw == nil {
		return req
	}
	var p struct {
		Message         string          `json:"message"`
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}
	if json.Unmarshal(raw, &p) != nil || p.Message != req.Params.Message || len(p.RequestedSchema) == 0 {
		return req
	}
	req.Params.RequestedSchema = p.RequestedSchema
	return req
}
