package ui

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/glamour/v2"

	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/tokens"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// maxRenderBytes bounds what one content block may put on screen; a 10 MB
// result is summarised, not laid out line by line.
const maxRenderBytes = 256 << 10

// renderResults lays out a finished run for width w. It runs in a Cmd:
// glamour and the highlighter are too slow for Update on big results.
// Each item shows what its syntax answers — an AQL request its AQL
// response, any other call the server's result — and in the (ok ...) view
// the MCP-Term form convert/calls prints for every face.
// It also gives where each item starts (a line of the text) and each
// item's result tokens (-1 when not counted), for a batch's table.
func renderResults(r *run, k renderKey, st Styles, c *tokens.Counter, sanitize func(string) string) (text string, starts, toks []int) {
	markdown := markdownRenderer(st, k.width)
	var b strings.Builder
	line := 0 // lines written so far
	write := func(s string) {
		b.WriteString(s)
		line += strings.Count(s, "\n")
	}
	for i := range r.plan.Items {
		it, res := r.item(i)
		if i > 0 {
			write("\n\n")
		}
		starts = append(starts, line)
		// Estimate counts a result of any size in bounded memory, saying
		// "≈" when it had to cut or sample.
		n, label := -1, ""
		if res.Outcome.Result != nil && c != nil {
			if e, err := c.Estimate(res.Outcome.Result.Compact()); err == nil {
				n, label = e.N, e.String()
			}
		}
		toks = append(toks, n)
		write(itemHeader(r, i, label, st, sanitize) + "\n" + st.Muted.Render("↳ ") + widget.Highlight(st.Syntax, lexerOfSyntax(r.plan.Syntax), sanitize(callText(r, it))) + "\n")
		out := res.Outcome
		if res.Call != nil && res.Call.SchemaErr != nil {
			write(st.Warn.Render("⚠ structuredContent: "+oneLine(sanitize(res.Call.SchemaErr.Error()))) + "\n")
		}
		switch {
		case out.Err != nil && out.Err.Kind == calls.FailCancelled:
			write(st.Warn.Render("cancelled") + st.Muted.Render(" (notifications/cancelled was sent)"))
		case k.term:
			write(widget.Highlight(st.Syntax, "scheme", sanitize(clip(sexpr.Pretty(calls.OutcomeTerm(&it, out), max(k.width, 40))))))
		case r.plan.Syntax == calls.AQL:
			resp, _ := r.codec.ItemAnswer(&it, out)
			write(widget.Highlight(st.Syntax, "json", sanitize(clip(resp.Pretty()))))
		case out.Err != nil:
			write(st.Error.Render(string(out.Err.Kind)+": ") + st.Text.Render(sanitize(out.Err.Message)))
		default:
			write(renderBlocks(resultBlocks(out.Result), out.Result.Get("structuredContent"), st, sanitize, markdown))
		}
	}
	return b.String(), starts, toks
}

// callText is the call an item ran, one line in the syntax it was written
// in, so each result shows what produced it.
func callText(r *run, it calls.Item) string {
	one := &calls.Plan{Syntax: r.plan.Syntax, Items: []calls.Item{it}}
	if text, err := r.codec.Print(one, r.plan.Syntax, 0); err == nil {
		return text
	}
	return firstNonEmpty(it.Operation, it.Tool) + " (answered locally)"
}

// lexerOfSyntax is the highlighter for a call's syntax.
func lexerOfSyntax(s calls.Syntax) string {
	if s == calls.SExpr {
		return "scheme"
	}
	return "json"
}

// markdownRenderer renders markdown with glamour at width, in the
// theme's light, dark or no-colour style; the renderer is built on first use.
func markdownRenderer(st Styles, width int) func(string) string {
	var md *glamour.TermRenderer
	return func(s string) string {
		if md == nil {
			style := "dark"
			switch {
			case st.Palette.Mono:
				style = "notty"
			case !st.Palette.Dark:
				style = "light"
			}
			var err error
			md, err = glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithWordWrap(max(width-2, 20)))
			if err != nil {
				return s
			}
		}
		// glamour decodes character references after the text was
		// sanitised: Markdown spells out those that would decode to a
		// control or hidden character, and Styled cleans what glamour
		// wrote (keeping its colours) before the frame filter sees it.
		out, err := md.Render(safe.Markdown(s))
		if err != nil {
			return s
		}
		return safe.Styled(strings.Trim(out, "\n"))
	}
}

// itemHeader is an item's first line; tok is its result's token count as
// tokens.Estimate labels it ("" when not counted).
func itemHeader(r *run, i int, tok string, st Styles, sanitize func(string) string) string {
	it, res := r.item(i)
	var parts []string
	name := safe.Name(sanitize(firstNonEmpty(it.Tool, it.Operation)))
	if (r.plan.Batch || len(r.plan.Items) > 1) && it.ID != "" {
		name = "[" + oneLine(sanitize(it.ID)) + "] " + name
	}
	parts = append(parts, st.Bold.Render(name))
	out := res.Outcome
	switch {
	case out.Err != nil && out.Err.Kind == calls.FailCancelled:
		parts = append(parts, st.Warn.Render("cancelled"))
	case out.Err != nil:
		parts = append(parts, st.Error.Render("✗ "+string(out.Err.Kind)))
	case r.failed(i) && r.plan.Syntax == calls.AQL:
		parts = append(parts, st.Error.Render("✗ success: false"))
	case r.failed(i):
		parts = append(parts, st.Error.Render("✗ isError"))
	case it.IsLocal():
		parts = append(parts, st.OK.Render("✓ answered locally"))
	default:
		parts = append(parts, st.OK.Render("✓ ok"))
	}
	if res.Call != nil && res.Call.Duration > 0 {
		parts = append(parts, st.Muted.Render(fmtDuration(res.Call.Duration)))
	}
	if tok != "" {
		parts = append(parts, st.Muted.Render(tok))
	}
	return strings.Join(parts, st.Subtle.Render(" · "))
}

// contentBlock is one content item of a result, a resource's contents or
// a prompt message, as read from the JSON the server sent.
type contentBlock struct {
	Type     string // text, image, audio, resource, resource_link, or whatever the server said
	Text     string
	MIME     string
	URI      string
	Name     string
	DataSize int // decoded size of image/audio/blob data
}

// resultBlocks reads a CallToolResult's content.
func resultBlocks(raw *ojson.Value) []contentBlock {
	var out []contentBlock
	for _, v := range raw.Get("content").Items {
		out = append(out, blockOf(v))
	}
	return out
}

func blockOf(v *ojson.Value) contentBlock {
	c := contentBlock{Type: v.Get("type").StringOr("unknown"), Text: v.Get("text").StringOr(""),
		MIME: v.Get("mimeType").StringOr(""), URI: v.Get("uri").StringOr(""), Name: v.Get("name").StringOr("")}
	if d := v.Get("data").StringOr(""); d != "" {
		c.DataSize = base64.StdEncoding.DecodedLen(len(d))
	}
	if r := v.Get("resource"); r != nil && r.Kind == ojson.Object {
		inner := resourceBlock(r, c.URI)
		c.URI, c.Text, c.DataSize = inner.URI, inner.Text, inner.DataSize
		c.MIME = firstNonEmpty(inner.MIME, c.MIME)
	}
	return c
}

// resourceBlock reads one entry of resources/read's contents (or an
// embedded resource).
func resourceBlock(v *ojson.Value, uri string) contentBlock {
	c := contentBlock{Type: "resource", URI: v.Get("uri").StringOr(uri), MIME: v.Get("mimeType").StringOr(""), Text: v.Get("text").StringOr("")}
	if bl := v.Get("blob").StringOr(""); bl != "" {
		c.DataSize = base64.StdEncoding.DecodedLen(len(bl))
	}
	return c
}

// renderPrompt shows a prompts/get answer: its description, then each
// message under its role.
func renderPrompt(pm *session.PromptMessages, st Styles, sanitize func(string) string, markdown func(string) string) string {
	var parts []string
	if d := pm.Raw.Get("description").StringOr(""); d != "" {
		parts = append(parts, st.Muted.Render(sanitize(d)))
	}
	for _, msg := range pm.Raw.Get("messages").Items {
		c := msg.Get("content")
		if c == nil || c.Kind != ojson.Object {
			continue
		}
		body := renderBlocks([]contentBlock{blockOf(c)}, nil, st, sanitize, markdown)
		parts = append(parts, st.PaneTitle.Render(oneLine(sanitize(msg.Get("role").StringOr("?"))))+"\n"+body)
	}
	return strings.Join(parts, "\n\n")
}

// renderBlocks shows each content block by type — JSON pretty and
// highlighted, markdown through glamour, media as a typed summary — and
// then the structured content, unless a text block already says it.
func renderBlocks(blocks []contentBlock, structured *ojson.Value, st Styles, sanitize func(string) string, markdown func(string) string) string {
	var out []string
	for _, ct := range blocks {
		switch ct.Type {
		case "text":
			out = append(out, renderText(ct.Text, st, sanitize, markdown))
		case "image", "audio":
			out = append(out, st.Info.Render("▣ "+ct.Type)+st.Muted.Render(fmt.Sprintf(" %s · %s", sanitize(ct.MIME), byteSize(ct.DataSize))))
		case "resource":
			head := st.Info.Render("▣ resource ") + st.Text.Render(oneLine(sanitize(ct.URI)))
			if ct.MIME != "" {
				head += st.Muted.Render(" (" + oneLine(sanitize(ct.MIME)) + ")")
			}
			if ct.Text != "" {
				head += "\n" + renderText(ct.Text, st, sanitize, markdown)
			} else if ct.DataSize > 0 {
				head += st.Muted.Render(" · " + byteSize(ct.DataSize) + " blob")
			}
			out = append(out, head)
		case "resource_link":
			s := st.Info.Render("→ resource link ") + st.Text.Render(oneLine(sanitize(ct.URI)))
			if ct.Name != "" {
				s += st.Muted.Render(" " + oneLine(sanitize(ct.Name)))
			}
			out = append(out, s)
		default:
			out = append(out, st.Muted.Render("▣ "+oneLine(sanitize(ct.Type))+" content"))
		}
	}
	if structured != nil && structured.Kind != ojson.Null {
		if structuredEchoesText(blocks, structured) {
			// Servers send the same object twice (text for old clients);
			// showing it twice only doubles the scrolling.
			out = append(out, st.Muted.Render("structuredContent: the same JSON as the text above"))
		} else {
			out = append(out, st.Muted.Render("structuredContent:")+"\n"+widget.Highlight(st.Syntax, "json", sanitize(clip(structured.Pretty()))))
		}
	}
	if len(out) == 0 {
		out = append(out, st.Muted.Render("(no content)"))
	}
	return strings.Join(out, "\n")
}

// structuredEchoesText reports whether a text block holds exactly the
// structuredContent as JSON.
func structuredEchoesText(blocks []contentBlock, structured *ojson.Value) bool {
	for _, ct := range blocks {
		if ct.Type != "text" {
			continue
		}
		if v, err := ojson.Parse([]byte(strings.TrimSpace(ct.Text))); err == nil && ojson.Equal(v, structured) {
			return true
		}
	}
	return false
}

// renderText picks JSON, markdown or plain rendering for one text block.
func renderText(text string, st Styles, sanitize func(string) string, markdown func(string) string) string {
	text = clip(text)
	trimmed := strings.TrimSpace(text)
	if (strings.HasPrefix(trimmed, "{") || strings.HasPrefix(trimmed, "[")) && json.Valid([]byte(trimmed)) {
		if v, err := ojson.Parse([]byte(trimmed)); err == nil {
			return widget.Highlight(st.Syntax, "json", sanitize(v.Pretty()))
		}
	}
	clean := sanitize(text)
	if looksLikeMarkdown(trimmed) {
		return markdown(clean)
	}
	return st.Text.Render(clean)
}

// looksLikeMarkdown is a cheap guess that wants two signals — headings
// ("# Title"), lists, fences, tables, quotes, emphasis or links — because one
// alone is common in plain text: a config file's "# comment" line would
// otherwise become a heading, and glamour would join its lines into a
// paragraph.
func looksLikeMarkdown(s string) bool {
	hits := 0
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case isHeading(l), strings.HasPrefix(l, "```"), strings.HasPrefix(l, "|"),
			strings.HasPrefix(l, "- "), strings.HasPrefix(l, "* "), strings.HasPrefix(l, "> "):
			hits++
		}
		if strings.Contains(l, "**") {
			hits++
		}
		if strings.Contains(l, "](") {
			hits++
		}
		if hits >= 2 {
			return true
		}
	}
	return false
}

// isHeading matches an ATX heading: one to six #, a space, then text.
func isHeading(l string) bool {
	n := 0
	for n < len(l) && n < 7 && l[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && len(l) > n+1 && l[n] == ' '
}

func clip(s string) string {
	if len(s) <= maxRenderBytes {
		return s
	}
	cut := maxRenderBytes
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n… %s more not shown (save the result to see it all)", byteSize(len(s)-cut))
}

func byteSize(n int) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/1024/1024)
	}
}

// resultDocument is what "save result" writes: the run's results as JSON
// lines, each the result exactly as the server sent it.
func resultDocument(r *run) string {
	var b strings.Builder
	for i := range r.plan.Items {
		it, res := r.item(i)
		o := ojson.NewObject()
		if it.ID != "" {
			o.Set("id", ojson.NewString(it.ID))
		}
		o.Set("tool", ojson.NewString(firstNonEmpty(it.Tool, it.Operation)))
		if it.Arguments != nil {
			o.Set("arguments", it.Arguments)
		}
		if f := res.Outcome.Err; f != nil {
			o.Set("error", f.JSON())
		}
		if res.Outcome.Result != nil {
			o.Set("result", res.Outcome.Result)
		}
		b.WriteString(o.Compact())
		b.WriteByte('\n')
	}
	return b.String()
}
