package auth

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The loopback listener takes only the answer with its state; another is
// refused and the wait goes on.
func TestLoopbackChecksState(t *testing.T) {
	lb, err := listenLoopback("the-state")
	if err != nil {
		t.Fatal(err)
	}
	defer lb.close()
	if !strings.HasPrefix(lb.redirectURI(), "http://127.0.0.1:") {
		t.Errorf("redirect URI %s", lb.redirectURI())
	}
	resp, err := http.Get(lb.redirectURI() + "?code=forged&state=other")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("wrong state: %s", resp.Status)
	}
	resp, err = http.Get(lb.redirectURI() + "?code=good&state=the-state")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if code, err := lb.wait(ctx); code != "good" || err != nil {
		t.Errorf("wait: %q %v", code, err)
	}
	// An error answer from the authorization server is the wait's error.
	lb2, err := listenLoopback("s2")
	if err != nil {
		t.Fatal(err)
	}
	defer lb2.close()
	resp, err = http.Get(lb2.redirectURI() + "?error=access_denied&error_description=no&state=s2")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if _, err := lb2.wait(ctx); err == nil || !strings.Contains(err.Error(), "access_denied") {
		t.Errorf("error answer: %v", err)
	}
}
