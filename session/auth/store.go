package auth

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Entry is what is kept for one server: its tokens and the client that got
// them, so that a later run can refresh without discovering again.
type Entry struct {
	ServerURL    string    `json:"server_url"`
	AccessToken  string    `json:"access_token"`
	TokenType    string    `json:"token_type,omitempty"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	ExpiresAt    time.Time `json:"expires_at,omitzero"`
	// Scopes are the scopes asked for; Granted what the server said it
	// granted (its "scope" answer), when it said.
	Scopes  []string `json:"scopes,omitempty"`
	Granted []string `json:"granted,omitempty"`
	// The client: its ID, and for a registered confidential client its
	// secret and how the token endpoint wants it (client_secret_basic,
	// client_secret_post or none).
	ClientID     string `json:"client_id,omitempty"`
	ClientSecret string `json:"client_secret,omitempty"`
	AuthMethod   string `json:"token_endpoint_auth_method,omitempty"`
	// Where to refresh, and the RFC 8707 resource the token is for.
	TokenEndpoint string    `json:"token_endpoint,omitempty"`
	Resource      string    `json:"resource,omitempty"`
	Issuer        string    `json:"issuer,omitempty"`
	Saved         time.Time `json:"saved,omitzero"`
}

// Expired says whether the access token is past its expiry (less a minute,
// so a request does not carry a token that dies on the way).
func (e *Entry) Expired(now time.Time) bool {
	return !e.ExpiresAt.IsZero() && now.After(e.ExpiresAt.Add(-time.Minute))
}

// secrets are the entry's values that must never be shown.
func (e *Entry) secrets() []string {
	var out []string
	for _, s := range []string{e.AccessToken, e.RefreshToken, e.ClientSecret} {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Store is the token file: a JSON object of entries keyed by the server's
// URL, mode 0600 in a 0700 directory, replaced whole on every write (a
// temporary file renamed over it), so a reader never sees half a file.
type Store struct {
	path string
	mu   sync.Mutex
}

// maxStoreBytes bounds the token file read.
const maxStoreBytes = 4 << 20

// FileName is the token file's name in mcpterm's config directory.
const FileName = "oauth-tokens.json"

// NewStore is the store at path.
func NewStore(path string) *Store { return &Store{path: path} }

// DefaultPath is $XDG_CONFIG_HOME/mcpterm/oauth-tokens.json, else
// HOME/.config/mcpterm/oauth-tokens.json.
func DefaultPath(getenv func(string) string, home string) string {
	dir := getenv("XDG_CONFIG_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "mcpterm", FileName)
}

// Path is the file's path.
func (s *Store) Path() string { return s.path }

// Key is the server URL as entries are keyed: scheme and host lower-cased,
// no fragment, no trailing slash.
func Key(serverURL string) string {
	u, err := url.Parse(serverURL)
	if err != nil {
		return serverURL
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	u.Fragment = ""
	u.RawFragment = ""
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = ""
	return u.String()
}

func (s *Store) load() (map[string]*Entry, error) {
	f, err := os.Open(s.path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]*Entry{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("token file: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("token file: %w", err)
	}
	if st.Size() > maxStoreBytes {
		return nil, fmt.Errorf("token file %s: larger than %d bytes", s.path, maxStoreBytes)
	}
	m := map[string]*Entry{}
	if err := json.NewDecoder(f).Decode(&m); err != nil {
		return nil, fmt.Errorf("token file %s: %v", s.path, err)
	}
	for k, e := range m {
		if e == nil {
			delete(m, k)
		}
	}
	return m, nil
}

func (s *Store) write(m map[string]*Entry) error {
	dir := filepath.Dir(s.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("token file: %w", err)
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".oauth-tokens-*")
	if err != nil {
		return fmt.Errorf("token file: %w", err)
	}
	defer os.Remove(tmp.Name()) // after the rename, there is nothing to remove
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("token file: %w", err)
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("token file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("token file: %w", err)
	}
	if err := os.Rename(tmp.Name(), s.path); err != nil {
		return fmt.Errorf("token file: %w", err)
	}
	return nil
}

// Get returns the entry for serverURL, or nil.
func (s *Store) Get(serverURL string) (*Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.load()
	if err != nil {
		return nil, err
	}
	return m[Key(serverURL)], nil
}

// Put saves e under its ServerURL.
func (s *Store) Put(e *Entry) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.load()
	if err != nil {
		return err
	}
	e.Saved = time.Now().UTC()
	m[Key(e.ServerURL)] = e
	return s.write(m)
}

// Delete forgets serverURL's entry; it says whether there was one.
func (s *Store) Delete(serverURL string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.load()
	if err != nil {
		return false, err
	}
	k := Key(serverURL)
	if _, ok := m[k]; !ok {
		return false, nil
	}
	delete(m, k)
	return true, s.write(m)
}

// List returns every entry, ordered by server URL.
func (s *Store) List() ([]*Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.load()
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]*Entry, 0, len(keys))
	for _, k := range keys {
		out = append(out, m[k])
	}
	return out, nil
}
