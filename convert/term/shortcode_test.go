package term

import (
	"fmt"
	"math/rand"
	"testing"
)

func TestShortCodesNatural(t *testing.T) {
	got := ShortCodes([]string{"file_read", "note_update", "data_platform_query", "exec", "ls", "readFile"})
	want := map[string]string{"file_read": "fr", "note_update": "nu", "data_platform_query": "dpq", "exec": "exec", "ls": "ls", "readFile": "rf"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: got %q, want %q", k, got[k], v)
		}
	}
}

func checkCodes(t *testing.T, names []string, codes map[string]string) {
	t.Helper()
	full := map[string]bool{}
	for _, n := range names {
		full[n] = true
	}
	if len(codes) != len(full) {
		t.Fatalf("%d codes for %d names", len(codes), len(full))
	}
	used := map[string]string{}
	for n, c := range codes {
		if !validCode(c) {
			t.Errorf("%s: invalid code %q", n, c)
		}
		if o, dup := used[c]; dup {
			t.Errorf("code %q given to %q and %q", c, o, n)
		}
		used[c] = n
		if full[c] && c != n {
			t.Errorf("code %q of %q is another tool's name", c, n)
		}
	}
}

func TestShortCodesProperties(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	parts := []string{"get", "list", "file", "read", "f", "a", "ab", "x1", "tool", "Search", "issue", "pr", "2"}
	seps := []string{"_", "-", ".", ""}
	for round := 0; round < 200; round++ {
		var names []string
		for i := 0; i < 1+rng.Intn(60); i++ {
			n := ""
			for j := 0; j < 1+rng.Intn(4); j++ {
				if j > 0 {
					n += seps[rng.Intn(len(seps))]
				}
				n += parts[rng.Intn(len(parts))]
			}
			names = append(names, n)
		}
		codes := ShortCodes(names)
		checkCodes(t, names, codes)
		// input order and duplicates do not matter
		shuffled := append(append([]string(nil), names...), names[0])
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		again := ShortCodes(shuffled)
		for n, c := range codes {
			if again[n] != c {
				t.Fatalf("order-dependent: %q got %q then %q", n, c, again[n])
			}
		}
	}
}

func TestShortCodesManyAndOdd(t *testing.T) {
	var names []string
	for i := 0; i < 3000; i++ {
		names = append(names, fmt.Sprintf("tool_%04d", i))
	}
	names = append(names, "日本語", "123", "", "_", "nil", "true", "or", "t", "t0", "to0")
	checkCodes(t, names, ShortCodes(names))
}
