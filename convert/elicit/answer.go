package elicit

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/mail"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// Content values: an answer to a field is a string (String, Enum), a
// float64 (Number), an int64 (Integer), a bool (Boolean) or a []string
// (Multi). Normalize turns what encoding/json decodes into these.

// Defaults is the content of every field that has a default (SEP-1034),
// which is what a client sends when it accepts without asking anyone.
func (f *Form) Defaults() map[string]any {
	out := map[string]any{}
	for _, fld := range f.Fields {
		if fld.Default != nil {
			out[fld.Name] = cloneValue(fld.Default)
		}
	}
	return out
}

// MissingDefaults names the required fields that have no default: a client
// cannot accept with defaults alone while any remain.
func (f *Form) MissingDefaults() []string {
	var out []string
	for _, fld := range f.Fields {
		if fld.Required && fld.Default == nil {
			out = append(out, fld.Name)
		}
	}
	return out
}

// Validate checks a whole answer: every required field present, every
// value fitting its field, no field the schema does not name. The error
// lists each problem on its own, naming the field.
func (f *Form) Validate(content map[string]any) error {
	var errs []error
	for _, fld := range f.Fields {
		v, ok := content[fld.Name]
		if !ok || v == nil {
			if fld.Required {
				errs = append(errs, fmt.Errorf("%s: required", fld.Name))
			}
			continue
		}
		if err := fld.Check(v); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", fld.Name, err))
		}
	}
	var extra []string
	for k := range content {
		if f.Field(k) == nil {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)
	for _, k := range extra {
		errs = append(errs, fmt.Errorf("%s: not a field of this form", k))
	}
	return errors.Join(errs...)
}

// Normalize makes content out of what encoding/json decoded (float64 for
// every number, []any for arrays), as the field's kind wants it: an integer
// field gets an int64, a multi-select a []string. It checks the type only;
// Check does the rest.
func (f *Form) Normalize(content map[string]any) (map[string]any, error) {
	out := make(map[string]any, len(content))
	var errs []error
	for k, v := range content {
		fld := f.Field(k)
		if fld == nil {
			out[k] = v
			continue
		}
		n, err := fld.Normalize(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", k, err))
			continue
		}
		out[k] = n
	}
	return out, errors.Join(errs...)
}

// Normalize turns one decoded JSON value into this field's content type.
func (f *Field) Normalize(v any) (any, error) {
	switch f.Kind {
	case String, Enum:
		if s, ok := v.(string); ok {
			return s, nil
		}
	case Boolean:
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case Number, Integer:
		var n float64
		switch x := v.(type) {
		case float64:
			n = x
		case int:
			n = float64(x)
		case int64:
			if f.Kind == Integer {
				return x, nil
			}
			n = float64(x)
		case json.Number:
			if f.Kind == Integer {
				if i, err := x.Int64(); err == nil {
					return i, nil
				}
			}
			p, err := x.Float64()
			if err != nil {
				return nil, fmt.Errorf("%s is out of range", x)
			}
			n = p
		default:
			return nil, fmt.Errorf("%s, not a %s", typeName(v), f.Kind)
		}
		if f.Kind == Integer {
			if n != math.Trunc(n) || math.Abs(n) > 1<<53 {
				return nil, fmt.Errorf("%v is not a whole number", n)
			}
			return int64(n), nil
		}
		return n, nil
	case Multi:
		switch x := v.(type) {
		case []string:
			return slices.Clone(x), nil
		case []any:
			out := make([]string, 0, len(x))
			for _, e := range x {
				s, ok := e.(string)
				if !ok {
					return nil, fmt.Errorf("holds %s, not only strings", typeName(e))
				}
				out = append(out, s)
			}
			return out, nil
		}
	}
	return nil, fmt.Errorf("%s, not a %s", typeName(v), f.Kind)
}

// Check says whether v (a content value, or anything Normalize accepts)
// fits the field. The message does not repeat the field's name.
func (f *Field) Check(v any) error {
	v, err := f.Normalize(v)
	if err != nil {
		return err
	}
	switch f.Kind {
	case String:
		return f.checkString(v.(string))
	case Number, Integer:
		var n float64
		if i, ok := v.(int64); ok {
			n = float64(i)
		} else {
			n = v.(float64)
		}
		if f.Minimum != nil && n < *f.Minimum {
			return fmt.Errorf("%s is less than the minimum %s", num(n), num(*f.Minimum))
		}
		if f.Maximum != nil && n > *f.Maximum {
			return fmt.Errorf("%s is more than the maximum %s", num(n), num(*f.Maximum))
		}
	case Enum:
		if f.option(v.(string)) < 0 {
			return fmt.Errorf("%q is not one of %s", v, f.choices())
		}
	case Multi:
		sel := v.([]string)
		for i, s := range sel {
			if f.option(s) < 0 {
				return fmt.Errorf("%q is not one of %s", s, f.choices())
			}
			if slices.Contains(sel[:i], s) {
				return fmt.Errorf("%q is chosen twice", s)
			}
		}
		if f.MinItems != nil && len(sel) < *f.MinItems {
			return fmt.Errorf("choose at least %d", *f.MinItems)
		}
		if f.MaxItems != nil && len(sel) > *f.MaxItems {
			return fmt.Errorf("choose at most %d", *f.MaxItems)
		}
	}
	return nil
}

func (f *Field) checkString(s string) error {
	n := utf8.RuneCountInString(s)
	if f.MinLength != nil && n < *f.MinLength {
		return fmt.Errorf("at least %d characters, got %d", *f.MinLength, n)
	}
	if f.MaxLength != nil && n > *f.MaxLength {
		return fmt.Errorf("at most %d characters, got %d", *f.MaxLength, n)
	}
	if f.pattern != nil {
		ok, err := f.pattern.MatchString(s)
		if err != nil {
			return fmt.Errorf("pattern %s could not be checked: %v", f.Pattern, err)
		}
		if !ok {
			return fmt.Errorf("does not match the pattern %s", f.Pattern)
		}
	}
	switch f.Format {
	case "email":
		a, err := mail.ParseAddress(s)
		if err != nil || a.Address != s {
			return errors.New("not an email address")
		}
	case "uri":
		u, err := url.Parse(s)
		if err != nil || u.Scheme == "" {
			return errors.New("not an absolute URI")
		}
	case "date":
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return errors.New("not a date (YYYY-MM-DD)")
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return errors.New("not a date-time (RFC 3339, e.g. 2025-11-25T13:45:00Z)")
		}
	}
	return nil
}

// ParseText reads a typed answer for the field, as a person types it in a
// prompt or a form's text box: numbers as decimals, booleans as yes/no
// (y, n, true, false, 1, 0), a choice by its value, its title or its
// 1-based number, several choices separated by commas. The result is
// checked.
func (f *Field) ParseText(s string) (any, error) {
	t := strings.TrimSpace(s)
	var v any
	switch f.Kind {
	case String:
		v = s
	case Number, Integer:
		n, err := strconv.ParseFloat(t, 64)
		if err != nil || math.IsInf(n, 0) || math.IsNaN(n) {
			return nil, fmt.Errorf("%q is not a number", t)
		}
		v = n
	case Boolean:
		switch strings.ToLower(t) {
		case "y", "yes", "true", "1", "on":
			v = true
		case "n", "no", "false", "0", "off":
			v = false
		default:
			return nil, fmt.Errorf("%q: answer yes or no", t)
		}
	case Enum:
		i := f.pick(t)
		if i < 0 {
			return nil, fmt.Errorf("%q is not one of %s", t, f.choices())
		}
		v = f.Options[i].Value
	case Multi:
		sel := []string{}
		if t != "" {
			for part := range strings.SplitSeq(t, ",") {
				p := strings.TrimSpace(part)
				i := f.pick(p)
				if i < 0 {
					return nil, fmt.Errorf("%q is not one of %s", p, f.choices())
				}
				sel = append(sel, f.Options[i].Value)
			}
		}
		v = sel
	}
	if err := f.Check(v); err != nil {
		return nil, err
	}
	return f.Normalize(v)
}

// Text writes a content value the way ParseText reads it back.
func (f *Field) Text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		if x {
			return "yes"
		}
		return "no"
	case float64:
		return num(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case []string:
		return strings.Join(x, ", ")
	}
	return fmt.Sprint(v)
}

// pick finds a choice by value, then title (case-insensitively), then its
// 1-based number.
func (f *Field) pick(s string) int {
	if i := f.option(s); i >= 0 {
		return i
	}
	for i, o := range f.Options {
		if strings.EqualFold(o.Title, s) || strings.EqualFold(o.Value, s) {
			return i
		}
	}
	if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= len(f.Options) {
		return n - 1
	}
	return -1
}

func (f *Field) option(v string) int {
	for i, o := range f.Options {
		if o.Value == v {
			return i
		}
	}
	return -1
}

func (f *Field) choices() string {
	const show = 8
	var b strings.Builder
	for i, o := range f.Options {
		if i == show {
			fmt.Fprintf(&b, ", … (%d in all)", len(f.Options))
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(o.Value))
	}
	return b.String()
}

// fromJSON reads a schema default as a content value.
func (f *Field) fromJSON(v *ojson.Value) (any, error) {
	switch v.Kind {
	case ojson.Number:
		return f.Normalize(json.Number(v.Num))
	case ojson.Null:
		return nil, errors.New("null")
	}
	return f.Normalize(v.ToAny())
}

func cloneValue(v any) any {
	if s, ok := v.([]string); ok {
		return slices.Clone(s)
	}
	return v
}

func num(n float64) string { return strconv.FormatFloat(n, 'g', -1, 64) }

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64, int, int64, json.Number:
		return "a number"
	case []any, []string:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// Show writes a content value for a person: a choice by its title (which
// ParseText also reads back), anything else as Text does.
func (f *Field) Show(v any) string {
	title := func(s string) string {
		if i := f.option(s); i >= 0 {
			return f.Options[i].Title
		}
		return s
	}
	switch x := v.(type) {
	case string:
		if f.Kind == Enum {
			return title(x)
		}
	case []string:
		out := make([]string, len(x))
		for i, s := range x {
			out[i] = title(s)
		}
		return strings.Join(out, ", ")
	}
	return f.Text(v)
}
