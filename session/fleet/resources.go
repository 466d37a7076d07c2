package fleet

import (
	"context"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/session"
)

// merged lists every upstream's resources, templates and prompts and
// stores the routes for them.
func (f *Fleet) merged(ctx context.Context) ([]mcp.Resource, []mcp.ResourceTemplate, []mcp.Prompt) {
	ups := f.upstreams()
	snaps := f.gather(ctx, ups)
	rt, res, tmpls, prompts := mergeResources(f.routes.Load(), ups, snaps)
	f.routes.Store(rt)
	return res, tmpls, prompts
}

// Resources is every upstream's resources, a URI two list namespaced as
// mcpterm-upstream:SERVER:URI.
func (f *Fleet) Resources(ctx context.Context) ([]mcp.Resource, error) {
	res, _, _ := f.merged(ctx)
	return res, nil
}

// ResourceTemplates is every upstream's templates, namespaced as resources
// are where two list the same template.
func (f *Fleet) ResourceTemplates(ctx context.Context) ([]mcp.ResourceTemplate, error) {
	_, t, _ := f.merged(ctx)
	return t, nil
}

// Prompts is every upstream's prompts, a name two share namespaced as
// SERVER_NAME.
func (f *Fleet) Prompts(ctx context.Context) ([]mcp.Prompt, error) {
	_, _, p := f.merged(ctx)
	return p, nil
}

// owner finds the upstream of a URI: named in it (mcpterm-upstream:), as
// listed, or by a template it matches. ok is false when nobody claims it.
func (f *Fleet) owner(uri string) (u *upstream, orig string, ok bool) {
	if server, orig, ok := splitURI(uri); ok {
		if u := f.byName(server); u != nil {
			return u, orig, true
		}
	}
	rt := f.routes.Load()
	if r, ok := rt.resources[uri]; ok {
		return r.up, r.name, true
	}
	for _, t := range rt.templates {
		if t.tmpl != nil && t.tmpl.Template != nil && t.tmpl.Regexp().MatchString(uri) {
			if server, orig, ok := splitURI(uri); ok && server == t.up.spec.Name {
				return t.up, orig, true
			}
			return t.up, uri, true
		}
	}
	return nil, "", false
}

// ReadResource reads uri from the upstream that owns it; a URI nobody
// listed (a resource link in a tool's result) is tried on each upstream
// with resources, in config order, until one reads it.
func (f *Fleet) ReadResource(ctx context.Context, uri string) (*session.ResourceContents, error) {
	if u, orig, ok := f.owner(uri); ok {
		return u.read(ctx, f, orig, uri)
	}
	var errs []error
	for _, u := range f.upstreams() {
		info, known := u.info()
		if !known || info.Capabilities.Resources == nil {
			continue
		}
		rc, err := u.read(ctx, f, uri, uri)
		if err == nil {
			return rc, nil
		}
		if ctx.Err() != nil {
			return nil, err
		}
		errs = append(errs, err)
	}
	if len(errs) == 0 {
		return nil, &session.RPCError{Method: "resources/read", Code: mcp.RESOURCE_NOT_FOUND, Message: fmt.Sprintf("no upstream has resource %q", uri)}
	}
	return nil, errors.Join(errs...)
}

func (u *upstream) read(ctx context.Context, f *Fleet, orig, listed string) (*session.ResourceContents, error) {
	s, err := u.await(ctx, f.opts.RestartWait)
	if err != nil {
		return nil, err
	}
	rc, err := s.ReadResource(ctx, orig)
	if err != nil {
		return nil, u.failed(s, "resources/read", err)
	}
	rc.URI = listed
	return rc, nil
}

// GetPrompt gets the prompt from its upstream under the upstream's name.
func (f *Fleet) GetPrompt(ctx context.Context, name string, args map[string]string) (*session.PromptMessages, error) {
	r, ok := f.promptRoute(ctx, name)
	if !ok {
		return nil, &session.RPCError{Method: "prompts/get", Code: mcp.INVALID_PARAMS, Message: fmt.Sprintf("no upstream has a prompt %q", name)}
	}
	s, err := r.up.await(ctx, f.opts.RestartWait)
	if err != nil {
		return nil, err
	}
	pm, err := s.GetPrompt(ctx, r.name, args)
	if err != nil {
		return nil, r.up.failed(s, "prompts/get", err)
	}
	pm.Name = name
	return pm, nil
}

func (f *Fleet) promptRoute(ctx context.Context, name string) (route, bool) {
	r, ok := f.routes.Load().prompts[name]
	if !ok {
		f.merged(ctx) // not listed yet by this fleet
		r, ok = f.routes.Load().prompts[name]
	}
	return r, ok
}

// Complete asks the upstream that owns the prompt or template.
func (f *Fleet) Complete(ctx context.Context, ref session.CompleteRef, arg, value string, filled map[string]string) (*session.Completion, error) {
	var u *upstream
	orig := ref
	switch {
	case ref.Prompt != "":
		r, ok := f.promptRoute(ctx, ref.Prompt)
		if !ok {
			return nil, &session.RPCError{Method: "completion/complete", Code: mcp.INVALID_PARAMS, Message: fmt.Sprintf("no upstream has a prompt %q", ref.Prompt)}
		}
		u, orig.Prompt = r.up, r.name
	default:
		for _, t := range f.routes.Load().templates {
			if t.listed == ref.URI {
				u, orig.URI = t.up, t.orig
				break
			}
		}
		if u == nil {
			var ok bool
			if u, orig.URI, ok = f.owner(ref.URI); !ok {
				return nil, &session.RPCError{Method: "completion/complete", Code: mcp.INVALID_PARAMS, Message: fmt.Sprintf("no upstream has %q", ref.URI)}
			}
		}
	}
	s, err := u.await(ctx, f.opts.RestartWait)
	if err != nil {
		return nil, err
	}
	c, err := s.Complete(ctx, orig, arg, value, filled)
	if err != nil {
		return nil, u.failed(s, "completion/complete", err)
	}
	return c, nil
}

// SubscribeResource subscribes at the upstream that owns uri (the session
// keeps it across the upstream's reconnects; a restarted upstream is a new
// session, which the gateway's subscriptions survive as a list_changed).
func (f *Fleet) SubscribeResource(ctx context.Context, uri string) error {
	u, orig, ok := f.owner(uri)
	if !ok {
		return &session.RPCError{Method: "resources/subscribe", Code: mcp.INVALID_PARAMS, Message: fmt.Sprintf("no upstream has resource %q", uri)}
	}
	s, err := u.await(ctx, f.opts.RestartWait)
	if err != nil {
		return err
	}
	return s.SubscribeResource(ctx, orig)
}

// UnsubscribeResource undoes SubscribeResource.
func (f *Fleet) UnsubscribeResource(ctx context.Context, uri string) error {
	u, orig, ok := f.owner(uri)
	if !ok {
		return nil
	}
	if s := u.live(); s != nil {
		return s.UnsubscribeResource(ctx, orig)
	}
	return nil
}
