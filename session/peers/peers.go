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

// The pinned peers: reference servers of the MCP project, all released
// together under one version.
const (
	EverythingPackage = "@modelcontextprotocol/server-everything"
	EverythingVersion = "2026.8.31"
	FilesystemPackage = "@modelcontextprotocol/server-filesystem"
	FilesystemVersion = "2026.8.31"
	MemoryPackage     = "@modelcontextprotocol/server-memory"
	MemoryVersion     = "2026.8.31"
)

// ErrNoNode means node or npm is not installed, so the peer cannot run.
var ErrNoNode = errors.New("node and npm are needed for the end-to-end tests")

// Peer is an installed server: run Node with Entry and Args.
type Peer struct {
	Node  string
	Entry string
	Dir   string
}

// Dir is where a pinned package is installed: NAME@VERSION (NAME without
// its npm scope) under $MCPTERM_PEERS_DIR if set, else under
// <user cache dir>/mcpterm/peers. Each package has a tree of its own, so
// their dependencies never meet.
func Dir(getenv func(string) string, pkg, version string) (string, error) {
	root := getenv("MCPTERM_PEERS_DIR")
	if root == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return "", err
		}
		root = filepath.Join(cache, "mcpterm", "peers")
	}
	return filepath.Join(root, filepath.Base(pkg)+"@"+version), nil
}

// Everything returns the pinned everything server, installing it with npm
// first when it is not in the cache yet.
func Everything(ctx context.Context, getenv func(string) string) (Peer, error) {
	return Install(ctx, getenv, EverythingPackage, EverythingVersion)
}

// Filesystem returns the pinned filesystem server (its arguments are the
// directories it may touch), installing it first if needed.
func Filesystem(ctx context.Context, getenv func(string) string) (Peer, error) {
	return Install(ctx, getenv, FilesystemPackage, FilesystemVersion)
}

// Memory returns the pinned knowledge-graph server (MEMORY_FILE_PATH in its
// environment says where it keeps the graph), installing it first if needed.
func Memory(ctx context.Context, getenv func(string) string) (Peer, error) {
	return Install(ctx, getenv, MemoryPackage, MemoryVersion)
}

// Install returns the npm package pkg at version, a server whose entry is
// dist/index.js, installing it into its cache directory (Dir) first when
// that exact version is not there.
func Install(ctx context.Context, getenv func(string) string, pkg, version string) (Peer, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return Peer{}, ErrNoNode
	}
	dir, err := Dir(getenv, pkg, version)
	if err != nil {
		return Peer{}, err
	}
	p := Peer{Node: node, Dir: dir, Entry: filepath.Join(dir, "node_modules", filepath.FromSlash(pkg), "dist", "index.js")}
	return p, InstallPackage(ctx, dir, pkg, version)
}

// InstallPackage installs npm package pkg@version into dir (dir/node_modules)
// unless that version is there already. It installs into a fresh directory
// and moves it into place, so parallel test processes never see a
// half-installed tree. ErrNoNode when npm is missing.
func InstallPackage(ctx context.Context, dir, pkg, version string) error {
	if installedVersion(dir, pkg) == version {
		return nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return ErrNoNode
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".install-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--prefix", tmp, "--no-save", "--no-audit", "--no-fund",
		"--loglevel=error", pkg+"@"+version)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("npm install %s@%s: %v\n%s", pkg, version, err, out)
	}
	if err := os.Rename(tmp, dir); err != nil && installedVersion(dir, pkg) != version {
		// Someone else won the race with a different tree, or dir is stale.
		_ = os.RemoveAll(dir)
		if err := os.Rename(tmp, dir); err != nil {
			return err
		}
	}
	if v := installedVersion(dir, pkg); v != version {
		return fmt.Errorf("installed %s is version %q, want %s", pkg, v, version)
	}
	return nil
}

func installedVersion(dir, pkg string) string {
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", filepath.FromSlash(pkg), "package.json"))
	if err != nil {
		return ""
	}
	var pkgJSON struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(b, &pkgJSON) != nil {
		return ""
	}
	return pkgJSON.Version
}
