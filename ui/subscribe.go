package ui

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpterm/mcpterm/session"
)

// Resource subscriptions in Explore's Resources tab: a key subscribes to
// the selected resource (or unsubscribes), the list marks what is
// subscribed, an update from the server marks the resource and says so in
// the status line, and a key reads it again. The session keeps the set
// (session/subscribe.go); the pane shows it as the last answer said.

// resourceSubscriber is the session's side of subscriptions. A Session
// without it offers none.
type resourceSubscriber interface {
	CanSubscribe() bool
	SubscribeResource(ctx context.Context, uri string) error
	UnsubscribeResource(ctx context.Context, uri string) error
	SubscribedResources() []string
}

type (
	// subscribeToggleMsg: subscribe to uri, or unsubscribe (explore → root).
	subscribeToggleMsg struct{ uri string }
	// subscribedMsg: the session's answer, with the set as it now is.
	subscribedMsg struct {
		t    ticket
		uri  string // "" after subscribing a new connection to the old set
		on   bool
		set  []string
		err  error
		lost []string // after a reconnect: what could not be subscribed again
	}
	// resourceUpdatedMsg: a subscribed resource changed (explore → root).
	resourceUpdatedMsg struct{ uri string }
)

func (m subscribedMsg) answers() ticket { return m.t }

// resourceMarks are the pane's subscriptions and the updates not yet read.
type resourceMarks struct {
	on      map[string]bool
	changed map[string]time.Time
}

func (r *resourceMarks) set(uris []string) {
	r.on = map[string]bool{}
	for _, u := range uris {
		r.on[u] = true
	}
	for u := range r.changed {
		if !r.on[u] {
			delete(r.changed, u)
		}
	}
}

// seen clears uri's update mark: it is being read.
func (r *resourceMarks) seen(uri string) { delete(r.changed, uri) }

// mark is what the list shows before a resource's URI.
func (r *resourceMarks) mark(st Styles, uri string) string {
	switch {
	case !r.on[uri]:
		return ""
	case !r.changed[uri].IsZero():
		return st.Warn.Render("◉*") + " "
	}
	return st.Info.Render("◉ ") + " "
}

// detail is what the detail view adds about a resource's subscription.
func (r *resourceMarks) detail(st Styles, uri string, can bool) string {
	switch {
	case !r.changed[uri].IsZero():
		return "\n" + st.Warn.Render("updated at "+r.changed[uri].Format("15:04:05")) + st.Muted.Render(" · u reads it again · s unsubscribes")
	case r.on[uri]:
		return "\n" + st.Info.Render("subscribed") + st.Muted.Render(" · s unsubscribes")
	case can:
		return "\n" + st.Muted.Render("s subscribes to its updates")
	}
	return ""
}

// noteUpdates marks the subscribed resources the events say changed, and
// asks the root to say so.
//
// The detail view is left as it is: it may show the resource's contents,
// which the user reads again when ready.
func (p *explorePane) noteUpdates(evs []session.Event) {
	for _, e := range evs {
		if e.Kind != session.EventResourceUpdated || !p.subs.on[e.Text] {
			continue
		}
		if p.subs.changed == nil {
			p.subs.changed = map[string]time.Time{}
		}
		p.subs.changed[e.Text] = e.Time
		p.ask(resourceUpdatedMsg{uri: e.Text})
	}
}

// canSubscribe reports whether the connected server offers subscriptions.
func (p *explorePane) canSubscribe() bool {
	r := p.info.Capabilities.Resources
	return r != nil && r.Subscribe
}

// selectedResource is the URI under the cursor of the Resources tab.
func (p *explorePane) selectedResource() (string, bool) {
	if p.tab != tabResources || p.nav[tabResources].Cursor >= len(p.resources) {
		return "", false
	}
	return p.resources[p.nav[tabResources].Cursor].URI, true
}

// onSubscribe runs subscribing and unsubscribing, and says what came of it.
func (m *Model) onSubscribe(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case subscribeToggleMsg:
		s, ok := m.sess.(resourceSubscriber)
		if !ok || !s.CanSubscribe() {
			return m.setFlash("this server offers no resource subscriptions", true)
		}
		on, uri, t := !m.explore.subs.on[msg.uri], msg.uri, m.issue(kindSubscribe, false)
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var err error
			if on {
				err = s.SubscribeResource(ctx, uri)
			} else {
				err = s.UnsubscribeResource(ctx, uri)
			}
			return subscribedMsg{t: t, uri: uri, on: on, set: s.SubscribedResources(), err: err}
		}
	case subscribedMsg:
		m.explore.subs.set(msg.set)
		if m.explore.tab == tabResources && !m.explore.waiting {
			m.explore.showSelection()
		}
		what := oneLine(m.opts.Sanitize(msg.uri))
		switch {
		case len(msg.lost) > 0:
			return m.setFlash(fmt.Sprintf("%d subscriptions could not be made again: %s", len(msg.lost), errText(msg.err)), true)
		case msg.uri == "":
			return nil
		case msg.err != nil && msg.on:
			return m.setFlash("subscribing to "+what+": "+firstLine(msg.err.Error()), true)
		case msg.err != nil:
			return m.setFlash("unsubscribing from "+what+": "+firstLine(msg.err.Error()), true)
		case msg.on:
			return m.setFlash("subscribed to "+what, false)
		}
		return m.setFlash("unsubscribed from "+what, false)
	case resourceUpdatedMsg:
		return m.setFlash("updated: "+oneLine(m.opts.Sanitize(msg.uri))+" (u reads it again)", false)
	}
	return nil
}

// resubscribeCmd subscribes a new connection's session to what the pane
// had subscribed on the old one (the workbench opens a new session when it
// reconnects).
func (m *Model) resubscribeCmd(sess Session) tea.Cmd {
	s, ok := sess.(resourceSubscriber)
	if !ok || len(m.explore.subs.on) == 0 {
		return nil
	}
	var uris []string
	for u := range m.explore.subs.on {
		uris = append(uris, u)
	}
	t := m.issue(kindSubscribe, false)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		var lost []string
		var errs []error
		for _, u := range uris {
			if err := s.SubscribeResource(ctx, u); err != nil {
				lost = append(lost, u)
				errs = append(errs, err)
			}
		}
		return subscribedMsg{t: t, set: s.SubscribedResources(), lost: lost, err: errors.Join(errs...)}
	}
}

// syncSubscribeKeys enables the subscription keys where they apply.
func (m *Model) syncSubscribeKeys() {
	onResources := m.focus == focusExplore && m.explore.tab == tabResources
	m.keys.Subscribe.SetEnabled(onResources && m.explore.canSubscribe())
	m.keys.Reread.SetEnabled(onResources)
}
