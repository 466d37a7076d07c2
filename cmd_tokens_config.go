package main

import (
	"fmt"

	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/fleet"
	"github.com/mcpterm/mcpterm/tokens"
)

// tokensConfig is the source of `tokens --all` and `--servers`: the chosen
// entries of the configs (the discovery `mcpterm servers` and `serve --all`
// use), each connected and listed at once with its own timeout
// (fleet.ListEach). An entry that fails is reported on stderr, added to
// skipped (so every format names it) and left out; the rest are counted.
// Only when none can be counted is it a failure (exit 3). entries gets the
// entry name of each set returned, in order, to name the report's servers.
func (c *cli) tokensConfig(o *tokensOptions, skipped *[]tokens.Skipped, entries *[]string) (toolSetSource, error) {
	sf := &o.sf
	if len(o.files) > 0 {
		return nil, usagef("--tools counts saved lists; leave out --servers and --all")
	}
	names, err := configEntries(o.servers, o.all, sf, "count")
	if err != nil {
		return nil, err
	}
	base, err := c.clientOptions("tokens", sf, session.Options{})
	if err != nil {
		return nil, err
	}
	note := func(format string, args ...any) {
		fmt.Fprintf(c.stderr, "mcpterm tokens: %s\n", c.clean(nil, fmt.Sprintf(format, args...)))
	}
	cfg := &fleet.Config{Selection: sf.Selection, Names: names, All: o.all, Env: c.env(), Base: base, Notef: note}
	return func() ([]*toolset.Set, error) {
		specs, _, err := cfg.Load()
		if err != nil {
			return nil, usagef("%s", c.clean(nil, err.Error()))
		}
		ctx, stop := c.runContext()
		defer stop()
		listed := fleet.ListEach(ctx, specs, sf.Timeout)
		if code, ok := c.interrupted(ctx, "tokens", "listing the servers' tools"); ok {
			return nil, &exitCodeError{code}
		}
		r := cfg.Redactor()
		var sets []*toolset.Set
		for _, l := range listed {
			if l.Err != nil {
				reason := c.clean(r, l.Err.Error())
				fmt.Fprintf(c.stderr, "mcpterm tokens: %s: not counted: %s\n", c.clean(nil, l.Name), reason)
				*skipped = append(*skipped, tokens.Skipped{Server: l.Name, Reason: reason})
				continue
			}
			for _, w := range l.Warnings {
				fmt.Fprintf(c.stderr, "mcpterm tokens: %s: warning: %s\n", c.clean(nil, l.Name), c.clean(r, w))
			}
			l.Set.Source = c.clean(r, l.Set.Source)
			sets = append(sets, l.Set)
			*entries = append(*entries, l.Name)
		}
		if len(sets) == 0 {
			return nil, &exitCodeError{exitConnect}
		}
		return sets, nil
	}, nil
}
