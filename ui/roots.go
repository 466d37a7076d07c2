package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/session"
)

// The roots mcpterm offers the server (Options.Roots, from --root or the
// current directory) are shown on Explore's Server tab, and changed there:
// the new set goes to session.Roots.Set, which tells every connected server
// (roots/list_changed) so it asks again.

// editRootsMsg asks the root to open the roots dialog.
type editRootsMsg struct{}

// setRootsMsg is the dialog's answer: the directories, one per field line
// as typed (separated by the path list separator).
type setRootsMsg struct{ dirs string }

// rootsSetMsg reports the change.
type rootsSetMsg struct {
	roots []mcp.Root
	err   error
}

// rootsTitle is the dialog's title.
const rootsTitle = "Roots offered to the server"

// rootsDialog opens the roots dialog, filled with the roots offered now.
func (m *Model) rootsDialog() tea.Cmd {
	if m.opts.Roots == nil {
		return m.setFlash("mcpterm offers no roots (--no-roots)", false)
	}
	var dirs []string
	for _, r := range m.opts.Roots.List() {
		if p, ok := rootPath(r.URI); ok {
			dirs = append(dirs, p)
		}
	}
	sep := string(os.PathListSeparator)
	m.modal = newForm(*m.styles, rootsTitle,
		"Directories, separated by "+sep+"; relative ones start at "+m.opts.WorkingDir+". Empty offers none. The server is told at once.",
		[]string{"directories"}, []string{strings.Join(dirs, sep)},
		func(v []string) tea.Msg { return setRootsMsg{dirs: v[0]} })
	return nil
}

// setRootsCmd checks each directory and sets the roots, off the Update
// loop: Set writes roots/list_changed to every connected server.
func (m *Model) setRootsCmd(text string) tea.Cmd {
	roots, wd := m.opts.Roots, m.opts.WorkingDir
	return func() tea.Msg {
		var dirs []string
		for _, d := range filepath.SplitList(text) {
			if d = strings.TrimSpace(d); d != "" {
				dirs = append(dirs, d)
			}
		}
		list, err := session.DirRootsAt(wd, dirs...)
		if err != nil {
			return rootsSetMsg{err: err}
		}
		roots.Set(list)
		return rootsSetMsg{roots: roots.List()}
	}
}

// onRootsSet shows the outcome and the new roots.
func (m *Model) onRootsSet(msg rootsSetMsg) tea.Cmd {
	if msg.err != nil {
		return m.setFlash("roots: "+oneLine(m.opts.Sanitize(msg.err.Error())), true)
	}
	m.explore.setRoots(msg.roots)
	return m.setFlash(fmt.Sprintf("roots: %d offered; the server was told (roots/list_changed)", len(msg.roots)), false)
}

// rootPath is a file:// root's directory.
func rootPath(uri string) (string, bool) {
	p, ok := strings.CutPrefix(uri, "file://")
	return filepath.FromSlash(p), ok
}

// setRoots keeps the roots the Server tab lists.
func (p *explorePane) setRoots(roots []mcp.Root) {
	p.roots, p.rootsOn = roots, true
	if p.tab == tabServer {
		p.showSelection()
	}
}

// rootsDetail is the Server tab's roots section.
func (p *explorePane) rootsDetail() string {
	if !p.rootsOn {
		return ""
	}
	st := *p.st
	body := "\n\n" + st.PaneTitle.Render("Roots") + st.Muted.Render(" · what mcpterm offers ("+p.keys.EditRoots.Help().Key+" changes them)") + "\n"
	if len(p.roots) == 0 {
		return body + st.Muted.Render("  none")
	}
	lines := make([]string, len(p.roots))
	for i, r := range p.roots {
		lines[i] = "  " + st.Text.Render(oneLine(p.sanitize(r.URI)))
	}
	return body + strings.Join(lines, "\n")
}
