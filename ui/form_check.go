package ui

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/ojson"
)

// Numbers are checked as typed: the text must be a JSON number (an
// integer for an integer slot), inside the schema's bounds, compared
// exactly (big.Rat), so 0.1 + a bound of 0.1 or a 30-digit integer is
// judged as the validator judges it.

// number checks a typed number against its type and bounds. A number out
// of range is still written, so the call beside the form shows it; text
// that is no number is not.
func (f *field) number(path string, ps *problems) (*ojson.Value, bool) {
	text := strings.TrimSpace(f.in.Value())
	what := "a number"
	if f.kind == fieldInt {
		what = "an integer"
	}
	if text == "" {
		ps.add(f, path, "required: give %s", what)
		return nil, false
	}
	v, err := ojson.Parse([]byte(text))
	if err != nil || v.Kind != ojson.Number {
		ps.add(f, path, "%q is not %s", text, what)
		return nil, false
	}
	x, ok := new(big.Rat).SetString(string(v.Num))
	if !ok {
		ps.add(f, path, "%q is not %s", text, what)
		return nil, false
	}
	if f.kind == fieldInt && !x.IsInt() {
		ps.add(f, path, "%s is not an integer", text)
		return v, true
	}
	if msg := outOfRange(f.shape, x, text); msg != "" {
		ps.add(f, path, "%s", msg)
	}
	return v, true
}

// outOfRange says how x breaks the schema's minimum, maximum, exclusive
// bounds (draft 4's booleans and later drafts' numbers) or multipleOf.
func outOfRange(sh *call.Shape, x *big.Rat, text string) string {
	if sh == nil || sh.Schema() == nil {
		return ""
	}
	s := sh.Schema()
	bound := func(k string) (*big.Rat, string, bool) {
		b := s.Get(k)
		if b == nil || b.Kind != ojson.Number {
			return nil, "", false
		}
		r, ok := new(big.Rat).SetString(string(b.Num))
		return r, string(b.Num), ok
	}
	exclusive := func(k string) bool {
		b := s.Get(k)
		return b != nil && b.Kind == ojson.Bool && b.Bool
	}
	if lo, t, ok := bound("minimum"); ok {
		if c := x.Cmp(lo); c < 0 || c == 0 && exclusive("exclusiveMinimum") {
			return fmt.Sprintf("%s is below the minimum %s", text, t)
		}
	}
	if hi, t, ok := bound("maximum"); ok {
		if c := x.Cmp(hi); c > 0 || c == 0 && exclusive("exclusiveMaximum") {
			return fmt.Sprintf("%s is above the maximum %s", text, t)
		}
	}
	if lo, t, ok := bound("exclusiveMinimum"); ok && x.Cmp(lo) <= 0 {
		return fmt.Sprintf("%s must be above %s", text, t)
	}
	if hi, t, ok := bound("exclusiveMaximum"); ok && x.Cmp(hi) >= 0 {
		return fmt.Sprintf("%s must be below %s", text, t)
	}
	if m, t, ok := bound("multipleOf"); ok && m.Sign() > 0 {
		if !new(big.Rat).Quo(x, m).IsInt() {
			return fmt.Sprintf("%s is not a multiple of %s", text, t)
		}
	}
	return ""
}
