package main

import (
	"strings"
)

// configEntries reads --servers and --all, which serve, tokens and the
// workbench share: the entry names (none for --all), or a usage error when
// both are given or a one-server selection (--server, --url, -- CMD,
// --tools) or --trace stands beside them. verb says what the command does
// with the entries ("serve", "count", "open").
func configEntries(servers string, all bool, sf *serverFlags, verb string) ([]string, error) {
	switch {
	case servers != "" && all:
		return nil, usagef("--servers and --all: choose one")
	case sf.Server != "" || sf.URL != "" || len(sf.Command) > 0 || sf.ToolsFile != "":
		return nil, usagef("--servers and --all %s config entries; leave out --server, --url, --tools and -- CMD", verb)
	case sf.Trace != "":
		return nil, usagef("--trace writes one server's messages; it is not for --servers or --all")
	}
	var names []string
	for n := range strings.SplitSeq(servers, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return names, nil
}
