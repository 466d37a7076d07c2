package main

import (
	"flag"
	"fmt"
	"strings"
	"sync"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/tokens"
)

// aqlFlags are the MCP-AQL options of `mcpterm call`, as typed.
type aqlFlags struct {
	mode     string
	endpoint string
	mapFile  string
}

func (af *aqlFlags) register(fs *flag.FlagSet) {
	enum(fs, &af.mode, "aql-mode", "single", []string{"single", "semantic"}, "AQL input `MODE`: single (every operation through mcp_aql) or semantic (mcp_aql_create|read|update|delete|execute)")
	fs.StringVar(&af.endpoint, "aql-endpoint", "", "AQL input, semantic mode: the `ENDPOINT` the request goes to (mcp_aql_read or read, ...); operations of another category are refused (default: each operation's own)")
	fs.StringVar(&af.mapFile, "aql-map", "", "correct AQL tool categories or operation names from this JSON `FILE` (see docs/aql.md)")
}

// options checks the flags and reads the --aql-map file into the codec's
// options.
func (af *aqlFlags) options() (calls.Options, error) {
	var o calls.Options
	var err error
	if o.Mode, err = parseAQLMode(af.mode); err != nil {
		return o, err
	}
	if af.endpoint != "" {
		if o.Mode != aql.Semantic {
			return o, usagef("--aql-endpoint is for --aql-mode semantic (single mode has one endpoint, %s)", aql.SingleTool)
		}
		cat, ok := aql.ParseCategory(strings.TrimPrefix(af.endpoint, "mcp_aql_"))
		if !ok {
			return o, usagef("--aql-endpoint %s: want mcp_aql_create, mcp_aql_read, mcp_aql_update, mcp_aql_delete or mcp_aql_execute", quoteArg(af.endpoint))
		}
		o.Endpoint = cat.Tool()
	}
	if af.mapFile != "" {
		if o.Overrides, err = loadAQLMap(af.mapFile); err != nil {
			return o, err
		}
	}
	return o, nil
}

// checkAQL builds the codec's AQL view, which fails when the overrides
// contradict each other, and passes its warnings (map entries for tools
// the server lacks) to stderr.
func (c *cli) checkAQL(codec *calls.Codec) error {
	a, err := codec.Adapter()
	if err != nil {
		return err
	}
	for _, w := range a.Warnings {
		fmt.Fprintf(c.stderr, "mcpterm call: warning: %s\n", safeLine(w))
	}
	return nil
}

// aqlAnswer is the AQL response to a plan that ran (calls.Codec.Answer),
// saying on stderr what each item's params.fields saved.
func (c *cli) aqlAnswer(codec *calls.Codec, p *calls.Plan, outs []calls.Outcome) *ojson.Value {
	// Loaded at most once, and only when some operation asked for fields.
	counter := sync.OnceValues(func() (*tokens.Counter, error) { return tokens.NewCounter(tokens.DefaultEncoding) })
	for i := range p.Items {
		it := &p.Items[i]
		if len(it.Fields) == 0 || it.IsLocal() {
			continue
		}
		if resp, full := codec.ItemAnswer(it, outs[i]); full != nil {
			c.noteProjection(i, p.Batch, resp, full, counter)
		}
	}
	return codec.Answer(p, outs)
}

// noteProjection says on stderr what params.fields saved: the tokens of the
// projected answer next to the full one (tokens.CountProjection), so field
// selection is never silent.
func (c *cli) noteProjection(index int, batch bool, projected, full *ojson.Value, loadCounter func() (*tokens.Counter, error)) {
	where := ""
	if batch {
		where = fmt.Sprintf(" (operation %d)", index)
	}
	counter, err := loadCounter()
	if err != nil {
		counter = nil
	}
	pr, err := tokens.CountProjection(counter, projected, full)
	if err != nil {
		fmt.Fprintf(c.stderr, "mcpterm call: fields projected the result%s: %d of %d bytes\n", where, pr.Bytes, pr.FullBytes)
		return
	}
	fmt.Fprintf(c.stderr, "mcpterm call: fields projected the result%s: %d of %d tokens (%s), %d of %d bytes\n",
		where, pr.Tokens, pr.FullTokens, tokens.DefaultEncoding, pr.Bytes, pr.FullBytes)
}

// safeLine is untrusted text fit for one line of stderr.
func safeLine(s string) string { return safe.Sanitize(s, safe.Options{SingleLine: true, Max: 2000}) }
