package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
)

// progressMsg is a progress notification as mcp-go writes it.
func progressMsg(token any, progress float64) string {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/progress",
		"params": map[string]any{"progressToken": token, "progress": progress, "total": 3}})
	if err != nil {
		panic(err)
	}
	return string(b)
}

// awaiting runs Await in the bubble; the channel is closed when it returns.
func awaiting(ctx context.Context, l *Ledger, marks ...Mark) (<-chan struct{}, *error) {
	done := make(chan struct{})
	var err error
	go func() { err = l.Await(ctx, marks...); close(done) }()
	return done, &err
}

// returned reports whether done is closed once the bubble has settled.
func returned(done <-chan struct{}) bool {
	synctest.Wait()
	select {
	case <-done:
		return true
	default:
		return false
	}
}

func TestAwaitWaitsForItsOwnProgress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := NewLedger()
		var out bytes.Buffer
		w := l.Writer(&out)
		a1, a2 := l.Note("a", 1), l.Note("a", 2)
		b1 := l.Note(7.0, 1)
		doneA, errA := awaiting(context.Background(), l, a1, a2)
		doneB, _ := awaiting(context.Background(), l, b1)
		if returned(doneA) || returned(doneB) {
			t.Fatal("returned before anything was written")
		}
		// Another call's progress, a log line and an answer release nobody.
		fmt.Fprintf(w, "%s\n", progressMsg("other", 1))
		fmt.Fprintln(w, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"notifications/progress"}}`)
		fmt.Fprintln(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
		fmt.Fprintf(w, "%s\n", progressMsg("a", 1))
		if returned(doneA) || returned(doneB) {
			t.Fatal("returned with progress still owed")
		}
		// A number token on the wire is the float64 the request decoded to.
		fmt.Fprintf(w, "%s\n", progressMsg(7, 1))
		if !returned(doneB) || returned(doneA) {
			t.Fatal("the write of b's progress released the wrong call")
		}
		fmt.Fprintf(w, "%s\n", progressMsg("a", 2))
		if !returned(doneA) || *errA != nil {
			t.Fatalf("a not released after all its progress was written (%v)", *errA)
		}
		if strings.Count(out.String(), "\n") != 6 {
			t.Errorf("the stream got %q", out.String())
		}
	})
}

func TestAwaitEnds(t *testing.T) {
	bubble := func(name string, f func(t *testing.T)) {
		t.Run(name, func(t *testing.T) { synctest.Test(t, f) })
	}
	bubble("context", func(t *testing.T) {
		l := NewLedger()
		ctx, cancel := context.WithCancel(context.Background())
		done, err := awaiting(ctx, l, l.Note("t", 1))
		if returned(done) {
			t.Fatal("returned early")
		}
		cancel()
		if !returned(done) || !errors.Is(*err, context.Canceled) {
			t.Fatalf("Await after cancel: %v", *err)
		}
	})
	bubble("unnoted", func(t *testing.T) {
		l := NewLedger()
		m := l.Note("t", 1)
		l.Unnote(m)
		if err := l.Await(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	})
	bubble("failed write", func(t *testing.T) {
		l := NewLedger()
		m := l.Note("t", 1)
		w := l.Writer(brokenWriter{})
		if _, err := fmt.Fprintf(w, "%s\n", progressMsg("t", 1)); err == nil {
			t.Fatal("no error from a broken writer")
		}
		if err := l.Await(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	})
	bubble("stream ended", func(t *testing.T) {
		// A stream that ends may have dropped the notification: the wait
		// ends too. One that ended before it was noted does not count.
		l := NewLedger()
		l.EndStream()
		done, err := awaiting(context.Background(), l, l.Note("t", 1))
		if returned(done) {
			t.Fatal("an earlier stream end released the wait")
		}
		l.EndStream()
		if !returned(done) || *err != nil {
			t.Fatalf("Await after the stream ended: %v", *err)
		}
	})
	bubble("nil ledger", func(t *testing.T) {
		var l *Ledger
		m := l.Note("t", 1)
		l.Unnote(m)
		l.EndStream()
		if err := l.Await(context.Background(), m); err != nil || From(context.Background()) != nil {
			t.Fatal("a nil ledger waited")
		}
	})
}

// Over HTTP, progress counts once it is flushed to the client, not when it
// is written into net/http's buffer.
func TestResponseWriterChecksOffOnFlush(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := NewLedger()
		rec := httptest.NewRecorder()
		rw := &responseWriter{ResponseWriter: rec, l: l}
		var _ http.Flusher = rw
		done, _ := awaiting(context.Background(), l, l.Note("h", 1))
		fmt.Fprintf(rw, "event: message\ndata: %s\n\n", progressMsg("h", 1))
		if returned(done) {
			t.Fatal("released before the flush")
		}
		rw.Flush()
		if !returned(done) || !rec.Flushed {
			t.Fatal("not released by the flush")
		}
		if http.NewResponseController(rw).Flush() != nil {
			t.Error("the response controller cannot reach the connection")
		}
	})
}

// The requests of one session share a ledger while any is in flight; the
// ledger goes with the last of them.
func TestSessionsShareALedger(t *testing.T) {
	h := &HTTPHandler{sessions: map[string]*shared{}}
	a, releaseA := h.acquire("s1")
	b, releaseB := h.acquire("s1")
	c, releaseC := h.acquire("")
	d, releaseD := h.acquire("")
	if a != b || c == d || a == c {
		t.Fatal("ledgers not shared by session")
	}
	releaseA()
	if len(h.sessions) != 1 {
		t.Fatal("the ledger went while a request was in flight")
	}
	releaseB()
	releaseC()
	releaseD()
	if len(h.sessions) != 0 {
		t.Fatalf("%d ledgers left behind", len(h.sessions))
	}
}

func TestProgressIn(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []key
	}{
		{progressMsg("x", 2) + "\n", []key{{`"x"`, 2}}},
		{"event: message\ndata: " + progressMsg(3, 1) + "\n\n", []key{{`3`, 1}}},
		{"data:" + progressMsg(3.5, 1) + "\n", []key{{`3.5`, 1}}},
		{progressMsg("a", 1) + "\n" + progressMsg("b", 1) + "\n", []key{{`"a"`, 1}, {`"b"`, 1}}},
		{`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"notifications/progress"}}` + "\n", nil},
		{`{"jsonrpc":"2.0","id":1,"result":{"text":"\"method\":\"notifications/progress\""}}` + "\n", nil},
		{`{"method":"notifications/progress"` + "\n", nil},
		{"", nil},
	} {
		if got := progressIn([]byte(tc.in)); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("progressIn(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// FuzzProgressIn: any bytes are read without panicking, and a progress
// notification built from the fuzzed token and value is always found, on
// stdio and as a server-sent event, with the key Note gives it.
func FuzzProgressIn(f *testing.F) {
	f.Add([]byte(progressMsg("tok", 1)), "tok", 1.0)
	f.Add([]byte("event: message\ndata: "+progressMsg(9, 2)+"\n\n"), "9", 2.5)
	f.Add([]byte(`{"method":"notifications/progress","params":{"progressToken":{"a":[1]}}}`), "\u2028<&>", -1.0)
	f.Fuzz(func(t *testing.T, data []byte, token string, progress float64) {
		for _, k := range progressIn(data) {
			if k.token == "" && k.progress != 0 {
				t.Errorf("key %v without a token", k)
			}
		}
		b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/progress",
			"params": map[string]any{"progressToken": token, "progress": progress}})
		if err != nil {
			return // NaN and infinities are not JSON; mcp-go could not send them either
		}
		want := NewLedger().Note(token, progress).key
		for _, chunk := range []string{string(b) + "\n", "event: message\ndata: " + string(b) + "\n\n"} {
			if got := progressIn([]byte(chunk)); len(got) != 1 || got[0] != want {
				t.Errorf("progressIn(%q) = %v, want [%v]", chunk, got, want)
			}
		}
	})
}

type brokenWriter struct{}

func (brokenWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }
