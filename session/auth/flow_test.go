package auth_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/auth"
	"github.com/mcpterm/mcpterm/session/auth/authtest"
)

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// syncBuffer is a trace sink the session writes from its goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// open is a session on srv with OAuth through store and the test browser.
func open(t *testing.T, srv *authtest.Server, store *auth.Store, trace *syncBuffer) (*session.Session, *safe.Redactor, error) {
	t.Helper()
	r := safe.NewRedactor(nil)
	opts := session.Options{
		Redactor: r,
		OAuth:    &auth.Config{Store: store, OpenURL: authtest.Browser, CallbackTimeout: 30 * time.Second},
	}
	if trace != nil {
		opts.Trace = trace
	}
	s, err := session.Open(ctxT(t), session.Source{Kind: session.HTTP, URL: srv.MCPURL()}, opts)
	if err == nil {
		t.Cleanup(func() { s.Close() })
	}
	return s, r, err
}

func call(t *testing.T, s *session.Session) *session.CallResult {
	t.Helper()
	return s.Call(ctxT(t), session.CallRequest{Tool: "whoami"})
}

func TestAuthorizeOnceThenStoredToken(t *testing.T) {
	srv := authtest.New(authtest.Options{})
	defer srv.Close()
	store := auth.NewStore(filepath.Join(t.TempDir(), "mcpterm", auth.FileName))
	trace := &syncBuffer{}
	s, r, err := open(t, srv, store, trace)
	if err != nil {
		t.Fatal(err)
	}
	if res := call(t, s); res.Err != nil || res.IsError {
		t.Fatalf("call: %v", res.Err)
	}
	if n := srv.Authorizes(); n != 1 {
		t.Errorf("%d authorizations, want 1", n)
	}
	issued := srv.Issued()
	if len(issued) == 0 {
		t.Fatal("no token issued")
	}
	for _, tok := range issued {
		if r.Redact("x"+tok+"x") != "x"+safe.Mask+"x" {
			t.Errorf("the Redactor does not know the token")
		}
		if strings.Contains(trace.String(), tok) {
			t.Errorf("the trace carries a token")
		}
		for _, e := range s.Events() {
			if strings.Contains(e.Text, tok) {
				t.Errorf("event %q carries a token", e.Text)
			}
		}
	}
	var sawURL bool
	for _, e := range s.Events() {
		sawURL = sawURL || (e.Source == "oauth" && strings.Contains(e.Text, "/authorize?"))
	}
	if !sawURL {
		t.Errorf("no notice event with the authorization URL: %+v", s.Events())
	}
	s.Close()
	// A second session uses the stored token: no new authorization.
	s2, _, err := open(t, srv, store, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res := call(t, s2); res.Err != nil {
		t.Fatal(res.Err)
	}
	if n := srv.Authorizes(); n != 1 {
		t.Errorf("after reopening: %d authorizations, want 1", n)
	}
	raw, _ := os.ReadFile(store.Path())
	if !strings.Contains(string(raw), issued[0]) {
		t.Errorf("the token file does not hold the token")
	}
}

func TestRefresh(t *testing.T) {
	// Tokens that live 30 s count as expired at once (a minute's margin):
	// each new session refreshes before it sends anything.
	srv := authtest.New(authtest.Options{Refresh: true, ExpiresIn: 30})
	defer srv.Close()
	store := auth.NewStore(filepath.Join(t.TempDir(), auth.FileName))
	s, _, err := open(t, srv, store, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	before := srv.Refreshed()
	s2, _, err := open(t, srv, store, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res := call(t, s2); res.Err != nil {
		t.Fatal(res.Err)
	}
	if srv.Refreshed() <= before {
		t.Errorf("no refresh grant for an expired token")
	}
	if n := srv.Authorizes(); n != 1 {
		t.Errorf("%d authorizations, want 1 (the rest refreshed)", n)
	}
	// A token the server revoked (401) is refreshed too.
	srv.Expire()
	before = srv.Refreshed()
	if res := call(t, s2); res.Err != nil {
		t.Fatal(res.Err)
	}
	if srv.Refreshed() <= before || srv.Authorizes() != 1 {
		t.Errorf("after a 401: refreshed %d→%d, %d authorizations", before, srv.Refreshed(), srv.Authorizes())
	}
}

func TestStepUp(t *testing.T) {
	srv := authtest.New(authtest.Options{ToolScopes: []string{"tools:write"}})
	defer srv.Close()
	s, _, err := open(t, srv, auth.NewStore(filepath.Join(t.TempDir(), auth.FileName)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res := call(t, s); res.Err != nil || res.IsError {
		t.Fatalf("call after step-up: %v", res.Err)
	}
	if n := srv.Authorizes(); n != 2 {
		t.Errorf("%d authorizations, want 2 (the first, then the step-up)", n)
	}
}

func TestStepUpRetryLimit(t *testing.T) {
	srv := authtest.New(authtest.Options{EscalateForever: true})
	defer srv.Close()
	s, _, err := open(t, srv, auth.NewStore(filepath.Join(t.TempDir(), auth.FileName)), nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if res := call(t, s); res.Err == nil {
			t.Fatal("a server that always wants more scope: the call succeeded")
		}
	}
	if n, want := srv.Authorizes(), 1+auth.MaxStepUps; n != want {
		t.Errorf("%d authorizations, want %d", n, want)
	}
}

func TestNoOAuthSaysWhatToDo(t *testing.T) {
	srv := authtest.New(authtest.Options{})
	defer srv.Close()
	_, err := session.Open(ctxT(t), session.Source{Kind: session.HTTP, URL: srv.MCPURL()}, session.Options{})
	var ae *auth.Error
	if !errors.As(err, &ae) || !strings.Contains(err.Error(), "mcpterm auth login --url "+srv.MCPURL()) || !strings.Contains(err.Error(), "--bearer-token-env") {
		t.Errorf("error without OAuth: %v", err)
	}
	if session.Classify(err) != session.ClassConnection {
		t.Errorf("class %v", session.Classify(err))
	}
	// A wrong token of the person's own: no flow, the same advice.
	_, err = session.Open(ctxT(t), session.Source{Kind: session.HTTP, URL: srv.MCPURL(), Headers: map[string]string{"Authorization": "Bearer nope"}},
		session.Options{OAuth: &auth.Config{OpenURL: authtest.Browser}})
	if !errors.As(err, &ae) || !strings.Contains(err.Error(), "--header") || srv.Authorizes() != 0 {
		t.Errorf("explicit header: %v (%d authorizations)", err, srv.Authorizes())
	}
}

func TestSSEAuthorizes(t *testing.T) {
	srv := authtest.New(authtest.Options{})
	defer srv.Close()
	store := auth.NewStore(filepath.Join(t.TempDir(), auth.FileName))
	s, err := session.Open(ctxT(t), session.Source{Kind: session.SSE, URL: srv.SSEURL()},
		session.Options{OAuth: &auth.Config{Store: store, OpenURL: authtest.Browser}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if res := call(t, s); res.Err != nil || res.IsError {
		t.Fatalf("call over SSE: %v", res.Err)
	}
	if n := srv.Authorizes(); n != 1 {
		t.Errorf("%d authorizations, want 1", n)
	}
}

// A browser that never comes back: the connect timeout ends the wait; the
// notice with the URL said how long there was, and how to log in with more
// time.
func TestBrowserNeverReturns(t *testing.T) {
	srv := authtest.New(authtest.Options{})
	defer srv.Close()
	opened := make(chan string, 1)
	var notices []string
	_, err := session.Open(ctxT(t), session.Source{Kind: session.HTTP, URL: srv.MCPURL()}, session.Options{
		ConnectTimeout: 2 * time.Second,
		OAuthNotify:    func(msg string) { notices = append(notices, msg) },
		OAuth: &auth.Config{OpenURL: func(ctx context.Context, u string) error {
			opened <- u
			return nil
		}},
	})
	if err == nil || session.Classify(err) != session.ClassTimeout {
		t.Fatalf("err %v", err)
	}
	if len(notices) == 0 || !strings.Contains(notices[0], "'mcpterm auth login --url "+srv.MCPURL()+"' waits 5m0s") {
		t.Errorf("notices %q", notices)
	}
	select {
	case u := <-opened:
		if !strings.HasPrefix(u, srv.URL+"/authorize?") {
			t.Errorf("opened %s", u)
		}
	default:
		t.Error("the browser was not opened")
	}
}
