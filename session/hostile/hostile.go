// Package hostile is the scripted MCP server of the hostile-server suite
// (the root package's hostile_*_test.go): each scenario, named "topic/name",
// is one way a server attacks or breaks its client — escapes in its text,
// floods, secrets, lies in its annotations, messages too big or too deep,
// refusing to die. The suite runs mcpterm against it as a real process and
// asserts on exit codes, messages, memory and the bytes that reach the
// terminal.
//
// Each topic keeps its scenarios in its own file, dispatched from Serve.
package hostile

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
)

// Serve runs the scenario named "topic/name" on in/out until in ends.
func Serve(scenario string, in io.Reader, out, errOut io.Writer) error {
	topic, _, _ := strings.Cut(scenario, "/")
	switch topic {
	case "render":
		return serveRender(scenario, in, out, errOut)
	case "gateway":
		return serveGateway(scenario, in, out, errOut)
	case "env":
		return serveEnv(scenario, in, out, errOut)
	case "trust":
		return serveTrust(scenario, in, out, errOut)
	case "policy":
		return servePolicy(scenario, in, out, errOut)
	case "bounds":
		return serveBounds(scenario, in, out, errOut)
	case "signals":
		return serveSignals(scenario, in, out, errOut)
	}
	return unknown(scenario)
}

func unknown(scenario string) error { return fmt.Errorf("hostile: no scenario %q", scenario) }

// Msg is one JSON-RPC message from the client.
type Msg struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// IsRequest says whether the message wants an answer.
func (m Msg) IsRequest() bool { return len(m.ID) > 0 && m.Method != "" }

// Server writes JSON-RPC messages; it is safe for concurrent use, so a
// scenario can flood from a goroutine while answering.
type Server struct {
	mu sync.Mutex
	w  *bufio.Writer
}

// Send writes one message as one line.
func (s *Server) Send(v any) {
	b, _ := json.Marshal(v)
	s.SendRaw(b)
}

// SendRaw writes b and a line end as they are (for malformed messages).
func (s *Server) SendRaw(b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.w.Write(b)
	s.w.WriteByte('\n')
	s.w.Flush()
}

// Result answers the request id with res.
func (s *Server) Result(id json.RawMessage, res any) {
	s.Send(map[string]any{"jsonrpc": "2.0", "id": id, "result": res})
}

// Error answers the request id with a JSON-RPC error.
func (s *Server) Error(id json.RawMessage, code int, msg string) {
	s.Send(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
}

// Notify sends a notification.
func (s *Server) Notify(method string, params any) {
	s.Send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// Text is a tools/call result holding one text block.
func Text(text string) map[string]any {
	return map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}}
}

// Tool is a tool definition with one optional string parameter q.
func Tool(name, description string) map[string]any {
	return map[string]any{"name": name, "description": description,
		"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}}}
}

// Script is a scenario's server: what it says about itself, and what it
// does on a call and on other requests. Zero fields answer sensibly.
type Script struct {
	Name         string           // serverInfo.name; "hostile" if empty
	Instructions string           // initialize's instructions
	Capabilities map[string]any   // nil: tools, resources and prompts
	Tools        []map[string]any // tools/list
	Resources    []map[string]any // resources/list
	Prompts      []map[string]any // prompts/list
	// Call answers tools/call; nil answers Text("ok").
	Call func(s *Server, m Msg)
	// Other handles any other message; it returns false to get the
	// default (an empty result for requests that are listed above,
	// "method not found" for the rest, nothing for notifications).
	Other func(s *Server, m Msg) bool
	// Raw, if set, sees every line before it is parsed and may answer it
	// itself (return true) — for scenarios that need the bytes.
	Raw func(s *Server, line []byte) bool
}

// Run serves sc on in/out until in ends.
func Run(sc Script, in io.Reader, out io.Writer) error {
	s := &Server{w: bufio.NewWriter(out)}
	r := bufio.NewScanner(in)
	r.Buffer(make([]byte, 64<<10), 64<<20)
	for r.Scan() {
		line := r.Bytes()
		if sc.Raw != nil && sc.Raw(s, line) {
			continue
		}
		var m Msg
		if err := json.Unmarshal(line, &m); err != nil {
			continue
		}
		if sc.Other != nil && sc.Other(s, m) {
			continue
		}
		if !m.IsRequest() {
			continue
		}
		switch m.Method {
		case "initialize":
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			_ = json.Unmarshal(m.Params, &p)
			caps := sc.Capabilities
			if caps == nil {
				caps = map[string]any{"tools": map[string]any{}, "resources": map[string]any{}, "prompts": map[string]any{}}
			}
			name := sc.Name
			if name == "" {
				name = "hostile"
			}
			res := map[string]any{"protocolVersion": p.ProtocolVersion, "capabilities": caps,
				"serverInfo": map[string]any{"name": name, "version": "1.0.0"}}
			if sc.Instructions != "" {
				res["instructions"] = sc.Instructions
			}
			s.Result(m.ID, res)
		case "ping":
			s.Result(m.ID, map[string]any{})
		case "tools/list":
			s.Result(m.ID, map[string]any{"tools": orEmpty(sc.Tools)})
		case "resources/list":
			s.Result(m.ID, map[string]any{"resources": orEmpty(sc.Resources)})
		case "resources/templates/list":
			s.Result(m.ID, map[string]any{"resourceTemplates": []any{}})
		case "prompts/list":
			s.Result(m.ID, map[string]any{"prompts": orEmpty(sc.Prompts)})
		case "tools/call":
			if sc.Call != nil {
				sc.Call(s, m)
			} else {
				s.Result(m.ID, Text("ok"))
			}
		default:
			s.Error(m.ID, -32601, "method not found: "+m.Method)
		}
	}
	return r.Err()
}

func orEmpty(v []map[string]any) []map[string]any {
	if v == nil {
		return []map[string]any{}
	}
	return v
}
