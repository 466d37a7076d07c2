package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"charm.land/glamour/v2"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// maxRenderBytes bounds what one content block may put on screen; a 10 MB
// result is summarised, not laid out line by line.
const maxRenderBytes = 256 << 10

// renderResults lays out a finished run for width w. It runs in a Cmd:
// glamour and the highlighter are too slow for Update on big results.
func renderResults(r *run, k renderKey, st Styles, codec Codec, c Counter, sanitize func(string) string) string {
	markdown := markdownRenderer(st, k.width)
	var b strings.Builder
	for i, it := range r.items {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(itemHeader(it, k, st, c, len(r.items) > 1, sanitize))
		b.WriteByte('\n')
		if it.Result != nil && it.Result.Warning != "" {
			b.WriteString(st.Warn.Render("⚠ "+oneLine(sanitize(it.Result.Warning))) + "\n")
		}
		switch {
		case it.Err != nil && r.cancelled && errors.Is(it.Err, context.Canceled):
			b.WriteString(st.Warn.Render("cancelled") + st.Muted.Render(" (notifications/cancelled was sent)"))
		case it.Err != nil:
			b.WriteString(st.Error.Render("error: ") + st.Text.Render(sanitize(it.Err.Error())))
		case it.Result == nil:
			b.WriteString(st.Muted.Render("no result"))
		case k.term:
			t, err := codec.ResultTerm(it.Result, k.width)
			if err != nil {
				b.WriteString(st.Muted.Render("(ok ...) form unavailable: " + sanitize(err.Error())))
				b.WriteString("\n")
				b.WriteString(renderContents(it.Result, st, sanitize, markdown))
			} else {
				b.WriteString(widget.Highlight(st.Syntax, "scheme", sanitize(clip(t))))
			}
		default:
			b.WriteString(renderContents(it.Result, st, sanitize, markdown))
		}
	}
	return b.String()
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
		out, err := md.Render(s)
		if err != nil {
			return s
		}
		return strings.Trim(out, "\n")
	}
}

func itemHeader(it runItem, k renderKey, st Styles, c Counter, batch bool, sanitize func(string) string) string {
	var parts []string
	name := oneLine(sanitize(it.Tool))
	if batch && it.ID != "" {
		name = "[" + oneLine(sanitize(it.ID)) + "] " + name
	}
	parts = append(parts, st.Bold.Render(name))
	switch {
	case it.Err != nil && errors.Is(it.Err, context.Canceled):
		parts = append(parts, st.Warn.Render("cancelled"))
	case it.Err != nil:
		parts = append(parts, st.Error.Render("✗ error"))
	case it.Result != nil && it.Result.IsError:
		parts = append(parts, st.Error.Render("✗ isError"))
	case it.Result != nil:
		parts = append(parts, st.OK.Render("✓ ok"))
	}
	if it.Duration > 0 {
		parts = append(parts, st.Muted.Render(fmtDuration(it.Duration)))
	}
	if it.Result != nil && it.Result.Raw != nil && c != nil && c.Ready(k.enc) {
		parts = append(parts, st.Muted.Render(thousands(c.Count(k.enc, it.Result.Raw.Compact()))+" tok"))
	}
	return strings.Join(parts, st.Subtle.Render(" · "))
}

// renderContents shows each content block by type: JSON pretty and
// highlighted, markdown through glamour, media as a typed summary.
func renderContents(res *CallResult, st Styles, sanitize func(string) string, markdown func(string) string) string {
	var out []string
	for _, ct := range res.Content {
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
	if res.Structured != nil {
		if structuredEchoesText(res) {
			// Servers send the same object twice (text for old clients);
			// showing it twice only doubles the scrolling.
			out = append(out, st.Muted.Render("structuredContent: the same JSON as the text above"))
		} else {
			out = append(out, st.Muted.Render("structuredContent:")+"\n"+widget.Highlight(st.Syntax, "json", sanitize(clip(res.Structured.Pretty()))))
		}
	}
	if len(out) == 0 {
		out = append(out, st.Muted.Render("(no content)"))
	}
	return strings.Join(out, "\n")
}

// structuredEchoesText reports whether a text block holds exactly the
// structuredContent as JSON.
func structuredEchoesText(res *CallResult) bool {
	for _, ct := range res.Content {
		if ct.Type != "text" {
			continue
		}
		if v, err := ojson.Parse([]byte(strings.TrimSpace(ct.Text))); err == nil && ojson.Equal(v, res.Structured) {
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
	safe := sanitize(text)
	if looksLikeMarkdown(trimmed) {
		return markdown(safe)
	}
	return st.Text.Render(safe)
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
	for _, it := range r.items {
		o := ojson.NewObject()
		if it.ID != "" {
			o.Set("id", ojson.NewString(it.ID))
		}
		o.Set("tool", ojson.NewString(it.Tool))
		if it.Args != nil {
			o.Set("arguments", it.Args)
		}
		if it.Err != nil {
			o.Set("error", ojson.NewString(it.Err.Error()))
		}
		if it.Result != nil && it.Result.Raw != nil {
			o.Set("result", it.Result.Raw)
		}
		b.WriteString(o.Compact())
		b.WriteByte('\n')
	}
	return b.String()
}
