package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"testing"

	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/demo"
	"github.com/mcpterm/mcpterm/session/policy"
)

// The test binary doubles as every process the tests need, selected by
// environment: a broken upstream (faultEnv), the demo server on stdio
// (demoEnv), or a gateway on stdio (serveEnv) for clients that start their
// server themselves, like the TypeScript SDK's StdioClientTransport.
const (
	demoEnv  = "MCPTERM_GATEWAY_DEMO"
	serveEnv = "MCPTERM_GATEWAY_SERVE"
)

// serveSpec says which gateway serveEnv runs.
type serveSpec struct {
	Mode    Mode              `json:"mode"`
	Lean    bool              `json:"lean,omitempty"`
	Command string            `json:"command,omitempty"` // the upstream; "" is the demo server in process
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// Config, if set, is an mcpServers config whose every entry the
	// gateway fronts through session/fleet, as `mcpterm serve --config F
	// --all` does.
	Config string `json:"config,omitempty"`
	// ClientSide wires the client side as serve does (forward.go,
	// roots.go), with Roots as the fallback roots.
	ClientSide bool     `json:"clientSide,omitempty"`
	Roots      []string `json:"roots,omitempty"`
}

func TestMain(m *testing.M) {
	switch {
	case os.Getenv(faultEnv) != "":
		runFault(os.Getenv(faultEnv), os.Getenv(markEnv), os.Stdin, os.Stdout)
		os.Exit(0)
	case os.Getenv(demoEnv) != "":
		// As `mcpterm demo-server` serves it: each call's progress is on
		// stdout before its answer.
		_ = demo.ServeStdio(context.Background(), demoServer(), os.Stdin, os.Stdout, log.New(os.Stderr, "demo: ", 0))
		os.Exit(0)
	case os.Getenv(serveEnv) != "":
		if err := serveForTest(os.Getenv(serveEnv)); err != nil {
			fmt.Fprintln(os.Stderr, "gateway:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// serveForTest is `mcpterm serve --yes` in miniature: open the upstream,
// build the gateway, serve stdio until stdin ends.
func serveForTest(spec string) error {
	var s serveSpec
	if err := json.Unmarshal([]byte(spec), &s); err != nil {
		return err
	}
	src := session.Source{Kind: session.InProcess, Name: "demo", Server: demoServer()}
	if s.Command != "" {
		src = session.Source{Kind: session.Stdio, Name: s.Command, Command: s.Command, Args: s.Args, Env: s.Env}
	}
	ctx := context.Background()
	uo := session.Options{ClientName: "mcpterm-gateway"}
	var fwd *Forwarder
	if s.ClientSide {
		fwd = NewForwarder()
		roots, err := session.NewRoots(s.Roots...)
		if err != nil {
			return err
		}
		uo.Asker, uo.Roots = fwd, roots
	}
	var up session.Client
	if s.Config != "" {
		f, err := openFleet(ctx, s.Config)
		if err != nil {
			return err
		}
		defer f.Close()
		up = f
	} else {
		u, err := session.Open(ctx, src, uo)
		if err != nil {
			return err
		}
		defer u.Close()
		up = u
	}
	p, err := policy.New(policy.Rules{Yes: true})
	if err != nil {
		return err
	}
	g, err := New(ctx, up, Options{Mode: s.Mode, Lean: s.Lean, Policy: p, Forward: fwd, Roots: uo.Roots})
	if err != nil {
		return err
	}
	defer g.Close()
	return g.ServeStdio(ctx, os.Stdin, os.Stdout, log.New(os.Stderr, "gateway: ", 0))
}
