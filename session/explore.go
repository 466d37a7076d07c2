package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// Bounds on listing, so a server that pages forever or lists absurdly many
// items is stopped with a clear error instead of exhausting memory.
const (
	maxPages     = 1000
	maxListItems = 100_000
)

// MaxToolDepth is the deepest nesting of JSON a tool definition may have
// (the tool object is level 1, its inputSchema level 2, a property's schema
// level 4, ...), about 60 levels of nested object properties. Every stage a
// tool goes through (JSON decoding, schema compiling, the MCP-Term
// renderings, argument checking, token counting) handles this much. A tool
// nested deeper is set aside with a reason, like a tool without a name, and
// the server's other tools stay listed and callable.
const MaxToolDepth = 128

type listKind int

const (
	listTools listKind = iota
	listResources
	listTemplates
	listPrompts
	numLists
)

func (k listKind) String() string {
	return [...]string{"tools", "resources", "resource templates", "prompts"}[k]
}

// lists caches what the server listed. A list_changed notification marks a
// list stale and refreshes it in the background (at most one refresh per
// list at a time, however many notifications arrive), then publishes an
// EventListChanged.
type lists struct {
	mu      sync.Mutex
	fetchMu [numLists]sync.Mutex
	valid   [numLists]bool
	version [numLists]uint64 // bumped on every invalidation
	busy    [numLists]bool
	again   [numLists]bool

	tools     *toolset.Set
	warnings  []string
	resources []mcp.Resource
	templates []mcp.ResourceTemplate
	prompts   []mcp.Prompt
}

func (l *lists) invalidateAll() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for k := range l.valid {
		l.valid[k] = false
		l.version[k]++
	}
}

func (s *Session) listChanged(k listKind) {
	l := &s.lists
	l.mu.Lock()
	l.valid[k] = false
	l.version[k]++
	if l.busy[k] {
		l.again[k] = true
		l.mu.Unlock()
		return
	}
	l.busy[k] = true
	l.mu.Unlock()
	go s.refresh(k)
}

func (s *Session) refresh(k listKind) {
	l := &s.lists
	for {
		ctx, cancel := context.WithTimeoutCause(s.ctx, s.opts.CallTimeout, ErrTimeout)
		var n int
		var err error
		switch k {
		case listTools:
			var set *toolset.Set
			set, err = s.Tools(ctx)
			if set != nil {
				n = len(set.Tools)
			}
		case listResources:
			var rs []mcp.Resource
			rs, err = s.Resources(ctx)
			n = len(rs)
			if err == nil {
				_, _ = s.ResourceTemplates(ctx)
			}
		case listPrompts:
			var ps []mcp.Prompt
			ps, err = s.Prompts(ctx)
			n = len(ps)
		}
		cancel()
		if s.ctx.Err() != nil {
			return
		}
		if err != nil {
			s.events.publish(Event{Kind: EventNotice, Level: "warning", Source: k.String(), Text: fmt.Sprintf("refreshing %s after list_changed: %v", k, err)})
		} else {
			s.events.publish(Event{Kind: EventListChanged, Source: k.String(), Text: fmt.Sprintf("%d %s", n, k)})
		}
		l.mu.Lock()
		if !l.again[k] {
			l.busy[k] = false
			l.mu.Unlock()
			return
		}
		l.again[k] = false
		l.mu.Unlock()
	}
}

// cached runs fetch unless the list is valid, storing its result under the
// version it was fetched for (a list_changed during the fetch leaves the list
// stale, so the next call fetches again).
func (s *Session) cached(k listKind, fetch func() error) error {
	l := &s.lists
	l.fetchMu[k].Lock()
	defer l.fetchMu[k].Unlock()
	l.mu.Lock()
	if l.valid[k] {
		l.mu.Unlock()
		return nil
	}
	v := l.version[k]
	l.mu.Unlock()
	if err := fetch(); err != nil {
		return err
	}
	l.mu.Lock()
	if l.version[k] == v {
		l.valid[k] = true
	}
	l.mu.Unlock()
	return nil
}

// Tools returns the server's tools, all pages, each tool's JSON exactly as
// the server sent it (mcp-go's typed list would drop unknown keys and reorder
// schema properties, which would make token counts dishonest). Tools that
// cannot be read at all (no name, duplicates) are left out and reported by
// ToolWarnings and as notice events.
func (s *Session) Tools(ctx context.Context) (*toolset.Set, error) {
	if s.offline != nil {
		return s.offline, nil
	}
	c, err := s.current()
	if err != nil {
		return nil, err
	}
	err = s.cached(listTools, func() error {
		items, aside, err := s.rawPages(ctx, c, "tools/list", "tools", func(ctx context.Context, cursor mcp.Cursor) error {
			req := mcp.ListToolsRequest{}
			req.Params.Cursor = cursor
			_, err := c.client.ListToolsByPage(ctx, req)
			return err
		})
		var rpc *RPCError
		if errors.As(err, &rpc) && rpc.Code == mcp.METHOD_NOT_FOUND && c.info.Capabilities.Tools == nil {
			// A server without the tools capability has no tools.
			items, aside, err = nil, nil, nil
		}
		if err != nil {
			return err
		}
		set, warnings := buildSet(items)
		set.Server, set.Version, set.Source = c.info.Name, c.info.Version, s.src.String()
		for _, w := range warnings {
			s.events.publish(Event{Kind: EventNotice, Level: "warning", Source: "tools", Text: w})
		}
		warnings = append(aside, warnings...)
		s.lists.mu.Lock()
		s.lists.tools, s.lists.warnings = set, warnings
		s.lists.mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.lists.mu.Lock()
	defer s.lists.mu.Unlock()
	return s.lists.tools, nil
}

// ToolWarnings lists the tools of the last listing that were left out, and why.
func (s *Session) ToolWarnings() []string {
	s.lists.mu.Lock()
	defer s.lists.mu.Unlock()
	return append([]string(nil), s.lists.warnings...)
}

func buildSet(items []*ojson.Value) (*toolset.Set, []string) {
	deep := false
	for _, item := range items {
		deep = deep || valueDepth(item, MaxToolDepth+1) > MaxToolDepth
	}
	if !deep {
		if set, err := toolset.FromValue(ojson.NewArray(items...)); err == nil {
			return set, nil
		}
	}
	set := &toolset.Set{}
	var warnings []string
	seen := map[string]bool{}
	for i, item := range items {
		if d := valueDepth(item, ojson.MaxDepth+1); d > MaxToolDepth {
			warnings = append(warnings, tooDeep(fmt.Sprintf("tools[%d]", i), item.Get("name").StringOr(""), d))
			continue
		}
		t, err := toolset.ToolFromValue(item)
		switch {
		case err != nil:
			warnings = append(warnings, fmt.Sprintf("tools[%d] left out: %v", i, err))
		case seen[t.Name]:
			warnings = append(warnings, fmt.Sprintf("tools[%d] left out: duplicate name %q", i, t.Name))
		default:
			seen[t.Name] = true
			set.Tools = append(set.Tools, t)
		}
	}
	return set, warnings
}

// setAsideDeep applies MaxToolDepth to a saved tool list (--tools): the
// tools nested deeper are left out, with the reasons, in a copy of set.
func setAsideDeep(set *toolset.Set) (*toolset.Set, []string) {
	var warnings []string
	var keep []*toolset.Tool
	for i, t := range set.Tools {
		if d := valueDepth(t.Raw, ojson.MaxDepth+1); d > MaxToolDepth {
			warnings = append(warnings, tooDeep(fmt.Sprintf("tools[%d]", i), t.Name, d))
			continue
		}
		keep = append(keep, t)
	}
	if warnings == nil {
		return set, nil
	}
	cp := *set
	cp.Tools = keep
	return &cp, warnings
}

// valueDepth is how deeply v nests (a scalar is 0, an empty object 1),
// looking no further than limit levels.
func valueDepth(v *ojson.Value, limit int) int {
	if v == nil || limit <= 0 || (v.Kind != ojson.Object && v.Kind != ojson.Array) {
		return 0
	}
	d := 0
	for _, it := range v.Items {
		d = max(d, valueDepth(it, limit-1))
	}
	for _, m := range v.Members {
		d = max(d, valueDepth(m.Value, limit-1))
	}
	return d + 1
}

// tooDeep is the reason an item nested deeper than MaxToolDepth is set aside.
func tooDeep(where, name string, depth int) string {
	if name != "" {
		where += " " + strconv.Quote(clipText(name, 80))
	}
	return fmt.Sprintf("%s left out: it is nested %s levels deep; mcpterm supports %d (MaxToolDepth)", where, groupDigits(depth), MaxToolDepth)
}

// parsePage reads one list page. A page holding an item too deep for ojson
// (past ojson.MaxDepth) is read again item by item, and those items are set
// aside with a reason rather than losing the whole list; first is the
// index of the page's first item in the whole list.
func parsePage(raw []byte, member string, first int) (*ojson.Value, []string, error) {
	v, err := ojson.Parse(raw)
	if err == nil || !errors.Is(err, ojson.ErrTooDeep) {
		return v, nil, err
	}
	var page map[string]json.RawMessage
	if json.Unmarshal(raw, &page) != nil {
		return nil, nil, err
	}
	var list []json.RawMessage
	if json.Unmarshal(page[member], &list) != nil {
		return nil, nil, err
	}
	out := ojson.NewObject()
	var items []*ojson.Value
	var aside []string
	for i, b := range list {
		it, ierr := ojson.Parse(b)
		if ierr != nil {
			var named struct {
				Name string `json:"name"`
			}
			_ = json.Unmarshal(b, &named)
			depth, _, _ := scanLine(b)
			aside = append(aside, tooDeep(fmt.Sprintf("%s[%d]", member, first+i), named.Name, depth))
			continue
		}
		items = append(items, it)
	}
	out.Set(member, ojson.NewArray(items...))
	if c, ok := page["nextCursor"]; ok {
		if cv, cerr := ojson.Parse(c); cerr == nil {
			out.Set("nextCursor", cv)
		}
	}
	return out, aside, nil
}

// rawPages follows nextCursor through every page of a list method, sending
// each request through mcp-go (which adds the protocol's per-request
// metadata) and reading the answer from the tap's capture.
//
// Items set aside as too deep (see parsePage) are published as notices and
// returned in setAside.
func (s *Session) rawPages(ctx context.Context, c *conn, method, member string, send func(context.Context, mcp.Cursor) error) (items []*ojson.Value, setAside []string, err error) {
	ctx, cancel := context.WithTimeoutCause(ctx, s.opts.CallTimeout, ErrTimeout)
	defer cancel()
	seen := map[string]bool{"": true}
	cursor := ""
	for page := 1; ; page++ {
		if page > maxPages {
			return nil, nil, &ProtocolError{Op: method, Err: fmt.Errorf("more than %d pages; stopped", maxPages)}
		}
		pctx, capt := withCapture(ctx)
		err := send(pctx, mcp.Cursor(cursor))
		raw, rpcErr, done := capt.result()
		if !done || rpcErr != nil {
			if err == nil {
				err = errors.New("no answer")
			}
			return nil, nil, s.classify(pctx, err, capt, method)
		}
		// A typed-decoding error from mcp-go is ignored on purpose: the raw
		// page is what counts.
		v, aside, perr := parsePage(raw, member, len(items))
		if perr != nil {
			return nil, nil, &ProtocolError{Op: method, Err: fmt.Errorf("page %d: %v", page, perr)}
		}
		list := v.Get(member)
		if list == nil || list.Kind != ojson.Array {
			return nil, nil, &ProtocolError{Op: method, Err: fmt.Errorf("page %d has no %q array", page, member)}
		}
		for _, w := range aside {
			s.events.publish(Event{Kind: EventNotice, Level: "warning", Source: method, Text: w})
		}
		setAside = append(setAside, aside...)
		items = append(items, list.Items...)
		if len(items) > maxListItems {
			return nil, nil, &ProtocolError{Op: method, Err: fmt.Errorf("more than %d items; stopped", maxListItems)}
		}
		next := v.Get("nextCursor").StringOr("")
		if next == "" {
			return items, setAside, nil
		}
		if seen[next] {
			return nil, nil, &ProtocolError{Op: method, Err: fmt.Errorf("page %d repeats cursor %q; stopped", page, clipText(next, 80))}
		}
		seen[next] = true
		cursor = next
	}
}

// typedPages lists every page of a list method into T, through the raw pages.
func typedPages[T any](ctx context.Context, s *Session, c *conn, method, member string, send func(context.Context, mcp.Cursor) error) ([]T, error) {
	items, _, err := s.rawPages(ctx, c, method, member, send)
	if err != nil {
		return nil, err
	}
	out := make([]T, 0, len(items))
	for i, it := range items {
		var x T
		if err := json.Unmarshal([]byte(it.Compact()), &x); err != nil {
			s.events.publish(Event{Kind: EventNotice, Level: "warning", Source: method, Text: fmt.Sprintf("%s[%d] left out: %v", member, i, err)})
			continue
		}
		out = append(out, x)
	}
	return out, nil
}

// Resources lists the server's resources (all pages). A server without the
// resources capability has none.
func (s *Session) Resources(ctx context.Context) ([]mcp.Resource, error) {
	return cachedList(ctx, s, listResources, "resources/list", "resources",
		func(c *conn) bool { return c.info.Capabilities.Resources != nil },
		func(l *lists) *[]mcp.Resource { return &l.resources },
		func(ctx context.Context, c *conn, cur mcp.Cursor) error {
			req := mcp.ListResourcesRequest{}
			req.Params.Cursor = cur
			_, err := c.client.ListResourcesByPage(ctx, req)
			return err
		})
}

// ResourceTemplates lists the server's resource templates (all pages).
func (s *Session) ResourceTemplates(ctx context.Context) ([]mcp.ResourceTemplate, error) {
	return cachedList(ctx, s, listTemplates, "resources/templates/list", "resourceTemplates",
		func(c *conn) bool { return c.info.Capabilities.Resources != nil },
		func(l *lists) *[]mcp.ResourceTemplate { return &l.templates },
		func(ctx context.Context, c *conn, cur mcp.Cursor) error {
			req := mcp.ListResourceTemplatesRequest{}
			req.Params.Cursor = cur
			_, err := c.client.ListResourceTemplatesByPage(ctx, req)
			return err
		})
}

// Prompts lists the server's prompts (all pages).
func (s *Session) Prompts(ctx context.Context) ([]mcp.Prompt, error) {
	return cachedList(ctx, s, listPrompts, "prompts/list", "prompts",
		func(c *conn) bool { return c.info.Capabilities.Prompts != nil },
		func(l *lists) *[]mcp.Prompt { return &l.prompts },
		func(ctx context.Context, c *conn, cur mcp.Cursor) error {
			req := mcp.ListPromptsRequest{}
			req.Params.Cursor = cur
			_, err := c.client.ListPromptsByPage(ctx, req)
			return err
		})
}

// cachedList fetches every page of one list into its slot of s.lists, once
// until a list_changed notification invalidates it. A server without the
// capability has an empty list.
func cachedList[T any](ctx context.Context, s *Session, kind listKind, method, member string,
	capable func(*conn) bool, slot func(*lists) *[]T,
	send func(ctx context.Context, c *conn, cur mcp.Cursor) error) ([]T, error) {
	c, err := s.current()
	if err != nil {
		return nil, err
	}
	if !capable(c) {
		return nil, nil
	}
	err = s.cached(kind, func() error {
		items, err := typedPages[T](ctx, s, c, method, member, func(ctx context.Context, cur mcp.Cursor) error {
			return send(ctx, c, cur)
		})
		if err == nil {
			s.lists.mu.Lock()
			*slot(&s.lists) = items
			s.lists.mu.Unlock()
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	s.lists.mu.Lock()
	defer s.lists.mu.Unlock()
	return *slot(&s.lists), nil
}

// ResourceContents is a resources/read answer: Raw as sent, Result typed
// (text and blob contents).
type ResourceContents struct {
	URI    string
	Raw    *ojson.Value
	Result *mcp.ReadResourceResult
}

// ReadResource reads one resource by URI (including URIs made from a
// resource template).
func (s *Session) ReadResource(ctx context.Context, uri string) (*ResourceContents, error) {
	c, err := s.current()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeoutCause(ctx, s.opts.CallTimeout, ErrTimeout)
	defer cancel()
	ctx, capt := withCapture(ctx)
	req := mcp.ReadResourceRequest{}
	req.Params.URI = uri
	res, err := c.client.ReadResource(ctx, req)
	if err != nil {
		return nil, s.classify(ctx, err, capt, "resources/read")
	}
	out := &ResourceContents{URI: uri, Result: res}
	if raw, _, ok := capt.result(); ok {
		out.Raw, _ = ojson.Parse(raw)
	}
	return out, nil
}

// PromptMessages is a prompts/get answer: Raw as sent, Result typed.
type PromptMessages struct {
	Name   string
	Raw    *ojson.Value
	Result *mcp.GetPromptResult
}

// GetPrompt renders a prompt with its arguments.
func (s *Session) GetPrompt(ctx context.Context, name string, args map[string]string) (*PromptMessages, error) {
	c, err := s.current()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeoutCause(ctx, s.opts.CallTimeout, ErrTimeout)
	defer cancel()
	ctx, capt := withCapture(ctx)
	req := mcp.GetPromptRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.client.GetPrompt(ctx, req)
	if err != nil {
		return nil, s.classify(ctx, err, capt, "prompts/get")
	}
	out := &PromptMessages{Name: name, Result: res}
	if raw, _, ok := capt.result(); ok {
		out.Raw, _ = ojson.Parse(raw)
	}
	return out, nil
}
