package history

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestDrafts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "drafts")
	d := NewDrafts(dir)
	if got, err := d.Load("demo"); err != nil || got != "" {
		t.Fatalf("missing draft: %q %v", got, err)
	}
	text := "(batch\n  (1 (fr \"/a\"))\n  (2 (ex \"whoami\")))"
	if err := d.Save("demo", text); err != nil {
		t.Fatal(err)
	}
	if err := d.Save("demo", text+" ; edited"); err != nil {
		t.Fatal(err)
	}
	if got, _ := d.Load("demo"); got != text+" ; edited" {
		t.Fatalf("Load = %q", got)
	}
	if got, _ := d.Load("other"); got != "" {
		t.Fatalf("keys must be separate: %q", got)
	}
	// hostile keys stay inside the directory and do not collide
	keys := []string{"../../etc/passwd", "a/b", "a%2Fb", ".hidden", "", "default", strings.Repeat("k", 500), strings.Repeat("k", 499) + "j"}
	for i, k := range keys {
		if err := d.Save(k, "v"+k+string(rune('A'+i))); err != nil {
			t.Fatalf("Save(%q): %v", k, err)
		}
	}
	for i, k := range keys {
		want := "v" + k + string(rune('A'+i))
		if got, _ := d.Load(k); got != want {
			t.Errorf("Load(%q) = %q, want %q", k, got, want)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".draft-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
		if len(e.Name()) > 255 {
			t.Errorf("file name too long: %d", len(e.Name()))
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "etc")); err == nil {
		t.Error("a key escaped the drafts directory")
	}
	if err := d.Delete("demo"); err != nil {
		t.Fatal(err)
	}
	if got, _ := d.Load("demo"); got != "" {
		t.Fatalf("after Delete: %q", got)
	}
	if err := d.Delete("demo"); err != nil {
		t.Fatalf("deleting a missing draft: %v", err)
	}
	if err := d.Save("big", strings.Repeat("x", MaxDraft+1)); err == nil {
		t.Error("oversized draft accepted")
	}
}

// TestDraftReadersSeeWholeTexts races saves against loads: a load must see
// one of the saved texts, never a mix or a truncation.
func TestDraftReadersSeeWholeTexts(t *testing.T) {
	d := NewDrafts(t.TempDir())
	a, b := strings.Repeat("a", 200000), strings.Repeat("b", 100000)
	if err := d.Save("k", a); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range 30 {
			text := a
			if i%2 == 0 {
				text = b
			}
			if err := d.Save("k", text); err != nil {
				t.Error(err)
			}
		}
	}()
	go func() {
		defer wg.Done()
		for range 200 {
			got, err := d.Load("k")
			if err != nil {
				t.Error(err)
				return
			}
			if got != a && got != b {
				t.Errorf("torn draft of %d bytes", len(got))
				return
			}
		}
	}()
	wg.Wait()
}

// WriteFileAtomic replaces a file whole, with the asked permissions, and
// leaves no temporary file behind.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "batch.mcpterm")
	if err := os.WriteFile(path, []byte("old contents, longer than the new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(path, []byte("(batch)"), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || string(data) != "(batch)" {
		t.Fatalf("read back %q, %v", data, err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
	if err := WriteFileAtomic(filepath.Join(dir, "no", "such", "dir"), nil, 0o644); err == nil {
		t.Error("writing into a missing directory should fail")
	}
}
