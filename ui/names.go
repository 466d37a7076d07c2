package ui

import (
	"time"

	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session"
)

// lookalikeNotices are the log's warnings about names in one list (what,
// "tools", "resources" or "prompts") that a reader cannot tell apart, one
// per group as safe.LookalikeNotes words them: "file_read" and
// "file_read\u200b" are both shown and both flagged.
func lookalikeNotices(what string, names []string, alike map[string][]string, sanitize func(string) string) []session.Event {
	var evs []session.Event
	for _, note := range safe.LookalikeNotes(what, names, alike) {
		evs = append(evs, session.Event{Time: time.Now(), Kind: session.EventNotice, Level: "warning", Source: what, Text: sanitize(note)})
	}
	return evs
}

// toolNames are the names of a catalog's tools, in list order.
func toolNames(c *catalog) []string {
	names := make([]string, len(c.set.Tools))
	for i, t := range c.set.Tools {
		names[i] = t.Name
	}
	return names
}

// lookalikes finds the resource and prompt names a reader cannot tell
// apart in the lists just loaded, and logs a notice for each group.
func (p *explorePane) lookalikes() (resources, prompts map[string][]string) {
	rn := make([]string, len(p.resources))
	for i, r := range p.resources {
		rn[i] = r.Name
	}
	pn := make([]string, len(p.prompts))
	for i, pr := range p.prompts {
		pn[i] = pr.Name
	}
	resources, prompts = safe.Lookalikes(rn), safe.Lookalikes(pn)
	san := p.sanitize
	if san == nil {
		san = safe.Text
	}
	evs := append(lookalikeNotices("resources", rn, resources, san), lookalikeNotices("prompts", pn, prompts, san)...)
	if len(evs) > 0 {
		p.addEvents(evs, nil)
	}
	return resources, prompts
}

// alikeMark is the marker of a row whose name looks like another's.
func alikeMark(st Styles, others []string) string {
	if others == nil {
		return ""
	}
	return st.Warn.Render("≈")
}
