package ui

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// Bounds of the capability listing: a server's experimental and extension
// capabilities are free-form, so how much of them shows is capped.
const (
	capMaxDepth    = 4
	capMaxFeatures = 24
)

// serverDetail is the Server tab: who the server is, the protocol revision
// the connection speaks, and both sides' capabilities, the server's as it
// declared them and the client's as mcpterm declared them, so a feature
// that does not work can be traced to a side that did not offer it.
func (p *explorePane) serverDetail() string {
	st, s, in := *p.st, p.sanitize, p.info
	protocol := in.ProtocolVersion
	switch {
	case protocol == "":
	case in.Modern:
		protocol += " · stateless (server/discover; version and capabilities in every request's _meta)"
	default:
		protocol += " · initialize handshake"
	}
	body := fieldLines(st, s, "name", in.Name, "title", in.Title, "version", in.Version, "protocol", protocol, "transport", in.Source)
	body += "\n\n" + st.PaneTitle.Render("Server capabilities") + st.Muted.Render(" · what the server declared") + "\n" +
		capabilityLines(st, s, in.Capabilities)
	body += "\n\n" + st.PaneTitle.Render("Client capabilities") + st.Muted.Render(" · what mcpterm declared") + "\n" +
		capabilityLines(st, s, in.ClientCapabilities)
	body += p.rootsDetail()
	if in.Instructions != "" {
		body += "\n\n" + st.PaneTitle.Render("Instructions") + "\n" + s(in.Instructions)
	}
	if p.stderr != "" {
		body += "\n\n" + st.PaneTitle.Render("stderr") + "\n" + s(p.stderr)
	}
	return body
}

// capOrder puts the capabilities MCP defines first, in the spec's order;
// others (experimental, extensions, ones newer than this build) follow by
// name.
var capOrder = []string{"tools", "resources", "prompts", "logging", "completions", "tasks",
	"roots", "sampling", "elicitation", "experimental", "extensions"}

// capabilityLines lists a capabilities value one capability a line, with
// its features (sub-capabilities set to true or to an object, by dotted
// path). It reads the JSON form, so capabilities mcp-go adds later show
// without a change here.
func capabilityLines(st Styles, s func(string) string, caps any) string {
	b, err := json.Marshal(caps)
	var top map[string]json.RawMessage
	if err != nil || json.Unmarshal(b, &top) != nil || len(top) == 0 {
		return st.Muted.Render("  none")
	}
	names := make([]string, 0, len(top))
	for k := range top {
		names = append(names, k)
	}
	slices.SortFunc(names, func(a, b string) int {
		ia, ib := slices.Index(capOrder, a), slices.Index(capOrder, b)
		switch {
		case ia >= 0 && ib >= 0:
			return ia - ib
		case ia >= 0:
			return -1
		case ib >= 0:
			return 1
		}
		return strings.Compare(a, b)
	})
	var lines []string
	for _, name := range names {
		var feats []string
		features(top[name], "", 0, &feats)
		if len(feats) > capMaxFeatures {
			feats = append(feats[:capMaxFeatures], "…")
		}
		for i, f := range feats {
			feats[i] = safe.Name(s(f))
		}
		line := "  " + st.Bold.Render(widget.PadRight(safe.Name(s(name)), 13))
		if len(feats) > 0 {
			line += " " + st.Text.Render(strings.Join(feats, ", "))
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// features collects the dotted paths under raw that are switched on: true,
// an empty object, or a scalar other than false and null (shown as
// path=value), descending into objects up to capMaxDepth.
func features(raw json.RawMessage, prefix string, depth int, out *[]string) {
	if len(*out) > capMaxFeatures {
		return
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		switch string(raw) {
		case "", "false", "null":
		case "true":
			if prefix != "" {
				*out = append(*out, prefix)
			}
		default:
			if prefix != "" {
				v := string(raw)
				if len(v) > 40 {
					v = v[:40] + "…"
				}
				*out = append(*out, prefix+"="+v)
			}
		}
		return
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return
	}
	if len(obj) == 0 || depth >= capMaxDepth {
		if prefix != "" {
			*out = append(*out, prefix)
		}
		return
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		path := k
		if prefix != "" {
			path = prefix + "." + k
		}
		features(obj[k], path, depth+1, out)
	}
}
