package call

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpterm/mcpterm/convert/content"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// Results are shown as MCP-Term data, the same notation the call was written
// in: (ok ITEM ...) for success, (err CODE "message" ITEM ...) for failure.
// Binary content is summarised by type and size and never copied: a model
// or a terminal has no use for a base64 blob, and it may be megabytes.

// RPCError is a JSON-RPC error answer (the request failed, as opposed to a
// tool that ran and reported isError). Front ends wrap such answers in it so
// ErrorToTerm can show the protocol's code.
type RPCError struct {
	Code    int64
	Message string
	Data    *ojson.Value
}

func (e *RPCError) Error() string { return fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message) }

// ResultToTerm renders a CallToolResult. Structured content comes first as
// (:key value ...) data; a text item that only repeats it (see repeats) is
// left out, so a model reads and pays for the data once.
func ResultToTerm(result *ojson.Value) *sexpr.Node {
	if result == nil || result.Kind != ojson.Object {
		return errTerm(sexpr.Sym("invalid-result"), "the server's result is not a JSON object")
	}
	var items []*sexpr.Node
	sc := result.Get("structuredContent")
	comparable := false
	if sc != nil {
		items = append(items, anyNode(sc, 0))
		// Comparing numbers like 1e999999 costs seconds: only bounded ones.
		comparable = checkJSON(sc, maxValueDepth) == ""
	}
	var texts []string
	if content := result.Get("content"); content != nil && content.Kind == ojson.Array {
		for _, c := range content.Items {
			if c.Get("type").StringOr("") == "text" {
				text := c.Get("text").StringOr("")
				if comparable && repeats(text, sc) {
					continue
				}
				texts = append(texts, text)
				items = append(items, sexpr.Str(text))
				continue
			}
			items = append(items, contentNode(c))
		}
	}
	if b := result.Get("isError"); b != nil && b.Kind == ojson.Bool && b.Bool {
		msg := "the tool reported an error"
		if len(texts) > 0 {
			msg = texts[0]
			for i, it := range items {
				if it.Kind == sexpr.String && it.Text == msg {
					items = append(items[:i:i], items[i+1:]...)
					break
				}
			}
		}
		return errTerm(sexpr.Sym("tool"), msg, items...)
	}
	return sexpr.L(append([]*sexpr.Node{sexpr.Sym("ok")}, items...)...)
}

// repeats reports whether a text content item carries the same data as the
// structured content, so showing both would say it twice. Two shapes are
// taken, both what reference servers send for clients without
// structuredContent support, and in both the text can be rebuilt from the
// structured value:
//   - the text is the structured value serialised as JSON (any key order,
//     spacing or number spelling): the spec's own advice;
//   - the structured value is an object and the text is one of its
//     top-level members: the member's string exactly (server-filesystem's
//     read_text_file sends {"content": TEXT} beside TEXT, server-memory's
//     delete_observations {"success": true, "message": TEXT} beside TEXT), or
//     the member's value as JSON (server-memory sends {"entities": [...]}
//     beside the array's JSON).
//
// Anything else, a text that says more or less than the data, is kept: in
// doubt both are shown.
func repeats(text string, sc *ojson.Value) bool {
	var parsed *ojson.Value
	if v, err := ojson.Parse([]byte(text)); err == nil && checkJSON(v, maxValueDepth) == "" {
		parsed = v
	}
	if parsed != nil && ojson.Equal(parsed, sc) {
		return true
	}
	if sc.Kind != ojson.Object {
		return false
	}
	for _, m := range sc.Members {
		if m.Value.Kind == ojson.String && m.Value.Str == text {
			return true
		}
		if m.Value.Kind != ojson.String && parsed != nil && ojson.Equal(parsed, m.Value) {
			return true
		}
	}
	return false
}

func errTerm(code *sexpr.Node, msg string, extra ...*sexpr.Node) *sexpr.Node {
	return sexpr.L(append([]*sexpr.Node{sexpr.Sym("err"), code, sexpr.Str(msg)}, extra...)...)
}

// contentNode summarises one non-text content item.
func contentNode(c *ojson.Value) *sexpr.Node {
	typ := c.Get("type").StringOr("")
	field := func(items []*sexpr.Node, kw, key string) []*sexpr.Node {
		if v := c.Get(key); v != nil && v.Kind == ojson.String {
			return append(items, sexpr.Kw(kw), sexpr.Str(v.Str))
		}
		return items
	}
	switch typ {
	case "image", "audio":
		items := []*sexpr.Node{sexpr.Sym(typ)}
		items = field(items, "mime", "mimeType")
		items = append(items, sexpr.Kw("bytes"), sexpr.Num(fmt.Sprint(content.Base64Size(c.Get("data").StringOr("")))))
		return sexpr.L(items...)
	case "resource":
		res := c.Get("resource")
		if res == nil || res.Kind != ojson.Object {
			break
		}
		items := []*sexpr.Node{sexpr.Sym("resource")}
		inner := contentFields{res}
		items = inner.add(items, "uri", "uri")
		items = inner.add(items, "mime", "mimeType")
		if t := res.Get("text"); t != nil && t.Kind == ojson.String {
			items = append(items, sexpr.Kw("text"), sexpr.Str(t.Str))
		} else if b := res.Get("blob"); b != nil && b.Kind == ojson.String {
			items = append(items, sexpr.Kw("bytes"), sexpr.Num(fmt.Sprint(content.Base64Size(b.Str))))
		}
		return sexpr.L(items...)
	case "resource_link":
		items := []*sexpr.Node{sexpr.Sym("link")}
		for _, f := range [][2]string{{"uri", "uri"}, {"name", "name"}, {"title", "title"}, {"description", "description"}, {"mime", "mimeType"}} {
			items = field(items, f[0], f[1])
		}
		if s := c.Get("size"); s != nil && s.Kind == ojson.Number {
			items = append(items, sexpr.Kw("size"), litNode(s, false))
		}
		return sexpr.L(items...)
	}
	return sexpr.L(sexpr.Sym("content"), anyNode(c, 1))
}

type contentFields struct{ v *ojson.Value }

func (f contentFields) add(items []*sexpr.Node, kw, key string) []*sexpr.Node {
	if x := f.v.Get(key); x != nil && x.Kind == ojson.String {
		return append(items, sexpr.Kw(kw), sexpr.Str(x.Str))
	}
	return items
}

// ErrorToTerm renders a call that got no result: a JSON-RPC error, a
// timeout, a broken connection.
func ErrorToTerm(err error) *sexpr.Node {
	var rpc *RPCError
	switch {
	case errors.As(err, &rpc):
		var extra []*sexpr.Node
		if rpc.Data != nil {
			extra = append(extra, anyNode(rpc.Data, 1))
		}
		return errTerm(sexpr.Num(fmt.Sprint(rpc.Code)), rpc.Message, extra...)
	case errors.Is(err, context.DeadlineExceeded):
		return errTerm(sexpr.Sym("timeout"), err.Error())
	case errors.Is(err, context.Canceled):
		return errTerm(sexpr.Sym("canceled"), err.Error())
	}
	var ce *Error
	if errors.As(err, &ce) {
		return errTerm(sexpr.Sym(string(ce.Kind)), ce.Error())
	}
	return errTerm(sexpr.Sym("failed"), err.Error())
}

// Outcome is what became of one call of a batch.
type Outcome struct {
	ID      string
	Result  *ojson.Value // the CallToolResult, when the server answered
	Err     error        // why there is no result
	Skipped bool         // not run: stop-on-error after an earlier failure
}

// BatchResultsToTerm renders a batch's outcomes keyed by id, in batch order:
// (results (1 (ok ...)) (2 (err ...)) ...).
func BatchResultsToTerm(outcomes []Outcome) *sexpr.Node {
	items := []*sexpr.Node{sexpr.Sym("results")}
	for _, o := range outcomes {
		var t *sexpr.Node
		switch {
		case o.Skipped:
			t = errTerm(sexpr.Sym("skipped"), "not run: an earlier call failed and the batch stops on error")
		case o.Err != nil:
			t = ErrorToTerm(o.Err)
		default:
			t = ResultToTerm(o.Result)
		}
		items = append(items, sexpr.L(idNode(o.ID), t))
	}
	return sexpr.L(items...)
}

// idNode writes a batch id as the number or symbol it was read from.
func idNode(id string) *sexpr.Node {
	if n, err := sexpr.ParseOne(id); err == nil && n.Kind == sexpr.Number && n.Text == id {
		return sexpr.Num(id)
	}
	if sexpr.IsSymbolText(id) {
		return sexpr.Sym(id)
	}
	return sexpr.Str(strings.ToValidUTF8(id, "\uFFFD"))
}
