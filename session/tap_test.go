package session

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpterm/mcpterm/session/internal/testserver"
)

// lockedBuffer is a trace sink safe for the session's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestTapAndTrace(t *testing.T) {
	trace := &lockedBuffer{}
	s := open(t, inProcess(&testserver.Recorder{}), Options{Trace: trace, ProtocolVersion: "2025-11-25"})
	ctx := ctxT(t, 5*time.Second)
	msgs, stop := s.Tap().Subscribe()
	if _, err := s.Tools(ctx); err != nil {
		t.Fatal(err)
	}
	s.Call(ctx, CallRequest{Tool: "add", Arguments: obj(t, `{"a":1,"b":2}`)})
	s.Call(ctx, CallRequest{Tool: "nope"})
	stop()
	var live []Message
	for m := range msgs {
		live = append(live, m)
	}
	if len(live) < 6 {
		t.Errorf("subscriber got %d messages", len(live))
	}

	all := s.Tap().Messages()
	bySeq := map[uint64]Message{}
	for _, m := range all {
		bySeq[m.Seq] = m
	}
	methods := map[string]int{}
	for _, m := range all {
		methods[string(m.Dir)+" "+string(m.Kind)+" "+m.Method]++
		if m.Size <= 0 || !json.Valid([]byte(m.Payload)) {
			t.Errorf("message %d: size %d payload %q", m.Seq, m.Size, m.Payload)
		}
		if m.Kind == KindResponse || m.Kind == KindError {
			req, ok := bySeq[m.Pair]
			if !ok || req.Kind != KindRequest || req.ID != m.ID || req.Pair != m.Seq || req.Method != m.Method {
				t.Errorf("response %d (%s id %s) pairs with %+v", m.Seq, m.Method, m.ID, req)
			}
			if m.Latency <= 0 {
				t.Errorf("response %d has no latency", m.Seq)
			}
		}
	}
	for _, want := range []string{
		"send request initialize", "recv response initialize", "send notification notifications/initialized",
		"send request tools/list", "recv response tools/list", "send request tools/call", "recv response tools/call",
		"recv error tools/call",
	} {
		if methods[want] == 0 {
			t.Errorf("no %q in the tap: %v", want, methods)
		}
	}

	// The trace file has one JSON object per message, with the message
	// itself embedded.
	lines := strings.Split(strings.TrimSpace(trace.String()), "\n")
	if len(lines) != len(all) {
		t.Errorf("%d trace lines for %d messages", len(lines), len(all))
	}
	var sawCall bool
	for _, l := range lines {
		var tl struct {
			Seq       uint64          `json:"seq"`
			Dir       string          `json:"dir"`
			Kind      string          `json:"kind"`
			Method    string          `json:"method"`
			Size      int             `json:"size"`
			LatencyMS *float64        `json:"latency_ms"`
			Message   json.RawMessage `json:"message"`
		}
		if err := json.Unmarshal([]byte(l), &tl); err != nil {
			t.Fatalf("trace line %q: %v", l, err)
		}
		if tl.Kind == "response" && tl.Method == "tools/call" {
			sawCall = true
			if tl.LatencyMS == nil || !strings.Contains(string(tl.Message), `"sum":3`) || tl.Size != len(tl.Message) {
				t.Errorf("trace of call response: %s", l)
			}
		}
	}
	if !sawCall {
		t.Error("no tools/call response in the trace")
	}
}

func TestTapBounds(t *testing.T) {
	tap := newTap(nil)
	for i := 0; i < 3*maxTapMessages; i++ {
		tap.record(Received, KindNotification, "", "notifications/message", []byte(`{"i":1}`), "")
	}
	if n := len(tap.Messages()); n != maxTapMessages {
		t.Errorf("%d messages kept", n)
	}
	big := bytes.Repeat([]byte("x"), 100<<10)
	for i := 0; i < 200; i++ {
		tap.record(Received, KindNotification, "", "big", big, "")
	}
	total := 0
	for _, m := range tap.Messages() {
		total += len(m.Payload)
		if m.Method == "big" && (!m.Truncated || m.Size != len(big)) {
			t.Fatalf("big message: truncated %v size %d", m.Truncated, m.Size)
		}
	}
	if total > maxTapBytes {
		t.Errorf("previews hold %d bytes", total)
	}
	// A request evicted before its response does not break pairing.
	tap.record(Sent, KindRequest, "1", "tools/call", []byte(`{}`), "")
	for i := 0; i < maxTapMessages; i++ {
		tap.record(Received, KindNotification, "", "n", []byte(`{}`), "")
	}
	tap.record(Received, KindResponse, "1", "", []byte(`{}`), "")
	last := tap.Messages()[maxTapMessages-1]
	if last.Pair != 0 || last.Kind != KindResponse {
		t.Errorf("orphan response: %+v", last)
	}
}

func TestEventLogBounds(t *testing.T) {
	l := newEventLog()
	ctx, cancel := context.WithCancel(context.Background())
	sub := l.subscribe(ctx) // never read until the end
	for i := 0; i < 3*maxEvents; i++ {
		l.publish(Event{Kind: EventLog, Text: strings.Repeat("é", maxEventText)})
	}
	ev := l.snapshot()
	if len(ev) != maxEvents || ev[0].Seq != uint64(2*maxEvents+1) || ev[len(ev)-1].Seq != uint64(3*maxEvents) {
		t.Fatalf("kept %d events, seq %d..%d", len(ev), ev[0].Seq, ev[len(ev)-1].Seq)
	}
	if !utf8.ValidString(ev[0].Text) || len(ev[0].Text) > maxEventText+len("…") {
		t.Errorf("text not clipped cleanly: %d bytes", len(ev[0].Text))
	}
	cancel()
	n := 0
	for range sub {
		n++
	}
	if n != subscriberBacklog {
		t.Errorf("slow subscriber got %d events, want the first %d", n, subscriberBacklog)
	}
}

func TestReadBoundedLine(t *testing.T) {
	in := "short\n" + strings.Repeat("a", 100) + "\nlast-no-newline"
	r := bufio.NewReaderSize(strings.NewReader(in), 16)
	var buf []byte
	line, big, err := readBoundedLine(r, 50, &buf)
	if string(line) != "short" || big || err != nil {
		t.Fatalf("1: %q %v %v", line, big, err)
	}
	line, big, err = readBoundedLine(r, 50, &buf)
	if !big || err != nil || len(line) > 4096 || !strings.HasPrefix(string(line), "aaa") {
		t.Fatalf("2: %q %v %v", line, big, err)
	}
	line, big, err = readBoundedLine(r, 50, &buf)
	if string(line) != "last-no-newline" || big || err == nil {
		t.Fatalf("3: %q %v %v", line, big, err)
	}
}

// FuzzReadBoundedLine checks that bounded reading never loses sync: every
// line under the limit comes back exactly, every longer one is flagged.
func FuzzReadBoundedLine(f *testing.F) {
	f.Add([]byte("a\nbb\n\nccc"), 2)
	f.Add([]byte(strings.Repeat("x", 300)+"\ny\n"), 64)
	f.Add([]byte("\r\n\r\n"), 1)
	f.Fuzz(func(t *testing.T, data []byte, limit int) {
		if limit < 1 || limit > 1<<16 {
			return
		}
		r := bufio.NewReaderSize(bytes.NewReader(data), 16)
		var buf []byte
		want := strings.Split(string(data), "\n")
		if len(want) > 0 && want[len(want)-1] == "" {
			want = want[:len(want)-1]
		}
		for i := 0; ; i++ {
			line, big, err := readBoundedLine(r, limit, &buf)
			if err != nil && len(line) == 0 && !big {
				// At EOF an empty last line ("" or "\r") reads as no line.
				if i != len(want) && (i != len(want)-1 || strings.TrimRight(want[i], "\r") != "") {
					t.Fatalf("got %d lines, want %d", i, len(want))
				}
				return
			}
			if i >= len(want) {
				t.Fatalf("extra line %q", line)
			}
			w := want[i]
			full := len(w) + 1 // with its newline
			if i == len(want)-1 && !bytes.HasSuffix(data, []byte("\n")) {
				full--
			}
			if full > limit {
				if !big {
					t.Fatalf("line %d (%d bytes) over limit %d not flagged", i, len(w), limit)
				}
			} else if big || string(line) != strings.TrimRight(w, "\r") {
				t.Fatalf("line %d = %q (big %v), want %q", i, line, big, w)
			}
			if err != nil {
				if i != len(want)-1 {
					t.Fatalf("stopped at line %d of %d", i, len(want))
				}
				return
			}
		}
	})
}

// FuzzStdioMessage feeds arbitrary lines to the stdio reader's dispatch: it
// must classify or report them, never panic, and keep events bounded.
func FuzzStdioMessage(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`), false)
	f.Add([]byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`), false)
	f.Add([]byte(`{"jsonrpc":"2.0","id":"a","method":"ping"}`), false)
	f.Add([]byte(`{"id":7,"result":`), true)
	f.Add([]byte("\x1b[2J garbage"), false)
	f.Add([]byte(`{"id":{"x":1}}`), false)
	f.Fuzz(func(t *testing.T, line []byte, tooBig bool) {
		ev := newEventLog()
		st := newStdioTransport("x", nil, nil, "", 1024, ev)
		st.SetNotificationHandler(func(n mcp.JSONRPCNotification) {})
		ch := make(chan *transport.JSONRPCResponse, 1)
		st.pending["int64:7"] = ch
		st.handleLine(line, tooBig)
		if len(ev.snapshot()) > 2 {
			t.Fatalf("one line made %d events", len(ev.snapshot()))
		}
		if id, ok := scanID(line); ok && id.IsNil() {
			t.Fatalf("scanID returned a nil id as found")
		}
	})
}
