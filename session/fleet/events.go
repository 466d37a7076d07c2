package fleet

import (
	"context"
	"sync"
	"time"

	"github.com/mcpterm/mcpterm/session"
)

// Bounds of the fleet's event stream, as a session's: a flood of upstream
// notifications costs at most this much, oldest first out.
const (
	maxEvents         = 2000
	subscriberBacklog = 512
)

// eventLog is a bounded ring of events plus live subscribers; publishing
// never blocks (a subscriber that falls behind loses events).
type eventLog struct {
	mu   sync.Mutex
	ring []session.Event
	next int
	seq  uint64
	subs map[chan session.Event]struct{}
}

func newEventLog() *eventLog { return &eventLog{subs: map[chan session.Event]struct{}{}} }

func (l *eventLog) publish(e session.Event) {
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seq++
	e.Seq = l.seq
	if len(l.ring) < maxEvents {
		l.ring = append(l.ring, e)
	} else {
		l.ring[l.next] = e
		l.next = (l.next + 1) % maxEvents
	}
	for ch := range l.subs {
		select {
		case ch <- e:
		default:
		}
	}
}

func (l *eventLog) snapshot() []session.Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]session.Event, 0, len(l.ring))
	out = append(out, l.ring[l.next:]...)
	return append(out, l.ring[:l.next]...)
}

func (l *eventLog) subscribe(ctx context.Context) <-chan session.Event {
	ch := make(chan session.Event, subscriberBacklog)
	l.mu.Lock()
	l.subs[ch] = struct{}{}
	l.mu.Unlock()
	go func() {
		<-ctx.Done()
		l.mu.Lock()
		delete(l.subs, ch)
		close(ch)
		l.mu.Unlock()
	}()
	return ch
}

func (f *Fleet) publish(e session.Event) { f.events.publish(e) }

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
