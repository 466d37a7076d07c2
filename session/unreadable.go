package session

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Answers a transport cannot pass on: too big, nested past encoding/json's
// limit, or not JSON. Whatever can be read of them (their id, how deep they
// nest) is read without decoding, so the request they answer fails at once
// with what was wrong instead of waiting for its timeout. The stdio
// transport (stdio.go) and the HTTP ones (httpbound.go) share this.

// maxJSONDepth is encoding/json's nesting limit: a message nested deeper
// cannot be decoded at all.
const maxJSONDepth = 10000

// unreadable handles a line that does not decode as JSON-RPC. When it names
// the request it answers (the id can be read even from a broken or too-deep
// message), that request fails at once with what was wrong, instead of
// waiting for its timeout; otherwise the line is garbage, as before.
func (s *stdioTransport) unreadable(line []byte, err error) {
	depth, id, ok := scanLine(line)
	if !ok {
		s.events.publish(Event{Kind: EventGarbage, Level: "warning", Text: string(line)})
		return
	}
	why := "a message that is not valid JSON-RPC (" + clipText(err.Error(), 200) + ")"
	if depth > maxJSONDepth {
		why = fmt.Sprintf("a message nested %s levels deep; the limit is %s", groupDigits(depth), groupDigits(maxJSONDepth))
	}
	s.refuse(id, true, why)
}

// refuse drops a message the transport cannot pass on, says so, and fails
// the request it answers (when its id could be read) with a *ProtocolError
// naming what was wrong: the answer arrived, so nobody should wait for it.
func (s *stdioTransport) refuse(id mcp.RequestId, ok bool, why string) {
	msg := "server sent " + why + "; it was dropped"
	if ok {
		msg = "server answered request " + idText(id) + " with " + why + "; it was dropped"
	}
	s.events.publish(Event{Kind: EventNotice, Level: "error", Text: msg})
	if ok {
		s.deliver(id, &transport.JSONRPCResponse{
			JSONRPC: mcp.JSONRPC_VERSION, ID: id,
			Error: &mcp.JSONRPCErrorDetails{Code: codeUnreadableAnswer, Message: "mcpterm: the server answered with " + why},
		})
	}
}

// codeUnreadableAnswer marks the error response the transport makes up for
// an answer it had to drop (too big, too deep, not JSON); classify turns it
// into a *ProtocolError rather than a server's own error. It sits in the
// JSON-RPC range reserved for implementations.
const codeUnreadableAnswer = -32099

// groupDigits writes n with thousands separators, as messages do.
func groupDigits(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// scanLine reads what can be read from a message whatever its state: how
// deeply it nests (outside strings), and a top-level "id" member wherever it
// sits, even after a part too deep or too broken to decode. It never
// allocates more than the id's text.
func scanLine(b []byte) (depth int, id mcp.RequestId, ok bool) {
	d := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '{', '[':
			d++
			depth = max(depth, d)
		case '}', ']':
			d--
		case '"':
			end := stringEnd(b, i)
			if end < 0 {
				return depth, id, ok
			}
			if d == 1 && !ok && string(b[i:end]) == `"id"` {
				j := skipBlank(b, end)
				if j < len(b) && b[j] == ':' {
					id, ok = readID(b[skipBlank(b, j+1):])
				}
			}
			i = end - 1
		}
	}
	return depth, id, ok
}

// stringEnd is the index just past the JSON string starting at b[i], or -1.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

func skipBlank(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// readID reads a string or number id at the start of b.
func readID(b []byte) (mcp.RequestId, bool) {
	n := 0
	switch {
	case len(b) > 0 && b[0] == '"':
		if n = stringEnd(b, 0); n < 0 {
			return mcp.RequestId{}, false
		}
	default:
		for n < len(b) && bytes.IndexByte([]byte("+-.0123456789eE"), b[n]) >= 0 {
			n++
		}
	}
	var id mcp.RequestId
	if n == 0 || json.Unmarshal(b[:n], &id) != nil || id.IsNil() {
		return mcp.RequestId{}, false
	}
	return id, true
}
