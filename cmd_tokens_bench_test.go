package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset/toolsettest"
	"github.com/mcpterm/mcpterm/tokens"
)

// BenchmarkTokensCommand is `mcpterm tokens --tools F ...` over the corpus,
// the run function whole (flags, reading, the report, the table), once per
// encoding: the in-process part of the whole-process comparison in
// docs/tokens.md, and the one to profile (-cpuprofile).
func BenchmarkTokensCommand(b *testing.B) {
	args := []string{"tokens"}
	for _, f := range toolsettest.CorpusFiles(b) {
		args = append(args, "--tools", f)
	}
	for _, enc := range tokens.Encodings() {
		b.Run(enc, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var out, errOut bytes.Buffer
				c := &cli{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
				if code := c.run(append(args, "--encoding", enc)); code != exitOK {
					b.Fatalf("exit %d: %s", code, errOut.String())
				}
			}
		})
	}
}
