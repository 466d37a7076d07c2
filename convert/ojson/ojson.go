// Package ojson is a small JSON value model that keeps object key order.
//
// MCP-Term's positional parameters follow the order in which a server wrote a
// schema's properties, and Go maps forget that order; every converter therefore
// reads schemas through this package instead of map[string]any.
package ojson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
)

// Kind tells which JSON type a Value holds.
type Kind uint8

const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

func (k Kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// Member is one key/value pair of an object, in source order.
type Member struct {
	Key   string
	Value *Value
}

// Value is one JSON value. Numbers keep their source text so that large
// integers and exact decimals survive a round trip.
type Value struct {
	Kind    Kind
	Bool    bool
	Num     json.Number
	Str     string
	Items   []*Value
	Members []Member
}

// MaxDepth bounds nesting so hostile input cannot exhaust the stack.
const MaxDepth = 512

// ErrTooDeep is returned when input nests deeper than MaxDepth.
var ErrTooDeep = errors.New("ojson: nesting deeper than 512 levels")

// Parse reads exactly one JSON value from data.
func Parse(data []byte) (*Value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decode(dec, 0)
	if err != nil {
		off := dec.InputOffset()
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			off = syn.Offset
		}
		return nil, fmt.Errorf("%s: %w", where(data, off), err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s: ojson: unexpected data after the JSON value", where(data, dec.InputOffset()))
	}
	return v, nil
}

// where names a byte offset as line:column (1-based, columns in bytes), the
// way editors and the MCP-Term reader say where a problem is.
func where(data []byte, off int64) string {
	if off < 0 {
		off = 0
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line, col := 1, 1
	for _, b := range data[:off] {
		if b == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("line %d, column %d", line, col)
}

func decode(dec *json.Decoder, depth int) (*Value, error) {
	if depth > MaxDepth {
		return nil, ErrTooDeep
	}
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, fmt.Errorf("ojson: unexpected end of input")
		}
		return nil, fmt.Errorf("ojson: %w", err)
	}
	switch t := tok.(type) {
	case nil:
		return &Value{Kind: Null}, nil
	case bool:
		return &Value{Kind: Bool, Bool: t}, nil
	case json.Number:
		return &Value{Kind: Number, Num: t}, nil
	case string:
		return &Value{Kind: String, Str: t}, nil
	case json.Delim:
		switch t {
		case '[':
			v := &Value{Kind: Array, Items: []*Value{}}
			for dec.More() {
				item, err := decode(dec, depth+1)
				if err != nil {
					return nil, err
				}
				v.Items = append(v.Items, item)
			}
			if _, err := dec.Token(); err != nil {
				return nil, fmt.Errorf("ojson: %w", err)
			}
			return v, nil
		case '{':
			v := &Value{Kind: Object, Members: []Member{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, fmt.Errorf("ojson: %w", err)
				}
				key, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("ojson: object key is not a string at offset %d", dec.InputOffset())
				}
				val, err := decode(dec, depth+1)
				if err != nil {
					return nil, err
				}
				v.Set(key, val)
			}
			if _, err := dec.Token(); err != nil {
				return nil, fmt.Errorf("ojson: %w", err)
			}
			return v, nil
		}
	}
	return nil, fmt.Errorf("ojson: unexpected token %v at offset %d", tok, dec.InputOffset())
}

// FromAny converts a value built by encoding/json (map[string]any etc.).
// Map keys come out sorted, since the source has no order to keep.
func FromAny(x any) (*Value, error) {
	b, err := json.Marshal(x)
	if err != nil {
		return nil, err
	}
	return Parse(b)
}

// Constructors, for building values in code.

func NewNull() *Value           { return &Value{Kind: Null} }
func NewBool(b bool) *Value     { return &Value{Kind: Bool, Bool: b} }
func NewString(s string) *Value { return &Value{Kind: String, Str: s} }
func NewNumber(n string) *Value { return &Value{Kind: Number, Num: json.Number(n)} }
func NewInt(n int64) *Value     { return NewNumber(strconv.FormatInt(n, 10)) }
func NewArray(items ...*Value) *Value {
	if items == nil {
		items = []*Value{}
	}
	return &Value{Kind: Array, Items: items}
}
func NewObject() *Value { return &Value{Kind: Object, Members: []Member{}} }

// Get returns the member named key of an object, or nil.
func (v *Value) Get(key string) *Value {
	if v == nil || v.Kind != Object {
		return nil
	}
	for i := range v.Members {
		if v.Members[i].Key == key {
			return v.Members[i].Value
		}
	}
	return nil
}

// Has reports whether an object has a member named key.
func (v *Value) Has(key string) bool { return v.Get(key) != nil }

// Set replaces the member named key, or appends it at the end. Duplicate keys
// in the source keep the last value, as encoding/json does, at the first position.
func (v *Value) Set(key string, val *Value) *Value {
	for i := range v.Members {
		if v.Members[i].Key == key {
			v.Members[i].Value = val
			return v
		}
	}
	v.Members = append(v.Members, Member{Key: key, Value: val})
	return v
}

// Delete removes the member named key, keeping the order of the rest.
func (v *Value) Delete(key string) {
	if v == nil || v.Kind != Object {
		return
	}
	for i := range v.Members {
		if v.Members[i].Key == key {
			v.Members = append(v.Members[:i], v.Members[i+1:]...)
			return
		}
	}
}

// Keys lists an object's keys in source order.
func (v *Value) Keys() []string {
	if v == nil || v.Kind != Object {
		return nil
	}
	keys := make([]string, len(v.Members))
	for i, m := range v.Members {
		keys[i] = m.Key
	}
	return keys
}

// StringOr returns the string value, or def when v is not a string.
func (v *Value) StringOr(def string) string {
	if v == nil || v.Kind != String {
		return def
	}
	return v.Str
}

// Clone makes a deep copy.
func (v *Value) Clone() *Value {
	if v == nil {
		return nil
	}
	c := *v
	if v.Items != nil {
		c.Items = make([]*Value, len(v.Items))
		for i, it := range v.Items {
			c.Items[i] = it.Clone()
		}
	}
	if v.Members != nil {
		c.Members = make([]Member, len(v.Members))
		for i, m := range v.Members {
			c.Members[i] = Member{Key: m.Key, Value: m.Value.Clone()}
		}
	}
	return &c
}

// Equal compares two values structurally; numbers compare by value, object
// members regardless of order.
func Equal(a, b *Value) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Null:
		return true
	case Bool:
		return a.Bool == b.Bool
	case String:
		return a.Str == b.Str
	case Number:
		return numEqual(a.Num, b.Num)
	case Array:
		if len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !Equal(a.Items[i], b.Items[i]) {
				return false
			}
		}
		return true
	case Object:
		if len(a.Members) != len(b.Members) {
			return false
		}
		for _, m := range a.Members {
			if !Equal(m.Value, b.Get(m.Key)) {
				return false
			}
		}
		return true
	}
	return false
}

func numEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	x, ok1 := new(big.Rat).SetString(string(a))
	y, ok2 := new(big.Rat).SetString(string(b))
	return ok1 && ok2 && x.Cmp(y) == 0
}

// ToAny converts to the plain encoding/json representation (numbers as
// json.Number), for libraries such as JSON Schema validators.
func (v *Value) ToAny() any {
	if v == nil {
		return nil
	}
	switch v.Kind {
	case Bool:
		return v.Bool
	case Number:
		return v.Num
	case String:
		return v.Str
	case Array:
		out := make([]any, len(v.Items))
		for i, it := range v.Items {
			out[i] = it.ToAny()
		}
		return out
	case Object:
		out := make(map[string]any, len(v.Members))
		for _, m := range v.Members {
			out[m.Key] = m.Value.ToAny()
		}
		return out
	}
	return nil
}

// MarshalJSON writes minified JSON in member order.
func (v *Value) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	v.write(&buf, "", "", 0)
	return buf.Bytes(), nil
}

// UnmarshalJSON lets a Value sit inside encoding/json structs.
func (v *Value) UnmarshalJSON(data []byte) error {
	p, err := Parse(data)
	if err != nil {
		return err
	}
	*v = *p
	return nil
}

// Compact is the minified text of v.
func (v *Value) Compact() string {
	var buf bytes.Buffer
	v.write(&buf, "", "", 0)
	return buf.String()
}

// Pretty is v indented with two spaces, as JSON.stringify(v, null, 2) writes it.
func (v *Value) Pretty() string {
	var buf bytes.Buffer
	v.write(&buf, "\n", "  ", 0)
	return buf.String()
}

func (v *Value) write(buf *bytes.Buffer, nl, indent string, depth int) {
	if v == nil {
		buf.WriteString("null")
		return
	}
	pad := func(d int) {
		if nl == "" {
			return
		}
		buf.WriteString(nl)
		for i := 0; i < d; i++ {
			buf.WriteString(indent)
		}
	}
	switch v.Kind {
	case Null:
		buf.WriteString("null")
	case Bool:
		buf.WriteString(strconv.FormatBool(v.Bool))
	case Number:
		buf.WriteString(string(v.Num))
	case String:
		WriteString(buf, v.Str)
	case Array:
		if len(v.Items) == 0 {
			buf.WriteString("[]")
			return
		}
		buf.WriteByte('[')
		for i, it := range v.Items {
			if i > 0 {
				buf.WriteByte(',')
			}
			pad(depth + 1)
			it.write(buf, nl, indent, depth+1)
		}
		pad(depth)
		buf.WriteByte(']')
	case Object:
		if len(v.Members) == 0 {
			buf.WriteString("{}")
			return
		}
		buf.WriteByte('{')
		for i, m := range v.Members {
			if i > 0 {
				buf.WriteByte(',')
			}
			pad(depth + 1)
			WriteString(buf, m.Key)
			buf.WriteByte(':')
			if nl != "" {
				buf.WriteByte(' ')
			}
			m.Value.write(buf, nl, indent, depth+1)
		}
		pad(depth)
		buf.WriteByte('}')
	}
}

// WriteString writes s as a JSON string literal the way JavaScript's
// JSON.stringify does (no HTML escaping), so token counts match what
// TypeScript clients send.
func WriteString(buf *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	buf.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			buf.WriteString(`\"`)
		case r == '\\':
			buf.WriteString(`\\`)
		case r == '\n':
			buf.WriteString(`\n`)
		case r == '\r':
			buf.WriteString(`\r`)
		case r == '\t':
			buf.WriteString(`\t`)
		case r == '\b':
			buf.WriteString(`\b`)
		case r == '\f':
			buf.WriteString(`\f`)
		case r < 0x20:
			buf.WriteString(`\u00`)
			buf.WriteByte(hex[r>>4])
			buf.WriteByte(hex[r&0xf])
		default:
			buf.WriteRune(r)
		}
	}
	buf.WriteByte('"')
}

// Quote returns s as a JSON string literal.
func Quote(s string) string {
	var buf bytes.Buffer
	WriteString(&buf, s)
	return buf.String()
}
