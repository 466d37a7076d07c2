//go:build ignore

// gen_ranks writes the rank blobs of o200k_base and cl100k_base from the
// rank files embedded in tiktoken-go-loader (the same files tiktoken-go
// counts with). TestBlobsMatchLoader rebuilds them in memory and compares.
package main

import (
	"log"
	"os"

	"github.com/mcpterm/mcpterm/tokens/internal/ranks"
	"github.com/pkoukk/tiktoken-go-loader/assets"
)

func main() {
	for _, name := range []string{"o200k_base", "cl100k_base"} {
		file, err := assets.Assets.ReadFile(name + ".tiktoken")
		if err != nil {
			log.Fatal(err)
		}
		toks, err := ranks.ParseTiktoken(string(file))
		if err != nil {
			log.Fatalf("%s: %v", name, err)
		}
		blob, err := ranks.Build(toks)
		if err != nil {
			log.Fatalf("%s: %v", name, err)
		}
		if err := os.WriteFile(name+".bin", blob, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
