package fleet

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

// Listed is one config entry's tool list, or why there is none.
type Listed struct {
	Name     string
	Set      *toolset.Set // as the server listed it (Server is the name it gave)
	Warnings []string     // the session's tool warnings (set aside, malformed)
	Err      error
}

// ListEach connects to every entry at once, lists its tools and closes it
// again, each within its own timeout (0: DefaultListTimeout), for a report
// over a whole config (`mcpterm tokens --all`). An entry that cannot be
// resolved, reached or listed has its Err and never holds up or stops the
// others. The result is in the order of specs.
//
// Unlike a Fleet, nothing is merged or renamed: a report counts what each
// server costs on its own, as a client connected to all of them pays it,
// and the same as for the server alone (a name is part of some forms).
func ListEach(ctx context.Context, specs []Spec, timeout time.Duration) []Listed {
	if timeout <= 0 {
		timeout = DefaultListTimeout
	}
	out := make([]Listed, len(specs))
	var wg sync.WaitGroup
	for i, sp := range specs {
		out[i].Name = sp.Name
		if sp.Err != nil {
			out[i].Err = sp.Err
			if sp.Close != nil {
				sp.Close()
			}
			continue
		}
		wg.Go(func() {
			out[i] = listOne(ctx, sp, timeout)
		})
	}
	wg.Wait()
	return out
}

// DefaultListTimeout bounds connecting to and listing one entry in
// ListEach when the caller gives no timeout: the slowest reference server
// (npx fetching a package) takes seconds, a hung one must not take longer.
const DefaultListTimeout = 30 * time.Second

func listOne(ctx context.Context, sp Spec, timeout time.Duration) Listed {
	l := Listed{Name: sp.Name}
	if sp.Close != nil {
		defer sp.Close()
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	s, err := sp.Dial(ctx)
	if err != nil {
		l.Err = timedOut(ctx, err, timeout, "connecting")
		return l
	}
	defer s.Close()
	set, err := s.Tools(ctx)
	if err != nil {
		l.Err = timedOut(ctx, err, timeout, "listing tools")
		return l
	}
	cp := *set
	l.Set, l.Warnings = &cp, s.ToolWarnings()
	return l
}

// timedOut says that the entry's own bound ran out, when it did, rather
// than the bare context error.
func timedOut(ctx context.Context, err error, timeout time.Duration, doing string) error {
	if ctx.Err() == context.DeadlineExceeded {
		return fmt.Errorf("%s: no answer within %v: %w", doing, timeout, err)
	}
	return fmt.Errorf("%s: %w", doing, err)
}
