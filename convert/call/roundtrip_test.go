package call

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// roundTrip generates arguments for every tool of set, writes each as the
// canonical call and reads it back: the arguments must come back equal, and
// valid ones must pass Parse (reading plus validation).
func roundTrip(t *testing.T, set *toolset.Set, samples int, noEscapes bool) {
	r := NewResolver(set)
	for _, tool := range set.Tools {
		valid := 0
		for seed := 0; seed < samples; seed++ {
			steps := 0
			g := newGen(r.newParser(tool, &steps, false), uint64(seed)*7919+uint64(len(tool.Name)))
			args := g.value(tool.InputSchema, 0)
			if args.Kind != ojson.Object {
				t.Fatalf("%s: generator made a %s", tool.Name, args.Kind)
			}
			c := Call{Tool: tool.Name, Arguments: args}
			src, err := r.Format(c)
			if err != nil {
				t.Errorf("%s seed %d: Format(%s): %v", tool.Name, seed, args.Compact(), err)
				continue
			}
			if noEscapes && strings.Contains(src, "(json ") {
				t.Errorf("%s seed %d: canonical form needs raw JSON: %s", tool.Name, seed, src)
			}
			b, err := r.Read(src)
			if err != nil {
				t.Errorf("%s seed %d: Read(%s): %v\nargs %s", tool.Name, seed, src, err, args.Compact())
				continue
			}
			got := b.Calls[0]
			if got.Tool != tool.Name || !ojson.Equal(got.Arguments, args) {
				t.Errorf("%s seed %d: round trip changed the arguments\n want %s\n src  %s\n got  %s", tool.Name, seed, args.Compact(), src, got.Arguments.Compact())
				continue
			}
			if r.Validate(c) != nil {
				continue // the generator aims at valid instances; not every sample is
			}
			valid++
			if _, err := r.Parse(src); err != nil {
				t.Errorf("%s seed %d: valid arguments %s, but Parse(%s): %v", tool.Name, seed, args.Compact(), src, err)
			}
		}
		if valid < samples/2 {
			t.Errorf("%s: only %d of %d generated argument sets were valid; the generator misses this schema", tool.Name, valid, samples)
		}
	}
}

func TestRoundTripCorpus(t *testing.T) {
	for _, f := range corpusFiles(t) {
		t.Run(filepath.Base(f), func(t *testing.T) { roundTrip(t, loadSet(t, f), 40, true) })
	}
}

func TestRoundTripFixtures(t *testing.T) {
	roundTrip(t, fixtures(t), 200, false)
}
