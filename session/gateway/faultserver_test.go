package gateway

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpterm/mcpterm/session"
)

// The test binary doubles as a broken upstream: run with faultEnv=MODE it
// serves MODE on stdin/stdout. Each mode misbehaves on the first tools/call
// of a test and behaves from then on, so a test can see the gateway fail
// cleanly and then recover by reconnecting. "First" is kept in a marker
// file, because recovering starts a new process.
const (
	faultEnv = "MCPTERM_GATEWAY_FAULT"
	markEnv  = "MCPTERM_GATEWAY_MARK"
)

// Fault modes.
const (
	dieOnce     = "die-once"     // exits in the middle of the first call
	hangOnce    = "hang-once"    // never answers the first call
	garbageOnce = "garbage-once" // answers the first call with a result that is not a CallToolResult
	dieForGood  = "die-for-good" // exits on the first call and refuses to start again
)

// faultSource runs this test binary as an upstream in the given mode.
func faultSource(t testing.TB, mode string) session.Source {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return session.Source{Kind: session.Stdio, Name: "fault-" + mode, Command: exe, Args: []string{"-test.run=^$"},
		Env: map[string]string{faultEnv: mode, markEnv: filepath.Join(t.TempDir(), "failed-once")}}
}

// runFault serves one fault mode until in ends.
func runFault(mode, mark string, in io.Reader, out io.Writer) {
	_, err := os.Stat(mark)
	failed := err == nil
	if failed && mode == dieForGood {
		fmt.Fprintln(os.Stderr, "fault server: refusing to start again")
		os.Exit(1)
	}
	w := bufio.NewWriter(out)
	send := func(id json.RawMessage, result any) {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
		w.Write(b)
		w.WriteByte('\n')
		w.Flush()
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
				Arguments       struct {
					Text string `json:"text"`
				} `json:"arguments"`
			} `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == nil {
			continue
		}
		switch m.Method {
		case "initialize":
			send(m.ID, map[string]any{"protocolVersion": m.Params.ProtocolVersion,
				"capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo":   map[string]any{"name": "fault-" + mode, "version": "1"}})
		case "ping":
			send(m.ID, map[string]any{})
		case "tools/list":
			send(m.ID, map[string]any{"tools": []any{map[string]any{
				"name": "echo", "description": "Echo the text back.",
				"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}, "required": []string{"text"}},
				"annotations": map[string]any{"readOnlyHint": true},
			}}})
		case "tools/call":
			if !failed {
				failed = true
				os.WriteFile(mark, []byte(mode), 0o644)
				switch mode {
				case dieOnce, dieForGood:
					os.Exit(3)
				case hangOnce:
					continue
				case garbageOnce:
					send(m.ID, "this is not a CallToolResult")
					continue
				}
			}
			send(m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "echo: " + m.Params.Arguments.Text}}})
		default:
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "Method not found"}})
			w.Write(b)
			w.WriteByte('\n')
			w.Flush()
		}
	}
}
