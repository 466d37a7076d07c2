package session

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpterm/mcpterm/session/internal/testserver"
)

func TestFaultServerExitsMidCall(t *testing.T) {
	var history []*CallResult
	s := open(t, stdioSource(t, testserver.ExitMidCall), Options{OnCall: func(r *CallResult) { history = append(history, r) }})
	ctx := ctxT(t, 10*time.Second)
	if _, err := s.Tools(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Exited(); err != nil {
		t.Fatalf("Exited before the exit: %v", err)
	}
	r := s.Call(ctx, CallRequest{Tool: "work"})
	var exit *ServerExitError
	if !errors.As(r.Err, &exit) || Classify(r.Err) != ClassConnection {
		t.Fatalf("err = %v (class %v)", r.Err, Classify(r.Err))
	}
	if err := s.Exited(); !errors.As(err, &exit) {
		t.Fatalf("Exited after the exit: %v", err)
	}
	if !strings.Contains(exit.Status, "exit status 3") || !strings.Contains(exit.Stderr, "boom: dying") {
		t.Errorf("exit error %q / stderr %q", exit.Status, exit.Stderr)
	}
	// Later requests fail fast with the same story, not a hang.
	start := time.Now()
	if err := s.Ping(ctx); !errors.As(err, &exit) || time.Since(start) > 2*time.Second {
		t.Errorf("ping after exit: %v after %v", err, time.Since(start))
	}
	// The stderr line was also an event, and the exit a notice.
	var sawStderr, sawNotice bool
	for _, e := range s.Events() {
		sawStderr = sawStderr || (e.Kind == EventStderr && strings.Contains(e.Text, "boom"))
		sawNotice = sawNotice || (e.Kind == EventNotice && strings.Contains(e.Text, "exit status 3"))
	}
	if !sawStderr || !sawNotice {
		t.Errorf("events: stderr %v notice %v", sawStderr, sawNotice)
	}
	// Reconnect starts a fresh server; the call history kept the failure.
	if err := s.Reconnect(ctx); err != nil {
		t.Fatal(err)
	}
	if s.Info().Generation != 2 {
		t.Errorf("generation %d", s.Info().Generation)
	}
	if err := s.Exited(); err != nil {
		t.Errorf("Exited after a reconnect: %v", err)
	}
	if set, err := s.Tools(ctx); err != nil || set.Find("work") == nil {
		t.Errorf("tools after reconnect: %v", err)
	}
	if len(history) != 1 || history[0].Err == nil {
		t.Errorf("history: %d entries", len(history))
	}
}

func TestFaultServerNeverAnswers(t *testing.T) {
	s := open(t, stdioSource(t, testserver.NeverAnswers), Options{})
	ctx := ctxT(t, 10*time.Second)
	start := time.Now()
	r := s.Call(ctx, CallRequest{Tool: "work", Timeout: 150 * time.Millisecond})
	if Classify(r.Err) != ClassTimeout || !r.Cancelled {
		t.Fatalf("err = %v", r.Err)
	}
	if time.Since(start) > 3*time.Second {
		t.Errorf("timeout took %v", time.Since(start))
	}
	// The server received notifications/cancelled for the call's request id
	// (it logs them to stderr).
	waitFor(t, 5*time.Second, "cancellation seen by the server", func() bool {
		for _, e := range s.Events() {
			if e.Kind == EventStderr && strings.Contains(e.Text, "cancelled") && strings.Contains(e.Text, `"requestId"`) {
				return true
			}
		}
		return false
	})
	// Still responsive.
	if err := s.Ping(ctx); err != nil {
		t.Errorf("ping: %v", err)
	}
}

func TestFaultServerSilentAtConnect(t *testing.T) {
	start := time.Now()
	_, err := Open(ctxT(t, 10*time.Second), stdioSource(t, testserver.Silent),
		Options{ConnectTimeout: 600 * time.Millisecond, DiscoverTimeout: 200 * time.Millisecond})
	if err == nil || Classify(err) != ClassTimeout {
		t.Fatalf("err = %v (class %v)", err, Classify(err))
	}
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("Open took %v", d)
	}
}

func TestFaultServerWritesGarbage(t *testing.T) {
	s := open(t, stdioSource(t, testserver.Garbage), Options{})
	ctx := ctxT(t, 10*time.Second)
	r := s.Call(ctx, CallRequest{Tool: "work"})
	if !r.OK() || resultText(r) != "ok" {
		t.Fatalf("call: %v", r.Err)
	}
	var garbage []string
	for _, e := range s.Events() {
		if e.Kind == EventGarbage {
			garbage = append(garbage, e.Text)
		}
	}
	if len(garbage) < 2 || garbage[0] != "this is not json" || !strings.HasPrefix(garbage[1], "\x1b[31m") {
		t.Errorf("garbage events: %q", garbage)
	}
}

func TestFaultServerBigResult(t *testing.T) {
	s := open(t, stdioSource(t, testserver.BigResult), Options{})
	r := s.Call(ctxT(t, 20*time.Second), CallRequest{Tool: "work"})
	if !r.OK() {
		t.Fatal(r.Err)
	}
	if n := len(resultText(r)); n != testserver.BigResultBytes {
		t.Errorf("got %d bytes of text, want %d", n, testserver.BigResultBytes)
	}
	// The tap records the full size but keeps only a bounded preview.
	var found bool
	for _, m := range s.Tap().Messages() {
		if m.Kind == KindResponse && m.Method == "tools/call" {
			found = true
			if m.Size < testserver.BigResultBytes || len(m.Payload) > maxTapPreview || !m.Truncated {
				t.Errorf("tap: size %d, preview %d, truncated %v", m.Size, len(m.Payload), m.Truncated)
			}
		}
	}
	if !found {
		t.Error("no tools/call response in the tap")
	}
}

func TestFaultMessageOverLimit(t *testing.T) {
	s := open(t, stdioSource(t, testserver.HugeLine), Options{MaxMessageBytes: 1 << 20})
	ctx := ctxT(t, 10*time.Second)
	r := s.Call(ctx, CallRequest{Tool: "work"})
	var perr *ProtocolError
	if !errors.As(r.Err, &perr) || r.Err.Error() != "tools/call work: bad answer from server: a message larger than 1048576 bytes (the limit)" {
		t.Fatalf("err = %v", r.Err)
	}
	// The stream stayed in sync: the next request works.
	if err := s.Ping(ctx); err != nil {
		t.Errorf("ping after oversized message: %v", err)
	}
}

func TestFaultThousandToolsOverPages(t *testing.T) {
	for _, src := range []Source{stdioSource(t, testserver.ManyTools), stdioSource(t, "mcpgo-1000")} {
		t.Run(src.Name, func(t *testing.T) {
			s := open(t, src, Options{})
			set, err := s.Tools(ctxT(t, 20*time.Second))
			if err != nil {
				t.Fatal(err)
			}
			if len(set.Tools) < 1000 {
				t.Fatalf("%d tools", len(set.Tools))
			}
			var pages int
			for _, m := range s.Tap().Messages() {
				if m.Dir == Sent && m.Method == "tools/list" {
					pages++
				}
			}
			if pages < 10 {
				t.Errorf("listed in %d pages", pages)
			}
		})
	}
}

func TestFaultRepeatedCursor(t *testing.T) {
	s := open(t, stdioSource(t, testserver.RepeatCursor), Options{})
	_, err := s.Tools(ctxT(t, 10*time.Second))
	var perr *ProtocolError
	if !errors.As(err, &perr) || !strings.Contains(err.Error(), "repeats cursor") {
		t.Fatalf("err = %v", err)
	}
}

func TestFaultBadToolsLeftOut(t *testing.T) {
	s := open(t, stdioSource(t, testserver.BadTools), Options{})
	set, err := s.Tools(ctxT(t, 10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Tools) != 2 || set.Tools[0].Name != "good" || set.Tools[1].Name != "fine" {
		t.Errorf("tools: %d", len(set.Tools))
	}
	if w := s.ToolWarnings(); len(w) != 2 || !strings.Contains(w[0], "tools[1]") || !strings.Contains(w[1], "duplicate") {
		t.Errorf("warnings %q", w)
	}
}

func TestFaultNotificationFlood(t *testing.T) {
	s := open(t, stdioSource(t, testserver.Flood), Options{})
	ctx := ctxT(t, 20*time.Second)
	sub := s.Subscribe(ctx) // a subscriber that never reads must not block anything
	_ = sub
	r := s.Call(ctx, CallRequest{Tool: "work"})
	if !r.OK() || resultText(r) != "after the flood" {
		t.Fatalf("call: %v", r.Err)
	}
	waitFor(t, 5*time.Second, "flood to arrive", func() bool {
		ev := s.Events()
		return len(ev) > 0 && ev[len(ev)-1].Text == "flood 19999"
	})
	if n := len(s.Events()); n > maxEvents {
		t.Errorf("%d events retained", n)
	}
	if n := len(s.Tap().Messages()); n > maxTapMessages {
		t.Errorf("%d tap messages retained", n)
	}
	if err := s.Ping(ctx); err != nil {
		t.Errorf("ping: %v", err)
	}
}

func TestStdioEnvAndStderr(t *testing.T) {
	src := stdioSource(t, testserver.EnvEcho)
	src.Env["MCPTERM_TEST_ECHO"] = "from-config"
	s := open(t, src, Options{})
	r := s.Call(ctxT(t, 5*time.Second), CallRequest{Tool: "work"})
	if resultText(r) != "from-config" {
		t.Errorf("server saw %q", resultText(r))
	}
	// Secrets in Env never show up in the description.
	if str := src.String(); strings.Contains(str, "from-config") || !strings.Contains(str, "MCPTERM_TEST_ECHO") {
		t.Errorf("String() = %q", str)
	}

	s2 := open(t, stdioSource(t, testserver.StderrChatty), Options{})
	if _, err := s2.Tools(ctxT(t, 5*time.Second)); err != nil {
		t.Fatal(err)
	}
	// stderr is a separate pipe: it may trail the response a little.
	waitFor(t, 5*time.Second, "stderr tail", func() bool { return strings.Contains(s2.Stderr(), "got tools/list") })
}

func TestStdioCommandMissing(t *testing.T) {
	_, err := Open(ctxT(t, 5*time.Second), Source{Kind: Stdio, Command: "/nonexistent/mcp-server"}, Options{})
	if err == nil || Classify(err) != ClassConnection || !strings.Contains(err.Error(), "/nonexistent/mcp-server") {
		t.Fatalf("err = %v", err)
	}
}

func TestServerWithoutTools(t *testing.T) {
	s := open(t, stdioSource(t, testserver.NoTools), Options{})
	set, err := s.Tools(ctxT(t, 5*time.Second))
	if err != nil || len(set.Tools) != 0 {
		t.Fatalf("tools: %v", err)
	}
	if rs, err := s.Resources(ctxT(t, 5*time.Second)); err != nil || len(rs) != 0 {
		t.Errorf("resources: %v", err)
	}
}

// A server that dies before reading its first request must still be
// reported with its exit status and stderr, whether the client's first write
// still fits the pipe or meets a closed one.
func TestFaultServerExitsAtStart(t *testing.T) {
	for i := range 5 {
		_, err := Open(ctxT(t, 10*time.Second), stdioSource(t, testserver.ExitAtStart), Options{})
		var exit *ServerExitError
		if !errors.As(err, &exit) {
			t.Fatalf("run %d: err = %v, want a ServerExitError", i, err)
		}
		if !strings.Contains(exit.Status, "exit status 5") || !strings.Contains(exit.Stderr, "API_TOKEN is not set") {
			t.Errorf("run %d: status %q, stderr %q", i, exit.Status, exit.Stderr)
		}
	}
}
