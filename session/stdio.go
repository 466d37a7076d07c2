package session

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// stdioTransport runs an MCP server as a child process. mcpterm has its own
// rather than mcp-go's because a workbench must survive servers that
// misbehave: it bounds the size of one message, reports lines that are not
// JSON-RPC instead of skipping them silently, turns the server's stderr into
// events, and says how the server exited when it dies mid-call.
type stdioTransport struct {
	command string
	args    []string
	env     []string
	dir     string
	maxMsg  int
	events  *eventLog
	// grace is how long a server gets to exit after SIGTERM (after its
	// stdin closes it gets at most eofGrace). Short, because a command-line call waits
	// for it on every exit, and servers with timers pending (a cancelled
	// long job) often ignore the closed stdin.
	grace time.Duration

	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *os.File
	wmu    sync.Mutex
	stderr *stderrSink

	mu       sync.Mutex
	pending  map[string]chan *transport.JSONRPCResponse
	closed   bool
	closeErr error // why the connection ended (read by pending requests)
	done     chan struct{}
	exited   chan struct{}
	exitErr  error

	hmu       sync.RWMutex
	onNotify  func(mcp.JSONRPCNotification)
	onRequest transport.RequestHandler

	closeOnce sync.Once
	// life orders Start and Close, which a connect given up on (a signal,
	// its timeout) can call at once: a Close during Start waits for the
	// process to exist and then ends it, and a Start after Close refuses,
	// so no server is left running unseen.
	life sync.Mutex
}

// ServerExitError reports that a stdio server went away. Stderr holds the
// last lines it wrote (unsanitised).
type ServerExitError struct {
	Status string // "exit status 3", "signal: killed", or "closed its stdout"
	Stderr string
}

func (e *ServerExitError) Error() string {
	msg := "server " + e.Status
	if e.Stderr != "" {
		msg += "; its last stderr output: " + e.Stderr
	}
	return msg
}

func newStdioTransport(command string, args, env []string, dir string, maxMsg int, events *eventLog) *stdioTransport {
	return &stdioTransport{
		command: command, args: args, env: env, dir: dir, maxMsg: maxMsg, events: events,
		grace:   500 * time.Millisecond,
		pending: map[string]chan *transport.JSONRPCResponse{},
		done:    make(chan struct{}),
		exited:  make(chan struct{}),
	}
}

func (s *stdioTransport) Start(ctx context.Context) error {
	s.life.Lock()
	defer s.life.Unlock()
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return transport.ErrTransportClosed
	}
	// The process must outlive ctx (which only bounds connecting), so it is
	// not started with exec.CommandContext.
	cmd := exec.Command(s.command, s.args...)
	cmd.Env = s.env
	cmd.Dir = s.dir
	cmd.WaitDelay = time.Second
	ownGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	// Our own pipe rather than StdoutPipe: Wait must not close the read end
	// while unread output (the last response before an exit) is in it.
	pr, pw, err := os.Pipe()
	if err != nil {
		return err
	}
	cmd.Stdout = pw
	s.stderr = newStderrSink(s.events)
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		return fmt.Errorf("start %s: %w", s.command, err)
	}
	pw.Close()
	s.cmd, s.stdin, s.stdout = cmd, stdin, pr
	go func() {
		err := cmd.Wait()
		s.stderr.flush()
		s.mu.Lock()
		s.exitErr = err
		s.mu.Unlock()
		close(s.exited)
	}()
	go s.readLoop()
	return nil
}

func (s *stdioTransport) readLoop() {
	r := bufio.NewReaderSize(s.stdout, 64<<10)
	var buf []byte
	for {
		line, tooBig, err := readBoundedLine(r, s.maxMsg, &buf)
		if len(line) > 0 || tooBig {
			s.handleLine(line, tooBig)
		}
		if err != nil {
			s.stdout.Close()
			s.shutdown(s.exitError())
			return
		}
	}
}

// readBoundedLine reads one '\n'-terminated line. A line longer than limit is
// consumed but only its first 4 KiB are returned, with tooBig set, so one
// huge message costs bounded memory and the stream stays in sync.
func readBoundedLine(r *bufio.Reader, limit int, buf *[]byte) (line []byte, tooBig bool, err error) {
	b := (*buf)[:0]
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooBig {
			if len(b)+len(chunk) > limit {
				tooBig = true
				keep := min(len(chunk), max(0, 4096-len(b)))
				b = append(b, chunk[:keep]...)
			} else {
				b = append(b, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		*buf = b
		if len(b) > 4<<20 {
			*buf = nil // do not keep a huge buffer around after a big message
		}
		return bytes.TrimRight(b, "\r\n"), tooBig, err
	}
}

// exitError waits briefly for the process to exit so the error can say how.
func (s *stdioTransport) exitError() error {
	select {
	case <-s.exited:
	case <-time.After(500 * time.Millisecond):
	}
	e := &ServerExitError{Status: "closed its stdout", Stderr: s.stderr.tail()}
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.exited:
		if s.exitErr != nil {
			e.Status = "exited (" + s.exitErr.Error() + ")"
		} else {
			e.Status = "exited (exit status 0)"
		}
	default:
	}
	return e
}

func (s *stdioTransport) handleLine(line []byte, tooBig bool) {
	if tooBig {
		id, ok := scanID(line)
		if !ok {
			_, id, ok = scanLine(line)
		}
		s.refuse(id, ok, fmt.Sprintf("a message larger than %d bytes (the limit)", s.maxMsg))
		return
	}
	var base struct {
		ID     *mcp.RequestId  `json:"id"`
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	if err := json.Unmarshal(line, &base); err != nil {
		s.unreadable(line, err)
		return
	}
	switch {
	case base.Method != "" && base.ID == nil:
		var n mcp.JSONRPCNotification
		if err := json.Unmarshal(line, &n); err != nil {
			s.events.publish(Event{Kind: EventGarbage, Level: "warning", Text: string(line)})
			return
		}
		s.hmu.RLock()
		h := s.onNotify
		s.hmu.RUnlock()
		if h != nil {
			h(n)
		}
	case base.Method != "":
		var req transport.JSONRPCRequest
		if err := json.Unmarshal(line, &req); err != nil {
			s.events.publish(Event{Kind: EventGarbage, Level: "warning", Text: string(line)})
			return
		}
		go s.answer(req, rawParams(line))
	case base.ID != nil:
		var resp transport.JSONRPCResponse
		if err := json.Unmarshal(line, &resp); err != nil {
			s.unreadable(line, err)
			return
		}
		s.deliver(resp.ID, &resp)
	default:
		s.events.publish(Event{Kind: EventGarbage, Level: "warning", Text: string(line)})
	}
}

// scanID finds a top-level "id" member in the start of a JSON object.
func scanID(prefix []byte) (mcp.RequestId, bool) {
	dec := json.NewDecoder(bytes.NewReader(prefix))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return mcp.RequestId{}, false
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			break
		}
		if k == "id" {
			var raw json.RawMessage
			if dec.Decode(&raw) != nil {
				break
			}
			var id mcp.RequestId
			if json.Unmarshal(raw, &id) != nil || id.IsNil() {
				break
			}
			return id, true
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			break
		}
	}
	return mcp.RequestId{}, false
}

func (s *stdioTransport) deliver(id mcp.RequestId, resp *transport.JSONRPCResponse) {
	key := id.String()
	s.mu.Lock()
	ch, ok := s.pending[key]
	delete(s.pending, key)
	s.mu.Unlock()
	if ok {
		ch <- resp
		return
	}
	s.events.publish(Event{Kind: EventNotice, Level: "warning", Text: "response to unknown or abandoned request id " + idText(id)})
}

// stdioAnswerBackstop bounds how long a server-to-client request may go
// unanswered on stdio.
const stdioAnswerBackstop = 2 * time.Hour

func (s *stdioTransport) answer(req transport.JSONRPCRequest, raw json.RawMessage) {
	s.hmu.RLock()
	h := s.onRequest
	s.hmu.RUnlock()
	var resp *transport.JSONRPCResponse
	if h == nil {
		resp = transport.NewJSONRPCErrorResponse(req.ID, mcp.METHOD_NOT_FOUND, "mcpterm does not handle "+req.Method, nil)
	} else {
		// A backstop only: the session's ask handler bounds a request that
		// waits for a person by Options.AskTimeout.
		ctx, cancel := context.WithTimeout(withRawParams(context.Background(), raw), stdioAnswerBackstop)
		r, err := h(ctx, req)
		cancel()
		switch {
		case err != nil:
			resp = transport.NewJSONRPCErrorResponse(req.ID, mcp.INTERNAL_ERROR, err.Error(), nil)
		case r == nil:
			return
		default:
			resp = r
		}
	}
	b, err := json.Marshal(resp)
	if err == nil {
		_ = s.write(b)
	}
}

func (s *stdioTransport) write(b []byte) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.stdin == nil {
		return transport.ErrTransportClosed
	}
	b = append(b, '\n')
	_, err := s.stdin.Write(b)
	return err
}

func (s *stdioTransport) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	b, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	key := req.ID.String()
	ch := make(chan *transport.JSONRPCResponse, 1)
	s.mu.Lock()
	if s.closed {
		err := s.closeErr
		s.mu.Unlock()
		return nil, err
	}
	s.pending[key] = ch
	s.mu.Unlock()
	forget := func() {
		s.mu.Lock()
		delete(s.pending, key)
		s.mu.Unlock()
	}
	if err := s.write(b); err != nil {
		forget()
		// A failed write (a broken pipe) almost always means the server is
		// exiting; its stdout closes a moment later, and then the error can
		// say how it exited and what it printed on stderr.
		select {
		case <-s.done:
			return nil, s.connErr()
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
		return nil, fmt.Errorf("write to server: %w", err)
	}
	select {
	case r := <-ch:
		return r, nil
	case <-ctx.Done():
		forget()
		return nil, ctx.Err()
	case <-s.done:
		select {
		case r := <-ch:
			return r, nil
		default:
		}
		forget()
		return nil, s.connErr()
	}
}

func (s *stdioTransport) connErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closeErr
}

func (s *stdioTransport) SendNotification(ctx context.Context, n mcp.JSONRPCNotification) error {
	select {
	case <-s.done:
		return s.connErr()
	default:
	}
	b, err := json.Marshal(n)
	if err != nil {
		return err
	}
	return s.write(b)
}

func (s *stdioTransport) SetNotificationHandler(h func(mcp.JSONRPCNotification)) {
	s.hmu.Lock()
	s.onNotify = h
	s.hmu.Unlock()
}

func (s *stdioTransport) SetRequestHandler(h transport.RequestHandler) {
	s.hmu.Lock()
	s.onRequest = h
	s.hmu.Unlock()
}

func (s *stdioTransport) GetSessionId() string { return "" }

// shutdown marks the connection dead and fails every pending request.
func (s *stdioTransport) shutdown(why error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.closeErr = why
	s.mu.Unlock()
	// The notice goes out before the waiters wake, so whoever sees a call
	// fail with the exit also finds the exit among the events.
	var exit *ServerExitError
	if errors.As(why, &exit) {
		s.events.publish(Event{Kind: EventNotice, Level: "error", Text: exit.Error()})
	}
	close(s.done)
}

// Close ends the server politely (stdin closed), then firmly (SIGTERM to
// its process group), then for good (SIGKILL to the group), a grace period
// apart. Once the server itself is gone, what it left running in its group
// (a child that ignores the closed stdin too) gets the same: SIGTERM, a
// grace period, SIGKILL. So a server that ignores EOF and SIGTERM costs
// two grace periods, and nothing it started outlives mcpterm unless it
// left the group on purpose (setsid); then WaitDelay bounds only how long
// mcpterm waits for the output such a process holds open.
func (s *stdioTransport) Close() error {
	s.closeOnce.Do(func() {
		s.life.Lock()
		defer s.life.Unlock()
		s.shutdown(transport.ErrTransportClosed)
		if s.cmd == nil {
			return
		}
		// Not under wmu: a write blocked on a server that no longer reads
		// its stdin would hold it forever; closing the pipe ends that write.
		_ = s.stdin.Close()
		// Many servers (server-everything among them) never read EOF as
		// the end, so the polite step gets a short wait of its own rather
		// than a full grace: the CLI's exit after its answer is this plus
		// the SIGTERM the server does honour.
		if !s.waitExit(min(eofGrace, s.grace)) && !s.leaderGone() {
			signalGroup(s.cmd.Process, syscall.SIGTERM)
			if !s.waitExit(s.grace) && !s.leaderGone() {
				// Nothing in the group survives this, so there is nothing
				// left for endGroup.
				signalGroup(s.cmd.Process, syscall.SIGKILL)
				<-s.exited
				return
			}
		}
		s.endGroup(s.cmd.Process.Pid)
		<-s.exited // at most WaitDelay once the group is gone
	})
	return nil
}

// eofGrace is how long a server gets to exit on its own once its stdin is
// closed, before SIGTERM.
const eofGrace = 100 * time.Millisecond

// leaderGone reports a server process that has exited although exited
// has not closed yet: Wait is still copying its stderr, which a child it
// left behind holds open. That child is endGroup's.
func (s *stdioTransport) leaderGone() bool {
	return errors.Is(s.cmd.Process.Signal(syscall.Signal(0)), os.ErrProcessDone)
}

// waitExit waits up to d for the server process to exit.
func (s *stdioTransport) waitExit(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-s.exited:
		return true
	case <-t.C:
		return false
	}
}

// endGroup ends whatever is left in the server's process group after the
// server itself has exited: SIGTERM, then SIGKILL if anything is still
// there a grace period later. With nothing left (the usual case) it costs
// one kill(2).
func (s *stdioTransport) endGroup(pgid int) {
	if !groupAlive(pgid) {
		return
	}
	_ = killGroup(pgid, syscall.SIGTERM)
	deadline := time.Now().Add(s.grace)
	for groupAlive(pgid) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if groupAlive(pgid) {
		_ = killGroup(pgid, syscall.SIGKILL)
	}
}

// Stderr returns the last lines the server wrote to stderr.
func (s *stdioTransport) Stderr() string {
	if s.stderr == nil {
		return ""
	}
	return s.stderr.tail()
}

// stderrSink turns a child's stderr into EventStderr lines and keeps a
// bounded tail for error messages. Writes never block the child.
type stderrSink struct {
	mu      sync.Mutex
	events  *eventLog
	partial []byte
	ring    []byte
}

const (
	stderrTail    = 16 << 10
	stderrLineMax = 4096
)

func newStderrSink(events *eventLog) *stderrSink { return &stderrSink{events: events} }

func (w *stderrSink) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ring = append(w.ring, p...)
	if len(w.ring) > stderrTail {
		w.ring = append([]byte(nil), w.ring[len(w.ring)-stderrTail:]...)
	}
	rest := p
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			room := stderrLineMax - len(w.partial)
			if room > 0 {
				w.partial = append(w.partial, rest[:min(room, len(rest))]...)
			}
			break
		}
		w.partial = append(w.partial, rest[:min(i, max(0, stderrLineMax-len(w.partial)))]...)
		w.emit()
		rest = rest[i+1:]
	}
	return len(p), nil
}

func (w *stderrSink) emit() {
	line := strings.TrimRight(string(w.partial), "\r")
	w.partial = w.partial[:0]
	if w.events != nil {
		w.events.publish(Event{Kind: EventStderr, Text: line})
	}
}

func (w *stderrSink) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.partial) > 0 {
		w.emit()
	}
}

// tail returns up to the last 2 KiB of stderr, trimmed to whole lines.
func (w *stderrSink) tail() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	t := w.ring
	if len(t) > 2048 {
		t = t[len(t)-2048:]
		if i := bytes.IndexByte(t, '\n'); i >= 0 {
			t = t[i+1:]
		}
	}
	return strings.TrimSpace(string(t))
}
