package fleet

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/config"
)

// Config turns an mcpServers config into the fleet's upstreams, each
// resolved as `--server NAME` resolves it (session.Resolve: the trust rule
// for project configs, the entry's env and headers, the selection's
// timeouts, --env and --inherit-env) and opened with session.Connect.
type Config struct {
	// Selection holds the flags every upstream shares (--config files,
	// --trust-project, --timeout, --env, ...); its Server is set per entry.
	Selection session.Selection
	// Names are the entries to serve (--servers); All serves every entry
	// not marked disabled (--all).
	Names []string
	All   bool
	Env   session.Env
	// Base is every upstream's session options; its Asker and Roots are
	// shared by all of them (the gateway's Forwarder and roots).
	Base session.Options
	// Notef hears the trust rule's notices.
	Notef func(format string, args ...any)

	mu       sync.Mutex
	loaded   bool
	roots    *session.Roots
	redactor *safe.Redactor
	key      string
	// inherited is the chain this gateway was started under (loop.go).
	inherited string
	// read are the files the last good Load read.
	read []string
}

// Load reads the config and resolves the chosen entries. The first call
// fails for a name the config lacks (a typo on the command line); later
// ones (a reload) report it on the entry.
func (c *Config) Load() ([]Spec, []string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	env := c.Env.WithDefaults()
	set, err := config.Open(config.Env{Cwd: env.Cwd, Home: env.Home, Getenv: env.Getenv}, c.Selection.Configs)
	if err != nil {
		return nil, nil, err
	}
	var read []string
	for _, src := range set.Files() {
		read = append(read, src.Path)
	}
	if c.loaded {
		// Discovery sets a broken file aside and serves the others; for a
		// reload that would stop the servers of a file saved half-written
		// or with a typo. A file read last time that is still there but
		// cannot be read now fails the reload instead, so the fleet keeps
		// what it has and says why.
		for _, p := range c.read {
			if _, err := os.Stat(p); err == nil && !slices.Contains(read, p) {
				return nil, nil, errors.Join(set.Problems()...)
			}
		}
	}
	// Files given with --config, and the places discovery looked, are
	// watched even when they are missing or broken (a later write brings
	// them in).
	files := slices.Clone(read)
	for _, p := range append(slices.Clone(c.Selection.Configs), set.Searched()...) {
		if !slices.Contains(files, p) {
			files = append(files, p)
		}
	}
	names := c.Names
	if c.All {
		names = nil
		disabled := map[string]bool{}
		for _, e := range set.Entries() {
			if !e.Shadowed {
				disabled[e.Name] = e.Disabled
			}
		}
		for _, n := range set.Names() {
			if !disabled[n] {
				names = append(names, n)
			}
		}
	}
	if !c.loaded {
		known := set.Names()
		for _, n := range names {
			if !slices.Contains(known, n) {
				_, _, err := set.Find(n)
				return nil, nil, &session.UsageError{Msg: err.Error(), Err: err}
			}
		}
		if len(names) == 0 {
			where := "no MCP client config with servers was found (mcpterm servers shows where it looked)"
			if len(c.Selection.Configs) > 0 {
				where = "no servers (not marked disabled) in " + strings.Join(c.Selection.Configs, ", ")
			}
			return nil, nil, &session.UsageError{Msg: where}
		}
		// The key is what the gateway reads, not every place it watches.
		c.key = chainKey(append(slices.Clone(read), c.Selection.Configs...), names)
	}
	c.loaded = true
	c.read = read
	if c.redactor == nil {
		c.redactor = safe.NewRedactor(nil)
	}
	chain := c.chainValue()
	var specs []Spec
	for _, n := range names {
		specs = append(specs, c.spec(n, env, chain))
	}
	return specs, files, nil
}

func (c *Config) spec(name string, env session.Env, chain string) Spec {
	sel := c.Selection
	sel.Server = name
	base := c.Base
	if c.roots != nil {
		base.Roots = c.roots
	}
	t, err := session.Resolve(sel, env, base)
	if err != nil {
		return Spec{Name: name, Err: err}
	}
	if c.roots == nil {
		// Every upstream is offered the same roots: the gateway sets
		// its clients' roots through this one set.
		c.roots = t.Options.Roots
	}
	if t.Trust != nil && c.Notef != nil {
		for _, n := range t.Trust.Notices {
			c.Notef("%s: %s", name, n)
		}
	}
	if t.Source.Kind == session.Stdio {
		// A gateway started under this one knows where it stands (loop.go).
		t.Source.Env = maps.Clone(t.Source.Env)
		if t.Source.Env == nil {
			t.Source.Env = map[string]string{}
		}
		t.Source.Env[ChainEnv] = chain
	} else if t.Source.URL != "" {
		// So does a gateway serving HTTP (LoopCheck).
		t.Source.Headers = maps.Clone(t.Source.Headers)
		if t.Source.Headers == nil {
			t.Source.Headers = map[string]string{}
		}
		t.Source.Headers[ChainHeader] = chain
	}
	c.redactor.Add(secretsOf(t)...)
	return Spec{
		Name:        name,
		Fingerprint: fingerprint(t.Source),
		Dial:        func(ctx context.Context) (*session.Session, error) { return session.Connect(ctx, t) },
		Close:       func() { t.Close() },
	}
}

// secretsOf are a target's secrets, for the fleet's one redactor.
func secretsOf(t *session.Target) []string {
	var out []string
	for k, v := range t.Source.Env {
		if safe.IsSecretEnv(k) || safe.SecretValue(v) {
			out = append(out, v)
		}
	}
	for k, v := range t.Source.Headers {
		if k != ChainHeader {
			out = append(out, v)
		}
	}
	return out
}

// Roots is the roots set every upstream shares (nil before the first
// entry resolved).
func (c *Config) Roots() *session.Roots {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.roots
}

// Redactor hides the secrets of every entry resolved so far (and later
// ones, as they are added).
func (c *Config) Redactor() *safe.Redactor {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.redactor == nil {
		c.redactor = safe.NewRedactor(nil)
	}
	return c.redactor
}

// Key identifies this gateway for loop detection (loop.go).
func (c *Config) Key() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.key
}

// fingerprint is a hash of everything that makes a connection what it is.
func fingerprint(src session.Source) string {
	b, _ := json.Marshal(struct {
		Kind                        session.SourceKind
		Command, Dir, URL, TokenEnv string
		Args                        []string
		Env, Headers                map[string]string
		InheritEnv                  bool
	}{src.Kind, src.Command, src.Dir, src.URL, src.BearerTokenEnv, src.Args, withoutKey(src.Env, ChainEnv), withoutKey(src.Headers, ChainHeader), src.InheritEnv})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// withoutKey is m without key (the chain, which is no part of what an
// entry connects to).
func withoutKey(m map[string]string, key string) map[string]string {
	if _, ok := m[key]; !ok {
		return m
	}
	out := maps.Clone(m)
	delete(out, key)
	return out
}

// chainKey identifies a gateway by the config files it reads and the
// entries it serves: a gateway started (however indirectly) by one with
// the same key would start itself again.
func chainKey(files, names []string) string {
	var abs []string
	for _, f := range files {
		if a, err := filepath.Abs(f); err == nil {
			f = a
		}
		abs = append(abs, filepath.Clean(f))
	}
	slices.Sort(abs)
	abs = slices.Compact(abs)
	n := slices.Sorted(slices.Values(names))
	sum := sha256.Sum256([]byte(strings.Join(abs, "\x00") + "\x01" + strings.Join(n, "\x00")))
	return hex.EncodeToString(sum[:12])
}
