package live

import (
	"context"

	"github.com/mcpterm/mcpterm/tokens"
	"github.com/mcpterm/mcpterm/ui"
)

// Counter adapts tokens.Counters (one lazily loaded counter per encoding,
// each with its text and segment cache) to ui.Counter.
type Counter struct{ cs *tokens.Counters }

// NewCounter makes the counters; nothing loads until the UI asks.
func NewCounter() *Counter { return &Counter{cs: tokens.NewCounters()} }

func (c *Counter) Encodings() []string { return tokens.Encodings() }

// Load blocks until enc is loaded; the UI calls it from a Cmd.
func (c *Counter) Load(enc string) error {
	tc, err := c.cs.Get(enc)
	if err != nil {
		return err
	}
	return tc.Wait(context.Background())
}

func (c *Counter) Ready(enc string) bool {
	tc, err := c.cs.Get(enc)
	return err == nil && tc.Ready()
}

// Count never waits: a text counted before the encoding is ready (or one
// too big to count) reports -1, which the panes show as unknown.
func (c *Counter) Count(enc, text string) int {
	tc, err := c.cs.Get(enc)
	if err != nil {
		return -1
	}
	n, ok, err := tc.TryCount(text)
	if !ok || err != nil {
		return -1
	}
	return n
}

var _ ui.Counter = (*Counter)(nil)
