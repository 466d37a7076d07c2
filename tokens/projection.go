package tokens

import (
	"errors"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// Projection is what an AQL request's params.fields saved: the answer as
// projected and the same answer in full, as a model reads them (minified
// JSON), in tokens and in bytes. Every face that says what a projection
// saved shows these figures, so field selection is never silent.
type Projection struct {
	Tokens, FullTokens int // -1 when they could not be counted
	Bytes, FullBytes   int
}

// CountProjection measures a projected answer against the full one
// (calls.Codec.ItemAnswer gives both). The byte figures are always set; the
// token figures need c, and are -1 with the error when c is nil or fails.
func CountProjection(c *Counter, projected, full *ojson.Value) (Projection, error) {
	p, f := projected.Compact(), full.Compact()
	out := Projection{Tokens: -1, FullTokens: -1, Bytes: len(p), FullBytes: len(f)}
	if c == nil {
		return out, errors.New("tokens: no counter")
	}
	pt, err := c.Count(p)
	if err != nil {
		return out, err
	}
	ft, err := c.Count(f)
	if err != nil {
		return out, err
	}
	out.Tokens, out.FullTokens = pt, ft
	return out, nil
}
