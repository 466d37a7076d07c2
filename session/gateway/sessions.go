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
	live    map[string]struct{}
	pending int // tickets not yet used, and 2026-07-28 requests in flight

	// ended, when set, hears each session's end (for tests, which wait on
	// mcp-go's sweeper).
	ended func()
}

func newSessions(max int) *sessions {
	return &sessions{max: max, live: map[string]struct{}{}}
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
		id := r.Header.Get(server.HeaderKeySessionID)
		if id == "" {
			return ss.ticketed(ctx)
		}
		if _, err := ss.Validate(id); err != nil {
			return nil, nil, errUnknownSession
		}
	}
	return ctx, func() {}, nil
}

func (ss *sessions) ticketed(ctx context.Context) (context.Context, func(), error) {
	t, err := ss.reserve()
	if err != nil {
		return nil, nil, err
	}
	return context.WithValue(ctx, ticketKey{}, t), func() { ss.cancel(t) }, nil
}

func (ss *sessions) reserve() (*ticket, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if len(ss.live)+ss.pending >= ss.max {
		return nil, errFull{ss.max}
	}
	ss.pending++
	return &ticket{}, nil
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
	m.ss.live[id] = struct{}{}
	if m.t != nil && !m.t.used {
		m.t.used = true
		m.ss.pending--
	}
	return id
}

func (m minter) Validate(id string) (bool, error)  { return m.ss.Validate(id) }
func (m minter) Terminate(id string) (bool, error) { return m.ss.Terminate(id) }
