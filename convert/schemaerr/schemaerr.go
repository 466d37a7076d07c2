// Package schemaerr turns a jsonschema/v6 validation error — a tree of
// causes — into what a person or a model can act on. Every place mcpterm
// validates against a schema reads its errors through here: a call's
// arguments before they are sent (convert/call picks the most specific
// leaf and points at it in the source), a result's structuredContent
// against the tool's outputSchema (session), and the demo server's own
// input checks (one line per problem).
package schemaerr

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// english renders the library's messages; a Printer is safe for
// concurrent use once made.
var english = message.NewPrinter(language.English)

// Message is one error node's own message in English, without its
// location.
func Message(e *jsonschema.ValidationError) string { return e.ErrorKind.LocalizedString(english) }

// Leaves are the tree's most specific failures: the nodes with no causes,
// and propertyNames failures (whose causes are about the name, not a
// value), in the order of their places in the instance (ordered).
func Leaves(ve *jsonschema.ValidationError) []*jsonschema.ValidationError {
	var out []*jsonschema.ValidationError
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if _, isPN := e.ErrorKind.(*kind.PropertyNames); isPN || len(e.Causes) == 0 {
			out = append(out, e)
			return
		}
		for _, c := range ordered(e.Causes) {
			walk(c)
		}
	}
	walk(ve)
	return out
}

// ordered is causes sorted by where in the instance each one is (segment
// by segment, array indices as numbers), stably. The library checks an
// object's properties in map order, so without this the same instance
// could be explained in a different order from one run to the next.
func ordered(causes []*jsonschema.ValidationError) []*jsonschema.ValidationError {
	out := slices.Clone(causes)
	slices.SortStableFunc(out, func(a, b *jsonschema.ValidationError) int {
		return comparePointers(a.InstanceLocation, b.InstanceLocation)
	})
	return out
}

func comparePointers(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] == b[i] {
			continue
		}
		x, errX := strconv.Atoi(a[i])
		y, errY := strconv.Atoi(b[i])
		if errX == nil && errY == nil {
			return cmp.Compare(x, y)
		}
		return strings.Compare(a[i], b[i])
	}
	return cmp.Compare(len(a), len(b))
}

// Lines explains ve as one line per problem, "at /json/pointer: why", at
// most max of them (all when max <= 0), each once. A failed oneOf or
// anyOf whose variants are told apart by a const member (a tagged union's
// "type") says either that the tag is wrong, listing the valid ones, or
// what is wrong inside the variant the tag picks — not every variant's
// errors; one with no tag lists its alternatives' problems.
func Lines(ve *jsonschema.ValidationError, max int) []string {
	var out []string
	lines(ve, &out)
	if len(out) == 0 {
		out = append(out, ve.Error())
	}
	out = slices.Compact(out)
	if max > 0 && len(out) > max {
		out = out[:max]
	}
	return out
}

func lines(e *jsonschema.ValidationError, out *[]string) {
	switch k := e.ErrorKind.(type) {
	case *kind.OneOf:
		if k.Subschemas != nil { // more than one variant matched
			*out = append(*out, At(e.InstanceLocation)+Message(e))
			return
		}
		union(e, out)
		return
	case *kind.AnyOf:
		union(e, out)
		return
	}
	if len(e.Causes) == 0 {
		*out = append(*out, At(e.InstanceLocation)+Message(e))
		return
	}
	for _, c := range ordered(e.Causes) {
		lines(c, out)
	}
}

// union explains a failed oneOf/anyOf (see Lines).
func union(e *jsonschema.ValidationError, out *[]string) {
	loc := e.InstanceLocation
	var chosen []*jsonschema.ValidationError
	var wants []string
	var got any
	var member string
	for _, branch := range e.Causes {
		c, name := discriminator(branch, loc)
		if c == nil {
			chosen = append(chosen, branch)
			continue
		}
		wants = append(wants, fmt.Sprintf("%q", fmt.Sprint(c.Want)))
		got, member = c.Got, name
	}
	switch {
	case len(chosen) == 0 && len(wants) > 0:
		*out = append(*out, fmt.Sprintf("%s%s is not one of %s", At(append(slices.Clone(loc), member)), quoteValue(got), strings.Join(wants, ", ")))
	case len(chosen) == 1 && len(wants) > 0:
		lines(chosen[0], out)
	default:
		var alts []string
		for i, branch := range e.Causes {
			var sub []string
			lines(branch, &sub)
			alts = append(alts, fmt.Sprintf("(%d) %s", i+1, strings.Join(sub, "; ")))
		}
		*out = append(*out, fmt.Sprintf("%smatches none of the %d alternatives: %s", At(loc), len(e.Causes), strings.Join(alts, " ")))
	}
}

// discriminator finds a const failure on a direct member of the union's
// value inside one branch.
func discriminator(e *jsonschema.ValidationError, loc []string) (*kind.Const, string) {
	if c, ok := e.ErrorKind.(*kind.Const); ok && len(e.InstanceLocation) == len(loc)+1 && slices.Equal(e.InstanceLocation[:len(loc)], loc) {
		return c, e.InstanceLocation[len(loc)]
	}
	for _, c := range e.Causes {
		if k, name := discriminator(c, loc); k != nil {
			return k, name
		}
	}
	return nil, ""
}

func quoteValue(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// At is the "at /json/pointer: " prefix of a problem at loc ("" at the
// root, where the problem is the whole value's).
func At(loc []string) string {
	if len(loc) == 0 {
		return ""
	}
	return "at /" + strings.Join(loc, "/") + ": "
}
