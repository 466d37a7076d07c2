package gateway

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
)

// The end-to-end tests drive the gateway with the official TypeScript SDK
// client, pinned, installed from npm on first use into a cache directory
// outside the repository ($MCPTERM_SDK_DIR, else <user cache>/mcpterm/peers/
// sdk@VERSION). testdata/install-sdk.sh does the same ahead of time for CI.
const (
	sdkPackage = "@modelcontextprotocol/sdk"
	sdkVersion = "1.32.2"
)

var (
	sdkOnce sync.Once
	sdkDir  string
	sdkErr  error
	errNoJS = errors.New("node and npm are needed for the end-to-end tests")
)

// sdk returns the directory holding node_modules/@modelcontextprotocol/sdk,
// installing it first if needed. Without node/npm the test is skipped,
// unless CI=true, where that is a failure.
func sdk(t testing.TB) string {
	t.Helper()
	sdkOnce.Do(func() { sdkDir, sdkErr = installSDK() })
	if sdkErr != nil {
		if errors.Is(sdkErr, errNoJS) && os.Getenv("CI") != "true" {
			t.Skipf("end-to-end test skipped: %v", sdkErr)
		}
		t.Fatalf("installing %s@%s: %v", sdkPackage, sdkVersion, sdkErr)
	}
	return sdkDir
}

func installSDK() (string, error) {
	if _, err := exec.LookPath("node"); err != nil {
		return "", errNoJS
	}
	dir := os.Getenv("MCPTERM_SDK_DIR")
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(cache, "mcpterm", "peers", "sdk@"+sdkVersion)
	}
	if installedSDK(dir) == sdkVersion {
		return dir, nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", errNoJS
	}
	// Install into a fresh directory and move it into place, so parallel
	// test processes never see a half-installed tree.
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".install-sdk-*")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--prefix", tmp, "--no-save", "--no-audit", "--no-fund",
		"--loglevel=error", sdkPackage+"@"+sdkVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("npm install %s@%s: %v\n%s", sdkPackage, sdkVersion, err, out)
	}
	if err := os.Rename(tmp, dir); err != nil && installedSDK(dir) != sdkVersion {
		_ = os.RemoveAll(dir)
		if err := os.Rename(tmp, dir); err != nil {
			return "", err
		}
	}
	if v := installedSDK(dir); v != sdkVersion {
		return "", fmt.Errorf("installed %s is version %q, want %s", sdkPackage, v, sdkVersion)
	}
	return dir, nil
}

func installedSDK(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json"))
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

// clientclientScript is what testdata/client.mjs runs.
type clientScript struct {
	Sessions []scriptSession `json:"sessions"`
}

type scriptSession struct {
	Name      string         `json:"name"`
	Transport map[string]any `json:"transport"`
	Steps     []scriptStep   `json:"steps"`
}

type scriptStep struct {
	Op        string `json:"op"`
	Name      string `json:"name,omitempty"`
	Arguments any    `json:"arguments,omitempty"`
	URI       string `json:"uri,omitempty"`
	Progress  bool   `json:"progress,omitempty"`
}

// clientclientOutcome is client.mjs's answer.
type clientOutcome struct {
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

// runClient runs the SDK client (testdata/client.mjs) on a script.
func runClient(t testing.TB, s clientScript) clientOutcome {
	t.Helper()
	var out clientOutcome
	runSDKScript(t, "client.mjs", s, &out)
	for _, s := range out.Sessions {
		if s.Error != "" {
			t.Fatalf("session %s: %s", s.Name, s.Error)
		}
	}
	return out
}

// runSDKScript runs testdata/NAME, an SDK client script, on script (as
// script.json) and decodes what it prints into out. The script is copied
// next to a link to the installed node_modules, so that Node resolves the
// SDK from there without anything installed in the repository.
func runSDKScript(t testing.TB, name string, script, out any) {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(sdk(t), "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(script)
	if err := os.WriteFile(filepath.Join(dir, "script.json"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", name, "script.json")
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %s: %v\n%s", name, err, stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
		t.Fatalf("%s output: %v\n%s\n%s", name, err, clip(stdout.Bytes()), stderr.String())
	}
}
