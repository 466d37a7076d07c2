package session

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/safe"
)

// Direction of a JSON-RPC message as seen from mcpterm.
type Direction string

const (
	Sent     Direction = "send" // client -> server
	Received Direction = "recv" // server -> client
)

// MessageKind is the JSON-RPC shape of a message.
type MessageKind string

const (
	KindRequest      MessageKind = "request"
	KindResponse     MessageKind = "response"
	KindError        MessageKind = "error"        // a response carrying a JSON-RPC error
	KindNotification MessageKind = "notification" //
	KindFailed       MessageKind = "failed"       // no response: timeout, cancellation, transport closed
)

// Message is one entry of the protocol tap. Payload is the message's JSON,
// clipped to a bounded preview (Truncated says so); Size is always the full
// size in bytes.
type Message struct {
	Seq     uint64
	Time    time.Time
	Dir     Direction
	Kind    MessageKind
	ID      string // JSON-RPC id of a request or its response, as JSON text
	Method  string // for responses, the method of the paired request
	Size    int
	Latency time.Duration // responses: time since the paired request
	// Pair is the Seq of the matching request (on a response) or response
	// (on a request, once it has arrived); 0 when there is none (yet).
	Pair      uint64
	Payload   string
	Truncated bool
	Err       string // KindFailed: why no response arrived
}

// Bounds of the tap, so a chatty or hostile server cannot grow it without
// limit: the newest maxTapMessages messages are kept, and their previews add
// up to at most maxTapBytes.
const (
	maxTapMessages = 1000
	maxTapPreview  = 32 << 10
	maxTapBytes    = 8 << 20
	maxTraceBytes  = 4 << 20 // per message in a --trace file
)

// TapMessages and TapBytes are the tap's bounds for a face that keeps the
// messages it is fed (the workbench's protocol tab): the same bounds, so
// the face never holds what the tap itself would have let go.
const (
	TapMessages = maxTapMessages
	TapBytes    = maxTapBytes
)

// Tap records every JSON-RPC message that crosses a session's transport. It
// outlives reconnects, so the protocol view shows the whole story.
type Tap struct {
	mu      sync.Mutex
	ring    []*Message
	bytes   int
	seq     uint64
	pending map[string]*Message // outstanding requests by direction+id
	trace   io.Writer
	traceMu sync.Mutex
	subs    map[chan Message]struct{}
	// redactor, when set, learns the secret-named arguments of each
	// tools/call sent and hides secrets in previews before they are cut.
	redactor *safe.Redactor
}

func newTap(trace io.Writer) *Tap {
	return &Tap{pending: map[string]*Message{}, trace: trace, subs: map[chan Message]struct{}{}}
}

// withRedactor sets the session's redactor (nil: none) and returns t.
func (t *Tap) withRedactor(r *safe.Redactor) *Tap {
	t.redactor = r
	return t
}

// learn adds the values of the secret-named arguments of a tools/call or
// prompts/get sent to the redactor, before the message is previewed or
// traced, so the password a call carries is hidden in its own trace line
// and everything after.
func (t *Tap) learn(dir Direction, kind MessageKind, method string, body []byte) {
	if t.redactor == nil || dir != Sent || kind != KindRequest || (method != "tools/call" && method != "prompts/get") {
		return
	}
	v, err := ojson.Parse(body)
	if err != nil {
		return
	}
	t.redactor.AddArgsValue(v.Get("params").Get("arguments"))
}

// record adds a message and returns its Seq. body is the full JSON text; it
// is only copied up to the preview bound. pairKey links requests and
// responses ("" for notifications).
func (t *Tap) record(dir Direction, kind MessageKind, id, method string, body []byte, errText string) uint64 {
	now := time.Now()
	t.learn(dir, kind, method, body)
	m := &Message{Time: now, Dir: dir, Kind: kind, ID: id, Method: method, Size: len(body), Err: errText}
	if t.redactor != nil {
		// Redacted before the cut, so a secret across the preview's end
		// leaves no clear start (the protocol view shows Payload).
		var n int
		m.Payload, n = t.redactor.CutBytes(body, maxTapPreview)
		m.Truncated = n > 0
	} else {
		preview := body
		if len(preview) > maxTapPreview {
			preview = preview[:maxTapPreview]
			m.Truncated = true
		}
		m.Payload = string(preview)
	}

	t.mu.Lock()
	t.seq++
	m.Seq = t.seq
	switch kind {
	case KindRequest:
		if id != "" {
			t.pending[string(dir)+id] = m
		}
	case KindResponse, KindError, KindFailed:
		// A response travels the other way from its request.
		reqDir := Sent
		if dir == Sent {
			reqDir = Received
		}
		if kind == KindFailed {
			reqDir = dir
		}
		if req, ok := t.pending[string(reqDir)+id]; ok {
			delete(t.pending, string(reqDir)+id)
			req.Pair = m.Seq
			m.Pair = req.Seq
			m.Latency = now.Sub(req.Time)
			if m.Method == "" {
				m.Method = req.Method
			}
		}
	}
	t.ring = append(t.ring, m)
	t.bytes += len(m.Payload)
	for len(t.ring) > maxTapMessages || t.bytes > maxTapBytes {
		old := t.ring[0]
		t.ring[0] = nil
		t.ring = t.ring[1:]
		t.bytes -= len(old.Payload)
		if old.Kind == KindRequest && old.Pair == 0 {
			delete(t.pending, string(old.Dir)+old.ID)
		}
	}
	snap := *m
	for ch := range t.subs {
		select {
		case ch <- snap:
		default:
		}
	}
	t.mu.Unlock()

	if t.trace != nil {
		t.writeTrace(&snap, body)
	}
	return snap.Seq
}

// Messages returns the retained messages, oldest first.
func (t *Tap) Messages() []Message {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]Message, len(t.ring))
	for i, m := range t.ring {
		out[i] = *m
	}
	return out
}

// Subscribe delivers messages recorded from now on until stop is called.
// Delivery never blocks the session: a slow reader misses messages and can
// catch up with Messages.
func (t *Tap) Subscribe() (ch <-chan Message, stop func()) {
	c := make(chan Message, subscriberBacklog)
	t.mu.Lock()
	t.subs[c] = struct{}{}
	t.mu.Unlock()
	var once sync.Once
	return c, func() {
		once.Do(func() {
			t.mu.Lock()
			delete(t.subs, c)
			close(c)
			t.mu.Unlock()
		})
	}
}

// traceLine is the --trace file's JSON-lines record.
type traceLine struct {
	Seq       uint64          `json:"seq"`
	Time      string          `json:"time"`
	Dir       Direction       `json:"dir"`
	Kind      MessageKind     `json:"kind"`
	ID        json.RawMessage `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Size      int             `json:"size"`
	LatencyMS *float64        `json:"latency_ms,omitempty"`
	Pair      uint64          `json:"pair,omitempty"`
	Error     string          `json:"error,omitempty"`
	Message   json.RawMessage `json:"message,omitempty"`
	// Clipped holds the start of a message larger than the trace bound, as
	// text, when Message would be too big to keep.
	Clipped string `json:"clipped,omitempty"`
}

func (t *Tap) writeTrace(m *Message, body []byte) {
	line := traceLine{
		Seq: m.Seq, Time: m.Time.UTC().Format(time.RFC3339Nano), Dir: m.Dir, Kind: m.Kind,
		Method: m.Method, Size: m.Size, Pair: m.Pair, Error: m.Err,
	}
	if m.ID != "" && json.Valid([]byte(m.ID)) {
		line.ID = json.RawMessage(m.ID)
	}
	if m.Kind == KindResponse || m.Kind == KindError || m.Kind == KindFailed {
		ms := float64(m.Latency.Microseconds()) / 1000
		line.LatencyMS = &ms
	}
	if len(body) > 0 {
		if len(body) <= maxTraceBytes && json.Valid(body) {
			line.Message = body
		} else {
			// Redacted before the cut: the trace writer's own redaction
			// would see only the clear start of a secret across the cut.
			line.Clipped, _ = t.redactor.CutBytes(body, maxTraceBytes)
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&line); err != nil {
		return
	}
	t.traceMu.Lock()
	_, _ = t.trace.Write(buf.Bytes())
	t.traceMu.Unlock()
}
