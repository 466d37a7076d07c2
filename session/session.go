package session

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session/internal/wire"
)

// Session is one connection to one MCP server (or an offline tool list),
// plus everything observed on it: the protocol tap, the event stream and the
// cached lists. It is safe for concurrent use; Reconnect replaces the
// connection but keeps the tap, the events and the call counter.
type Session struct {
	src  Source
	opts Options

	events *eventLog
	tap    *Tap
	lists  lists

	ctx  context.Context // ends at Close
	stop context.CancelFunc

	mu      sync.Mutex
	conn    *conn
	gen     int
	closed  bool
	offline *toolset.Set

	pmu      sync.Mutex
	progress map[string]func(Event)

	callSeq atomic.Uint64
	schemas schemaCache
	subs    resourceSubs // subscribed resources (subscribe.go)
	tasks   taskState    // tasks.go
}

// conn is one live connection; Reconnect swaps it.
type conn struct {
	client *client.Client
	tr     *tapped
	inner  transport.Interface
	info   Info
	cancel context.CancelFunc // ends the connection's background work
}

// Info is what the server said about itself when the connection was made.
type Info struct {
	Name         string
	Title        string
	Version      string
	Instructions string
	// ProtocolVersion is the negotiated revision; Modern is true for the
	// stateless 2026-07-28 protocol (server/discover instead of initialize).
	ProtocolVersion string
	Modern          bool
	Capabilities    mcp.ServerCapabilities
	// ClientCapabilities is what mcpterm declared to the server (in
	// initialize, or in every request's _meta on 2026-07-28).
	ClientCapabilities mcp.ClientCapabilities
	// Raw is the initialize (or server/discover) result as the server sent it.
	Raw         *ojson.Value
	Source      string // Source.String(): safe to show
	Kind        SourceKind
	ConnectedAt time.Time
	Generation  int // 1 for the first connection, +1 per Reconnect
}

// Open connects to src: it starts the transport, negotiates the protocol and
// returns once the server has answered. An Offline source loads its tool list
// and never touches the network.
func Open(ctx context.Context, src Source, opts Options) (*Session, error) {
	if err := src.validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSource, err)
	}
	s := &Session{
		src:      src,
		opts:     opts.withDefaults(),
		events:   newEventLog(),
		progress: map[string]func(Event){},
	}
	s.tap = newTap(s.opts.Trace).withRedactor(s.opts.Redactor)
	s.ctx, s.stop = context.WithCancel(context.Background())
	if src.Kind == Offline {
		set := src.Tools
		if set == nil {
			data, err := os.ReadFile(src.ToolsFile)
			if err != nil {
				s.stop()
				return nil, fmt.Errorf("--tools: %w", err)
			}
			if set, err = toolset.Parse(data); err != nil {
				s.stop()
				return nil, fmt.Errorf("--tools %s: %w", src.ToolsFile, err)
			}
		}
		if set.Source == "" {
			set.Source = src.ToolsFile
		}
		set, s.lists.warnings = setAsideDeep(set)
		s.offline = set
		return s, nil
	}
	c, err := s.connect(ctx)
	if err != nil {
		s.stop()
		return nil, err
	}
	if s.opts.Roots != nil {
		s.opts.Roots.attach(s)
	}
	// A list_changed refresh may already read s.conn.
	s.mu.Lock()
	s.conn = c
	s.mu.Unlock()
	return s, nil
}

// Source returns what the session connects to.
func (s *Session) Source() Source { return s.src }

// IsOffline reports a session over a saved tool list.
func (s *Session) IsOffline() bool { return s.offline != nil }

// Info describes the current connection. An offline session reports the
// tool list's server name and version.
func (s *Session) Info() Info {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.offline != nil {
		return Info{Name: s.offline.Server, Version: s.offline.Version, Source: s.src.String(), Kind: Offline}
	}
	if s.conn == nil {
		return Info{Source: s.src.String(), Kind: s.src.Kind}
	}
	return s.conn.info
}

// Tap is the protocol recorder shared by all connections of the session.
func (s *Session) Tap() *Tap { return s.tap }

// Events returns the retained side-channel events, oldest first.
func (s *Session) Events() []Event { return s.events.snapshot() }

// Subscribe streams events published from now on until ctx ends. A reader
// that falls more than a few hundred events behind misses some; Events has
// the retained history.
func (s *Session) Subscribe(ctx context.Context) <-chan Event { return s.events.subscribe(ctx) }

// Stderr returns the tail of a stdio server's stderr ("" for other routes).
func (s *Session) Stderr() string {
	s.mu.Lock()
	c := s.conn
	s.mu.Unlock()
	if c == nil {
		return ""
	}
	if st, ok := c.inner.(*stdioTransport); ok {
		return st.Stderr()
	}
	return ""
}

// Exited is why a stdio server's connection ended (its *ServerExitError)
// once the server has gone, else nil: while it is up, for other routes,
// and after Close. 2026-07-28 connections have no ping (Ping sends
// nothing), so this is how a supervisor such as session/fleet tells a
// server that died from one that is slow. It is set before the exit's
// notice is published, so a reader of that notice finds it.
func (s *Session) Exited() error {
	s.mu.Lock()
	c := s.conn
	s.mu.Unlock()
	if c == nil {
		return nil
	}
	st, ok := c.inner.(*stdioTransport)
	if !ok {
		return nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		return st.closeErr
	}
	return nil
}

// Close ends the connection and, for stdio, the server process.
func (s *Session) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	c := s.conn
	s.conn = nil
	s.mu.Unlock()
	if s.opts.Roots != nil {
		s.opts.Roots.detach(s)
	}
	s.stop()
	if c != nil {
		c.close()
	}
	return nil
}

// Reconnect drops the current connection (if any) and connects again to the
// same source. The tap, the events and the call sequence carry on; the cached
// lists are fetched afresh.
func (s *Session) Reconnect(ctx context.Context) error {
	if s.offline != nil {
		return ErrOffline
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	old := s.conn
	s.conn = nil
	s.mu.Unlock()
	if old != nil {
		old.close()
	}
	s.lists.invalidateAll()
	c, err := s.connect(ctx)
	if err != nil {
		return err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		c.close()
		return ErrClosed
	}
	s.conn = c
	s.mu.Unlock()
	s.events.publish(Event{Kind: EventNotice, Level: "info", Text: fmt.Sprintf("reconnected to %s (connection %d)", s.src.String(), c.info.Generation)})
	return nil
}

func (c *conn) close() {
	c.cancel()
	done := make(chan struct{})
	go func() {
		_ = c.client.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
	}
}

// current returns the live connection or why there is none.
func (s *Session) current() (*conn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.offline != nil:
		return nil, ErrOffline
	case s.closed:
		return nil, ErrClosed
	case s.conn == nil:
		return nil, &ConnectionError{Err: errors.New("not connected (reconnect to try again)")}
	}
	return s.conn, nil
}

func (s *Session) newTransport() (transport.Interface, error) {
	src := s.src
	switch src.Kind {
	case InProcess:
		// wire's in-process transport counts a notification as sent once
		// the client has handled it, so a tool that waits for its progress
		// to be on the wire (the demo's long_task) answers after it.
		return wire.NewInProcessTransport(src.Server, s.inProcessHandlers()...), nil
	case Stdio:
		env := serverEnv(s.opts.Environ, src.InheritEnv, src.Env)
		return newStdioTransport(src.Command, src.Args, env, src.Dir, s.opts.MaxMessageBytes, s.events), nil
	case HTTP, SSE:
		headers := map[string]string{}
		for k, v := range src.Headers {
			headers[k] = v
		}
		if src.BearerTokenEnv != "" {
			tok := s.opts.Getenv(src.BearerTokenEnv)
			if tok == "" {
				return nil, fmt.Errorf("--bearer-token-env %s: the variable is empty or unset", src.BearerTokenEnv)
			}
			headers["Authorization"] = "Bearer " + tok
		}
		// Headers go in at the http.Client so that every request carries
		// them; mcp-go's own header options miss the session-ending DELETE.
		// Answers are bounded and checked on their way in (httpbound.go).
		bt := &boundedTransport{
			base:   &headerTransport{base: s.authTransport(http.DefaultTransport, headers), headers: headers},
			maxMsg: s.opts.MaxMessageBytes, events: s.events, streamable: src.Kind == HTTP,
		}
		hc := &http.Client{Transport: bt}
		if src.Kind == SSE {
			return newSSETransport(src.URL, hc, bt)
		}
		return newListeningHTTP(s.ctx, src.URL, hc, s.events)
	}
	return nil, fmt.Errorf("cannot connect to a %s source", src.Kind)
}

// headerTransport adds fixed headers to every HTTP request.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
}

func (h *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range h.headers {
			r.Header.Set(k, v)
		}
	}
	return h.base.RoundTrip(r)
}

func (s *Session) connect(ctx context.Context) (*conn, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, s.opts.ConnectTimeout, ErrTimeout)
	defer cancel()
	inner, err := s.newTransport()
	if err != nil {
		return nil, &ConnectionError{Err: err}
	}
	wrapped, tr := wrapTransport(inner, s.tap)
	_, listening := inner.(*transport.StreamableHTTP)
	guarded := guardDiscover(wrapped, s.events, listening)
	copts := []client.ClientOption{client.WithDiscoverTimeout(s.opts.DiscoverTimeout)}
	if s.opts.ProtocolVersion != "" {
		copts = append(copts, client.WithProtocolVersion(s.opts.ProtocolVersion))
	}
	copts = append(copts, s.clientSideOptions()...)
	cl := client.NewClient(guarded, copts...)

	s.mu.Lock()
	s.gen++
	gen := s.gen
	s.mu.Unlock()

	// The connection's own context outlives ctx (which only bounds the
	// handshake): SSE streams and listen requests hang off it.
	connCtx, connCancel := context.WithCancel(s.ctx)
	c := &conn{client: cl, tr: tr, inner: inner, cancel: connCancel}
	fail := func(err error) (*conn, error) {
		c.close()
		return nil, s.classify(ctx, err, nil, "connect")
	}

	started := make(chan error, 1)
	go func() { started <- cl.Start(connCtx) }()
	select {
	case err := <-started:
		if err != nil {
			return fail(err)
		}
	case <-ctx.Done():
		return fail(ctx.Err())
	}
	cl.OnNotification(func(n mcp.JSONRPCNotification) { s.onNotification(gen, n) })

	ictx, capt := withCapture(ctx)
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = s.opts.ProtocolVersion
	req.Params.ClientInfo = mcp.Implementation{Name: s.opts.ClientName, Version: s.opts.ClientVersion}
	res, err := cl.Initialize(ictx, req)
	if err != nil {
		return fail(err)
	}
	c.info = Info{
		Name: res.ServerInfo.Name, Title: res.ServerInfo.Title, Version: res.ServerInfo.Version,
		Instructions:       res.Instructions,
		ProtocolVersion:    cl.ProtocolVersion(),
		Modern:             mcp.IsModernProtocol(cl.ProtocolVersion()),
		Capabilities:       res.Capabilities,
		ClientCapabilities: s.declared(cl),
		Source:             s.src.String(),
		Kind:               s.src.Kind,
		ConnectedAt:        time.Now(),
		Generation:         gen,
	}
	if raw, _, ok := capt.result(); ok && len(raw) > 0 {
		c.info.Raw, _ = ojson.Parse(raw)
	}
	if c.info.Modern {
		s.listen(connCtx, c)
	}
	s.resubscribe(ctx, connCtx, c)
	return c, nil
}

// listen opens the 2026-07-28 notification stream for the lists the server
// says can change; older revisions deliver these notifications unasked.
func (s *Session) listen(ctx context.Context, c *conn) {
	caps := c.info.Capabilities
	var f mcp.SubscriptionFilter
	f.ToolsListChanged = caps.Tools != nil && caps.Tools.ListChanged
	f.PromptsListChanged = caps.Prompts != nil && caps.Prompts.ListChanged
	f.ResourcesListChanged = caps.Resources != nil && caps.Resources.ListChanged
	if f.IsEmpty() {
		return
	}
	_, err := c.client.ListenAsync(ctx, f, func(err error) {
		s.events.publish(Event{Kind: EventNotice, Level: "warning", Text: "subscriptions/listen ended: " + err.Error()})
	})
	if err != nil {
		s.events.publish(Event{Kind: EventNotice, Level: "warning", Text: "subscriptions/listen: " + err.Error()})
	}
}

// Ping checks the server answers. On 2026-07-28 connections, which dropped
// ping, it sends nothing and succeeds.
func (s *Session) Ping(ctx context.Context) error {
	c, err := s.current()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeoutCause(ctx, s.opts.CallTimeout, ErrTimeout)
	defer cancel()
	ctx, capt := withCapture(ctx)
	//lint:ignore SA1019 ping is how pre-2026-07-28 servers are checked; mcp-go skips it on modern connections
	if err := c.client.Ping(ctx); err != nil {
		return s.classify(ctx, err, capt, "ping")
	}
	return nil
}
