package session

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// KnownProtocolVersions are the protocol revisions mcpterm can pin with
// --protocol, newest first: the ones mcp-go speaks.
func KnownProtocolVersions() []string { return slices.Clone(mcp.ValidProtocolVersions) }

// checkProtocol refuses a --protocol value mcp-go does not know, naming the
// ones it does: mcp-go would otherwise send it as is and the server's
// refusal would read like a connection problem.
func checkProtocol(v string) error {
	if v == "" || mcp.IsValidProtocolVersion(v) {
		return nil
	}
	return &UsageError{Msg: fmt.Sprintf("--protocol %q: not a protocol version mcpterm knows (%s)",
		v, strings.Join(mcp.ValidProtocolVersions, ", "))}
}

// discoverGuard sits between mcp-go's client and the tapped transport and
// holds a server/discover answer to the shape of a discover result. mcp-go
// takes any successful answer as proof of a 2026-07-28 server, but servers
// of earlier revisions often answer a method they do not know with an empty
// result ({}), and then initialize is never sent and every later request
// goes out in the stateless form they do not understand. A result that is
// not a discover result becomes an error here, so mcp-go falls back to the
// initialize handshake; the tap below still records what the server said.
//
// It also lets a streamable HTTP transport that holds the standalone GET
// stream open try the stateless core first (see streamableListening).
type discoverGuard struct {
	transport.Interface
	events    *eventLog
	listening bool
}

// Mirrors of the optional interfaces mcp-go's client type-asserts on (as in
// wrap.go), so that guarding never changes how the client treats the
// transport.
type guardBidir struct{ *discoverGuard }
type guardHTTP struct{ *discoverGuard }
type guardBidirHTTP struct{ *discoverGuard }

func (g guardBidir) SetRequestHandler(h transport.RequestHandler) {
	g.Interface.(transport.BidirectionalInterface).SetRequestHandler(h)
}
func (g guardBidirHTTP) SetRequestHandler(h transport.RequestHandler) {
	g.Interface.(transport.BidirectionalInterface).SetRequestHandler(h)
}
func (g guardHTTP) SetProtocolVersion(v string) {
	g.Interface.(transport.HTTPConnection).SetProtocolVersion(v)
}
func (g guardBidirHTTP) SetProtocolVersion(v string) {
	g.Interface.(transport.HTTPConnection).SetProtocolVersion(v)
}

func guardDiscover(inner transport.Interface, events *eventLog, listening bool) transport.Interface {
	g := &discoverGuard{Interface: inner, events: events, listening: listening}
	_, bidir := inner.(transport.BidirectionalInterface)
	_, isHTTP := inner.(transport.HTTPConnection)
	switch {
	case bidir && isHTTP:
		return guardBidirHTTP{g}
	case bidir:
		return guardBidir{g}
	case isHTTP:
		return guardHTTP{g}
	}
	return g
}

// RequiresLegacyProtocol forwards mcp-go's optional transport hint, except
// for the GET stream mcpterm turned on itself: mcp-go's transport opens it
// only once a legacy revision is negotiated, so it need not rule out the
// stateless core.
func (g *discoverGuard) RequiresLegacyProtocol() bool {
	if g.listening {
		return false
	}
	l, ok := g.Interface.(interface{ RequiresLegacyProtocol() bool })
	return ok && l.RequiresLegacyProtocol()
}

func (g *discoverGuard) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	resp, err := g.Interface.SendRequest(ctx, req)
	if err != nil || resp == nil || resp.Error != nil || req.Method != string(mcp.MethodServerDiscover) {
		return resp, err
	}
	if why := notDiscoverResult(resp.Result); why != "" {
		if g.events != nil {
			g.events.publish(Event{Kind: EventNotice, Level: "info",
				Text: "server/discover: the answer is not a discover result (" + why + "); using initialize"})
		}
		return nil, fmt.Errorf("server/discover: the answer is not a discover result (%s)", why)
	}
	return resp, nil
}

// notDiscoverResult says why raw is not a server/discover result, or ""
// when it is one: an object whose supportedVersions lists at least one
// 2026-07-28-or-later revision (the stateless core is what discover
// announces) and whose capabilities is an object.
func notDiscoverResult(raw json.RawMessage) string {
	// A map, not a struct: encoding/json matches struct fields in any case,
	// and "CApABilities" is not the field the protocol names.
	var r map[string]json.RawMessage
	if err := json.Unmarshal(raw, &r); err != nil || r == nil {
		return "not a JSON object"
	}
	versions, ok := r["supportedVersions"]
	if !ok {
		return "no supportedVersions"
	}
	var list []json.RawMessage
	if json.Unmarshal(versions, &list) != nil {
		return "supportedVersions is not a list"
	}
	modern := false
	for _, v := range list {
		var s string
		if json.Unmarshal(v, &s) != nil {
			return "supportedVersions holds a non-string"
		}
		// Revisions are dates; IsModernProtocol compares strings, so "7"
		// would pass it.
		if _, err := time.Parse("2006-01-02", s); err != nil {
			continue
		}
		modern = modern || mcp.IsModernProtocol(s)
	}
	if !modern {
		return "supportedVersions names no 2026-07-28 or later revision"
	}
	if c := strings.TrimSpace(string(r["capabilities"])); !strings.HasPrefix(c, "{") {
		return "no capabilities object"
	}
	return ""
}

// streamableListening turns on the standalone GET stream of a streamable
// HTTP connection. Before 2026-07-28 that stream is where servers send the
// requests not tied to one of the client's (the TypeScript SDK's and
// mcp-go's servers send roots/list, sampling and elicitation there) and
// list_changed notifications; without it they wait for an answer that never
// comes. mcp-go's transport opens it only after a legacy handshake, and on
// 2026-07-28 connections (where the stream is gone) leaves it closed.
func streamableListening() transport.StreamableHTTPCOption {
	//lint:ignore SA1019 the GET stream is how revisions before 2026-07-28 reach the client; the transport skips it on modern connections
	return transport.WithContinuousListening()
}

// noticeLogger routes mcp-go's transport log lines (a GET stream that
// failed and is retried, an SSE event it could not read) to the session's
// events instead of the process's stderr, where they would break into a
// command's output or the workbench's screen. Below Warn they are dropped.
func noticeLogger(events *eventLog) *slog.Logger {
	return slog.New(&noticeHandler{events: events, last: &lastNotice{}})
}

type noticeHandler struct {
	events *eventLog
	attrs  []slog.Attr
	last   *lastNotice // shared by the handler's WithAttrs copies
}

type lastNotice struct {
	sync.Mutex
	text string
}

func (h *noticeHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }

func (h *noticeHandler) Handle(_ context.Context, r slog.Record) error {
	if h.events == nil {
		return nil
	}
	var b strings.Builder
	b.WriteString("transport: ")
	b.WriteString(r.Message)
	write := func(a slog.Attr) bool {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		return b.Len() < 512
	}
	for _, a := range h.attrs {
		if !write(a) {
			break
		}
	}
	r.Attrs(write)
	text := b.String()
	if len(text) > 512 {
		text = strings.ToValidUTF8(text[:512], "") + "…"
	}
	level := "warning"
	switch {
	case r.Message == "server does not support listening":
		level = "info" // a server without the GET stream: nothing is wrong
	case r.Level >= slog.LevelError:
		level = "error"
	}
	// A transport retrying something logs the same line again and again.
	h.last.Lock()
	repeat := h.last.text == text
	h.last.text = text
	h.last.Unlock()
	if !repeat {
		h.events.publish(Event{Kind: EventNotice, Level: level, Text: text})
	}
	return nil
}

func (h *noticeHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &noticeHandler{events: h.events, attrs: append(slices.Clone(h.attrs), attrs...), last: h.last}
}

func (h *noticeHandler) WithGroup(string) slog.Handler { return h }

// ClientCapabilities is what the live connection declared to the server as
// the client's capabilities; the zero value when there is none.
func (s *Session) ClientCapabilities() mcp.ClientCapabilities {
	return s.Info().ClientCapabilities
}

// declared is the client capabilities cl sends: mcp-go's configured set
// plus the roots capability it adds for a registered roots handler (its
// GetClientCapabilities leaves that out).
func (s *Session) declared(cl *client.Client) mcp.ClientCapabilities {
	caps := cl.GetClientCapabilities()
	if s.opts.Roots != nil && caps.Roots == nil {
		caps.Roots = &struct {
			ListChanged bool `json:"listChanged,omitempty"`
		}{ListChanged: true}
	}
	return caps
}

// maxRefusalBody bounds what of an HTTP error answer's body is read: mcp-go
// reads it whole into its error text.
const maxRefusalBody = 64 << 10

// refusal bounds an HTTP error answer's body and, for the standalone GET
// stream (on streamable HTTP, a GET without Last-Event-ID; the old SSE
// transport's GET is its connection), reads a refusal that is not 405 as
// one: a server that answers the GET with 400 or 406 does not offer the
// stream either, but mcp-go retries anything but 405 every second for the
// connection's life, a request and a log line each time.
func refusal(r *http.Request, resp *http.Response, streamable bool) *http.Response {
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.LimitReader(resp.Body, maxRefusalBody), resp.Body}
	standalone := streamable && r.Method == http.MethodGet && r.Header.Get("Last-Event-ID") == ""
	switch resp.StatusCode {
	case http.StatusBadRequest, http.StatusNotAcceptable, http.StatusNotImplemented:
		if standalone {
			resp.StatusCode = http.StatusMethodNotAllowed
			resp.Status = "405 Method Not Allowed"
		}
	}
	return resp
}
