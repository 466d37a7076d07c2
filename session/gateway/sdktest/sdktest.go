// Package sdktest runs the official TypeScript SDK's MCP client, pinned,
// on a script, for end-to-end tests of the gateway: the gateway package's
// own and the command line's (`mcpterm serve`). The SDK is installed from
// npm on first use into a cache directory outside the repository
// ($MCPTERM_SDK_DIR, else <user cache>/mcpterm/peers/sdk@VERSION);
// session/gateway/testdata/install-sdk.sh does the same ahead of time for CI.
package sdktest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/mcpterm/mcpterm/session/peers"
)

const (
	Package = "@modelcontextprotocol/sdk"
	Version = "1.32.2"
)

var errNoJS = errors.New("node and npm are needed for the end-to-end tests")

// installOnce installs the SDK once per test binary.
var installOnce = sync.OnceValues(install)

// Dir returns the directory holding node_modules/@modelcontextprotocol/sdk,
// installing it first if needed. Without node/npm the test is skipped,
// unless CI=true, where that is a failure.
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := installOnce()
	if err != nil {
		if errors.Is(err, errNoJS) && os.Getenv("CI") != "true" {
			t.Skipf("end-to-end test skipped: %v", err)
		}
		t.Fatalf("installing %s@%s: %v", Package, Version, err)
	}
	return dir
}

func install() (string, error) {
	if _, err := exec.LookPath("node"); err != nil {
		return "", errNoJS
	}
	dir := os.Getenv("MCPTERM_SDK_DIR")
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(cache, "mcpterm", "peers", "sdk@"+Version)
	}
	if err := peers.InstallPackage(context.Background(), dir, Package, Version); err != nil {
		if errors.Is(err, peers.ErrNoNode) {
			return "", errNoJS
		}
		return "", err
	}
	return dir, nil
}

// Script is what client.mjs runs: sessions, each a transport and steps.
type Script struct {
	Sessions []Session `json:"sessions"`
}

// Session is one client connection of a Script.
type Session struct {
	Name      string         `json:"name"`
	Transport map[string]any `json:"transport"`
	Steps     []Step         `json:"steps"`
}

// Step is one op of client.mjs (its header lists them and their fields).
type Step struct {
	Op        string `json:"op"`
	Name      string `json:"name,omitempty"`
	Arguments any    `json:"arguments,omitempty"`
	URI       string `json:"uri,omitempty"`
	Progress  bool   `json:"progress,omitempty"`
	// File is the pid file of kill.
	File string `json:"file,omitempty"`
	// Contains is what callUntil's answer must hold; TimeoutMS bounds it.
	Contains  string `json:"contains,omitempty"`
	TimeoutMS int    `json:"timeoutMs,omitempty"`
}

// Outcome is client.mjs's answer.
type Outcome struct {
	Sessions []struct {
		Name   string          `json:"name"`
		Server json.RawMessage `json:"server"`
		Error  string          `json:"error"`
		Steps  []struct {
			Op     string          `json:"op"`
			Result json.RawMessage `json:"result"`
			Error  string          `json:"error"`
		} `json:"steps"`
	} `json:"sessions"`
}

// RunClient runs client.mjs (the file at path) on s and fails the test if
// a session could not run.
func RunClient(t testing.TB, path string, s Script) Outcome {
	t.Helper()
	var out Outcome
	Run(t, path, s, &out)
	for _, s := range out.Sessions {
		if s.Error != "" {
			t.Fatalf("session %s: %s", s.Name, s.Error)
		}
	}
	return out
}

// Run runs the SDK client script at path on script (as script.json) and
// decodes what it prints into out. The script is copied next to a link to
// the installed node_modules, so that Node resolves the SDK from there
// without anything installed in the repository.
func Run(t testing.TB, path string, script, out any) {
	t.Helper()
	dir := t.TempDir()
	name := filepath.Base(path)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(Dir(t), "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(script)
	if err := os.WriteFile(filepath.Join(dir, "script.json"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", name, "script.json")
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %s: %v\n%s", name, err, stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
		t.Fatalf("%s output: %v\n%s\n%s", name, err, Clip(stdout.Bytes()), stderr.String())
	}
}

// Clip shortens a JSON text for a failure message.
func Clip(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + fmt.Sprintf("…(%d bytes)", len(b))
	}
	return string(b)
}
