package testserver

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// Fault modes of RunFault, each a way real servers break.
const (
	ExitMidCall  = "exit-mid-call" // dies (exit status 3) when a tool is called
	NeverAnswers = "never-answers" // never answers tools/call; logs cancellations to stderr
	Garbage      = "garbage"       // mixes non-JSON lines into stdout
	BigResult    = "big-result"    // answers tools/call with a 10 MB text
	ManyTools    = "many-tools"    // lists 1,000 tools over pages of 37
	Flood        = "flood"         // sends 20,000 log notifications before answering a call
	Silent       = "silent"        // answers nothing at all, not even initialize
	RepeatCursor = "repeat-cursor" // tools/list pages forever with the same cursor
	Modern       = "modern"        // speaks 2026-07-28 via server/discover only
	OldVersion   = "old-version"   // answers initialize with 2024-11-05 whatever is asked
	CountCalls   = "count-calls"   // answers tools/call with how many calls it has seen
	StderrChatty = "stderr-chatty" // writes lines to stderr on every request
	HugeLine     = "huge-line"     // answers tools/call with one 3 MB line (for a small MaxMessageBytes)
	BadTools     = "bad-tools"     // lists a nameless and a duplicate tool among good ones
	EnvEcho      = "env-echo"      // answers tools/call with $MCPTERM_TEST_ECHO
	NoDiscover   = "no-discover"   // ignores server/discover instead of answering "method not found"
	NoTools      = "no-tools"      // declares no tools capability and answers tools/list "method not found"
	ExitAtStart  = "exit-at-start" // says why on stderr and exits (status 5) before reading anything
)

// BigResultBytes is the size of the BigResult mode's text.
const BigResultBytes = 10 << 20

type rpcMsg struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// RunFault serves one fault mode on in/out until in ends.
func RunFault(mode string, in io.Reader, out, errOut io.Writer) {
	if mode == ExitAtStart {
		if c, ok := in.(io.Closer); ok {
			c.Close() // so the client's first write meets a closed pipe
		}
		fmt.Fprintln(errOut, "fatal: API_TOKEN is not set")
		os.Exit(5)
	}
	w := bufio.NewWriter(out)
	send := func(v any) {
		b, _ := json.Marshal(v)
		w.Write(b)
		w.WriteByte('\n')
		w.Flush()
	}
	result := func(id json.RawMessage, res any) {
		send(map[string]any{"jsonrpc": "2.0", "id": id, "result": res})
	}
	rpcError := func(id json.RawMessage, code int, msg string) {
		send(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	}
	tool := func(name string) map[string]any {
		return map[string]any{"name": name, "description": "tool " + name,
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}}}
	}
	calls := 0

	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var m rpcMsg
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			fmt.Fprintf(errOut, "bad input: %v\n", err)
			continue
		}
		if mode == StderrChatty {
			fmt.Fprintf(errOut, "got %s\n", m.Method)
		}
		if m.ID == nil {
			if m.Method == "notifications/cancelled" {
				fmt.Fprintf(errOut, "cancelled %s\n", m.Params)
			}
			continue
		}
		if mode == Silent {
			continue
		}
		if mode == Garbage {
			w.WriteString("this is not json\n")
			w.WriteString("\x1b[31m{almost json\n")
			w.Flush()
		}
		switch m.Method {
		case "server/discover":
			if mode == NoDiscover {
				continue
			}
			if mode == Modern {
				result(m.ID, map[string]any{
					"supportedVersions": []string{"2026-07-28"},
					"capabilities":      map[string]any{"tools": map[string]any{}},
					"_meta":             map[string]any{"io.modelcontextprotocol/serverInfo": map[string]any{"name": "fault-" + mode, "version": "0.0.1"}},
				})
				continue
			}
			rpcError(m.ID, -32601, "Method not found")
		case "initialize":
			if mode == Modern {
				rpcError(m.ID, -32601, "initialize was removed in 2026-07-28")
				continue
			}
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			json.Unmarshal(m.Params, &p)
			v := p.ProtocolVersion
			if mode == OldVersion {
				v = "2024-11-05"
			}
			caps := map[string]any{"tools": map[string]any{"listChanged": true}}
			if mode == NoTools {
				caps = map[string]any{}
			}
			result(m.ID, map[string]any{
				"protocolVersion": v,
				"capabilities":    caps,
				"serverInfo":      map[string]any{"name": "fault-" + mode, "version": "0.0.1"},
			})
		case "ping":
			result(m.ID, map[string]any{})
		case "tools/list":
			if mode == NoTools {
				rpcError(m.ID, -32601, "Method not found")
				continue
			}
			var p struct {
				Cursor string `json:"cursor"`
			}
			json.Unmarshal(m.Params, &p)
			switch mode {
			case ManyTools:
				start := 0
				fmt.Sscanf(p.Cursor, "page-%d", &start)
				var tools []any
				for i := start; i < start+37 && i < 1000; i++ {
					tools = append(tools, tool(fmt.Sprintf("t%04d", i)))
				}
				res := map[string]any{"tools": tools}
				if start+37 < 1000 {
					res["nextCursor"] = fmt.Sprintf("page-%d", start+37)
				}
				result(m.ID, res)
			case RepeatCursor:
				result(m.ID, map[string]any{"tools": []any{tool("again")}, "nextCursor": "same"})
			case BadTools:
				result(m.ID, map[string]any{"tools": []any{tool("good"), map[string]any{"description": "no name"}, tool("good"), tool("fine")}})
			default:
				result(m.ID, map[string]any{"tools": []any{tool("work")}})
			}
		case "tools/call":
			calls++
			switch mode {
			case ExitMidCall:
				fmt.Fprintln(errOut, "boom: dying in the middle of a call")
				os.Exit(3)
			case NeverAnswers:
				continue
			case BigResult:
				result(m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": strings.Repeat("y", BigResultBytes)}}})
			case HugeLine:
				result(m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": strings.Repeat("z", 3<<20)}}})
			case Flood:
				for i := 0; i < 20000; i++ {
					send(map[string]any{"jsonrpc": "2.0", "method": "notifications/message",
						"params": map[string]any{"level": "info", "data": fmt.Sprintf("flood %d", i)}})
				}
				result(m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "after the flood"}}})
			case EnvEcho:
				result(m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": os.Getenv("MCPTERM_TEST_ECHO")}}})
			case CountCalls:
				result(m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": fmt.Sprint(calls)}}})
			default:
				result(m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "ok"}}})
			}
		default:
			rpcError(m.ID, -32601, "Method not found: "+m.Method)
		}
	}
}
