package fleet

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// route is where a listed name goes: the upstream and its own name there.
type route struct {
	up   *upstream
	name string
}

// routes map what the fleet lists to the upstreams. They are replaced
// whole on every listing (immutable once stored).
type routes struct {
	tools     map[string]route
	prompts   map[string]route
	resources map[string]route // listed URI -> upstream and its URI
	templates []templateRoute  // in list order
}

type templateRoute struct {
	listed string // the template as listed
	up     *upstream
	orig   string
	tmpl   *mcp.URITemplate
}

// uriPrefix marks a URI (or template) the fleet rewrote because two
// upstreams list it: mcpterm-upstream:SERVER:URI, SERVER path-escaped.
const uriPrefix = "mcpterm-upstream:"

// namespacedURI is uri of server as listed when it clashes.
func namespacedURI(server, uri string) string {
	return uriPrefix + url.QueryEscape(server) + ":" + uri
}

// splitURI reads a namespaced URI back.
func splitURI(uri string) (server, orig string, ok bool) {
	rest, ok := strings.CutPrefix(uri, uriPrefix)
	if !ok {
		return "", "", false
	}
	esc, orig, ok := strings.Cut(rest, ":")
	if !ok {
		return "", "", false
	}
	server, err := url.QueryUnescape(esc)
	if err != nil {
		return "", "", false
	}
	return server, orig, true
}

// listedURI is how the fleet lists server's uri.
func (r *routes) listedURI(server, uri string) string {
	if rt, ok := r.resources[uri]; ok && rt.up.spec.Name == server {
		return uri
	}
	if ns := namespacedURI(server, uri); r.resources[ns].up != nil {
		return ns
	}
	return uri
}

// prefix is a server's name as the start of a namespaced tool or prompt
// name: MCP tool names allow [A-Za-z0-9_.-], and '.' is kept out so the
// name reads the same in every syntax.
func prefix(server string) string {
	var b strings.Builder
	for _, r := range server {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	if b.Len() == 0 {
		return "server"
	}
	return b.String()
}

// namer gives each (server, name) the name the fleet lists: the name
// itself when no other upstream has it, else SERVER_NAME, made unique with
// _2, _3 ... should that still clash with a listed name.
type namer struct {
	count map[string]int // how many upstreams have the name
	taken map[string]bool
}

func newNamer(names [][]string) *namer {
	n := &namer{count: map[string]int{}, taken: map[string]bool{}}
	for _, list := range names {
		seen := map[string]bool{}
		for _, name := range list {
			if !seen[name] {
				seen[name] = true
				n.count[name]++
			}
		}
	}
	for name, c := range n.count {
		if c == 1 {
			n.taken[name] = true
		}
	}
	return n
}

func (n *namer) name(server, name string) string {
	if n.count[name] <= 1 {
		return name
	}
	base := prefix(server) + "_" + name
	out := base
	for i := 2; n.taken[out]; i++ {
		out = base + "_" + strconv.Itoa(i)
	}
	n.taken[out] = true
	return out
}

// mergeTools builds the fleet's tool list and its routes from each
// upstream's snapshot (nil: nothing known yet).
func mergeTools(ups []*upstream, snaps []*snapshot) (*routes, *toolset.Set) {
	var names [][]string
	for _, s := range snaps {
		var list []string
		if s != nil && s.tools != nil {
			for _, t := range s.tools.Tools {
				list = append(list, t.Name)
			}
		}
		names = append(names, list)
	}
	nm := newNamer(names)
	rt := &routes{tools: map[string]route{}}
	var servers []string
	set := &toolset.Set{}
	for i, u := range ups {
		servers = append(servers, u.spec.Name)
		s := snaps[i]
		if s == nil || s.tools == nil {
			continue
		}
		for _, t := range s.tools.Tools {
			c := *t
			c.Server = u.spec.Name
			c.Name = nm.name(u.spec.Name, t.Name)
			rt.tools[c.Name] = route{up: u, name: t.Name}
			set.Tools = append(set.Tools, &c)
		}
	}
	set.Server = strings.Join(servers, ", ")
	set.Source = "config servers " + set.Server
	return rt, set
}

// mergeResources builds the fleet's resources, templates and prompts and
// their routes; tools routes are kept from old.
func mergeResources(old *routes, ups []*upstream, snaps []*snapshot) (*routes, []mcp.Resource, []mcp.ResourceTemplate, []mcp.Prompt) {
	rt := &routes{tools: old.tools, prompts: map[string]route{}, resources: map[string]route{}}
	uriCount, tmplCount := map[string]int{}, map[string]int{}
	var promptNames [][]string
	for _, s := range snaps {
		var list []string
		if s != nil {
			for _, r := range s.resources {
				uriCount[r.URI]++
			}
			for _, t := range s.templates {
				tmplCount[templateText(t)]++
			}
			for _, p := range s.prompts {
				list = append(list, p.Name)
			}
		}
		promptNames = append(promptNames, list)
	}
	nm := newNamer(promptNames)
	var res []mcp.Resource
	var tmpls []mcp.ResourceTemplate
	var prompts []mcp.Prompt
	for i, u := range ups {
		s := snaps[i]
		if s == nil {
			continue
		}
		name := u.spec.Name
		for _, r := range s.resources {
			listed := r.URI
			if uriCount[r.URI] > 1 {
				listed = namespacedURI(name, r.URI)
			}
			if _, dup := rt.resources[listed]; dup {
				continue // one server listing a URI twice
			}
			rt.resources[listed] = route{up: u, name: r.URI}
			r.URI = listed
			res = append(res, r)
		}
		for _, t := range s.templates {
			orig := templateText(t)
			listed := orig
			if tmplCount[orig] > 1 {
				listed = namespacedURI(name, orig)
				if ut := parseTemplate(listed); ut != nil {
					t.URITemplate = ut
				}
			}
			rt.templates = append(rt.templates, templateRoute{listed: listed, up: u, orig: orig, tmpl: t.URITemplate})
			tmpls = append(tmpls, t)
		}
		for _, p := range s.prompts {
			orig := p.Name
			p.Name = nm.name(name, orig)
			rt.prompts[p.Name] = route{up: u, name: orig}
			prompts = append(prompts, p)
		}
	}
	return rt, res, tmpls, prompts
}

// parseTemplate reads an RFC 6570 template (through mcp-go's own JSON
// reader, which reports a bad one rather than panicking); nil if invalid.
func parseTemplate(s string) *mcp.URITemplate {
	b, _ := json.Marshal(s)
	var ut mcp.URITemplate
	if json.Unmarshal(b, &ut) != nil || ut.Template == nil {
		return nil
	}
	return &ut
}

func templateText(t mcp.ResourceTemplate) string {
	if t.URITemplate == nil || t.URITemplate.Template == nil {
		return ""
	}
	return t.URITemplate.Raw()
}

// label is an upstream-chosen name fit for an operator note.
func label(s string) string { return safe.Sanitize(s, safe.Options{SingleLine: true, Max: 200}) }
