package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/schemaerr"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// SchemaError says how a result broke its tool's outputSchema.
type SchemaError struct {
	Tool string
	Msg  string
}

func (e *SchemaError) Error() string {
	return fmt.Sprintf("%s: structuredContent does not match the tool's outputSchema: %s", e.Tool, e.Msg)
}

// schemaCache keeps compiled output schemas per tool definition, so a batch
// of calls to one tool compiles its schema once.
type schemaCache struct {
	mu sync.Mutex
	m  map[*ojson.Value]compiled
}

type compiled struct {
	sch *jsonschema.Schema
	err error
}

// refuseLoader stops schemas from a server making mcpterm read files or
// fetch URLs through $ref. The draft meta-schemas are built in.
type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("mcpterm does not load external schemas (%s)", url)
}

func (c *schemaCache) get(t *toolset.Tool) (*jsonschema.Schema, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[*ojson.Value]compiled{}
	}
	if got, ok := c.m[t.OutputSchema]; ok {
		return got.sch, got.err
	}
	comp := jsonschema.NewCompiler()
	comp.UseLoader(refuseLoader{})
	const loc = "mcpterm:///output-schema.json"
	var sch *jsonschema.Schema
	err := comp.AddResource(loc, t.OutputSchema.ToAny())
	if err == nil {
		sch, err = comp.Compile(loc)
	}
	c.m[t.OutputSchema] = compiled{sch, err}
	return sch, err
}

// checkOutput validates a successful result's structuredContent against the
// tool's outputSchema, when the tool declares one. A schema that does not
// compile is reported as an event, not held against the result.
func (s *Session) checkOutput(ctx context.Context, tool string, raw *ojson.Value) error {
	set, err := s.Tools(ctx)
	if err != nil || set == nil {
		return nil
	}
	t := set.Find(tool)
	if t == nil || t.OutputSchema == nil {
		return nil
	}
	sc := raw.Get("structuredContent")
	if sc == nil {
		return &SchemaError{Tool: tool, Msg: "the result has no structuredContent"}
	}
	sch, err := s.schemas.get(t)
	if err != nil {
		s.events.publish(Event{Kind: EventNotice, Level: "warning", Source: tool, Text: "outputSchema does not compile, result not validated: " + err.Error()})
		return nil
	}
	if err := sch.Validate(sc.ToAny()); err != nil {
		var ve *jsonschema.ValidationError
		msg := err.Error()
		if errors.As(err, &ve) {
			msg = describeValidation(ve)
		}
		return &SchemaError{Tool: tool, Msg: msg}
	}
	return nil
}

// describeValidation explains a structuredContent that breaks its
// outputSchema in a few "at /path: why" lines.
func describeValidation(ve *jsonschema.ValidationError) string {
	return strings.Join(schemaerr.Lines(ve, 5), "; ")
}
