package bpe

import (
	"bytes"
	"testing"

	"github.com/mcpterm/mcpterm/tokens/internal/ranks"
	"github.com/pkoukk/tiktoken-go-loader/assets"
)

// TestBlobsMatchLoader: the checked-in blobs are what gen_ranks.go makes
// from tiktoken-go-loader's rank files now, and every rank of those files
// looks up (and decodes) as itself.
func TestBlobsMatchLoader(t *testing.T) {
	blobs := map[string]string{"o200k_base": o200kBlob, "cl100k_base": cl100kBlob}
	for _, name := range Names() {
		file, err := assets.Assets.ReadFile(name + ".tiktoken")
		if err != nil {
			t.Fatal(err)
		}
		toks, err := ranks.ParseTiktoken(string(file))
		if err != nil {
			t.Fatal(err)
		}
		blob, err := ranks.Build(toks)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(blob, []byte(blobs[name])) {
			t.Fatalf("%s: checked-in blob differs from the loader's file; run go generate ./tokens/internal/bpe", name)
		}
		e := openTest(t, name)
		if e.Len() != len(toks) {
			t.Fatalf("%s: %d tokens, file has %d", name, e.Len(), len(toks))
		}
		for r, tok := range toks {
			if got, ok := e.Rank(tok); !ok || got != r {
				t.Fatalf("%s: rank of %q is %d %v, want %d", name, tok, got, ok, r)
			}
			if e.Token(r) != tok {
				t.Fatalf("%s: token %d decodes wrong", name, r)
			}
		}
		if _, ok := e.Rank("\x00\xff not a token \xfe"); ok {
			t.Errorf("%s: a non-token looked up", name)
		}
	}
}
