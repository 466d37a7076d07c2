package config

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/safe"
)

// Listing is one configured server as a list shows it, every secret masked:
// what `mcpterm servers` prints. Entries that resolve show what would run
// (variables expanded); entries that do not show the file's own text, still
// masked, and say why in Problem.
type Listing struct {
	Name      string
	Transport Transport // "" when the entry does not say and cannot be told
	// Command is a stdio server's command line, shell-quoted, masked.
	Command string
	// URL is an HTTP server's address, masked.
	URL string
	// Env and Headers are the names the entry sets; their values are never
	// listed.
	Env, Headers []string
	Source       Source
	Disabled     bool
	// Shadowed is set when a nearer file defines the same name: --server
	// NAME picks the nearer one, unless Fallback.
	Shadowed bool
	// Trust is the file's trust state: NoTrustNeeded for a user file, else
	// what the trust store remembers of the project file as it is now.
	Trust TrustState
	// Fallback is set on a shadowed entry whose nearer namesakes are all
	// untrusted project entries: --server NAME without --trust-project
	// uses this one.
	Fallback bool
	// Problem is why --server NAME would fail for this entry (an unset
	// variable, a bad field), without any value; "" when it resolves.
	Problem string
}

// List describes every server found, nearest file first, shadowed
// duplicates included, judging project files as untrusted (ListTrust with
// no store).
func (s *Set) List() []Listing {
	out, _ := s.ListTrust(nil)
	return out
}

// ListTrust is List with each project file judged by the store (Trust,
// Fallback): what `mcpterm servers` prints. The error is a store that
// cannot be read (a *TrustStoreError), in which case every project file
// is listed as untrusted.
func (s *Set) ListTrust(store *TrustStore) ([]Listing, error) {
	recs, err := store.load()
	out := make([]Listing, 0, len(s.entries))
	for i, e := range s.entries {
		l := s.listing(e)
		l.Trust, _ = stateIn(recs, e.Source)
		if e.Shadowed && l.Trust.Usable() {
			// Every nearer entry of the name is an untrusted project
			// entry: Choose falls back to this one.
			l.Fallback = true
			for _, n := range s.entries[:i] {
				if st, _ := stateIn(recs, n.Source); n.Name == e.Name && st.Usable() {
					l.Fallback = false
					break
				}
			}
		}
		out = append(out, l)
	}
	return out, err
}

// listing describes one entry, every secret masked.
func (s *Set) listing(e Entry) Listing {
	srv, err := s.resolve(e)
	if err != nil {
		srv = rawServer(e)
	}
	return listingOf(e, srv, err)
}

// rawListing describes an entry as its file wrote it, variables
// unexpanded, every secret masked: what a trust question shows, since an
// untrusted file's entry is not resolved (resolving reads its envFile and
// expands its variables, which is the file's to ask, not to get).
func rawListing(e Entry) Listing { return listingOf(e, rawServer(e), nil) }

func listingOf(e Entry, srv Server, err error) Listing {
	l := Listing{Name: e.Name, Transport: e.Transport, Source: e.Source, Disabled: e.Disabled, Shadowed: e.Shadowed}
	if err != nil {
		l.Problem = strings.TrimPrefix(err.Error(), fmt.Sprintf("config: %s: server %q: ", e.Source.Path, e.Name))
	}
	r := srv.Redacted()
	if l.Transport == "" {
		l.Transport = r.Transport
	}
	switch {
	case r.Command != "":
		parts := []string{maskedQuote(r.Command)}
		for _, a := range r.Args {
			parts = append(parts, maskedQuote(a))
		}
		l.Command = safe.Line(strings.Join(parts, " "))
	case r.URL != "":
		l.URL = safe.Line(r.URL)
	}
	l.Env = sortedKeys(r.Env)
	l.Headers = sortedKeys(r.Headers)
	return l
}

// maskedQuote shell-quotes a masked word, leaving the mask itself bare
// ("--api-key ***", not "'***'"): it stands for a value, not for stars.
func maskedQuote(s string) string {
	return strings.ReplaceAll(shellQuote(strings.ReplaceAll(s, safe.Mask, "\x00")), "\x00", safe.Mask)
}

// rawServer is an entry as the file wrote it, variables unexpanded, for
// listing one that does not resolve; Redacted masks it like any other.
func rawServer(e Entry) Server {
	srv := Server{Name: e.Name, Transport: e.Transport, Source: e.Source}
	v := e.raw
	if v == nil || v.Kind != ojson.Object {
		return srv
	}
	str := func(x *ojson.Value) string {
		if x == nil {
			return ""
		}
		text, _ := scalar(x, "")
		return text
	}
	srv.Command = str(v.Get("command"))
	if args := v.Get("args"); args != nil && args.Kind == ojson.Array {
		for _, a := range args.Items {
			srv.Args = append(srv.Args, str(a))
		}
	}
	if srv.Command == "" {
		srv.URL = str(urlField(v))
		if u, err := url.Parse(srv.URL); srv.URL != "" && (err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "") {
			// Not a URL, so the secrets rules cannot find the parts of it to
			// mask; the problem says what is wrong with it.
			srv.URL = safe.Mask
		}
	}
	for field, into := range map[string]*map[string]string{"env": &srv.Env, "headers": &srv.Headers} {
		if m := v.Get(field); m != nil && m.Kind == ojson.Object {
			*into = map[string]string{}
			for _, kv := range m.Members {
				(*into)[kv.Key] = str(kv.Value)
			}
		}
	}
	return srv
}
