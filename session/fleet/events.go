package fleet

import (
	"time"

	"github.com/mcpterm/mcpterm/session"
)

// publish adds one of the fleet's events to its stream (session.EventStream:
// the same bounds as a session's).
func (f *Fleet) publish(e session.Event) { f.events.Publish(e) }

// listsChanged tells the gateway every list may have changed (an upstream
// came up, went, or the config changed): it fetches them again and tells
// its clients when they differ.
func (f *Fleet) listsChanged() {
	for _, which := range []string{"tools", "resources", "prompts"} {
		f.publish(session.Event{Kind: session.EventListChanged, Source: which})
	}
}

// relay republishes an upstream's event as the fleet's, with the server's
// name where a person reads it and resource URIs as the fleet lists them.
func (f *Fleet) relay(u *upstream, e session.Event) {
	name := u.spec.Name
	switch e.Kind {
	case session.EventListChanged:
		// Source ("tools", ...) is what the gateway refreshes.
	case session.EventResourceUpdated:
		e.Text = f.routes.Load().listedURI(name, e.Text)
	case session.EventLog:
		if e.Source == "" {
			e.Source = name
		} else {
			e.Source = name + "/" + e.Source
		}
	case session.EventProgress, session.EventTask:
		// Delivered to the call's own OnProgress; nothing to add.
		return
	default:
		e.Text = name + ": " + e.Text
	}
	e.Seq, e.Time = 0, time.Time{}
	f.publish(e)
}
