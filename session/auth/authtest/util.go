package authtest

import (
	"bytes"
	"context"
	"io"
	"net/http"
)

// readAll reads r's body and puts it back for the next handler.
func readAll(r *http.Request) ([]byte, error) {
	raw, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(raw))
	return raw, err
}

// Browser follows an authorization URL's redirects to the client's
// loopback callback, as a person's browser would after they approve: a
// Config.OpenURL for tests.
func Browser(ctx context.Context, u string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.Body.Close()
}
