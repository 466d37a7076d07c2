package history

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// want is what a backward scan must yield: the non-empty lines, last first.
func wantLines(data []byte) []string {
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	slices.Reverse(out)
	return out
}

func scanAll(t testing.TB, data []byte, block, maxLine int) []string {
	var got []string
	err := scanBackward(bytes.NewReader(data), int64(len(data)), block, maxLine, func(line []byte) bool {
		got = append(got, string(line))
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestScanBackwardBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(strings.Repeat("x", rng.IntN(20)))
			b.WriteString(strings.Repeat("\n", rng.IntN(3)))
		}
		data := []byte(b.String())
		block := 1 + rng.IntN(16)
		if got, want := scanAll(t, data, block, 1<<20), wantLines(data); !slices.Equal(got, want) {
			t.Fatalf("block %d, %q:\ngot  %q\nwant %q", block, data, got, want)
		}
	}
}

func TestScanBackwardSkipsOverlongLines(t *testing.T) {
	data := []byte("first\n" + strings.Repeat("g", 500) + "\nlast\n" + strings.Repeat("h", 300))
	got := scanAll(t, data, 16, 100)
	if !slices.Equal(got, []string{"last", "first"}) {
		t.Fatalf("got %q", got)
	}
	stop := 0
	_ = scanBackward(bytes.NewReader(data), int64(len(data)), 16, 1<<20, func([]byte) bool { stop++; return false })
	if stop != 1 {
		t.Fatalf("fn called %d times after returning false", stop)
	}
}

func FuzzScanBackward(f *testing.F) {
	f.Add([]byte("a\nb\n\nc"), 3)
	f.Add([]byte("\n\n\n"), 1)
	f.Add([]byte(`{"time":"2026-01-01T00:00:00Z","tool":"x"}`+"\n"+`{"ti`), 7)
	f.Fuzz(func(t *testing.T, data []byte, block int) {
		block = 1 + abs(block)%64
		if got, want := scanAll(t, data, block, 1<<20), wantLines(data); !slices.Equal(got, want) {
			t.Fatalf("block %d:\ngot  %q\nwant %q", block, got, want)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
