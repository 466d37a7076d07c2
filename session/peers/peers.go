// Package peers installs the third-party MCP servers mcpterm is tested
// against, pinned, from npm, into a cache directory outside the repository.
// Tests call it on first use; CI can run testdata/install-peers.sh (which
// does the same) ahead of time.
package peers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// The pinned peer: the reference "everything" server of the MCP project.
const (
	EverythingPackage = "@modelcontextprotocol/server-everything"
	EverythingVersion = "2026.8.31"
)

// ErrNoNode means node or npm is not installed, so the peer cannot run.
var ErrNoNode = errors.New("node and npm are needed for the end-to-end tests")

// Peer is an installed server: run Node with Entry and Args.
type Peer struct {
	Node  string
	Entry string
	Dir   string
}

// Dir is where the pinned everything server is installed:
// $MCPTERM_PEERS_DIR if set, else <user cache dir>/mcpterm/peers/NAME@VERSION.
func Dir(getenv func(string) string) (string, error) {
	if d := getenv("MCPTERM_PEERS_DIR"); d != "" {
		return d, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, "mcpterm", "peers", "server-everything@"+EverythingVersion), nil
}

// Everything returns the pinned everything server, installing it with npm
// first when it is not in the cache yet.
func Everything(ctx context.Context, getenv func(string) string) (Peer, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return Peer{}, ErrNoNode
	}
	dir, err := Dir(getenv)
	if err != nil {
		return Peer{}, err
	}
	p := Peer{Node: node, Dir: dir, Entry: filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")}
	if installedVersion(dir) == EverythingVersion {
		return p, nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return Peer{}, ErrNoNode
	}
	// Install into a fresh directory and move it into place, so parallel
	// test processes never see a half-installed tree.
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return Peer{}, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".install-*")
	if err != nil {
		return Peer{}, err
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--prefix", tmp, "--no-save", "--no-audit", "--no-fund",
		"--loglevel=error", EverythingPackage+"@"+EverythingVersion)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return Peer{}, fmt.Errorf("npm install %s@%s: %v\n%s", EverythingPackage, EverythingVersion, err, out)
	}
	if err := os.Rename(tmp, dir); err != nil && installedVersion(dir) != EverythingVersion {
		// Someone else won the race with a different tree, or dir is stale.
		_ = os.RemoveAll(dir)
		if err := os.Rename(tmp, dir); err != nil {
			return Peer{}, err
		}
	}
	if v := installedVersion(dir); v != EverythingVersion {
		return Peer{}, fmt.Errorf("installed %s is version %q, want %s", EverythingPackage, v, EverythingVersion)
	}
	return p, nil
}

func installedVersion(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "package.json"))
	if err != nil {
		return ""
	}
	var pkg struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(b, &pkg) != nil {
		return ""
	}
	return pkg.Version
}
