package session

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// The client side of a session: what mcpterm offers a server that asks
// something of its client (roots, sampling, elicitation). It is written once
// here; each face supplies only the part that talks to a person or a peer:
// the workbench a modal, the CLI a policy (decline, defaults, a file, an
// endpoint), the gateway its own MCP client.

// Sampler answers sampling/createMessage. Server names the session's
// source as shown to people, so a face can say who is asking. It may block
// until a person answers; ctx ends when the request is abandoned (the
// server gave up, the session closed, or Options.AskTimeout passed).
// Returning ErrDeclined (or an error wrapping it) declines.
type Sampler interface {
	Sample(ctx context.Context, server string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error)
}

// Elicitor answers elicitation/create, form or URL mode. A decline or a
// cancel is a result with that Action, not an error.
type Elicitor interface {
	Elicit(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error)
}

// Asker answers the requests a server sends its client.
type Asker interface {
	Sampler
	Elicitor
}

// Pair is an Asker made of a Sampler and an Elicitor, each chosen on its
// own (the command line's --sampling-* and --elicit); a nil part declines.
type Pair struct {
	Sampler  Sampler
	Elicitor Elicitor
}

// Sample asks the Sampler, or declines.
func (p Pair) Sample(ctx context.Context, server string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	if p.Sampler == nil {
		return Decliner{}.Sample(ctx, server, req)
	}
	return p.Sampler.Sample(ctx, server, req)
}

// Elicit asks the Elicitor, or declines.
func (p Pair) Elicit(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	if p.Elicitor == nil {
		return Decliner{}.Elicit(ctx, server, req)
	}
	return p.Elicitor.Elicit(ctx, server, req)
}

// ErrDeclined is what an Asker returns when the person (or the policy)
// declines a sampling request.
var ErrDeclined = errors.New("declined by the user")

// Decliner is the Asker of a face with nobody to ask: it declines sampling
// with Reason and declines every elicitation.
type Decliner struct{ Reason string }

// Sample declines.
func (d Decliner) Sample(context.Context, string, mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	if d.Reason != "" {
		return nil, fmt.Errorf("%w: %s", ErrDeclined, d.Reason)
	}
	return nil, ErrDeclined
}

// Elicit declines.
func (Decliner) Elicit(context.Context, string, mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}, nil
}

// Roots is the set of roots a client offers, shared by every session that
// uses it: Set tells each connected session's server (roots/list_changed).
// The zero value offers no roots; a nil *Roots in Options declares no roots
// capability at all.
type Roots struct {
	mu    sync.Mutex
	roots []mcp.Root
	subs  map[*Session]struct{}
}

// NewRoots offers the given directories as file:// roots. Relative paths
// are made absolute against the current directory.
func NewRoots(dirs ...string) (*Roots, error) {
	r := &Roots{}
	roots, err := DirRoots(dirs...)
	if err != nil {
		return nil, err
	}
	r.roots = roots
	return r, nil
}

// DirRoots turns directories into file:// roots named after their last
// element.
func DirRoots(dirs ...string) ([]mcp.Root, error) {
	out := make([]mcp.Root, 0, len(dirs))
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, fmt.Errorf("root %q: %w", d, err)
		}
		u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
		out = append(out, mcp.Root{URI: u.String(), Name: filepath.Base(abs)})
	}
	return out, nil
}

// DirRootsAt is DirRoots for directories as a person types them: relative
// ones start at cwd, and each must be a directory (the error names the
// first that is not). The command line's --root and the workbench's roots
// dialog both read them so.
func DirRootsAt(cwd string, dirs ...string) ([]mcp.Root, error) {
	abs := make([]string, len(dirs))
	for i, d := range dirs {
		if !filepath.IsAbs(d) {
			d = filepath.Join(cwd, d)
		}
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("%s: not a directory", dirs[i])
		}
		abs[i] = d
	}
	return DirRoots(abs...)
}

// List returns a copy of the roots offered now.
func (r *Roots) List() []mcp.Root {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.roots)
}

// Set replaces the roots and tells every connected session's server.
// Notification failures are reported on each session's event stream.
func (r *Roots) Set(roots []mcp.Root) {
	r.mu.Lock()
	if slices.Equal(r.roots, roots) {
		r.mu.Unlock()
		return
	}
	r.roots = slices.Clone(roots)
	subs := make([]*Session, 0, len(r.subs))
	for s := range r.subs {
		subs = append(subs, s)
	}
	r.mu.Unlock()
	for _, s := range subs {
		s.rootsChanged()
	}
}

func (r *Roots) attach(s *Session) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.subs == nil {
		r.subs = map[*Session]struct{}{}
	}
	r.subs[s] = struct{}{}
}

func (r *Roots) detach(s *Session) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.subs, s)
}

// rootsChanged sends notifications/roots/list_changed on the live
// connection, if there is one.
func (s *Session) rootsChanged() {
	c, err := s.current()
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, s.opts.CallTimeout)
	defer cancel()
	if err := c.client.RootListChanges(ctx); err != nil {
		s.events.publish(Event{Kind: EventNotice, Level: "warning", Text: "roots/list_changed: " + err.Error()})
	}
}

// clientSideOptions are the mcp-go client options that declare and answer
// the client capabilities the session's Options ask for.
func (s *Session) clientSideOptions() []client.ClientOption {
	var opts []client.ClientOption
	if s.opts.Roots != nil {
		opts = append(opts, client.WithRootsHandler(rootsHandler{s.opts.Roots}))
	}
	if s.opts.Asker != nil {
		h := askHandler{s: s}
		opts = append(opts,
			client.WithSamplingHandler(h),
			client.WithElicitationHandler(h),
			client.WithClientCapabilities(mcp.ClientCapabilities{
				Sampling:    &mcp.SamplingCapability{},
				Elicitation: &mcp.ElicitationCapability{Form: &struct{}{}, URL: &struct{}{}},
			}))
	}
	return opts
}

// inProcessHandlers give an in-process server (the demo, a test's) the
// same answers: its requests to the client do not travel as JSON-RPC, so
// mcp-go's client handlers above never see them.
func (s *Session) inProcessHandlers() []transport.InProcessOption {
	var opts []transport.InProcessOption
	if s.opts.Roots != nil {
		opts = append(opts, transport.WithRootsHandler(rootsHandler{s.opts.Roots}))
	}
	if s.opts.Asker != nil {
		h := askHandler{s: s}
		opts = append(opts, transport.WithSamplingHandler(h), transport.WithElicitationHandler(h))
	}
	return opts
}

type rootsHandler struct{ r *Roots }

func (h rootsHandler) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	roots := h.r.List()
	if roots == nil {
		roots = []mcp.Root{} // "roots": [], never null
	}
	return &mcp.ListRootsResult{Roots: roots}, nil
}

// askHandler adapts the session's Asker to mcp-go's handler interfaces,
// bounding the wait and telling the event stream who asked what.
type askHandler struct{ s *Session }

func (h askHandler) CreateMessage(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, h.s.opts.AskTimeout, ErrTimeout)
	defer cancel()
	h.s.events.publish(Event{Kind: EventNotice, Level: "info", Source: string(mcp.MethodSamplingCreateMessage), Text: "the server asks for a sampling reply"})
	res, err := h.s.opts.Asker.Sample(ctx, h.s.src.String(), req)
	if err != nil {
		h.s.events.publish(Event{Kind: EventNotice, Level: "info", Source: string(mcp.MethodSamplingCreateMessage), Text: "sampling: " + err.Error()})
		return nil, err
	}
	return res, nil
}

func (h askHandler) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, h.s.opts.AskTimeout, ErrTimeout)
	defer cancel()
	req = inSentOrder(ctx, req)
	h.s.events.publish(Event{Kind: EventNotice, Level: "info", Source: string(mcp.MethodElicitationCreate), Text: "the server asks: " + req.Params.Message})
	res, err := h.s.opts.Asker.Elicit(ctx, h.s.src.String(), req)
	if err != nil {
		return nil, err
	}
	h.s.events.publish(Event{Kind: EventNotice, Level: "info", Source: string(mcp.MethodElicitationCreate), Text: "elicitation: " + string(res.Action)})
	return res, nil
}
