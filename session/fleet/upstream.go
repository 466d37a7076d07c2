package fleet

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session"
)

// upstream is one config entry and its current session. Its state moves
// idle → starting → up → (dies) → waiting → starting ...; every change
// closes wake, so waiters look again.
type upstream struct {
	f    *Fleet
	spec Spec

	mu       sync.Mutex
	s        *session.Session // nil unless up
	starting bool
	retry    *time.Timer // pending restart, nil when none
	wake     chan struct{}
	lastErr  error
	failures int       // consecutive failed starts or early deaths
	upSince  time.Time // when s came up
	gone     bool      // removed from the config or the fleet closed
	loop     bool      // the entry is this gateway itself: never started
	snap     *snapshot // the last lists seen (or cached)
	ctx      context.Context
	cancel   context.CancelFunc
}

// snapshot is an upstream's lists as last seen.
type snapshot struct {
	info      session.Info
	tools     *toolset.Set
	resources []mcp.Resource
	templates []mcp.ResourceTemplate
	prompts   []mcp.Prompt
}

func (f *Fleet) newUpstream(sp Spec) *upstream {
	u := &upstream{f: f, spec: sp, wake: make(chan struct{})}
	u.ctx, u.cancel = context.WithCancel(f.ctx)
	if sp.Err != nil {
		u.lastErr = sp.Err
	}
	return u
}

// changed wakes the waiters; call with mu held.
func (u *upstream) changed() {
	close(u.wake)
	u.wake = make(chan struct{})
}

func (u *upstream) live() *session.Session {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.s
}

func (u *upstream) status() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	switch {
	case u.s != nil:
		return "up"
	case u.loop:
		return "refused: " + u.lastErr.Error()
	case u.spec.Err != nil:
		return "unusable: " + u.spec.Err.Error()
	case u.starting:
		return "starting"
	case u.retry != nil:
		return fmt.Sprintf("restarting (%v)", u.lastErr)
	case u.snap != nil:
		return "not started (listed from the cache)"
	}
	return "not started"
}

// looping reports an entry refused because it runs this gateway again.
func (u *upstream) looping() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.loop
}

// info is the upstream's Info, live or as last seen.
func (u *upstream) info() (session.Info, bool) {
	u.mu.Lock()
	s, snap := u.s, u.snap
	u.mu.Unlock()
	if s != nil {
		return s.Info(), true
	}
	if snap != nil {
		return snap.info, true
	}
	return session.Info{}, false
}

// start begins connecting unless the upstream is up, starting, removed or
// unusable. A pending restart is brought forward.
func (u *upstream) start() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.startLocked()
}

func (u *upstream) startLocked() {
	if u.s != nil || u.starting || u.gone || u.loop || u.spec.Err != nil {
		return
	}
	if u.retry != nil {
		u.retry.Stop()
		u.retry = nil
	}
	u.starting = true
	u.changed()
	u.f.wg.Add(1)
	go u.connect()
}

// nudge starts an upstream that is down and not waiting out a backoff
// (one waiting starts when its timer fires).
func (u *upstream) nudge() {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.s == nil && u.retry == nil && u.lastErr != nil {
		u.startLocked()
	}
}

// connect dials the upstream and lists it.
func (u *upstream) connect() {
	defer u.f.wg.Done()
	name := u.spec.Name
	s, err := u.spec.Dial(u.ctx)
	lerr := dialLoop(err)
	if err == nil {
		lerr = loopOf(s.Info())
	}
	if lerr != nil {
		if s != nil {
			s.Close()
		}
		u.mu.Lock()
		u.starting, u.loop, u.lastErr = false, true, lerr
		u.changed()
		u.mu.Unlock()
		u.f.notef("%s: %v", name, lerr)
		u.f.publish(session.Event{Kind: session.EventNotice, Level: "error", Text: name + ": " + lerr.Error()})
		return
	}
	if err == nil {
		var snap *snapshot
		if snap, err = u.fetch(s); err != nil {
			s.Close()
		} else {
			u.mu.Lock()
			if u.gone {
				u.starting = false
				u.changed()
				u.mu.Unlock()
				s.Close()
				return
			}
			u.s, u.snap, u.starting, u.lastErr, u.upSince = s, snap, false, nil, time.Now()
			restarted := u.failures > 0
			u.changed()
			u.mu.Unlock()
			u.saveCache(snap)
			u.f.bump()
			u.f.wg.Add(1)
			go u.follow(s)
			info := s.Info()
			u.f.notef("%s: connected (%s %s, %d tools)", name, label(info.Name), label(info.Version), len(snap.tools.Tools))
			text := name + ": connected"
			if restarted {
				text = name + ": restarted"
			}
			u.f.publish(session.Event{Kind: session.EventNotice, Level: "info", Text: text})
			u.f.listsChanged()
			return
		}
	}
	if u.ctx.Err() != nil {
		u.mu.Lock()
		u.starting = false
		u.changed()
		u.mu.Unlock()
		return
	}
	u.mu.Lock()
	u.starting = false
	u.lastErr = err
	d := u.scheduleLocked()
	u.changed()
	u.mu.Unlock()
	u.f.notef("%s: could not start: %v; trying again in %v", name, err, d)
}

// fetch lists everything the upstream offers.
func (u *upstream) fetch(s *session.Session) (*snapshot, error) {
	ctx, cancel := context.WithTimeout(u.ctx, u.f.opts.ListTimeout)
	defer cancel()
	snap := &snapshot{info: s.Info()}
	var err error
	if snap.tools, err = s.Tools(ctx); err != nil {
		return nil, fmt.Errorf("tools/list: %w", err)
	}
	caps := snap.info.Capabilities
	// Resources and prompts are extras: an upstream whose lists of them
	// fail still serves its tools.
	if caps.Resources != nil {
		if snap.resources, err = s.Resources(ctx); err != nil {
			u.f.notef("%s: resources/list: %v", u.spec.Name, err)
		}
		if snap.templates, err = s.ResourceTemplates(ctx); err != nil {
			u.f.notef("%s: resources/templates/list: %v", u.spec.Name, err)
		}
	}
	if caps.Prompts != nil {
		if snap.prompts, err = s.Prompts(ctx); err != nil {
			u.f.notef("%s: prompts/list: %v", u.spec.Name, err)
		}
	}
	return snap, nil
}

// lists is the upstream's current snapshot: fetched afresh from a live
// session (which keeps its own lists up to date), else the last one seen.
func (u *upstream) lists(ctx context.Context) *snapshot {
	u.mu.Lock()
	s, snap := u.s, u.snap
	u.mu.Unlock()
	if s == nil {
		return snap
	}
	ctx, cancel := context.WithTimeout(ctx, u.f.opts.ListTimeout)
	defer cancel()
	fresh := &snapshot{info: s.Info()}
	var err error
	if fresh.tools, err = s.Tools(ctx); err != nil {
		u.failed(s, "tools/list", err)
		return snap
	}
	if fresh.info.Capabilities.Resources != nil {
		fresh.resources, _ = s.Resources(ctx)
		fresh.templates, _ = s.ResourceTemplates(ctx)
	}
	if fresh.info.Capabilities.Prompts != nil {
		fresh.prompts, _ = s.Prompts(ctx)
	}
	u.mu.Lock()
	if u.s == s {
		u.snap = fresh
	}
	u.mu.Unlock()
	return fresh
}

// scheduleLocked arms the restart timer with the next backoff delay.
func (u *upstream) scheduleLocked() time.Duration {
	u.failures++
	d := u.f.opts.BackoffMin
	for i := 1; i < u.failures && d < u.f.opts.BackoffMax; i++ {
		d *= 2
	}
	d = min(d, u.f.opts.BackoffMax)
	if u.retry != nil {
		u.retry.Stop()
	}
	u.retry = time.AfterFunc(d, func() {
		u.mu.Lock()
		defer u.mu.Unlock()
		u.retry = nil
		u.startLocked()
	})
	return d
}

// died takes s out of service after a failure showing its connection is
// gone, and schedules the restart. A failure of a session already replaced
// is ignored.
func (u *upstream) died(s *session.Session, why error) {
	u.mu.Lock()
	if u.s != s || s == nil {
		u.mu.Unlock()
		return
	}
	u.s = nil
	if time.Since(u.upSince) > time.Minute {
		u.failures = 0
	}
	u.lastErr = why
	d := u.scheduleLocked()
	u.changed()
	u.mu.Unlock()
	go s.Close()
	u.f.bump()
	u.f.notef("%s: stopped (%v); restarting in %v", u.spec.Name, why, d)
	u.f.publish(session.Event{Kind: session.EventNotice, Level: "warning", Text: fmt.Sprintf("%s: stopped; restarting in %v", u.spec.Name, d)})
}

// failed wraps an error of a request to s and, when it shows the
// connection is gone, takes s out of service.
func (u *upstream) failed(s *session.Session, op string, err error) error {
	if session.Classify(err) != session.ClassConnection || errors.Is(err, context.Canceled) {
		return err
	}
	if u.f.ctx.Err() != nil {
		return err
	}
	// A connection error may be one request's (an HTTP hiccup): a stdio
	// server that exited says so, else a ping tells a dead upstream from
	// a live one (on 2026-07-28 connections it sends nothing and passes).
	if s.Exited() == nil {
		ctx, cancel := context.WithTimeout(u.ctx, 2*time.Second)
		perr := s.Ping(ctx)
		cancel()
		if perr == nil || session.Classify(perr) == session.ClassUsage {
			return err
		}
	}
	u.died(s, err)
	return &DownError{Server: u.spec.Name, Op: op, Err: err}
}

// await returns the upstream's session, starting it if it is idle and
// waiting at most wait (0: until ctx ends) for a start under way.
func (u *upstream) await(ctx context.Context, wait time.Duration) (*session.Session, error) {
	var timeout <-chan time.Time
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		timeout = t.C
	}
	for {
		u.mu.Lock()
		s, wake := u.s, u.wake
		switch {
		case s != nil:
			u.mu.Unlock()
			return s, nil
		case u.gone:
			u.mu.Unlock()
			return nil, &DownError{Server: u.spec.Name, Err: errors.New("removed from the config")}
		case u.loop || u.spec.Err != nil:
			err := u.lastErr
			u.mu.Unlock()
			return nil, &DownError{Server: u.spec.Name, Err: err, Final: true}
		case !u.starting && u.retry == nil:
			u.startLocked()
			wake = u.wake
		}
		last := u.lastErr
		u.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-timeout:
			return nil, &DownError{Server: u.spec.Name, Err: last, Restarting: true}
		}
		if wait == 0 {
			// The first start's wait (New) ends with its attempt.
			u.mu.Lock()
			s, starting := u.s, u.starting
			u.mu.Unlock()
			if !starting {
				if s == nil {
					return nil, u.lastErrOr()
				}
				return s, nil
			}
		}
	}
}

func (u *upstream) lastErrOr() error {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.lastErr != nil {
		return u.lastErr
	}
	return errors.New("not started")
}

// follow republishes s's events as the fleet's until s is replaced, and
// notices a stdio server that exits.
func (u *upstream) follow(s *session.Session) {
	defer u.f.wg.Done()
	ctx, cancel := context.WithCancel(u.ctx)
	defer cancel()
	events := s.Subscribe(ctx)
	for {
		select {
		case <-ctx.Done():
			return
		case e, ok := <-events:
			if !ok {
				return
			}
			if u.live() != s {
				return
			}
			u.f.relay(u, e)
			if e.Kind == session.EventNotice && e.Level == "error" {
				// A stdio server's exit is published as an error notice,
				// as are lines it could not read: the session says whether
				// the server exited, else a ping whether the connection is
				// gone (on 2026-07-28 connections, which dropped ping, it
				// sends nothing and passes).
				err := s.Exited()
				if err == nil {
					pctx, pcancel := context.WithTimeout(ctx, 2*time.Second)
					if perr := s.Ping(pctx); perr != nil && session.Classify(perr) == session.ClassConnection {
						err = perr
					}
					pcancel()
				}
				if err != nil && ctx.Err() == nil {
					u.died(s, errors.New(e.Text))
					return
				}
			}
		}
	}
}

// shutdown closes the upstream for good.
func (u *upstream) shutdown() {
	u.mu.Lock()
	u.gone = true
	if u.retry != nil {
		u.retry.Stop()
		u.retry = nil
	}
	s := u.s
	u.s = nil
	u.changed()
	u.mu.Unlock()
	u.cancel()
	if s != nil {
		s.Close()
	}
	if u.spec.Close != nil {
		u.spec.Close()
	}
}

// DownError is a request to an upstream that is not running: it names the
// server, and says whether the fleet is restarting it.
type DownError struct {
	Server     string
	Op         string
	Err        error
	Restarting bool // waiting for a restart that did not come in time
	Final      bool // the entry cannot be started at all
}

func (e *DownError) Error() string {
	why := "unknown"
	if e.Err != nil {
		why = e.Err.Error()
	}
	switch {
	case e.Final:
		return fmt.Sprintf("server %q cannot be used: %s", e.Server, why)
	case e.Restarting:
		return fmt.Sprintf("server %q is restarting (%s); the other servers are unaffected; try again shortly", e.Server, why)
	}
	return fmt.Sprintf("server %q stopped (%s); the gateway is restarting it; try again shortly", e.Server, why)
}

func (e *DownError) Unwrap() error { return e.Err }

// UpstreamName names the server, for the gateway's error text; it also
// tells the gateway the fleet restarts the server itself.
func (e *DownError) UpstreamName() string { return e.Server }
