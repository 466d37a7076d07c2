package main

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/charmbracelet/x/term"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session"
)

// elicitor answers elicitation for the command line, as --elicit says:
// ask (prompt field by field: questions on stderr, answers from stdin; the
// default when stdin is a terminal), decline (the default otherwise),
// defaults (accept with the schema's defaults) or a JSON file of answers.
// A file that cannot be used is reported by checkElicit before connecting;
// here it declines.
func (c *cli) elicitor(a *askFlags) session.Elicitor {
	e, err := c.elicitorFor(a)
	if err != nil {
		return session.DeclineElicitor{Notify: c.elicitNotice}
	}
	return e
}

// checkElicit is the usage check of --elicit, made before connecting so a
// bad answers file is a usage error rather than a declined form later.
func (c *cli) checkElicit(a *askFlags) error {
	_, err := c.elicitorFor(a)
	return err
}

func (c *cli) elicitorFor(a *askFlags) (session.Elicitor, error) {
	mode := a.elicit
	if mode == "" {
		mode = "decline"
		if c.stdinTerminal() {
			mode = "ask"
		}
	}
	switch mode {
	case "ask":
		return &lazyPrompt{make: func() *session.PromptElicitor {
			return session.NewPromptElicitor(c.stdin, c.stderr, func(ctx context.Context, u string) error {
				return session.OpenURL(ctx, u, c.getenv)
			})
		}}, nil
	case "decline":
		return session.DeclineElicitor{Notify: c.elicitNotice}, nil
	case "defaults":
		return session.DefaultsElicitor{Notify: c.elicitNotice}, nil
	}
	answers, err := session.LoadElicitFile(mode)
	if err != nil {
		return nil, fmt.Errorf("%w (--elicit takes ask, decline, defaults or a JSON file of answers)", err)
	}
	return session.FileElicitor{Answers: answers, Notify: c.elicitNotice}, nil
}

// elicitNotice tells the person what a policy did with a server's question.
func (c *cli) elicitNotice(s string) {
	fmt.Fprintf(c.stderr, "mcpterm: elicitation: %s\n", safe.Line(s))
}

// stdinTerminal reports whether the cli's stdin is a terminal.
func (c *cli) stdinTerminal() bool {
	f, ok := c.stdin.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// lazyPrompt makes its PromptElicitor at the first question, so a command
// whose server never asks never starts reading stdin.
type lazyPrompt struct {
	once sync.Once
	make func() *session.PromptElicitor
	p    *session.PromptElicitor
}

func (l *lazyPrompt) Elicit(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	l.once.Do(func() { l.p = l.make() })
	return l.p.Elicit(ctx, server, req)
}
