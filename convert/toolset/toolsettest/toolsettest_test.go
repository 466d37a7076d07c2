package toolsettest

import "testing"

// Every file of the shared corpus loads, with its server name and tools.
func TestCorpusLoads(t *testing.T) {
	for stem, set := range Corpus(t) {
		if set.Server == "" || len(set.Tools) == 0 {
			t.Errorf("%s: server %q, %d tools", stem, set.Server, len(set.Tools))
		}
	}
}

func TestStem(t *testing.T) {
	for in, want := range map[string]string{
		"a/b/server-memory.tools.json": "server-memory",
		"x.json":                       "x",
	} {
		if got := Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
}
