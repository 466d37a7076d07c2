package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/fleet"
	"github.com/mcpterm/mcpterm/ui"
)

// workbenchFleet opens the workbench on config entries (--servers, --all)
// as one tool list: a session/fleet is the workbench's session, so its
// tools carry the server they come from, calls are routed, and the chart
// has its per-server section (each server's own list, as `tokens --all`
// counts it). closeFn is nil when the flags say no, with the exit code.
func (c *cli) workbenchFleet(sf *serverFlags, o *tuiOptions) (opts ui.Options, closeFn func(), code int) {
	fail := func(format string, args ...any) (ui.Options, func(), int) {
		fmt.Fprintf(c.stderr, "mcpterm: %s\n", c.clean(nil, fmt.Sprintf(format, args...)))
		return opts, nil, exitUsage
	}
	names, err := configEntries(o.servers, o.all, sf, "open")
	if err != nil {
		return fail("%v", err)
	}
	wb, ok := c.workbenchCommon(o)
	if !ok {
		return opts, nil, exitUsage
	}
	base := session.Options{ClientName: "mcpterm", ClientVersion: c.clientVersion(), Asker: wb.ask, OAuthNotify: wb.notice.Notify}
	var notices []string
	cfg := &fleet.Config{Selection: sf.Selection, Names: names, All: o.all, Env: wb.env, Base: base,
		Notef: func(format string, args ...any) { notices = append(notices, fmt.Sprintf(format, args...)) }}
	specs, _, err := cfg.Load()
	if err != nil {
		return fail("%s", err.Error())
	}
	var entries []string
	for _, s := range specs {
		entries = append(entries, s.Name)
	}
	fopts := fleet.Options{Start: fleet.StartEager, Load: cfg.Load, CacheDir: c.fleetCacheDir(wb.env.Home)}
	r := cfg.Redactor()
	opts = ui.Options{
		// Every (re)connect is a new fleet over the config as it is then.
		Connect:      func(ctx context.Context) (ui.Session, error) { return fleet.New(ctx, fopts) },
		Target:       "config servers " + strings.Join(entries, ", "),
		Notices:      notices,
		Overrides:    wb.ov,
		DraftKey:     "fleet:" + cfg.Key(),
		Sanitize:     func(s string) string { return c.clean(r, s) },
		Theme:        wb.theme,
		Encoding:     o.encoding,
		WorkingDir:   wb.env.Cwd,
		DisableMouse: o.noMouse,
		Ask:          wb.ask,
		Notice:       wb.notice,
		Roots:        cfg.Roots(),
	}
	c.workbenchHistory(&opts, r, wb.env.Home)
	return opts, func() {}, exitOK
}
