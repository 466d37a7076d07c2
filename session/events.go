package session

import (
	"context"
	"sync"
	"time"
)

// EventKind says where an Event came from.
type EventKind string

const (
	EventLog         EventKind = "log"          // notifications/message
	EventProgress    EventKind = "progress"     // notifications/progress
	EventStderr      EventKind = "stderr"       // one line of a stdio server's stderr
	EventListChanged EventKind = "list_changed" // tools, resources or prompts changed (and were refreshed)
	EventGarbage     EventKind = "garbage"      // a line on stdout that is not JSON-RPC
	EventNotice      EventKind = "notice"       // mcpterm's own remarks: disconnects, dropped tools, oversized messages
	EventOther       EventKind = "notification" // any other server notification
)

// Event is one entry of the session's side channel: everything the server
// says outside of request/response pairs. Text is exactly what the server
// sent (bounded in length, NOT sanitised): sanitise before printing.
type Event struct {
	Seq   uint64    // increases by one per event over the life of the session
	Time  time.Time //
	Kind  EventKind //
	Level string    // log level for EventLog; "error" for serious notices
	// Source names the logger (EventLog), the list that changed
	// ("tools", "resources", "prompts") or the notification method.
	Source string
	Text   string
	// Progress fields, for EventProgress.
	Token    string
	Progress float64
	Total    float64
	// Task fields, for EventTask (tasks.go).
	TaskID     string
	TaskStatus string
}

// Bounds of the event stream. A server flooding notifications costs at most
// this much memory; the oldest events are dropped first.
const (
	maxEvents         = 2000
	maxEventText      = 4096
	subscriberBacklog = 512
)

// eventLog is a bounded ring of events plus live subscribers. Publishing never
// blocks: a subscriber that does not keep up loses events (and is told how
// many through Dropped).
type eventLog struct {
	mu      sync.Mutex
	ring    []Event
	start   int // index of the oldest event in ring once it is full
	seq     uint64
	subs    map[*subscriber]struct{}
	dropped uint64 // events evicted from the ring
}

type subscriber struct {
	ch      chan Event
	dropped uint64
}

func newEventLog() *eventLog {
	return &eventLog{subs: map[*subscriber]struct{}{}}
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	// Cut on a rune boundary so the text stays valid UTF-8.
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

func (l *eventLog) publish(e Event) {
	e.Text = clipText(e.Text, maxEventText)
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
		l.ring[l.start] = e
		l.start = (l.start + 1) % maxEvents
		l.dropped++
	}
	for s := range l.subs {
		select {
		case s.ch <- e:
		default:
			s.dropped++
		}
	}
}

// snapshot returns the retained events, oldest first.
func (l *eventLog) snapshot() []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Event, 0, len(l.ring))
	out = append(out, l.ring[l.start:]...)
	out = append(out, l.ring[:l.start]...)
	return out
}

// subscribe delivers events published from now on until ctx ends, then
// closes the channel.
func (l *eventLog) subscribe(ctx context.Context) <-chan Event {
	s := &subscriber{ch: make(chan Event, subscriberBacklog)}
	l.mu.Lock()
	l.subs[s] = struct{}{}
	l.mu.Unlock()
	go func() {
		<-ctx.Done()
		l.mu.Lock()
		delete(l.subs, s)
		close(s.ch)
		l.mu.Unlock()
	}()
	return s.ch
}

// EventStream is a session's bounded event stream (the ring, the text bound,
// subscribers that never block the publisher) for other Clients that
// publish events of their own, such as session/fleet's many-server client,
// so every Client's Events and Subscribe keep the same bounds.
type EventStream struct{ log *eventLog }

// NewEventStream makes an empty event stream.
func NewEventStream() *EventStream { return &EventStream{log: newEventLog()} }

// Publish adds e (its Seq and, when zero, Time set here) and hands it to
// every subscriber that has room.
func (l *EventStream) Publish(e Event) { l.log.publish(e) }

// Events returns the retained events, oldest first.
func (l *EventStream) Events() []Event { return l.log.snapshot() }

// Subscribe streams events from now until ctx ends.
func (l *EventStream) Subscribe(ctx context.Context) <-chan Event { return l.log.subscribe(ctx) }
