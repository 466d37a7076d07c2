package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session"
)

// declineSampling is what a server is told when the command line has no
// way to answer sampling: it says how to give it one.
const declineSampling = "mcpterm declines sampling on the command line; give --sampling-endpoint URL --sampling-model M to answer"

// checkSampling refuses --sampling-* flags that cannot work, before
// anything connects: an endpoint without a model, a model or key variable
// without an endpoint, a key variable that is unset, an endpoint that is
// not an http(s) URL. It remembers cmd for the notices.
func (c *cli) checkSampling(cmd string, a *askFlags) error {
	a.cmd = cmd
	if a.samplingEndpoint == "" {
		if a.samplingModel != "" || a.samplingKeyEnv != "" {
			return errors.New("--sampling-model and --sampling-key-env need --sampling-endpoint URL")
		}
		return nil
	}
	_, err := c.endpointSampler(a)
	return err
}

// endpointSampler builds the EndpointSampler the flags describe. The key
// is read from the environment variable named, never from a flag, so it is
// not in the process list or the shell history; its value is never shown.
func (c *cli) endpointSampler(a *askFlags) (*session.EndpointSampler, error) {
	if a.samplingModel == "" {
		return nil, errors.New("--sampling-endpoint needs --sampling-model M (the model the endpoint serves)")
	}
	key := ""
	if a.samplingKeyEnv != "" {
		key = c.getenv(a.samplingKeyEnv)
		if key == "" {
			return nil, fmt.Errorf("--sampling-key-env %s: the variable is not set", a.samplingKeyEnv)
		}
	}
	return session.NewEndpointSampler(a.samplingEndpoint, a.samplingModel, key)
}

// sampler answers sampling for the command line: declined, with a message
// that says how to answer, unless --sampling-endpoint is given. Either
// way, each request is told on stderr in one line: who asked, for what,
// and what was answered.
func (c *cli) sampler(a *askFlags) session.Sampler {
	n := &samplingNotices{w: c.stderr, prefix: "mcpterm " + a.cmd + ": note: "}
	if a.cmd == "" {
		n.prefix = "mcpterm: note: "
	}
	if a.samplingEndpoint == "" {
		n.inner = session.Decliner{Reason: declineSampling}
		return n
	}
	es, err := c.endpointSampler(a)
	if err != nil { // checkSampling has refused it already; decline saying why
		n.inner = session.Decliner{Reason: err.Error()}
		return n
	}
	es.Report = n.answered
	n.inner, n.endpoint = es, es.URL()
	return n
}

// samplingNotices tells stderr about each sampling request and its answer.
type samplingNotices struct {
	inner    session.Sampler
	endpoint string // "" when declining
	mu       sync.Mutex
	w        io.Writer
	prefix   string
}

func (n *samplingNotices) Sample(ctx context.Context, server string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	res, err := n.inner.Sample(ctx, server, req)
	asked := samplingAsked(server, req.CreateMessageParams)
	switch {
	case errors.Is(err, session.ErrDeclined):
		n.say(asked + "; declined (give --sampling-endpoint URL --sampling-model M to answer)")
	case err != nil:
		n.say(asked + "; not answered: " + err.Error())
	}
	// An answer was told by answered, with the endpoint's figures.
	return res, err
}

// answered is the EndpointSampler's report of an answer.
func (n *samplingNotices) answered(r session.SamplingReport) {
	line := fmt.Sprintf("%s asked for sampling; answered by %s at %s", safe.Name(r.Server), r.Model, n.endpoint)
	var figures []string
	if r.PromptTokens > 0 || r.CompletionTokens > 0 {
		figures = append(figures, fmt.Sprintf("%d prompt + %d completion tokens", r.PromptTokens, r.CompletionTokens))
	}
	if r.StopReason != "" {
		figures = append(figures, "stop: "+r.StopReason)
	}
	if len(figures) > 0 {
		line += " (" + strings.Join(figures, ", ") + ")"
	}
	n.say(line)
}

// samplingAsked says in a few words what a server asked for.
func samplingAsked(server string, p mcp.CreateMessageParams) string {
	msgs := "messages"
	if len(p.Messages) == 1 {
		msgs = "message"
	}
	return fmt.Sprintf("%s asked for sampling (%d %s, at most %d tokens)", safe.Name(server), len(p.Messages), msgs, p.MaxTokens)
}

func (n *samplingNotices) say(line string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	fmt.Fprintln(n.w, n.prefix+safe.Line(line))
}
