package fleet

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/mcpterm/mcpterm/session"
)

// Loop detection. A config entry that runs `mcpterm serve` over the same
// config would start the gateway again, which would start it again, and
// so on. Every gateway puts its chain — the keys (Config.Key) of the
// gateways above it and its own — in ChainEnv of each stdio upstream it
// starts. A gateway whose own key is already in the chain it was started
// with is one of its own ancestors: it starts no upstream and answers
// initialize as LoopName, and the gateway above sees that name and reports
// the entry as a loop instead of retrying it. A gateway all of whose
// entries were refused that way answers as LoopName too (Fleet.Info), so
// a loop through several configs (A serves B, B serves A) is refused at
// the entry of A that starts it, not served as an empty gateway.

// ChainEnv is the environment variable carrying the chain.
const ChainEnv = "MCPTERM_GATEWAY_CHAIN"

// ChainHeader carries the chain to HTTP upstreams: a gateway serving HTTP
// refuses a request whose chain holds its own key (LoopCheck) with 508,
// and the fleet reads that answer as a loop.
const ChainHeader = "Mcpterm-Gateway-Chain"

// LoopCheck is the HTTP side of the check for the gateway with key: the
// error (ErrLoop, naming LoopName) for a request whose ChainHeader shows it
// comes from this gateway itself, else nil.
func LoopCheck(key string) func(http.Header) error {
	return func(h http.Header) error {
		if v := h.Get(ChainHeader); v != "" && Looping(v, key) {
			return fmt.Errorf("%s: %w", LoopName, ErrLoop)
		}
		return nil
	}
}

// LoopName is the serverInfo name of a gateway that refused to start
// because it found itself in its chain.
const LoopName = "mcpterm-gateway-loop"

// maxChain bounds the chain (and how deep gateways may nest).
const maxChain = 16

// SetChain is what a gateway started with ChainEnv = inherited tells its
// own upstreams.
func (c *Config) SetChain(inherited string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.inherited = inherited
}

func (c *Config) chainValue() string {
	keys := chainKeys(c.inherited)
	return strings.Join(append(keys, c.key), ",")
}

func chainKeys(v string) []string {
	var out []string
	for k := range strings.SplitSeq(v, ",") {
		if k = strings.TrimSpace(k); k != "" {
			out = append(out, k)
		}
	}
	return out
}

// ErrLoop is a gateway that would be its own upstream.
var ErrLoop = errors.New("this entry runs the gateway itself (mcpterm serve over the same servers): serving it would start the gateway again without end, so it is left out")

// Looping reports whether the gateway with key, started with the inherited
// chain, is among its own ancestors, or the chain is deeper than any
// sensible nesting.
func Looping(inherited, key string) bool {
	keys := chainKeys(inherited)
	for _, k := range keys {
		if k == key {
			return true
		}
	}
	return len(keys) >= maxChain
}

// loopOf is the loop error when an upstream says it is a refusing gateway.
func loopOf(info session.Info) error {
	if info.Name == LoopName {
		return ErrLoop
	}
	return nil
}

// dialLoop is the loop error when connecting failed because the upstream
// is a gateway serving HTTP that refused this one's chain (LoopCheck): its
// 508 answer carries LoopName.
func dialLoop(err error) error {
	if err != nil && strings.Contains(err.Error(), LoopName+": ") {
		return ErrLoop
	}
	return nil
}
