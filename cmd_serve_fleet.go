package main

import (
	"context"
	"fmt"
	"net"
	"path/filepath"

	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/fleet"
	"github.com/mcpterm/mcpterm/session/gateway"
	"github.com/mcpterm/mcpterm/session/history"
	"github.com/mcpterm/mcpterm/session/policy"
)

// serveFleet is serve over many config entries (--servers, --all): a
// session/fleet behind the gateway, which serves it like one upstream.
func (c *cli) serveFleet(ctx context.Context, sf *serverFlags, vf *serveFlags, opts gateway.Options, plan listenPlan, base session.Options, ready func(net.Addr)) int {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(c.stderr, "mcpterm serve: %s\n", fmt.Sprintf(format, args...))
		return exitUsage
	}
	names, err := configEntries(vf.servers, vf.all, sf, "serve")
	if err != nil {
		return fail("%v", err)
	}
	start, err := fleet.ParseStart(vf.start)
	if err != nil {
		return fail("%v", err)
	}
	base.ClientVersion = c.clientVersion()
	base.OAuthNotify = c.oauthNotify("serve")
	note := func(format string, args ...any) {
		fmt.Fprintf(c.stderr, "mcpterm serve: %s\n", c.clean(nil, fmt.Sprintf(format, args...)))
	}
	cfg := &fleet.Config{Selection: sf.Selection, Names: names, All: vf.all, Env: c.env(), Base: base, Notef: note}
	cfg.SetChain(c.getenv(fleet.ChainEnv))
	fopts := fleet.Options{Start: start, Load: cfg.Load, Notef: func(format string, args ...any) {
		note("%s", cfg.Redactor().Redact(fmt.Sprintf(format, args...)))
	}}
	fopts.CacheDir = c.fleetCacheDir(c.home)
	// Read once to learn the gateway's key; a gateway among its own
	// ancestors serves nothing and says so (session/fleet/loop.go).
	if _, _, err := cfg.Load(); err != nil {
		return fail("%s", c.clean(nil, err.Error()))
	}
	if fleet.Looping(c.getenv(fleet.ChainEnv), cfg.Key()) {
		note("%v", fleet.ErrLoop)
		fopts.Loop = true
	}
	// Served over HTTP, the gateway refuses requests from itself (an
	// entry whose url is its own address).
	plan.opts.Loop = fleet.LoopCheck(cfg.Key())
	f, err := fleet.New(ctx, fopts)
	if err != nil {
		return fail("%s", c.clean(nil, err.Error()))
	}
	defer f.Close()
	r := cfg.Redactor()
	opts.Forward = base.Asker.(*gateway.Forwarder)
	opts.Roots = cfg.Roots()
	if opts.Roots == nil {
		opts.Roots = &session.Roots{}
	}
	opts.Notef = func(format string, args ...any) {
		fmt.Fprintf(c.stderr, "mcpterm serve: %s\n", c.clean(r, fmt.Sprintf(format, args...)))
	}
	if vf.audit != "" {
		a, err := policy.OpenAudit(vf.audit, r)
		if err != nil {
			return fail("--audit: %v", err)
		}
		opts.Audit = a
	}
	g, err := gateway.New(ctx, f, opts)
	if err != nil {
		fmt.Fprintf(c.stderr, "mcpterm serve: %s\n", c.clean(r, err.Error()))
		return exitFor(err)
	}
	defer g.Close()
	return c.runGateway(ctx, g, vf, plan, r, ready)
}

// fleetCacheDir is the lazy start's tool cache in the state directory, or
// "" (no cache) when there is none; serve and the workbench share it.
func (c *cli) fleetCacheDir(home string) string {
	dir, err := history.StateDir(c.getenv, home)
	if err != nil {
		return ""
	}
	return filepath.Join(dir, fleet.CacheDirName)
}
