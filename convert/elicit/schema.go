// Package elicit reads the requestedSchema of an MCP elicitation (form
// mode, protocol 2025-11-25) into an ordered list of fields, and checks and
// builds the answers a person gives.
//
// The schema is deliberately small: a flat object whose properties are
// strings (with length, pattern and format constraints), numbers and
// integers (with bounds), booleans, single-select enums in each SEP-1330
// spelling (enum, enum+enumNames, oneOf of const/title) and multi-select
// arrays (items.enum or items.anyOf of const/title). Every type may carry a
// default (SEP-1034). Every face (the workbench's form, the command line's
// prompts, the defaults and file policies) reads the schema here, so a rule
// about what an answer must look like is written once.
//
// The package is pure: no I/O. A server is untrusted, so sizes are bounded
// and every problem comes back as an error naming the field.
package elicit

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/dlclark/regexp2"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// Kind is the type of answer a field takes.
type Kind uint8

const (
	String  Kind = iota // free text, possibly constrained
	Number              // any JSON number
	Integer             // a whole number
	Boolean             // yes or no
	Enum                // one of Options
	Multi               // any subset of Options (a JSON array of strings)
)

func (k Kind) String() string {
	return [...]string{"string", "number", "integer", "boolean", "choice", "choices"}[k]
}

// Bounds on what a server may send, so a hostile schema cannot make a face
// build an unbounded form.
const (
	MaxSchemaBytes = 1 << 20
	MaxFields      = 200
	MaxOptions     = 1000
	// patternTimeout bounds one pattern match (regexp2 backtracks).
	patternTimeout = 100 * time.Millisecond
)

// Option is one choice of an Enum or Multi field: the value sent back and
// the title shown (the value itself when the server gave no title).
type Option struct {
	Value string
	Title string
}

// Field is one property of the requested schema, in the order the server
// wrote it.
type Field struct {
	Name        string
	Title       string // the schema's title, or "" (see Label)
	Description string
	Kind        Kind
	Required    bool
	// Default is the schema's default as a content value (string, float64,
	// int64, bool or []string); nil when there is none or it did not fit
	// the field (Form.Notes then says so).
	Default any

	MinLength, MaxLength *int
	Pattern              string
	Format               string // email, uri, date or date-time; "" for none
	Minimum, Maximum     *float64
	Options              []Option
	MinItems, MaxItems   *int

	pattern *regexp2.Regexp
}

// Label is what a face shows for the field: its title, else its name.
func (f *Field) Label() string {
	if f.Title != "" {
		return f.Title
	}
	return f.Name
}

// Form is a parsed requestedSchema.
type Form struct {
	Fields []Field
	// Notes are things the parser ignored but a person may want to know
	// (a default that does not fit its field, an unknown format).
	Notes []string
}

// Field returns the field called name, or nil.
func (f *Form) Field(name string) *Field {
	for i := range f.Fields {
		if f.Fields[i].Name == name {
			return &f.Fields[i]
		}
	}
	return nil
}

// Parse reads a requestedSchema from JSON, keeping the properties' order.
func Parse(data []byte) (*Form, error) {
	if len(data) > MaxSchemaBytes {
		return nil, fmt.Errorf("requestedSchema: %d bytes, more than the %d allowed", len(data), MaxSchemaBytes)
	}
	v, err := ojson.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("requestedSchema: %w", err)
	}
	return ParseValue(v)
}

// FromAny reads a requestedSchema already decoded by encoding/json (as
// mcp-go hands it over). A Go map has no order, so the properties come out
// sorted by name; use Parse on the raw bytes when they are at hand.
func FromAny(x any) (*Form, error) {
	if x == nil {
		return nil, errors.New("requestedSchema: missing")
	}
	b, err := json.Marshal(x)
	if err != nil {
		return nil, fmt.Errorf("requestedSchema: %w", err)
	}
	return Parse(b)
}

// ParseValue reads a requestedSchema.
func ParseValue(v *ojson.Value) (*Form, error) {
	if v == nil || v.Kind != ojson.Object {
		return nil, errors.New("requestedSchema: not a JSON object")
	}
	if t := v.Get("type"); t != nil && (t.Kind != ojson.String || t.Str != "object") {
		return nil, fmt.Errorf("requestedSchema: type is %s, want \"object\"", t.Compact())
	}
	f := &Form{}
	props := v.Get("properties")
	if props != nil && props.Kind != ojson.Object {
		return nil, errors.New("requestedSchema: properties is not an object")
	}
	if props != nil && len(props.Members) > MaxFields {
		return nil, fmt.Errorf("requestedSchema: %d properties, more than the %d allowed", len(props.Members), MaxFields)
	}
	if props != nil {
		seen := map[string]bool{}
		for _, m := range props.Members {
			if seen[m.Key] {
				return nil, fmt.Errorf("requestedSchema: property %q appears twice", m.Key)
			}
			seen[m.Key] = true
			fld, err := parseField(m.Key, m.Value, &f.Notes)
			if err != nil {
				return nil, fmt.Errorf("requestedSchema: field %q: %w", m.Key, err)
			}
			f.Fields = append(f.Fields, fld)
		}
	}
	if req := v.Get("required"); req != nil {
		if req.Kind != ojson.Array {
			return nil, errors.New("requestedSchema: required is not an array")
		}
		for _, r := range req.Items {
			if r.Kind != ojson.String {
				return nil, fmt.Errorf("requestedSchema: required lists %s, not a field name", r.Compact())
			}
			fld := f.Field(r.Str)
			if fld == nil {
				return nil, fmt.Errorf("requestedSchema: required names %q, which is not a property", r.Str)
			}
			fld.Required = true
		}
	}
	return f, nil
}

func parseField(name string, p *ojson.Value, notes *[]string) (Field, error) {
	f := Field{Name: name}
	if p == nil || p.Kind != ojson.Object {
		return f, errors.New("not a schema object")
	}
	var err error
	if f.Title, err = optString(p, "title"); err != nil {
		return f, err
	}
	if f.Description, err = optString(p, "description"); err != nil {
		return f, err
	}
	typ, err := optString(p, "type")
	if err != nil {
		return f, err
	}
	switch {
	case typ == "array":
		f.Kind = Multi
		if err := parseMulti(&f, p); err != nil {
			return f, err
		}
	case p.Has("enum") || p.Has("oneOf") || p.Has("anyOf"):
		if typ != "" && typ != "string" {
			return f, fmt.Errorf("an enum of type %q (enums are strings)", typ)
		}
		f.Kind = Enum
		if err := parseOptions(&f, p); err != nil {
			return f, err
		}
	case typ == "string":
		f.Kind = String
		if err := parseString(&f, p, notes); err != nil {
			return f, err
		}
	case typ == "number" || typ == "integer":
		f.Kind = Number
		if typ == "integer" {
			f.Kind = Integer
		}
		if f.Minimum, err = optNumber(p, "minimum"); err != nil {
			return f, err
		}
		if f.Maximum, err = optNumber(p, "maximum"); err != nil {
			return f, err
		}
	case typ == "boolean":
		f.Kind = Boolean
	case typ == "":
		return f, errors.New("no type")
	default:
		return f, fmt.Errorf("type %q is not supported (an elicitation form holds strings, numbers, integers, booleans and enums)", typ)
	}
	if d := p.Get("default"); d != nil {
		v, err := f.fromJSON(d)
		if err == nil {
			err = f.Check(v)
		}
		if err != nil {
			*notes = append(*notes, fmt.Sprintf("field %q: default ignored: %v", name, err))
		} else {
			f.Default = v
		}
	}
	return f, nil
}

func parseString(f *Field, p *ojson.Value, notes *[]string) error {
	var err error
	if f.MinLength, err = optCount(p, "minLength"); err != nil {
		return err
	}
	if f.MaxLength, err = optCount(p, "maxLength"); err != nil {
		return err
	}
	if f.Pattern, err = optString(p, "pattern"); err != nil {
		return err
	}
	if f.Pattern != "" {
		re, err := regexp2.Compile(f.Pattern, regexp2.ECMAScript)
		if err != nil {
			return fmt.Errorf("pattern %q: %v", f.Pattern, err)
		}
		re.MatchTimeout = patternTimeout
		f.pattern = re
	}
	if f.Format, err = optString(p, "format"); err != nil {
		return err
	}
	switch f.Format {
	case "", "email", "uri", "date", "date-time":
	default:
		*notes = append(*notes, fmt.Sprintf("field %q: format %q is not checked", f.Name, f.Format))
	}
	return nil
}

// parseOptions reads a single-select enum in any SEP-1330 spelling.
func parseOptions(f *Field, p *ojson.Value) error {
	if one := p.Get("oneOf"); one != nil {
		return constOptions(f, one, "oneOf")
	}
	if any := p.Get("anyOf"); any != nil {
		return constOptions(f, any, "anyOf")
	}
	return enumOptions(f, p.Get("enum"), p.Get("enumNames"))
}

func parseMulti(f *Field, p *ojson.Value) error {
	items := p.Get("items")
	if items == nil || items.Kind != ojson.Object {
		return errors.New("an array without an items schema")
	}
	if t, err := optString(items, "type"); err != nil {
		return fmt.Errorf("items: %w", err)
	} else if t != "" && t != "string" {
		return fmt.Errorf("items of type %q (multi-select items are strings)", t)
	}
	var err error
	switch {
	case items.Has("anyOf"):
		err = constOptions(f, items.Get("anyOf"), "items.anyOf")
	case items.Has("oneOf"):
		err = constOptions(f, items.Get("oneOf"), "items.oneOf")
	case items.Has("enum"):
		err = enumOptions(f, items.Get("enum"), items.Get("enumNames"))
	default:
		return errors.New("an array whose items are not an enum (only multi-select arrays are supported)")
	}
	if err != nil {
		return err
	}
	if f.MinItems, err = optCount(p, "minItems"); err != nil {
		return err
	}
	f.MaxItems, err = optCount(p, "maxItems")
	return err
}

func enumOptions(f *Field, enum, names *ojson.Value) error {
	if enum == nil || enum.Kind != ojson.Array || len(enum.Items) == 0 {
		return errors.New("enum is not a non-empty array")
	}
	if len(enum.Items) > MaxOptions {
		return fmt.Errorf("%d choices, more than the %d allowed", len(enum.Items), MaxOptions)
	}
	if names != nil && (names.Kind != ojson.Array || len(names.Items) != len(enum.Items)) {
		return errors.New("enumNames does not match enum one for one")
	}
	for i, it := range enum.Items {
		if it.Kind != ojson.String {
			return fmt.Errorf("enum value %s is not a string", it.Compact())
		}
		o := Option{Value: it.Str, Title: it.Str}
		if names != nil {
			if n := names.Items[i]; n.Kind == ojson.String && n.Str != "" {
				o.Title = n.Str
			}
		}
		if err := addOption(f, o); err != nil {
			return err
		}
	}
	return nil
}

func constOptions(f *Field, list *ojson.Value, where string) error {
	if list == nil || list.Kind != ojson.Array || len(list.Items) == 0 {
		return fmt.Errorf("%s is not a non-empty array", where)
	}
	if len(list.Items) > MaxOptions {
		return fmt.Errorf("%d choices, more than the %d allowed", len(list.Items), MaxOptions)
	}
	for i, it := range list.Items {
		if it.Kind != ojson.Object {
			return fmt.Errorf("%s[%d] is not an object", where, i)
		}
		c := it.Get("const")
		if c == nil || c.Kind != ojson.String {
			return fmt.Errorf("%s[%d] has no string const", where, i)
		}
		o := Option{Value: c.Str, Title: c.Str}
		if t, err := optString(it, "title"); err != nil {
			return fmt.Errorf("%s[%d]: %w", where, i, err)
		} else if t != "" {
			o.Title = t
		}
		if err := addOption(f, o); err != nil {
			return err
		}
	}
	return nil
}

func addOption(f *Field, o Option) error {
	for _, x := range f.Options {
		if x.Value == o.Value {
			return fmt.Errorf("choice %q appears twice", o.Value)
		}
	}
	f.Options = append(f.Options, o)
	return nil
}

func optString(p *ojson.Value, key string) (string, error) {
	v := p.Get(key)
	if v == nil {
		return "", nil
	}
	if v.Kind != ojson.String {
		return "", fmt.Errorf("%s is %s, not a string", key, v.Kind)
	}
	return v.Str, nil
}

func optNumber(p *ojson.Value, key string) (*float64, error) {
	v := p.Get(key)
	if v == nil {
		return nil, nil
	}
	if v.Kind != ojson.Number {
		return nil, fmt.Errorf("%s is %s, not a number", key, v.Kind)
	}
	n, err := strconv.ParseFloat(string(v.Num), 64)
	if err != nil || math.IsInf(n, 0) {
		return nil, fmt.Errorf("%s %s is out of range", key, v.Num)
	}
	return &n, nil
}

func optCount(p *ojson.Value, key string) (*int, error) {
	n, err := optNumber(p, key)
	if err != nil || n == nil {
		return nil, err
	}
	if *n < 0 || *n != math.Trunc(*n) || *n > math.MaxInt32 {
		return nil, fmt.Errorf("%s %v is not a count", key, *n)
	}
	c := int(*n)
	return &c, nil
}
