package bpe

import "testing"

// TestBMPClass: the precomputed class of every Basic Multilingual Plane
// character is the one classOf reads from Go's Unicode tables.
func TestBMPClass(t *testing.T) {
	tab := bmpClass()
	for r := rune(0); r < 1<<16; r++ {
		if got, want := tab[r], classOf(r); got != want {
			t.Fatalf("U+%04X: table class %06b, classOf %06b", r, got, want)
		}
	}
}
