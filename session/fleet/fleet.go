// Package fleet puts many upstream MCP sessions behind one session.Client,
// so the gateway (session/gateway) serves a whole mcpServers config as it
// serves one server: its modes, policy, audit and client-side forwarding
// keep working unchanged, and this package only decides which upstream a
// request goes to.
//
// Naming. Tools and prompts keep the names their servers give them; a name
// two upstreams share is namespaced for both as SERVER_NAME (the server's
// config name with every character outside [A-Za-z0-9_-] made '-', so the
// result stays a valid MCP tool name), with _2, _3 ... added should that
// still clash. Every tool carries toolset.Tool.Server, which renderers
// group by. Resource URIs are kept as they are where they are unique; a
// URI (or template) two upstreams list is shown for both as
// mcpterm-upstream:SERVER:URI. Reads of URIs nobody listed (a resource
// link in a tool result) go to the upstream whose template matches, else
// to each upstream with resources in turn until one answers.
//
// Lifecycle. Each upstream is connected at once (StartEager) or on first
// need (StartLazy, which lists a server from the tool cache of its last
// run under the state directory and starts it for the first call, read or
// get). One that dies is restarted with exponential backoff; its tools stay
// listed and calls to it wait a bounded time for the restart, then fail
// with an error saying it is restarting. A dead upstream never stops the
// others. The config files are watched; a change adds, removes and
// restarts entries, and the fleet publishes list_changed so the gateway
// rebuilds and tells its clients.
package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session"
)

// Start says when upstreams are connected.
type Start string

const (
	StartEager Start = "eager" // all at once when the fleet starts, in parallel
	StartLazy  Start = "lazy"  // on first need; listed from the cache until then
)

// ParseStart reads a --start value.
func ParseStart(s string) (Start, error) {
	switch Start(s) {
	case StartEager, StartLazy:
		return Start(s), nil
	}
	return "", fmt.Errorf("--start %q: want lazy or eager", s)
}

// Spec is one upstream as the config gives it.
type Spec struct {
	// Name is the config entry's name: how the upstream is named in
	// namespaced tools, notes and errors.
	Name string
	// Fingerprint changes whenever the entry's resolved connection
	// (command, arguments, environment, URL, headers) changes; it keys the
	// lazy tool cache and tells a config reload which entries to restart.
	Fingerprint string
	// Dial opens a new session on the upstream (session.Connect on the
	// entry's Target); every start and restart calls it again.
	Dial func(ctx context.Context) (*session.Session, error)
	// Close, when set, releases what resolving the entry opened (the
	// Target's trace file) once the upstream is removed or the fleet ends.
	Close func()
	// Err, when set, is why the entry cannot be used at all (an untrusted
	// project entry, a bad config value): it is reported and never dialled.
	Err error
}

// Loader reads the config again: the upstreams to serve and the files to
// watch for the next change.
type Loader func() (specs []Spec, files []string, err error)

// Options configure a fleet.
type Options struct {
	Start Start
	// Load reads the config; New calls it once, and again whenever a
	// watched file changes.
	Load Loader
	// Poll is how often the config files are checked for changes; 0 means
	// one second, negative never.
	Poll time.Duration
	// CacheDir holds the lazy start's tool cache (one file per
	// fingerprint); "" keeps none, so lazy starts every server whose tools
	// are not known.
	CacheDir string
	// RestartWait bounds how long a request waits for an upstream being
	// started or restarted before failing; 0 means 15 s.
	RestartWait time.Duration
	// BackoffMin and BackoffMax bound the delay before restarting an
	// upstream that died or failed to start: it doubles from min to max,
	// and is back at min once the upstream has stayed up for a minute.
	// Defaults 250 ms and 30 s.
	BackoffMin, BackoffMax time.Duration
	// ListTimeout bounds fetching one upstream's lists; 0 means 30 s.
	ListTimeout time.Duration
	// Notef hears what each upstream did, for the operator.
	Notef func(format string, args ...any)
	// Loop makes a fleet that serves nothing and says so: the gateway
	// found itself among its ancestors (loop.go). Load is not called.
	Loop bool
}

func (o Options) withDefaults() Options {
	if o.Start == "" {
		o.Start = StartEager
	}
	if o.Poll == 0 {
		o.Poll = time.Second
	}
	if o.RestartWait <= 0 {
		o.RestartWait = 15 * time.Second
	}
	if o.BackoffMin <= 0 {
		o.BackoffMin = 250 * time.Millisecond
	}
	if o.BackoffMax < o.BackoffMin {
		o.BackoffMax = max(30*time.Second, o.BackoffMin)
	}
	if o.ListTimeout <= 0 {
		o.ListTimeout = 30 * time.Second
	}
	return o
}

// Name is the fleet's serverInfo name.
const Name = "mcpterm-gateway"

// Fleet is many upstream sessions as one session.Client. It is safe for
// concurrent use.
type Fleet struct {
	opts   Options
	ctx    context.Context // ends at Close
	stop   context.CancelFunc
	events *session.EventStream
	tap    *session.Tap
	gen    atomic.Int64

	mu        sync.Mutex
	ups       []*upstream // in config order
	watch     *watcher
	closed    bool
	routes    atomic.Pointer[routes]
	reloading sync.Mutex
	wg        sync.WaitGroup
}

var _ session.Client = (*Fleet)(nil)

// New reads the config (opts.Load) and starts the upstreams as opts.Start
// says. With StartEager it waits for every first attempt (each bounded by
// its own connect timeout); one that fails is noted and retried with
// backoff, and New succeeds as long as the config could be read.
func New(ctx context.Context, opts Options) (*Fleet, error) {
	opts = opts.withDefaults()
	var specs []Spec
	var files []string
	if !opts.Loop {
		if opts.Load == nil {
			return nil, errors.New("fleet: no config loader")
		}
		var err error
		if specs, files, err = opts.Load(); err != nil {
			return nil, err
		}
	}
	f := &Fleet{opts: opts, events: session.NewEventStream(), tap: session.NewTap(nil)}
	f.ctx, f.stop = context.WithCancel(context.Background())
	f.gen.Store(1)
	f.routes.Store(&routes{})
	for _, sp := range specs {
		f.ups = append(f.ups, f.newUpstream(sp))
	}
	f.startAll(ctx, f.ups)
	if opts.Poll > 0 && len(files) > 0 {
		f.watch = newWatcher(files)
		f.wg.Add(1)
		go f.watchLoop()
	}
	return f, nil
}

// startAll makes the first start of each upstream, in parallel, and waits
// for the eager ones.
func (f *Fleet) startAll(ctx context.Context, ups []*upstream) {
	var wg sync.WaitGroup
	for _, u := range ups {
		if u.spec.Err != nil {
			f.notef("%s: not started: %v", u.spec.Name, u.spec.Err)
			continue
		}
		if f.opts.Start == StartLazy && u.loadCache() {
			f.notef("%s: listed from the cache of its last run; starts on first use", u.spec.Name)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			u.start()
			_, _ = u.await(ctx, 0)
		}()
	}
	wg.Wait()
}

func (f *Fleet) notef(format string, args ...any) {
	if f.opts.Notef != nil {
		f.opts.Notef(format, args...)
	}
}

// bump records a change of any upstream's connection.
func (f *Fleet) bump() { f.gen.Add(1) }

func (f *Fleet) upstreams() []*upstream {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.ups)
}

func (f *Fleet) byName(name string) *upstream {
	for _, u := range f.upstreams() {
		if u.spec.Name == name {
			return u
		}
	}
	return nil
}

// Names lists the upstreams in config order.
func (f *Fleet) Names() []string {
	var out []string
	for _, u := range f.upstreams() {
		out = append(out, u.spec.Name)
	}
	return out
}

// Status says, per upstream, whether it is up, starting, waiting to
// restart (and why) or not started yet.
func (f *Fleet) Status() map[string]string {
	out := map[string]string{}
	for _, u := range f.upstreams() {
		out[u.spec.Name] = u.status()
	}
	return out
}

// Session is the live session of the upstream called name, or nil.
func (f *Fleet) Session(name string) *session.Session {
	if u := f.byName(name); u != nil {
		return u.live()
	}
	return nil
}

// baseCaps are what a fleet always declares.
const baseCaps = `{"tools":{"listChanged":true},"resources":{"listChanged":true},"prompts":{"listChanged":true},"logging":{}}`

// Info is the fleet as one server: named Name, with the union of the
// upstreams' capabilities (resources and prompts always, so upstreams a
// config reload adds are served too), each upstream's instructions under
// its name, and a Generation that changes whenever any upstream connects,
// dies or is added or removed.
func (f *Fleet) Info() session.Info {
	in := session.Info{Name: Name, Title: "mcpterm gateway", Kind: session.Stdio, Generation: int(f.gen.Load())}
	if f.opts.Loop || f.allLoops() {
		in.Name, in.Instructions = LoopName, ErrLoop.Error()
		in.Source = "config servers " + strings.Join(f.Names(), ", ")
		return in
	}
	var caps mcp.ServerCapabilities
	_ = json.Unmarshal([]byte(baseCaps), &caps)
	var names, instr []string
	for _, u := range f.upstreams() {
		names = append(names, u.spec.Name)
		info, ok := u.info()
		if !ok {
			continue
		}
		if r := info.Capabilities.Resources; r != nil && r.Subscribe {
			caps.Resources.Subscribe = true
		}
		if info.Capabilities.Completions != nil {
			caps.Completions = &struct{}{}
		}
		if s := strings.TrimSpace(info.Instructions); s != "" {
			instr = append(instr, "Server "+u.spec.Name+": "+s)
		}
		if info.ConnectedAt.After(in.ConnectedAt) {
			in.ConnectedAt = info.ConnectedAt
		}
	}
	in.Capabilities = caps
	in.Instructions = strings.Join(instr, "\n\n")
	in.Source = "config servers " + strings.Join(names, ", ")
	return in
}

// allLoops reports a fleet whose every upstream was refused as a loop: a
// gateway between two others of one loop (A serves B, which serves A
// again) serves nothing, so it answers as a refusing gateway too and the
// entry above it is refused, not served empty.
func (f *Fleet) allLoops() bool {
	ups := f.upstreams()
	for _, u := range ups {
		if !u.looping() {
			return false
		}
	}
	return len(ups) > 0
}

// IsOffline is false: a fleet always has servers to run calls.
func (f *Fleet) IsOffline() bool { return false }

// ToolWarnings are the upstreams' own, each under its server's name.
func (f *Fleet) ToolWarnings() []string {
	var out []string
	for _, u := range f.upstreams() {
		if s := u.live(); s != nil {
			for _, w := range s.ToolWarnings() {
				out = append(out, u.spec.Name+": "+w)
			}
		}
	}
	return out
}

// Events are the fleet's retained events: every upstream's, with the
// server's name in Text, and the fleet's own notices.
func (f *Fleet) Events() []session.Event { return f.events.Events() }

// Subscribe streams the fleet's events from now on until ctx ends.
func (f *Fleet) Subscribe(ctx context.Context) <-chan session.Event { return f.events.Subscribe(ctx) }

// Feed is the fleet's events (the protocol messages stay in each
// upstream's own tap).
func (f *Fleet) Feed(ctx context.Context) <-chan session.FeedItem {
	in := f.events.Subscribe(ctx)
	out := make(chan session.FeedItem, 64)
	go func() {
		defer close(out)
		for e := range in {
			select {
			case out <- session.FeedItem{Event: &e}:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// Tap is an empty tap: the messages are in each upstream's session.
func (f *Fleet) Tap() *session.Tap { return f.tap }

// Stderr is the tail of each live stdio upstream's stderr, by name.
func (f *Fleet) Stderr() string {
	var b strings.Builder
	for _, u := range f.upstreams() {
		if s := u.live(); s != nil {
			if e := s.Stderr(); e != "" {
				fmt.Fprintf(&b, "[%s]\n%s\n", u.spec.Name, strings.TrimRight(e, "\n"))
			}
		}
	}
	return b.String()
}

// Ping pings every live upstream; it fails only when none answers.
func (f *Fleet) Ping(ctx context.Context) error {
	var errs []error
	ok := false
	for _, u := range f.upstreams() {
		s := u.live()
		if s == nil {
			continue
		}
		if err := s.Ping(ctx); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", u.spec.Name, err))
			continue
		}
		ok = true
	}
	if ok || len(errs) == 0 {
		return nil
	}
	return errors.Join(errs...)
}

// Reconnect starts every upstream that is down now, without waiting for
// backoff or for the connections: the gateway calls it after a failure, and
// the upstreams that work must not wait for one that does not.
func (f *Fleet) Reconnect(context.Context) error {
	if f.ctx.Err() != nil {
		return session.ErrClosed
	}
	for _, u := range f.upstreams() {
		u.nudge()
	}
	return nil
}

// Close ends every upstream and the config watch.
func (f *Fleet) Close() error {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil
	}
	f.closed = true
	ups := f.ups
	f.mu.Unlock()
	f.stop()
	var wg sync.WaitGroup
	for _, u := range ups {
		wg.Add(1)
		go func() { defer wg.Done(); u.shutdown() }()
	}
	wg.Wait()
	f.wg.Wait()
	return nil
}

// Call runs one call on the upstream that owns the tool, under the name the
// upstream gave it; the result names the tool as the fleet lists it.
func (f *Fleet) Call(ctx context.Context, req session.CallRequest) *session.CallResult {
	rt, ok := f.routes.Load().tools[req.Tool]
	if !ok {
		return failed(req, &session.RPCError{Code: mcp.METHOD_NOT_FOUND, Message: fmt.Sprintf("no upstream has a tool %q", req.Tool)})
	}
	s, err := rt.up.await(ctx, f.opts.RestartWait)
	if err != nil {
		return failed(req, err)
	}
	listed := req.Tool
	req.Tool = rt.name
	r := s.Call(ctx, req)
	r.Tool = listed
	if r.Err != nil {
		r.Err = rt.up.failed(s, "tools/call "+rt.name, r.Err)
	}
	return r
}

func failed(req session.CallRequest, err error) *session.CallResult {
	args := req.Arguments
	if args == nil {
		args = ojson.NewObject()
	}
	return &session.CallResult{ID: req.ID, Tool: req.Tool, Arguments: args, Started: time.Now(), Err: err}
}

// Batch runs the calls, each on its own upstream, at most
// opts.Concurrency at a time.
func (f *Fleet) Batch(ctx context.Context, reqs []session.CallRequest, opts session.BatchOptions) *session.BatchResult {
	out := &session.BatchResult{Results: make([]*session.CallResult, len(reqs)), Started: time.Now()}
	n := max(opts.Concurrency, 1)
	sem := make(chan struct{}, n)
	var wg sync.WaitGroup
	var stopped atomic.Bool
	for i, r := range reqs {
		if opts.StopOnError && stopped.Load() {
			out.Results[i] = failed(r, context.Canceled)
			continue
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			res := f.Call(ctx, r)
			if !res.OK() {
				stopped.Store(true)
			}
			out.Results[i] = res
		}()
		if n == 1 {
			wg.Wait()
		}
	}
	wg.Wait()
	out.Duration = time.Since(out.Started)
	return out
}

// Tools is every upstream's tools in one list (config order, each server's
// own order), namespaced where names clash; each tool's Server names its
// upstream. An upstream that cannot list now is shown with its last list.
func (f *Fleet) Tools(ctx context.Context) (*toolset.Set, error) {
	ups := f.upstreams()
	lists := f.gather(ctx, ups)
	rt, set := mergeTools(ups, lists)
	old := f.routes.Load()
	rt.resources, rt.templates, rt.prompts = old.resources, old.templates, old.prompts
	f.routes.Store(rt)
	return set, nil
}

// gather fetches every upstream's snapshot in parallel.
func (f *Fleet) gather(ctx context.Context, ups []*upstream) []*snapshot {
	out := make([]*snapshot, len(ups))
	var wg sync.WaitGroup
	for i, u := range ups {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = u.lists(ctx)
		}()
	}
	wg.Wait()
	return out
}
