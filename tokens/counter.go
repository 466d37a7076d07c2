package tokens

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
)

// MaxText bounds one text handed to Count, so a hostile server's 100 MB
// description becomes an error instead of a stalled report; Estimate
// samples such a text instead. Texts over 256 KB are counted in chunks
// (big.go), so memory does not grow with the text, only time.
const MaxText = 32 << 20

// DefaultCacheBytes is the default cache budget (bytes of cached text per
// generation; the cache holds at most two generations).
const DefaultCacheBytes = 8 << 20

// smallText is the length under which a text is counted whole: cutting it
// would cost more in lookups than it saves.
const smallText = 64

// Counter counts tokens of one encoding. The precomputed encodings open in
// under a microsecond, but an encoding loaded through tiktoken-go takes a
// few hundred milliseconds, so loading still happens once, lazily, on a
// goroutine of its own; a UI asks Ready or calls TryCount and never waits. Counts are cached
// by text and by segment, so recounting an edited buffer only encodes the
// segments the edit touched. A Counter is safe for concurrent use.
type Counter struct {
	name       string
	cacheBytes int
	whole      bool // WholeTexts: cache whole texts only, never cut into segments

	once  sync.Once
	ready chan struct{}
	enc   *encoder // set before ready is closed
	err   error    // set before ready is closed

	mu    sync.Mutex
	cur   map[string]int
	old   map[string]int
	bytes int // key bytes in cur

	hits, misses, encodes atomic.Int64
}

// Option adjusts a Counter.
type Option func(*Counter)

// CacheBytes sets the cache budget; 0 disables caching.
func CacheBytes(n int) Option { return func(c *Counter) { c.cacheBytes = max(n, 0) } }

// WholeTexts keeps the cache of whole texts (a text asked for twice is
// encoded once) but never cuts a text into segments. The segment cache pays
// where text is recounted after small edits (the workbench's buffers); a
// one-shot run such as `mcpterm tokens` counts each text once, where
// cutting, hashing and storing every segment costs more than the few
// segments different forms share would save.
func WholeTexts() Option { return func(c *Counter) { c.whole = true } }

// NewCounter checks the encoding name and returns a Counter that has not
// loaded anything yet.
func NewCounter(encoding string, opts ...Option) (*Counter, error) {
	if _, err := specFor(encoding); err != nil {
		return nil, err
	}
	c := &Counter{name: encoding, cacheBytes: DefaultCacheBytes, ready: make(chan struct{})}
	for _, o := range opts {
		o(c)
	}
	c.cur = map[string]int{}
	return c, nil
}

// Encoding is the encoding's name, for report headers.
func (c *Counter) Encoding() string { return c.name }

// Load starts loading the encoding in the background and returns at once.
// Calling it again, or calling Count, Wait or TryCount, never loads twice.
func (c *Counter) Load() {
	c.once.Do(func() {
		go func() {
			c.enc, c.err = loadEncoder(c.name)
			close(c.ready)
		}()
	})
}

// Ready reports whether the encoding is loaded (or failed to load), without
// starting or waiting for it.
func (c *Counter) Ready() bool {
	select {
	case <-c.ready:
		return true
	default:
		return false
	}
}

// Wait starts loading if needed and blocks until the encoding is loaded or
// ctx ends.
func (c *Counter) Wait(ctx context.Context) error {
	c.Load()
	select {
	case <-c.ready:
		return c.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Count returns the exact token count of text, loading the encoding first if
// needed.
func (c *Counter) Count(text string) (int, error) {
	if err := c.Wait(context.Background()); err != nil {
		return 0, err
	}
	return c.count(text)
}

// TryCount is Count for a UI's render path: until the encoding is ready it
// returns ok false immediately (and starts the load).
func (c *Counter) TryCount(text string) (n int, ok bool, err error) {
	c.Load()
	if !c.Ready() {
		return 0, false, nil
	}
	if c.err != nil {
		return 0, true, c.err
	}
	n, err = c.count(text)
	return n, true, err
}

func (c *Counter) count(text string) (int, error) {
	if len(text) > MaxText {
		return 0, fmt.Errorf("text of %d bytes is over the %d-byte counting limit (Estimate samples it)", len(text), MaxText)
	}
	if len(text) > bigText {
		c.misses.Add(1)
		n, exact := c.countChunks(text, true)
		if !exact {
			return 0, &InexactError{Bytes: len(text)}
		}
		return n, nil
	}
	if c.cacheBytes == 0 {
		c.encodes.Add(1)
		return c.enc.count(text), nil
	}
	if n, ok := c.lookup(text); ok {
		c.hits.Add(1)
		return n, nil
	}
	c.misses.Add(1)
	if len(text) <= smallText || c.whole {
		c.encodes.Add(1)
		n := c.enc.count(text)
		c.mu.Lock()
		c.put(strings.Clone(text), n)
		c.mu.Unlock()
		return n, nil
	}
	// Look all segments up under one lock, encode the misses outside it.
	type seg struct {
		text string
		n    int
		hit  bool
	}
	var segs []seg
	segments(text, func(s string) { segs = append(segs, seg{text: s}) })
	c.mu.Lock()
	for i := range segs {
		segs[i].n, segs[i].hit = c.get(segs[i].text)
	}
	c.mu.Unlock()
	total := 0
	fresh := map[string]int{}
	for i := range segs {
		if !segs[i].hit {
			if n, ok := fresh[segs[i].text]; ok {
				segs[i].n = n
			} else {
				c.encodes.Add(1)
				segs[i].n = c.enc.count(segs[i].text)
				fresh[segs[i].text] = segs[i].n
			}
		}
		total += segs[i].n
	}
	fresh[text] = total
	c.store(fresh)
	return total, nil
}

func (c *Counter) lookup(text string) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.get(text)
}

// get looks text up in both generations, promoting an old entry. c.mu held.
func (c *Counter) get(text string) (int, bool) {
	if n, ok := c.cur[text]; ok {
		return n, true
	}
	if n, ok := c.old[text]; ok {
		c.put(text, n)
		return n, true
	}
	return 0, false
}

func (c *Counter) store(m map[string]int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, n := range m {
		// Clone: a segment is a substring of its text and would otherwise
		// keep the whole text alive beyond the budget.
		c.put(strings.Clone(k), n)
	}
}

// put adds one entry, retiring the current generation when it is full.
// Texts larger than a quarter of the budget are not kept. c.mu held.
func (c *Counter) put(k string, n int) {
	if len(k) > c.cacheBytes/4 {
		return
	}
	if _, ok := c.cur[k]; ok {
		return
	}
	if c.bytes+len(k) > c.cacheBytes {
		c.old, c.cur, c.bytes = c.cur, map[string]int{}, 0
	}
	c.cur[k] = n
	c.bytes += len(k)
}

// CacheStats tells what the cache did, for tests and the TUI's debug view.
type CacheStats struct {
	Hits, Misses int64 // whole-text lookups
	Encodes      int64 // texts or segments actually run through the tokenizer
	Entries      int
	Bytes        int // key bytes held across both generations
}

// Stats reports the cache counters.
func (c *Counter) Stats() CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.bytes
	for k := range c.old {
		b += len(k)
	}
	return CacheStats{
		Hits: c.hits.Load(), Misses: c.misses.Load(), Encodes: c.encodes.Load(),
		Entries: len(c.cur) + len(c.old), Bytes: b,
	}
}

// Counters holds one lazily loaded Counter per supported encoding, so a
// program that lets users switch encodings loads each at most once.
type Counters struct {
	byName map[string]*Counter // fixed at construction
}

// NewCounters makes (but does not load) a Counter for every encoding.
func NewCounters(opts ...Option) *Counters {
	cs := &Counters{byName: map[string]*Counter{}}
	for _, name := range Encodings() {
		c, _ := NewCounter(name, opts...)
		cs.byName[name] = c
	}
	return cs
}

// Get returns the Counter for an encoding name.
func (cs *Counters) Get(encoding string) (*Counter, error) {
	if c, ok := cs.byName[encoding]; ok {
		return c, nil
	}
	_, err := specFor(encoding)
	return nil, err
}
