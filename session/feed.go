package session

import "context"

// FeedItem is one entry of a session's merged feed: a side-channel Event
// or a protocol Message, exactly one of them set.
type FeedItem struct {
	Event   *Event
	Message *Message
	// Missed counts the items of the same stream (events, or messages) the
	// reader lost just before this one by falling more than the backlog
	// behind; 0 when nothing was lost.
	Missed uint64
}

// feedBacklog is the merged channel's buffer; each of the two streams
// below it buffers subscriberBacklog more.
const feedBacklog = 256

// Feed streams everything a UI shows about the session in one channel:
// first what the session has retained (the protocol messages and events
// from before the call, oldest first, merged by time), then what arrives
// from now on, each item once (by Seq, per stream). It never blocks the
// session: a reader that falls more than the backlog behind loses items,
// and the next item of that stream says how many in Missed. The channel
// closes when ctx ends.
func (s *Session) Feed(ctx context.Context) <-chan FeedItem {
	pastEvents, evs := s.events.snapshotAndSubscribe(ctx)
	pastMsgs, msgs, stop := s.tap.snapshotAndSubscribe()
	out := make(chan FeedItem, feedBacklog)
	go func() {
		defer close(out)
		defer stop()
		f := feeder{ctx: ctx, out: out}
		if !f.replay(pastEvents, pastMsgs) {
			return
		}
		for evs != nil || msgs != nil {
			select {
			case <-ctx.Done():
				return
			case e, ok := <-evs:
				if !ok {
					evs = nil
					continue
				}
				if !f.event(e) {
					return
				}
			case m, ok := <-msgs:
				if !ok {
					msgs = nil
					continue
				}
				if !f.message(m) {
					return
				}
			}
		}
		<-ctx.Done()
	}()
	return out
}

// feeder remembers the last Seq sent per stream, so nothing repeats and a
// gap shows as Missed.
type feeder struct {
	ctx             context.Context
	out             chan<- FeedItem
	lastEv, lastMsg uint64
}

func (f *feeder) send(it FeedItem) bool {
	select {
	case f.out <- it:
		return true
	case <-f.ctx.Done():
		return false
	}
}

func (f *feeder) event(e Event) bool {
	if e.Seq <= f.lastEv {
		return true
	}
	var missed uint64
	if f.lastEv > 0 {
		missed = e.Seq - f.lastEv - 1
	}
	f.lastEv = e.Seq
	return f.send(FeedItem{Event: &e, Missed: missed})
}

func (f *feeder) message(m Message) bool {
	if m.Seq <= f.lastMsg {
		return true
	}
	var missed uint64
	if f.lastMsg > 0 {
		missed = m.Seq - f.lastMsg - 1
	}
	f.lastMsg = m.Seq
	return f.send(FeedItem{Message: &m, Missed: missed})
}

// replay sends the retained items merged by time (messages first on a tie:
// a request usually causes the events stamped with its time).
func (f *feeder) replay(evs []Event, msgs []Message) bool {
	i, j := 0, 0
	for i < len(evs) || j < len(msgs) {
		if j < len(msgs) && (i == len(evs) || !evs[i].Time.Before(msgs[j].Time)) {
			if !f.message(msgs[j]) {
				return false
			}
			j++
			continue
		}
		if !f.event(evs[i]) {
			return false
		}
		i++
	}
	return true
}

// snapshotAndSubscribe returns the retained events and a subscription to
// the ones published after them, taken under one lock so that nothing falls
// between the two and nothing is in both. The channel closes when ctx ends.
func (l *eventLog) snapshotAndSubscribe(ctx context.Context) ([]Event, <-chan Event) {
	sub := &subscriber{ch: make(chan Event, subscriberBacklog)}
	l.mu.Lock()
	past := make([]Event, 0, len(l.ring))
	past = append(past, l.ring[l.start:]...)
	past = append(past, l.ring[:l.start]...)
	l.subs[sub] = struct{}{}
	l.mu.Unlock()
	go func() {
		<-ctx.Done()
		l.mu.Lock()
		delete(l.subs, sub)
		close(sub.ch)
		l.mu.Unlock()
	}()
	return past, sub.ch
}

// snapshotAndSubscribe is Messages and Subscribe under one lock, for the
// same reason as the event log's.
func (t *Tap) snapshotAndSubscribe() ([]Message, <-chan Message, func()) {
	c := make(chan Message, subscriberBacklog)
	t.mu.Lock()
	past := make([]Message, len(t.ring))
	for i, m := range t.ring {
		past[i] = *m
	}
	t.subs[c] = struct{}{}
	t.mu.Unlock()
	stopped := false
	return past, c, func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if !stopped {
			stopped = true
			delete(t.subs, c)
			close(c)
		}
	}
}
