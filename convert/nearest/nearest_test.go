package nearest

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{
		{"", "", 0}, {"kitten", "sitting", 3}, {"read_fle", "read_file", 1},
		{"héllo", "hello", 1}, {"abc", "", 3}, {"日本語", "日本", 1},
	} {
		if got := Distance(c.a, c.b, -1); got != c.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
		if got := Distance(c.b, c.a, -1); got != c.d {
			t.Errorf("not symmetric for %q, %q", c.a, c.b)
		}
	}
}

// A bounded distance equals the unbounded one when within the bound, and
// says "over" (limit+1) otherwise.
func TestBoundedDistanceAgrees(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	word := func() string {
		b := make([]byte, r.Intn(9))
		for i := range b {
			b[i] = "abc_-"[r.Intn(5)]
		}
		return string(b)
	}
	for i := 0; i < 5000; i++ {
		a, b, limit := word(), word(), r.Intn(4)
		full, bounded := Distance(a, b, -1), Distance(a, b, limit)
		if full <= limit && bounded != full || full > limit && bounded != limit+1 {
			t.Fatalf("Distance(%q, %q): full %d, bounded(%d) %d", a, b, full, limit, bounded)
		}
	}
}

func TestSuggest(t *testing.T) {
	names := []string{"read_file", "read_text_file", "write_file", "Read-File", "list_directory"}
	got := Suggest("read_fle", names, DefaultLimit("read_fle"), 3)
	if !slices.Equal(got, []string{"read_file", "Read-File"}) {
		t.Errorf("Suggest(read_fle) = %v", got)
	}
	// Case and '-' versus '_' cost nothing; the word itself is never offered.
	if got := Suggest("read_file", names, 1, 3); !slices.Equal(got, []string{"Read-File"}) {
		t.Errorf("Suggest(read_file) = %v", got)
	}
	if got := Suggest("zzz", names, DefaultLimit("zzz"), 3); len(got) != 0 {
		t.Errorf("nothing is near zzz, got %v", got)
	}
	if got := Suggest("x", []string{"a", "b", "c", "d"}, 1, 2); len(got) != 2 {
		t.Errorf("n bounds the answer: %v", got)
	}
}

func TestWithout(t *testing.T) {
	in := []string{"delete_file", "Delete_File", "df", "read_note"}
	drop := func(s string) bool { return s == "Delete_File" || s == "df" }
	if got := Without(in, drop); strings.Join(got, " ") != "delete_file read_note" {
		t.Errorf("Without: %q", got)
	}
	if got := Without(in, nil); &got[0] != &in[0] {
		t.Error("Without(nil) copied the list")
	}
	if got := Without(in, func(string) bool { return false }); &got[0] != &in[0] {
		t.Error("dropping nothing copied the list")
	}
	if in[1] != "Delete_File" {
		t.Error("Without changed its input")
	}
}
