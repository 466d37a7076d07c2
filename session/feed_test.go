package session

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session/demo"
)

// feedOffline opens a session over an empty tool list: no server, so the
// only events and messages are the ones a test puts there.
func feedOffline(t *testing.T) *Session {
	t.Helper()
	set, err := toolset.Parse([]byte(`[]`))
	if err != nil {
		t.Fatal(err)
	}
	return open(t, Source{Kind: Offline, Tools: set}, Options{})
}

func feedEvent(s *Session, i int) {
	s.events.publish(Event{Kind: EventNotice, Text: fmt.Sprint("event ", i)})
}

func feedMessage(s *Session, i int) {
	s.tap.record(Received, KindNotification, "", "test/note", []byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":"test/note","params":{"i":%d}}`, i)), "")
}

// feedReader collects a feed and checks each stream arrives in Seq order,
// each item once.
type feedReader struct {
	t               *testing.T
	ch              <-chan FeedItem
	lastEv, lastMsg uint64
	events, msgs    int
	missed          uint64
}

func (r *feedReader) next(ctx context.Context) FeedItem {
	r.t.Helper()
	select {
	case it, ok := <-r.ch:
		if !ok {
			r.t.Fatal("feed closed early")
		}
		switch {
		case it.Event != nil && it.Message == nil:
			if it.Event.Seq != r.lastEv+1+it.Missed {
				r.t.Fatalf("event %d after %d (missed %d)", it.Event.Seq, r.lastEv, it.Missed)
			}
			r.lastEv = it.Event.Seq
			r.events++
		case it.Message != nil && it.Event == nil:
			if it.Message.Seq != r.lastMsg+1+it.Missed {
				r.t.Fatalf("message %d after %d (missed %d)", it.Message.Seq, r.lastMsg, it.Missed)
			}
			r.lastMsg = it.Message.Seq
			r.msgs++
		default:
			r.t.Fatalf("item with event %v and message %v", it.Event, it.Message)
		}
		r.missed += it.Missed
		return it
	case <-ctx.Done():
		r.t.Fatalf("feed stalled after event %d, message %d", r.lastEv, r.lastMsg)
	}
	return FeedItem{}
}

// readTo reads until both streams have reached the given Seq.
func (r *feedReader) readTo(ctx context.Context, ev, msg uint64) {
	r.t.Helper()
	for r.lastEv < ev || r.lastMsg < msg {
		r.next(ctx)
	}
}

// TestFeedSnapshotThenLive starts the feed while events and messages are
// being published: every one arrives once, in order, none lost (the live
// part stays within the backlog).
func TestFeedSnapshotThenLive(t *testing.T) {
	s := feedOffline(t)
	ctx := ctxT(t, 20*time.Second)
	const before, after = 300, 300
	half := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range before + after {
			if i == before {
				close(half)
			}
			feedEvent(s, i)
			feedMessage(s, i)
		}
	}()
	<-half
	r := &feedReader{t: t, ch: s.Feed(ctx)}
	<-done
	r.readTo(ctx, before+after, before+after)
	if r.events != before+after || r.msgs != before+after || r.missed != 0 {
		t.Errorf("%d events, %d messages, %d missed", r.events, r.msgs, r.missed)
	}
}

// TestFeedLiveSession: the handshake and a first call are in the snapshot,
// a later call's messages and progress events arrive live, nothing twice.
func TestFeedLiveSession(t *testing.T) {
	s := open(t, Source{Kind: InProcess, Name: "demo", Server: demo.New(demo.Options{})}, Options{})
	ctx := ctxT(t, 20*time.Second)
	if r := s.Call(ctx, CallRequest{Tool: "list_todos"}); !r.OK() {
		t.Fatal(r.Err)
	}
	r := &feedReader{t: t, ch: s.Feed(ctx)}
	first := r.next(ctx)
	if first.Message == nil || first.Message.Seq != 1 {
		t.Fatalf("first item %+v, want the first message", first)
	}
	if c := s.Call(ctx, CallRequest{Tool: "long_task", Arguments: obj(t, `{"steps":3,"delay_ms":0}`)}); !c.OK() || c.Progress != 3 {
		t.Fatalf("long_task: %v, %d progress", c.Err, c.Progress)
	}
	evs, msgs := s.Events(), s.Tap().Messages()
	r.readTo(ctx, evs[len(evs)-1].Seq, msgs[len(msgs)-1].Seq)
	if r.missed != 0 || r.msgs < len(msgs) || r.events < len(evs) {
		t.Errorf("%d of %d messages, %d of %d events, %d missed", r.msgs, len(msgs), r.events, len(evs), r.missed)
	}
}

// TestFeedReportsMissed: a reader that does not read while far more than
// the backlog is published loses items, never blocks the publisher, and is
// told exactly how many it lost.
func TestFeedReportsMissed(t *testing.T) {
	s := feedOffline(t)
	ctx := ctxT(t, 20*time.Second)
	r := &feedReader{t: t, ch: s.Feed(ctx)}
	const flood = 3000
	for i := range flood {
		feedEvent(s, i) // never blocks, however far behind the reader is
	}
	// Read what was kept; after every read publish a marker, which gets
	// through once the backlog has room. The first marker read ends it.
	for {
		it := r.next(ctx)
		if it.Event.Text == "marker" {
			break
		}
		s.events.publish(Event{Kind: EventNotice, Text: "marker"})
	}
	if r.missed == 0 || uint64(r.events)+r.missed != r.lastEv {
		t.Errorf("%d events read, %d missed, last %d", r.events, r.missed, r.lastEv)
	}
	if r.events > subscriberBacklog+feedBacklog+2 {
		t.Errorf("%d events kept, more than the bound", r.events)
	}
}

func TestFeedEndsWithContext(t *testing.T) {
	s := feedOffline(t)
	feedEvent(s, 0)
	ctx, cancel := context.WithCancel(context.Background())
	ch := s.Feed(ctx)
	if it := <-ch; it.Event == nil || it.Event.Seq != 1 {
		t.Fatalf("first item %+v", it)
	}
	cancel()
	guard := ctxT(t, 10*time.Second)
	for {
		select {
		case _, ok := <-ch:
			if !ok {
				// Publishing after the end reaches no one and blocks nothing.
				feedEvent(s, 1)
				feedMessage(s, 1)
				return
			}
		case <-guard.Done():
			t.Fatal("feed still open after its context ended")
		}
	}
}
