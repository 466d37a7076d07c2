package auth

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestStoreFileMode0600(t *testing.T) {
	dir := t.TempDir()
	path := DefaultPath(func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return dir
		}
		return ""
	}, "/nonexistent")
	if want := filepath.Join(dir, "mcpterm", FileName); path != want {
		t.Fatalf("path %s, want %s", path, want)
	}
	s := NewStore(path)
	e := &Entry{ServerURL: "http://Example.com/mcp/", AccessToken: "secret-at", RefreshToken: "secret-rt", ExpiresAt: time.Now().Add(time.Hour)}
	if err := s.Put(e); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v, want 0600", st.Mode().Perm())
	}
	if st, _ := os.Stat(filepath.Dir(path)); st.Mode().Perm() != 0o700 {
		t.Errorf("directory mode %v, want 0700", st.Mode().Perm())
	}
	got, err := s.Get("http://example.com/mcp")
	if err != nil || got == nil || got.AccessToken != "secret-at" {
		t.Fatalf("Get: %+v %v", got, err)
	}
	if had, err := s.Delete("http://example.com/mcp"); !had || err != nil {
		t.Fatalf("Delete: %v %v", had, err)
	}
	if list, _ := s.List(); len(list) != 0 {
		t.Errorf("after Delete: %d entries", len(list))
	}
	// A corrupt file is an error that names it, not a panic.
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get("http://example.com/mcp"); err == nil {
		t.Error("corrupt file: no error")
	}
}

func TestDefaultPathHome(t *testing.T) {
	if got, want := DefaultPath(func(string) string { return "" }, "/home/u"), filepath.Join("/home/u", ".config", "mcpterm", FileName); got != want {
		t.Errorf("%s, want %s", got, want)
	}
}
