package tokens

import (
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// A projection is measured on the minified answers a model reads: bytes
// always, tokens with a counter, and the projected answer costs less.
func TestCountProjection(t *testing.T) {
	full, err := ojson.Parse([]byte(`{"success": true, "data": {"items": [{"id": "t1", "title": "Buy milk", "completed": false}], "total": 1}}`))
	if err != nil {
		t.Fatal(err)
	}
	projected, err := ojson.Parse([]byte(`{"success":true,"data":{"items":[{"title":"Buy milk"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	c := testCounter(t, DefaultEncoding)
	p, err := CountProjection(c, projected, full)
	if err != nil {
		t.Fatal(err)
	}
	wantP, _ := c.Count(projected.Compact())
	wantF, _ := c.Count(full.Compact())
	if p.Tokens != wantP || p.FullTokens != wantF || p.Tokens >= p.FullTokens || p.Tokens <= 0 {
		t.Errorf("tokens %d of %d, want %d of %d", p.Tokens, p.FullTokens, wantP, wantF)
	}
	if p.Bytes != len(projected.Compact()) || p.FullBytes != len(full.Compact()) {
		t.Errorf("bytes %d of %d", p.Bytes, p.FullBytes)
	}
	p, err = CountProjection(nil, projected, full)
	if err == nil || p.Tokens != -1 || p.FullTokens != -1 || p.Bytes != len(projected.Compact()) {
		t.Errorf("without a counter: %+v %v", p, err)
	}
}
