package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"
)

// boundedTransport holds the HTTP transports' answers to the same bounds as
// the stdio transport's. mcp-go reads a JSON answer whole, however large,
// and drops an SSE event it cannot decode (an answer nested past
// encoding/json's 10,000 levels, a broken one) with a log line, so the
// request waits for its timeout. Here every answer is checked on its way in:
// one over MaxMessageBytes, too deep, or not JSON, whose id can be read, is
// replaced by a JSON-RPC error answer to that id (code codeUnreadableAnswer,
// which classify turns into a *ProtocolError naming what was wrong), so the
// request fails at once; memory stays bounded by the limit.
type boundedTransport struct {
	base   http.RoundTripper
	maxMsg int
	events *eventLog
	// onRequest, when set, is offered each SSE event's data first; true
	// means it was a request from the server, taken (protocol_sse.go).
	onRequest func(data []byte) bool
	// streamable is set for streamable HTTP, whose standalone GET stream
	// refusal reads.
	streamable bool
}

func (t *boundedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	discover := t.streamable && isDiscoverPost(r)
	resp, err := t.base.RoundTrip(r)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return refusal(r, resp, t.streamable), nil
	}
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch media {
	case "application/json":
		body, err := io.ReadAll(io.LimitReader(resp.Body, int64(t.maxMsg)+1))
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		if fixed, ok := t.check(body, len(body) > t.maxMsg); ok {
			body = fixed
		} else if discover {
			body = t.notDiscover(body)
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Del("Content-Length")
	case "text/event-stream":
		resp.Body = &sseBound{t: t, src: bufio.NewReaderSize(resp.Body, 64<<10), body: resp.Body}
	}
	return resp, nil
}

// check returns the error answer that replaces msg when msg cannot be
// passed on (tooBig, too deep, not JSON) and names a request; ok false
// leaves msg as it is.
func (t *boundedTransport) check(msg []byte, tooBig bool) (fixed []byte, ok bool) {
	var why string
	switch {
	case tooBig:
		why = fmt.Sprintf("a message larger than %d bytes (the limit)", t.maxMsg)
	case json.Valid(msg):
		return nil, false
	}
	depth, id, found := scanLine(msg)
	if !found {
		return nil, false
	}
	if why == "" {
		why = "a message that is not valid JSON-RPC"
		if depth > maxJSONDepth {
			why = fmt.Sprintf("a message nested %s levels deep; the limit is %s", groupDigits(depth), groupDigits(maxJSONDepth))
		}
	}
	if t.events != nil {
		t.events.publish(Event{Kind: EventNotice, Level: "error", Text: "server answered request " + idText(id) + " with " + why + "; it was dropped"})
	}
	b, err := json.Marshal(map[string]any{"jsonrpc": mcp.JSONRPC_VERSION, "id": id,
		"error": map[string]any{"code": codeUnreadableAnswer, "message": "mcpterm: the server answered with " + why}})
	return b, err == nil
}

// sseBound passes an SSE stream through event by event, holding at most
// MaxMessageBytes of one event's data, and replaces an event whose data
// check refuses.
type sseBound struct {
	t    *boundedTransport
	src  *bufio.Reader
	body io.Closer

	buf    []byte       // readBoundedLine's buffer
	fields bytes.Buffer // the current event's lines other than data
	data   []byte       // the current event's data, joined by "\n"
	seen   bool         // the current event has a data line
	tooBig bool
	out    bytes.Buffer // ready to be read
	err    error
}

func (s *sseBound) Read(p []byte) (int, error) {
	for s.out.Len() == 0 && s.err == nil {
		line, tooBig, err := readBoundedLine(s.src, s.t.maxMsg, &s.buf)
		switch {
		case len(line) == 0 && err == nil:
			s.flush()
		case bytes.HasPrefix(line, []byte("data:")):
			d := bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))
			if s.seen {
				s.data = append(s.data, '\n')
			}
			s.seen = true
			switch {
			case !s.tooBig && !tooBig && len(s.data)+len(d) <= s.t.maxMsg:
				s.data = append(s.data, d...)
			default:
				// Keep only the start, where the id usually is.
				s.tooBig = true
				if len(s.data) < 4096 {
					s.data = append(s.data, d[:min(len(d), 4096-len(s.data))]...)
				}
			}
		case len(line) > 0:
			s.fields.Write(line)
			s.fields.WriteByte('\n')
		}
		if err != nil {
			s.flush()
			s.err = err
		}
	}
	if s.out.Len() > 0 {
		return s.out.Read(p)
	}
	return 0, s.err
}

// flush writes out the event read so far, checked.
func (s *sseBound) flush() {
	if s.fields.Len() == 0 && !s.seen {
		return
	}
	s.out.Write(s.fields.Bytes())
	if s.seen {
		data := s.data
		if fixed, ok := s.t.check(data, s.tooBig); ok {
			data = fixed
		} else if s.t.onRequest != nil && !s.tooBig && s.t.onRequest(data) {
			s.fields.Reset()
			s.data, s.seen, s.tooBig = s.data[:0], false, false
			return
		}
		for _, l := range bytes.Split(data, []byte("\n")) {
			s.out.WriteString("data: ")
			s.out.Write(l)
			s.out.WriteByte('\n')
		}
	}
	s.out.WriteByte('\n')
	s.fields.Reset()
	s.data, s.seen, s.tooBig = s.data[:0], false, false
}

func (s *sseBound) Close() error { return s.body.Close() }

// isDiscoverPost reports a POST carrying server/discover (the probe of the
// 2026-07-28 protocol). mcp-go's requests carry a replayable body.
func isDiscoverPost(r *http.Request) bool {
	if r.Method != http.MethodPost || r.GetBody == nil {
		return false
	}
	body, err := r.GetBody()
	if err != nil {
		return false
	}
	defer body.Close()
	var m struct {
		Method string `json:"method"`
	}
	return json.NewDecoder(io.LimitReader(body, 1<<20)).Decode(&m) == nil && m.Method == string(mcp.MethodServerDiscover)
}

// notDiscover turns a successful answer to server/discover that is not a
// discover result (an older server's {} for a method it does not know)
// into a JSON-RPC error, here below mcp-go's streamable HTTP transport: a
// success there marks the connection ready while the probe's 2026-07-28
// version is still set, and its GET-stream goroutine, seeing a modern
// connection, never opens the stream — so a server's requests sent on it
// would go unanswered (it raced: about one connection in four). The
// discoverGuard above does the same for the other transports.
func (t *boundedTransport) notDiscover(body []byte) []byte {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(body, &m) != nil || m.Result == nil {
		return body
	}
	why := notDiscoverResult(m.Result)
	if why == "" {
		return body
	}
	if t.events != nil {
		t.events.publish(Event{Kind: EventNotice, Level: "info",
			Text: "server/discover: the answer is not a discover result (" + why + "); using initialize"})
	}
	b, err := json.Marshal(map[string]any{"jsonrpc": mcp.JSONRPC_VERSION, "id": m.ID,
		"error": map[string]any{"code": mcp.METHOD_NOT_FOUND, "message": "mcpterm: the answer to server/discover is not a discover result (" + why + ")"}})
	if err != nil {
		return body
	}
	return b
}
