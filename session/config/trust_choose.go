package config

import (
	"errors"
	"fmt"
	"strings"
)

// Trust is what Choose judges project files with.
type Trust struct {
	// Store remembers the answers; nil remembers nothing (every project
	// file is untrusted, and --trust-project holds for this run only).
	Store *TrustStore
	// TrustProject is --trust-project: the nearest entry is used whatever
	// its file, and its project file is remembered as trusted.
	TrustProject bool
}

// Choice is the server Choose picked and what the user must be told.
type Choice struct {
	Server Server
	// SetAside is the untrusted project entry passed over for Server (the
	// user's own entry of the same name, which it shadows): the workbench
	// asks about it when Ask says so; the command line prints Notices.
	SetAside *Question
	// Notices are lines to tell the user, each a sentence without the
	// "mcpterm CMD: " prefix: an entry set aside, a file newly trusted, a
	// trust store that cannot be used.
	Notices []string
}

// Question is an untrusted project entry, as a message or a dialog shows
// it: the file, the server, what it would run (secrets masked) and what was
// answered about the file before.
type Question struct {
	Server string
	File   Source
	// Runs is the command line or URL the entry would start, masked, with
	// the names (never the values) of the env variables and headers it
	// sets.
	Runs string
	// State is Untrusted, Changed or Declined; Before is the earlier
	// answer for Changed and Declined.
	State  TrustState
	Before TrustRecord
	// Shadows is the user's entry of the same name that is used instead
	// while the file is not trusted; nil when there is none.
	Shadows *Source
}

// Ask reports whether a face that can ask should: a file never answered
// about, or changed since. A remembered "no" is not asked again (the user
// passes --trust-project to change it), as Claude Code remembers a
// declined .mcp.json server.
func (q *Question) Ask() bool { return q != nil && q.State != Declined }

// why says what is known of the file, after "which ".
func (q *Question) why() string {
	switch q.State {
	case Changed:
		verb := "trusted"
		if !q.Before.Trusted {
			verb = "declined"
		}
		return fmt.Sprintf("changed since you %s it on %s", verb, q.Before.At.Format("2006-01-02"))
	case Declined:
		return fmt.Sprintf("you chose not to trust on %s", q.Before.At.Format("2006-01-02"))
	}
	return "you have not trusted"
}

// Title is the dialog's title.
func (q *Question) Title() string { return "Trust this project's MCP config?" }

// Text is the dialog's body: what the file is, what it would run, and what
// each answer does.
func (q *Question) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Server %q comes from the project config %s, which %s.\n\nIt would run:\n  %s\n\n",
		q.Server, q.File.String(), q.why(), q.Runs)
	if q.Shadows != nil {
		fmt.Fprintf(&b, "The %q of %s is used unless you trust this file.\n\n", q.Server, q.Shadows.String())
	}
	fmt.Fprintf(&b, "y trusts %s as it is now (remembered until it changes).", q.File.String())
	if q.Shadows != nil {
		fmt.Fprintf(&b, " n uses the one of %s and remembers the answer.", q.Shadows.String())
	} else {
		b.WriteString(" n connects to nothing and remembers the answer.")
	}
	return b.String()
}

// notice is the command line's line when the entry was set aside for the
// user's own.
func (q *Question) notice() string {
	whose := "yours from " + q.Shadows.String()
	if q.Shadows.IsProject() {
		whose = "the one of the trusted project config " + q.Shadows.String()
	}
	return fmt.Sprintf("ignored server %q of the project config %s, which %s (it would run: %s); using %s. Pass --trust-project to use the nearer one",
		q.Server, q.File.String(), q.why(), q.Runs, whose)
}

// UntrustedError is a server that would come from a project config not
// trusted, with no entry of the user's to use instead: the command line
// exits 2 with it, the workbench asks (Question.Ask).
type UntrustedError struct{ Question }

func (e *UntrustedError) Error() string {
	return fmt.Sprintf("server %q comes from the project config %s, which %s; it would run: %s. Read the file, then pass --trust-project to trust it (remembered until the file changes)",
		e.Server, e.File.String(), e.why(), e.Runs)
}

// Choose resolves the server called name under the trust rule (trust.go):
// the nearest usable entry wins, an untrusted project entry is set aside
// for the user's own of the same name or refused with *UntrustedError, and
// --trust-project trusts and remembers the nearest file. An unknown name
// is Find's error. A trust store that cannot be read counts every project
// file as untrusted and says so in a notice.
func (s *Set) Choose(name string, tr Trust) (Choice, error) {
	var named []Entry
	for _, e := range s.entries {
		if e.Name == name {
			named = append(named, e)
		}
	}
	if len(named) == 0 {
		return Choice{}, s.notFound(name)
	}
	var ch Choice
	recs, err := tr.Store.load()
	if err != nil {
		ch.Notices = append(ch.Notices, "warning: "+err.Error())
	}
	if tr.TrustProject {
		e := named[0]
		srv, err := s.resolve(e)
		if err != nil {
			return Choice{}, err
		}
		ch.Server = srv
		if st, _ := stateIn(recs, e.Source); st != NoTrustNeeded && st != Trusted {
			if err := tr.Store.Record(e.Source, true); err != nil {
				ch.Notices = append(ch.Notices, fmt.Sprintf("trusting the project config %s for this run only: %v", e.Source.String(), err))
			} else {
				ch.Notices = append(ch.Notices, fmt.Sprintf("trusted the project config %s (sha256 %.12s…) for server %q; remembered until the file changes", e.Source.String(), e.Source.Hash, name))
			}
		}
		return ch, nil
	}
	var first *Question
	for _, e := range named {
		st, before := stateIn(recs, e.Source)
		if !st.Usable() {
			if first == nil {
				first = &Question{Server: name, File: e.Source, Runs: runs(rawListing(e)), State: st, Before: before}
			}
			continue
		}
		srv, err := s.resolve(e)
		if err != nil {
			return Choice{}, err
		}
		ch.Server = srv
		if first != nil {
			src := e.Source
			first.Shadows = &src
			ch.SetAside = first
			ch.Notices = append(ch.Notices, first.notice())
		}
		return ch, nil
	}
	return Choice{}, &UntrustedError{*first}
}

// runs is what a listed entry would start, for a question.
func runs(l Listing) string {
	r := l.Command + l.URL
	if r == "" {
		r = "(nothing that resolves: " + l.Problem + ")"
	}
	if len(l.Env) > 0 {
		r += " [env " + strings.Join(l.Env, ", ") + "]"
	}
	if len(l.Headers) > 0 {
		r += " [headers " + strings.Join(l.Headers, ", ") + "]"
	}
	return r
}

// IsUntrusted reports whether err is (or wraps) an *UntrustedError, and
// returns it.
func IsUntrusted(err error) (*UntrustedError, bool) {
	var u *UntrustedError
	ok := errors.As(err, &u)
	return u, ok
}
