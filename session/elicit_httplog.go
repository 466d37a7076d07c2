package session

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/client/transport"
)

// transportLog is the slog.Logger of the streamable HTTP transport: mcp-go
// logs what its standalone GET stream does (opened, refused, retrying), and
// its default logger writes to stderr, under the workbench's screen and
// into the command line's output. Here the lines become debug notices on
// the session's event stream (Explore's log), a run of the same line once.
func transportLog(events *eventLog) *slog.Logger {
	return slog.New(&eventHandler{events: events, state: &eventHandlerState{}})
}

type eventHandler struct {
	events *eventLog
	attrs  []slog.Attr
	state  *eventHandlerState
}

type eventHandlerState struct {
	mu   sync.Mutex
	last string
}

func (h *eventHandler) Enabled(context.Context, slog.Level) bool { return h.events != nil }

func (h *eventHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	add := func(a slog.Attr) bool {
		b.WriteString(" " + a.Key + "=" + a.Value.String())
		return true
	}
	for _, a := range h.attrs {
		add(a)
	}
	r.Attrs(add)
	text := b.String()
	h.state.mu.Lock()
	same := text == h.state.last
	h.state.last = text
	h.state.mu.Unlock()
	if same {
		return nil
	}
	level := "debug"
	if r.Level >= slog.LevelWarn {
		level = "warning"
	}
	h.events.publish(Event{Kind: EventNotice, Level: level, Source: "transport", Text: text})
	return nil
}

func (h *eventHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &eventHandler{events: h.events, attrs: append(append([]slog.Attr(nil), h.attrs...), as...), state: h.state}
}

func (h *eventHandler) WithGroup(string) slog.Handler { return h }

// listeningHTTP is a streamable HTTP transport that opens the standalone
// GET stream, which carries what a server asks outside a request's own
// stream (an elicitation or a sampling request from a handler not tied to
// the call, roots/list): without it such a request is never answered. On a
// connection that negotiates 2026-07-28, which removed that stream, the
// transport does not open it; so this type tells mcp-go's client that the
// stateless core is still possible (server/discover first), where the bare
// option would rule it out.
type listeningHTTP struct{ *transport.StreamableHTTP }

// RequiresLegacyProtocol is false: see listeningHTTP.
func (listeningHTTP) RequiresLegacyProtocol() bool { return false }

func newListeningHTTP(u string, hc *http.Client, events *eventLog) (transport.Interface, error) {
	//lint:ignore SA1019 the GET stream is how a server before 2026-07-28 asks outside a call's stream
	t, err := transport.NewStreamableHTTP(u, transport.WithHTTPBasicClient(hc), transport.WithContinuousListening(), transport.WithHTTPLogger(transportLog(events)))
	if err != nil {
		return nil, err
	}
	return listeningHTTP{t}, nil
}
