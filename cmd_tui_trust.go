package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/config"
	"github.com/mcpterm/mcpterm/session/history"
	"github.com/mcpterm/mcpterm/ui"
)

// The workbench asks about project config trust in a dialog, before it
// connects, where the command line needs --trust-project: the rule is
// session/config's (config.Choose, through session.Resolve), the
// workbench only puts its question (config.Question) and goes on with the
// answer (session.AnswerTrust, then Resolve again).

// wbTrust is the workbench's selection while a trust question may
// replace the target it resolved to.
type wbTrust struct {
	// target is what Resolve gave, or a stand-in without a server when the
	// only entry was an untrusted project one; runTUI closes it, and with
	// it (through late) any target resolved after an answer.
	target *session.Target
	// redactor is the current target's: the workbench's Sanitize reads it.
	redactor atomic.Pointer[safe.Redactor]
	late     *closers
	prompt   *ui.TrustPrompt
	notices  []string
}

// closers closes, once, what was added to it.
type closers struct {
	mu sync.Mutex
	cs []io.Closer
}

func (c *closers) add(x io.Closer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cs = append(c.cs, x)
}

func (c *closers) Close() error {
	c.mu.Lock()
	cs := c.cs
	c.cs = nil
	c.mu.Unlock()
	var errs []error
	for _, x := range cs {
		if x != nil {
			errs = append(errs, x.Close())
		}
	}
	return errors.Join(errs...)
}

// workbenchTrust judges what resolving the workbench's selection gave:
// an untrusted project entry set aside, or refused, that the user has not
// answered about becomes a question (wbTrust.prompt); anything else that
// failed is the error to exit 2 with. resolve resolves the selection
// again after an answer.
func (c *cli) workbenchTrust(env session.Env, target *session.Target, err error, resolve func() (*session.Target, error)) (*wbTrust, error) {
	w := &wbTrust{late: &closers{}}
	var q *config.Question
	var fallback *session.Target
	switch {
	case err != nil:
		u, ok := config.IsUntrusted(err)
		if !ok || !u.Ask() {
			return nil, err
		}
		q = &u.Question
		target = &session.Target{Redactor: safe.NewRedactor(nil)}
	case target.Trust != nil && target.Trust.SetAside.Ask():
		q, fallback = target.Trust.SetAside, target
	}
	if target.Trust != nil {
		for _, n := range target.Trust.Notices {
			// While asking, the question says what the notice would.
			if q == nil || strings.HasPrefix(n, "warning:") {
				w.notices = append(w.notices, n)
			}
		}
	}
	if target.Trace == nil {
		target.Trace = w.late
	} else {
		target.Trace = &closers{cs: []io.Closer{target.Trace, w.late}}
	}
	w.target = target
	w.redactor.Store(target.Redactor)
	if q == nil {
		return w, nil
	}
	w.prompt = &ui.TrustPrompt{Title: q.Title(), Text: q.Text(), Answer: func(trust bool) (ui.TrustAnswer, error) {
		var notice string
		if err := session.AnswerTrust(env, q, trust); err != nil {
			if trust {
				return ui.TrustAnswer{}, fmt.Errorf("could not remember the answer (%v); start mcpterm with --trust-project to trust %s for one run", err, q.File.String())
			}
			notice = "not remembered: " + err.Error()
		}
		if !trust {
			if fallback == nil {
				return ui.TrustAnswer{}, fmt.Errorf("not connected: you chose not to trust %s, where server %q comes from; start mcpterm with --trust-project to use it", q.File.String(), q.Server)
			}
			return w.answer(c, env, fallback, notice), nil
		}
		t, err := resolve()
		if err != nil {
			return ui.TrustAnswer{}, err
		}
		w.late.add(t)
		w.redactor.Store(t.Redactor)
		return w.answer(c, env, t, notice), nil
	}}
	return w, nil
}

// answer is what the workbench connects to after an answer: t, with a
// history that redacts t's secrets.
func (w *wbTrust) answer(c *cli, env session.Env, t *session.Target, notice string) ui.TrustAnswer {
	a := ui.TrustAnswer{
		Connect:  func(ctx context.Context) (ui.Session, error) { return session.Connect(ctx, t) },
		Target:   t.Redactor.Redact(t.Source.String()),
		DraftKey: t.DraftKey(),
		Notice:   notice,
	}
	if dir, err := history.StateDir(c.getenv, env.Home); err == nil {
		if log, err := history.Open(filepath.Join(dir, "history.jsonl"), history.Options{Redactor: t.Redactor}); err == nil {
			a.History = log
		}
	}
	return a
}

// sanitize is the workbench's Sanitize: the current target's secrets
// masked, control sequences removed.
func (w *wbTrust) sanitize(s string) string { return safe.Text(w.redactor.Load().Redact(s)) }
