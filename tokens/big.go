package tokens

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Big texts (a 10 MB tool result, a 30 MB log) are counted in bounded
// memory: the text is walked piece by piece (segment.go's exact cuts)
// and handed to the encoder in chunks of at most chunkBytes, so the encoder
// never holds more than a chunk's runes, pieces and tokens, whatever the
// size of the text. Their segments are not cached: one big text would only
// evict everything else.
const (
	// bigText is the length over which a text is counted chunk by chunk.
	bigText = 256 << 10
	// chunkBytes is the most text handed to the encoder at once.
	chunkBytes = 64 << 10
	// maxExactSegment is the longest stretch without an exact cut (one
	// huge word, base64, "yyyy…") still counted whole; a longer one is cut
	// every forcedBytes anyway, and the count is then approximate.
	maxExactSegment = 256 << 10
	// forcedBytes is the size of the forced cuts: small, since a stretch of
	// one character class costs the byte-pair merge more than linear time.
	forcedBytes = 4 << 10
	// samples and sampleBytes bound Estimate on texts over MaxText: it
	// counts this many evenly spaced windows (1 MB in all) and scales up.
	samples     = 32
	sampleBytes = 32 << 10
)

// Estimate is a token count that says how it was obtained.
type Estimate struct {
	N int
	// Approx: part of the text had no exact place to cut (a stretch of
	// more than 256 KB without a space or JSON punctuation) and was cut
	// anyway, which is off by a token or so per 64 KB.
	Approx bool
	// Sampled: the text was over MaxText, so N is scaled up from
	// evenly spaced samples of it.
	Sampled bool
}

// String is "12,345 tok", "≈12,345 tok" or "≈12,345 tok (sampled)".
func (e Estimate) String() string {
	s := Thousands(e.N) + " tok"
	if e.Approx || e.Sampled {
		s = "≈" + s
	}
	if e.Sampled {
		s += " (sampled)"
	}
	return s
}

// Estimate counts text of any size in bounded memory: exactly when it can,
// approximately (saying so) for long stretches with no place to cut, and by
// sampling (saying so) over MaxText. A UI shows its String instead of
// giving up on a big result.
func (c *Counter) Estimate(text string) (Estimate, error) {
	if err := c.Wait(context.Background()); err != nil {
		return Estimate{}, err
	}
	if len(text) > MaxText {
		return c.sample(text), nil
	}
	if len(text) <= bigText {
		n, err := c.count(text)
		return Estimate{N: n}, err
	}
	c.misses.Add(1)
	n, exact := c.countChunks(text, false)
	return Estimate{N: n, Approx: !exact}, nil
}

// InexactError is Count's answer for a text that can only be counted
// approximately (see Estimate).
type InexactError struct{ Bytes int }

func (e *InexactError) Error() string {
	return fmt.Sprintf("text of %d bytes holds a stretch of over %d bytes with no exact place to cut; it counts only approximately", e.Bytes, maxExactSegment)
}

// countChunks counts a big text chunk by chunk; exact is false when a
// stretch had to be cut where the count is not exact. With stop, it gives
// up at the first such stretch (Count wants exact figures or none).
//
// Short pieces (a word with its space, a JSON token) are looked up in a
// table of the pieces seen so far in this text, bounded in size, before
// they are encoded: big texts are logs and listings, whose words repeat,
// and the encoder costs far more per call than a map lookup.
func (c *Counter) countChunks(text string, stop bool) (n int, exact bool) {
	exact = true
	seen := make(map[string]int, 1024)
	start, end := 0, 0
	flush := func() {
		if end > start {
			c.encodes.Add(1)
			n += c.enc.count(text[start:end])
			start = end
		}
	}
	exactPieces(text, func(seg string) {
		if !exact && stop {
			return
		}
		switch {
		case len(seg) <= smallText:
			if k, ok := seen[seg]; ok {
				flush()
				n += k
				end += len(seg)
				start = end
				return
			}
			if len(seen) < maxSeen {
				flush()
				c.encodes.Add(1)
				k := c.enc.count(seg)
				seen[seg] = k
				n += k
				end += len(seg)
				start = end
				return
			}
		case len(seg) > maxExactSegment:
			flush()
			exact = false
			if !stop {
				n += c.countForced(seg)
			}
			end += len(seg)
			start = end
			return
		}
		if end-start+len(seg) > chunkBytes {
			flush()
		}
		end += len(seg)
	})
	flush()
	return n, exact
}

// maxSeen bounds countChunks' table of short pieces (about 5 MB).
const maxSeen = 1 << 16

// countForced counts s in chunks cut at rune boundaries, wherever they fall.
func (c *Counter) countForced(s string) int {
	n := 0
	for len(s) > 0 {
		k := runeCut(s, forcedBytes)
		c.encodes.Add(1)
		n += c.enc.count(s[:k])
		s = s[k:]
	}
	return n
}

// runeCut is the largest cut of s at or before limit bytes that does not
// split a UTF-8 sequence (at least one rune).
func runeCut(s string, limit int) int {
	if len(s) <= limit {
		return len(s)
	}
	k := limit
	for k > 0 && !utf8.RuneStart(s[k]) {
		k--
	}
	if k == 0 {
		_, k = utf8.DecodeRuneInString(s)
	}
	return k
}

// sample estimates a text over MaxText from evenly spaced chunks.
func (c *Counter) sample(text string) Estimate {
	stride := len(text) / samples
	counted, n := 0, 0
	for i := 0; i < samples; i++ {
		at := i * stride
		for at < len(text) && !utf8.RuneStart(text[at]) {
			at++
		}
		k := runeCut(text[at:], sampleBytes)
		c.encodes.Add(1)
		n += c.enc.count(text[at : at+k])
		counted += k
	}
	if counted == 0 {
		return Estimate{Sampled: true}
	}
	return Estimate{N: int(float64(n) * float64(len(text)) / float64(counted)), Sampled: true}
}

// Thousands writes n with thousands separators (12,345), as every face
// shows counts.
func Thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}
