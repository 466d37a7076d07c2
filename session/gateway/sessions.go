package gateway

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// sessions is the gateway's record of its HTTP sessions, for the cap and
// for expiry. mcp-go's default session ids are checked only for their form,
// so any well-formed id was a session and a GET with a made-up one made a
// new one; here a session exists from the id the gateway minted (at
// initialize, or for a GET stream opened without one) until the client
// deletes it, it idles out or the gateway stops.
//
// A request that may mint an id is admitted with a ticket, a place kept
// under the cap until it either becomes a session (Generate) or ends, so
// concurrent initializes cannot overshoot the cap. A 2026-07-28 request
// has no session of its own beyond itself: it holds a place while it runs.
type sessions struct {
	max int

	mu      sync.Mutex
	live    map[string]*use
	pending int    // tickets not yet used, and 2026-07-28 requests in flight
	clock   uint64 // counts uses, to order sessions by their last one

	// evict ends an idle session the cap needs back, as a DELETE would
	// (mcp-go's state for it goes too); nil: nothing is evicted.
	evict func(id string)

	// ended, when set, hears each session's end (for tests, which wait on
	// mcp-go's sweeper).
	ended func()
}

// use is how a session is used: requests on it now (a GET stream counts
// while it is open) and when it was last used.
type use struct {
	inFlight int
	last     uint64
}

func newSessions(max int) *sessions {
	return &sessions{max: max, live: map[string]*use{}}
}

// ticket is one admitted request's place under the cap.
type ticket struct{ used bool } // guarded by sessions.mu

type ticketKey struct{}

// errUnknownSession answers a GET naming a session the gateway does not
// have (ended, expired, or never minted).
var errUnknownSession = errors.New("unknown or expired session; start a new one with initialize")

// errFull is the refusal beyond the cap.
type errFull struct{ max int }

func (e errFull) Error() string {
	return fmt.Sprintf("the gateway has its maximum of %d sessions open (mcpterm serve --max-sessions); try again after one ends", e.max)
}

// count is the number of sessions open.
func (ss *sessions) count() int {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return len(ss.live)
}

// admit decides whether r may go on, and with what context. release must
// be called when r is over. body is a POST's body, already read.
func (ss *sessions) admit(r *http.Request, body []byte) (context.Context, func(), error) {
	ctx := r.Context()
	header := r.Header.Get(mcp.HeaderProtocolVersion)
	switch r.Method {
	case http.MethodPost:
		var m struct {
			Method string `json:"method"`
			Params struct {
				Meta *mcp.Meta `json:"_meta"`
			} `json:"params"`
		}
		_ = json.Unmarshal(body, &m) // mcp-go answers what is not JSON
		switch {
		case mcp.IsModernProtocol(header) || mcp.IsModernProtocol(m.Params.Meta.ProtocolVersion()):
			t, err := ss.reserve()
			if err != nil {
				return nil, nil, err
			}
			return ctx, func() { ss.cancel(t) }, nil
		case m.Method == string(mcp.MethodInitialize):
			return ss.ticketed(ctx)
		}
	case http.MethodGet:
		if mcp.IsModernProtocol(header) {
			break // mcp-go refuses it: 2026-07-28 has no GET stream
		}
		if r.Header.Get(server.HeaderKeySessionID) == "" {
			return ss.ticketed(ctx)
		}
		release, ok := ss.using(r.Header.Get(server.HeaderKeySessionID))
		if !ok {
			return nil, nil, errUnknownSession
		}
		return ctx, release, nil
	}
	// A request on an open session marks it in use while it runs; one on
	// an unknown session is mcp-go's to answer (404).
	if release, ok := ss.using(r.Header.Get(server.HeaderKeySessionID)); ok {
		return ctx, release, nil
	}
	return ctx, func() {}, nil
}

// using marks session id in use until the returned func is called; ok is
// false when id is not an open session.
func (ss *sessions) using(id string) (release func(), ok bool) {
	if id == "" {
		return nil, false
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	u, ok := ss.live[id]
	if !ok {
		return nil, false
	}
	u.inFlight++
	ss.clock++
	u.last = ss.clock
	var once sync.Once
	return func() {
		once.Do(func() {
			ss.mu.Lock()
			defer ss.mu.Unlock()
			u.inFlight--
			ss.clock++
			u.last = ss.clock
		})
	}, true
}

func (ss *sessions) ticketed(ctx context.Context) (context.Context, func(), error) {
	t, err := ss.reserve()
	if err != nil {
		return nil, nil, err
	}
	return context.WithValue(ctx, ticketKey{}, t), func() { ss.cancel(t) }, nil
}

// reserve keeps a place under the cap. At the cap, the session used least
// recently with nothing in flight (no request, no open GET stream) is
// ended to make room, as its client's DELETE would have: clients that go
// away without a DELETE (the TypeScript SDK closing, a crashed client)
// would otherwise hold their places until they idle out, and locked every
// new client out for that long (two runs of the conformance suite filled
// 64 places). Only when every session is busy is the request refused.
func (ss *sessions) reserve() (*ticket, error) {
	ss.mu.Lock()
	victim := ""
	if len(ss.live)+ss.pending >= ss.max {
		victim = ss.idlest()
		if victim == "" {
			ss.mu.Unlock()
			return nil, errFull{ss.max}
		}
		delete(ss.live, victim)
	}
	ss.pending++
	ss.mu.Unlock()
	if victim != "" {
		ss.evict(victim)
	}
	return &ticket{}, nil
}

// idlest is the open session used least recently with nothing in flight,
// or "" when there is none or nothing may be evicted. Callers hold mu.
func (ss *sessions) idlest() string {
	if ss.evict == nil {
		return ""
	}
	id, oldest := "", uint64(0)
	for k, u := range ss.live {
		if u.inFlight == 0 && (id == "" || u.last < oldest) {
			id, oldest = k, u.last
		}
	}
	return id
}

// cancel gives t's place back unless it became a session.
func (ss *sessions) cancel(t *ticket) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if !t.used {
		t.used = true
		ss.pending--
	}
}

// ResolveSessionIdManager is mcp-go's hook: a request's manager mints the
// id into the place its ticket holds.
func (ss *sessions) ResolveSessionIdManager(r *http.Request) server.SessionIdManager {
	if r == nil {
		return ss
	}
	t, _ := r.Context().Value(ticketKey{}).(*ticket)
	return minter{ss, t}
}

// Generate mints a session id without a ticket (mcp-go calls it only for
// requests admitted with one, through minter).
func (ss *sessions) Generate() string { return minter{ss: ss}.Generate() }

// Validate says whether id is an open session; mcp-go answers 404 when not.
func (ss *sessions) Validate(id string) (bool, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if _, ok := ss.live[id]; !ok {
		return false, errUnknownSession
	}
	return false, nil
}

// Terminate ends a session (DELETE, idle expiry, shutdown).
func (ss *sessions) Terminate(id string) (bool, error) {
	ss.mu.Lock()
	delete(ss.live, id)
	ss.mu.Unlock()
	if ss.ended != nil {
		ss.ended()
	}
	return false, nil
}

type minter struct {
	ss *sessions
	t  *ticket
}

func (m minter) Generate() string {
	id := "mcp-session-" + rand.Text()
	m.ss.mu.Lock()
	defer m.ss.mu.Unlock()
	m.ss.clock++
	m.ss.live[id] = &use{last: m.ss.clock}
	if m.t != nil && !m.t.used {
		m.t.used = true
		m.ss.pending--
	}
	return id
}

func (m minter) Validate(id string) (bool, error)  { return m.ss.Validate(id) }
func (m minter) Terminate(id string) (bool, error) { return m.ss.Terminate(id) }
