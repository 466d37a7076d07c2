package hostile

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The signals/… scenarios: servers that a Ctrl-C must still end, and
// answers that must get the right exit code.
//
//	signals/slow-call@FILE     a call that never answers; notes on FILE
//	                           "call started ID" and "cancelled ID" when
//	                           notifications/cancelled arrives; exits on EOF
//	signals/ignore-eof@FILE    slow-call that also ignores stdin EOF and
//	                           SIGTERM, and starts a child (signals/linger)
//	                           that does too; first notes "pids SERVER CHILD"
//	signals/orphan@FILE        a server that exits on EOF but leaves behind
//	                           its child (signals/linger); notes "pids"
//	signals/linger             ignores SIGTERM and waits (the child above)
//	signals/silent-init        reads everything, answers nothing
//	signals/malformed-answer   tools/call's result is not a CallToolResult
//	                           (a JSON array)
//	signals/malformed-list     tools/list's "tools" is a string
//	signals/answers            a well-behaved echo whose call with q "fail"
//	                           reports isError (for exits 0 and 1)
//
// FILE is where the test watches (a FIFO, so it waits on events and never
// on time); it is opened once, for writing, when the server starts.

// lingerFor bounds how long a server that ignores everything stays, so a
// test that fails before killing it leaks nothing for long.
const lingerFor = 10 * time.Minute

// serveSignals runs the signals/… scenarios.
func serveSignals(scenario string, in io.Reader, out, errOut io.Writer) error {
	name, file, _ := strings.Cut(scenario, "@")
	switch name {
	case "signals/slow-call":
		n, err := openNotes(file)
		if err != nil {
			return err
		}
		defer n.close()
		return Run(slowCall(n), in, out)
	case "signals/ignore-eof":
		return ignoreEOF(file, in, out, true)
	case "signals/orphan":
		return ignoreEOF(file, in, out, false)
	case "signals/linger":
		signal.Ignore(syscall.SIGTERM)
		// Ready: SIGTERM is ignored from here on (the server waits for
		// this before it names its child, so no test signals it sooner).
		fmt.Fprintln(out, "ready")
		time.Sleep(lingerFor)
		return nil
	case "signals/silent-init":
		_, err := io.Copy(io.Discard, in)
		return err
	case "signals/malformed-answer":
		return Run(Script{
			Tools: []map[string]any{Tool("echo", "Echoes q.")},
			Call: func(s *Server, m Msg) {
				s.Send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": []int{1, 2, 3}})
			},
		}, in, out)
	case "signals/answers":
		return Run(Script{
			Tools: []map[string]any{Tool("echo", "Echoes q.")},
			Call: func(s *Server, m Msg) {
				var p struct {
					Arguments struct {
						Q string `json:"q"`
					} `json:"arguments"`
				}
				_ = json.Unmarshal(m.Params, &p)
				res := Text(p.Arguments.Q)
				if p.Arguments.Q == "fail" {
					res["isError"] = true
				}
				s.Result(m.ID, res)
			},
		}, in, out)
	case "signals/malformed-list":
		return Run(Script{Other: func(s *Server, m Msg) bool {
			if m.Method != "tools/list" {
				return false
			}
			s.Result(m.ID, map[string]any{"tools": "none today"})
			return true
		}}, in, out)
	}
	return unknown(scenario)
}

// notes is the file a scenario reports its events on, one line each.
type notes struct {
	mu sync.Mutex
	f  *os.File
}

func openNotes(path string) (*notes, error) {
	if path == "" {
		return nil, fmt.Errorf("hostile: this scenario needs @FILE for its notes")
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, fmt.Errorf("hostile: notes: %w", err)
	}
	return &notes{f: f}, nil
}

func (n *notes) say(format string, args ...any) {
	n.mu.Lock()
	defer n.mu.Unlock()
	fmt.Fprintf(n.f, format+"\n", args...)
}

func (n *notes) close() { n.f.Close() }

// slowCall never answers tools/call and notes what happens to the calls.
func slowCall(n *notes) Script {
	return Script{
		Tools: []map[string]any{Tool("wait", "Waits forever.")},
		Call:  func(s *Server, m Msg) { n.say("call started %s", m.ID) },
		Other: func(s *Server, m Msg) bool {
			if m.Method != "notifications/cancelled" {
				return false
			}
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			_ = json.Unmarshal(m.Params, &p)
			n.say("cancelled %s", p.RequestID)
			return true
		},
	}
}

// ignoreEOF is slow-call with a child (in its process group) that ignores
// SIGTERM and its stdin; with stay, the server does the same, else it
// exits on EOF and leaves the child behind.
func ignoreEOF(file string, in io.Reader, out io.Writer, stay bool) error {
	if stay {
		signal.Ignore(syscall.SIGTERM)
	}
	n, err := openNotes(file)
	if err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	// The child holds the server's stderr, as a forgotten helper would.
	// "hostile-server" is how the suite's test binary serves a scenario.
	child := exec.Command(exe, "hostile-server", "signals/linger")
	child.Stderr = os.Stderr
	ready, err := child.StdoutPipe()
	if err != nil {
		return err
	}
	if err := child.Start(); err != nil {
		return err
	}
	if _, err := bufio.NewReader(ready).ReadString('\n'); err != nil {
		return fmt.Errorf("signals/linger did not get ready: %w", err)
	}
	n.say("pids %d %d", os.Getpid(), child.Process.Pid)
	_ = Run(slowCall(n), in, out)
	n.say("stdin closed")
	if stay {
		time.Sleep(lingerFor)
	}
	return nil
}
