package session

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/session/internal/testserver"
)

// The test binary doubles as every stdio server the tests need: run with
// MCPTERM_TEST_SERVER=mode it serves that mode on stdin/stdout instead of
// running tests. This keeps fault servers real processes without building
// anything.
const serverModeEnv = "MCPTERM_TEST_SERVER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(serverModeEnv); mode != "" {
		serveMode(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func serveMode(mode string) {
	switch mode {
	case "mcpgo":
		_ = server.ServeStdio(testserver.New(&testserver.Recorder{}, 0, 0))
	case "mcpgo-1000":
		_ = server.ServeStdio(testserver.New(&testserver.Recorder{}, 1000, 100))
	default:
		if !serveExtraMode(mode) {
			testserver.RunFault(mode, os.Stdin, os.Stdout, os.Stderr)
		}
	}
}

// stdioSource runs this test binary as a server in the given mode.
func stdioSource(t testing.TB, mode string) Source {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Source{Kind: Stdio, Name: mode, Command: exe, Args: []string{"-test.run=^$"},
		Env: map[string]string{serverModeEnv: mode}}
}

func inProcess(rec *testserver.Recorder) Source {
	return Source{Kind: InProcess, Name: "test", Server: testserver.New(rec, 0, 0)}
}

func ctxT(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func open(t testing.TB, src Source, opts Options) *Session {
	t.Helper()
	s, err := Open(ctxT(t, 20*time.Second), src, opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", src, err)
	}
	t.Cleanup(func() { s.Close() })
	watchActivity(t, s)
	return s
}

// activity is how waitFor learns, without polling, that what it waits for
// may have happened: a session opened with open() notifies it on every
// event it publishes and every protocol message its tap records (what a
// test can look at: Events, Tap, Stderr, which grows before its line is
// published). It is one for the package's tests; a wake-up from another
// test only costs a waiter a second look.
var activity broadcast

// broadcast wakes every waiter at once: next is a channel the next notify
// closes.
type broadcast struct {
	mu sync.Mutex
	ch chan struct{}
}

func (b *broadcast) next() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ch == nil {
		b.ch = make(chan struct{})
	}
	return b.ch
}

func (b *broadcast) notify() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ch != nil {
		close(b.ch)
		b.ch = nil
	}
}

// watchActivity notifies activity of s's events and messages until the test
// ends.
func watchActivity(t testing.TB, s *Session) {
	ctx, cancel := context.WithCancel(context.Background())
	events := s.Subscribe(ctx)
	msgs, stop := s.Tap().Subscribe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case _, ok := <-events:
				if !ok {
					return
				}
			case _, ok := <-msgs:
				if !ok {
					return
				}
			}
			activity.notify()
		}
	}()
	t.Cleanup(func() {
		cancel()
		stop()
		<-done
	})
}

func obj(t testing.TB, src string) *ojson.Value {
	t.Helper()
	v, err := ojson.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// resultText joins the text content of a raw result.
func resultText(r *CallResult) string {
	if r.Raw == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range r.Raw.Get("content").Items {
		b.WriteString(c.Get("text").StringOr(""))
	}
	return b.String()
}

// waitFor waits until cond holds, looking again each time something cond
// can see changes: an event or protocol message of a session opened with
// open(), or a note of a testserver.Recorder. d only turns a hang into a
// failure.
func waitFor(t testing.TB, d time.Duration, what string, cond func() bool) {
	t.Helper()
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		// Taken before cond, so a change in between is not missed.
		session, recorder := activity.next(), testserver.Noted()
		if cond() {
			return
		}
		select {
		case <-session:
		case <-recorder:
		case <-timer.C:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
