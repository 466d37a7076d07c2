package auth

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"time"
)

// callback is the authorization response the loopback listener got.
type callback struct {
	code string
	err  error
}

// loopback is the redirect listener of one authorization: 127.0.0.1 on a
// port the system picks, answering /callback once, when its state matches.
type loopback struct {
	ln    net.Listener
	srv   *http.Server
	state string
	got   chan callback
}

// callbackPath is the redirect URI's path.
const callbackPath = "/callback"

func listenLoopback(state string) (*loopback, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("the redirect listener: %w", err)
	}
	l := &loopback{ln: ln, state: state, got: make(chan callback, 1)}
	mux := http.NewServeMux()
	mux.HandleFunc(callbackPath, l.handle)
	l.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = l.srv.Serve(ln) }()
	return l, nil
}

// redirectURI is http://127.0.0.1:PORT/callback.
func (l *loopback) redirectURI() string {
	return "http://" + l.ln.Addr().String() + callbackPath
}

func (l *loopback) handle(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("state") != l.state {
		// Not ours (a stale tab, or a forged request): refuse and keep
		// waiting for the real one.
		http.Error(w, "mcpterm: this authorization response does not belong to the login in progress", http.StatusBadRequest)
		return
	}
	var cb callback
	switch {
	case q.Get("error") != "":
		cb.err = fmt.Errorf("the authorization server refused: %s %s", clip(q.Get("error")), clip(q.Get("error_description")))
	case q.Get("code") == "":
		cb.err = errors.New("the authorization response carries no code")
	default:
		cb.code = q.Get("code")
	}
	select {
	case l.got <- cb:
	default: // answered already
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	msg := "mcpterm is authorized. You can close this window."
	if cb.err != nil {
		msg = "mcpterm: " + cb.err.Error()
	}
	fmt.Fprintf(w, "<!doctype html><title>mcpterm</title><p>%s</p>\n", html.EscapeString(msg))
}

// wait waits for the callback or ctx's end.
func (l *loopback) wait(ctx context.Context) (string, error) {
	select {
	case cb := <-l.got:
		return cb.code, cb.err
	case <-ctx.Done():
		return "", fmt.Errorf("waiting for the browser to come back: %w", context.Cause(ctx))
	}
}

func (l *loopback) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = l.srv.Shutdown(ctx)
}
