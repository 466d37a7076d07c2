package call

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/dlclark/regexp2"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/schemaerr"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

type compiled struct {
	sch *jsonschema.Schema
	err error
}

// schemaURL names the tool schema inside its own compiler; it never loads.
const schemaURL = "https://mcpterm.invalid/input-schema.json"

// regexTimeout bounds one ECMAScript pattern match (the fallback engine
// backtracks; Go's own engine, tried first, does not).
const regexTimeout = 100 * time.Millisecond

// noLoader refuses every remote or file $ref: a server's schema must not make
// mcpterm read local files or reach the network.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("mcpterm does not load external schemas (%s)", url)
}

type ecmaRegexp struct{ re *regexp2.Regexp }

func (e ecmaRegexp) MatchString(s string) bool {
	ok, err := e.re.MatchString(s)
	return err == nil && ok
}
func (e ecmaRegexp) String() string { return e.re.String() }

// compileRegexp uses Go's linear-time engine, and for the ECMAScript
// patterns it cannot read (lookahead, backreferences) a backtracking engine
// with a match timeout.
func compileRegexp(s string) (jsonschema.Regexp, error) {
	if re, err := regexp.Compile(s); err == nil {
		return re, nil
	}
	re, err := regexp2.Compile(s, regexp2.ECMAScript)
	if err != nil {
		return nil, err
	}
	re.MatchTimeout = regexTimeout
	return ecmaRegexp{re}, nil
}

func compileSchema(doc *ojson.Value) (*jsonschema.Schema, error) {
	try := func(doc any) (*jsonschema.Schema, error) {
		c := jsonschema.NewCompiler()
		c.UseLoader(noLoader{})
		c.UseRegexpEngine(compileRegexp)
		c.DefaultDraft(jsonschema.Draft2020)
		if err := c.AddResource(schemaURL, doc); err != nil {
			return nil, err
		}
		return c.Compile(schemaURL)
	}
	sch, err := try(doc.ToAny())
	if err != nil && doc.Kind == ojson.Object && doc.Has("$schema") {
		// An unknown or unreachable $schema should not make a tool uncallable.
		c := doc.Clone()
		c.Delete("$schema")
		if sch2, err2 := try(c.ToAny()); err2 == nil {
			return sch2, nil
		}
	}
	return sch, err
}

func (r *Resolver) schemaFor(t *toolset.Tool) (*jsonschema.Schema, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.compiled[t.Name]
	if c == nil {
		sch, err := compileSchema(t.InputSchema)
		c = &compiled{sch, err}
		r.compiled[t.Name] = c
	}
	return c.sch, c.err
}

// Validate checks c's arguments against its tool's inputSchema with a JSON
// Schema validator. An error points at the offending argument when c came
// from Parse or Read, and at the call otherwise.
func (r *Resolver) Validate(c Call) error {
	t := r.Lookup(c.Tool)
	if t == nil {
		return errAt(ErrUnknownTool, c.Pos, "", "unknown tool %s%s", c.Tool, didYouMean(c.Tool, r.candidates(), plain))
	}
	args := c.Arguments
	if args == nil {
		args = ojson.NewObject()
	}
	if msg := checkJSON(args, maxValueDepth); msg != "" {
		return errAt(ErrLimit, c.Pos, "", "%s", msg)
	}
	sch, err := r.schemaFor(t)
	if err != nil {
		first, _, _ := strings.Cut(err.Error(), "\n")
		return errAt(ErrInvalidSchema, c.Pos, "", "cannot check the arguments: the inputSchema of %s does not compile: %s", t.Name, first)
	}
	err = sch.Validate(args.ToAny())
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return errAt(ErrSchema, c.Pos, "", "%v", err)
	}
	return r.explain(c, args, ve)
}

// explain reports the most specific failure: the leaf error deepest in the
// arguments, at the position of the argument it concerns.
func (r *Resolver) explain(c Call, args *ojson.Value, ve *jsonschema.ValidationError) error {
	var best *jsonschema.ValidationError
	var bestLoc []string
	bestScore := -1
	for _, e := range schemaerr.Leaves(ve) {
		loc := e.InstanceLocation
		if pn, isPN := e.ErrorKind.(*kind.PropertyNames); isPN {
			// The library shares this slice with later work, so its
			// location is unreliable: find the offending key instead.
			loc = findKey(args, pn.Property, nil, 0)
		}
		// Deeper is more specific; at equal depth, a type or const
		// mismatch more likely means "the other union member" than
		// what the writer got wrong.
		score := 2 * len(loc)
		switch e.ErrorKind.(type) {
		case *kind.Type, *kind.Const, *kind.Enum, *kind.FalseSchema:
		default:
			score++
		}
		if score > bestScore {
			best, bestLoc, bestScore = e, loc, score
		}
	}
	loc := bestLoc
	if ap, ok := best.ErrorKind.(*kind.AdditionalProperties); ok && len(ap.Properties) > 0 {
		loc = append(append([]string(nil), loc...), ap.Properties[0])
	}
	pos := c.Pos
	if c.locate != nil {
		if cur, where := c.locate(); cur != nil && ojson.Equal(cur, args) {
			if p, ok := where[cur]; ok {
				pos = p
			}
			for _, tok := range loc {
				cur = child(cur, tok)
				if cur == nil {
					break
				}
				if p, ok := where[cur]; ok {
					pos = p
				}
			}
		}
	}
	where := "arguments"
	if len(bestLoc) > 0 {
		where = "argument /" + strings.Join(bestLoc, "/")
	}
	expected := ""
	switch k := best.ErrorKind.(type) {
	case *kind.Type:
		names := make([]string, len(k.Want))
		for i, w := range k.Want {
			if w == "boolean" {
				w = "bool"
			}
			names[i] = w
		}
		expected = strings.Join(names, " or ")
	case *kind.Enum:
		vals := make([]*ojson.Value, 0, len(k.Want))
		for _, w := range k.Want {
			if v, err := ojson.FromAny(w); err == nil {
				vals = append(vals, v)
			}
		}
		expected = enumText(vals, 100)
	}
	return errAt(ErrSchema, pos, expected, "invalid %s: %s", where, schemaerr.Message(best))
}

func child(v *ojson.Value, tok string) *ojson.Value {
	switch v.Kind {
	case ojson.Object:
		return v.Get(tok)
	case ojson.Array:
		if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(v.Items) {
			return v.Items[i]
		}
	}
	return nil
}

// findKey returns the path to the first member named key, in document order.
func findKey(v *ojson.Value, key string, path []string, depth int) []string {
	if depth > maxValueDepth {
		return nil
	}
	switch v.Kind {
	case ojson.Object:
		for _, m := range v.Members {
			if m.Key == key {
				return append(path[:len(path):len(path)], key)
			}
			if p := findKey(m.Value, key, append(path[:len(path):len(path)], m.Key), depth+1); p != nil {
				return p
			}
		}
	case ojson.Array:
		for i, it := range v.Items {
			if p := findKey(it, key, append(path[:len(path):len(path)], strconv.Itoa(i)), depth+1); p != nil {
				return p
			}
		}
	}
	return nil
}
