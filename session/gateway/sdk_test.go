package gateway

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/mcpterm/mcpterm/session/gateway/sdktest"
)

// The end-to-end tests drive the gateway with the official TypeScript SDK
// client, through package sdktest, which installs it.

// sdk returns the directory holding the installed SDK (or skips the test
// without node).
func sdk(t testing.TB) string { return sdktest.Dir(t) }

// The script and its answer, as testdata/client.mjs reads and writes them.
type (
	clientScript  = sdktest.Script
	scriptSession = sdktest.Session
	scriptStep    = sdktest.Step
	clientOutcome = sdktest.Outcome
)

// runClient runs the SDK client (testdata/client.mjs) on a script.
func runClient(t testing.TB, s clientScript) clientOutcome {
	t.Helper()
	return sdktest.RunClient(t, filepath.Join("testdata", "client.mjs"), s)
}

// runSDKScript runs testdata/NAME, an SDK client script, on script and
// decodes what it prints into out.
func runSDKScript(t testing.TB, name string, script, out any) {
	t.Helper()
	sdktest.Run(t, filepath.Join("testdata", name), script, out)
}

func clip(b json.RawMessage) string { return sdktest.Clip(b) }
