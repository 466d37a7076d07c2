package history

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Drafts keeps the composer's unsent text, one file per key (a server name,
// say), so quitting or crashing the UI never loses a half-written batch.
// Each save writes a temporary file in the same directory, fsyncs it and
// renames it over the old one: a reader sees the old text or the new, never
// a mix.
type Drafts struct {
	dir string
}

// MaxDraft bounds a draft; a composer holding more than this is not a draft.
const MaxDraft = 4 << 20

// NewDrafts keeps drafts in dir (StateDir()/drafts by convention); the
// directory is created on the first Save.
func NewDrafts(dir string) *Drafts { return &Drafts{dir: dir} }

// Save stores text under key atomically.
func (d *Drafts) Save(key, text string) error {
	if len(text) > MaxDraft {
		return fmt.Errorf("history: draft of %d bytes is over the %d byte limit", len(text), MaxDraft)
	}
	if err := os.MkdirAll(d.dir, 0o700); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	if err := WriteFileAtomic(d.path(key), []byte(text), 0o600); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	return nil
}

// WriteFileAtomic replaces path with data so that a crash leaves either the
// old file or the new one, never half of either: a temporary file in the same
// directory, fsynced, renamed over path, and the directory synced. Drafts and
// the workbench's saved batches and results both go through it.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	fail := func(err error) error {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(perm); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	syncDir(dir)
	return nil
}

// Load returns the draft saved under key, or "" if there is none.
func (d *Drafts) Load(key string) (string, error) {
	f, err := os.Open(d.path(key))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("history: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxDraft+1))
	if err != nil {
		return "", fmt.Errorf("history: %w", err)
	}
	if len(data) > MaxDraft {
		return "", fmt.Errorf("history: draft file %s is over the %d byte limit", d.path(key), MaxDraft)
	}
	return string(data), nil
}

// Delete forgets the draft under key (sent, or cleared by the user).
func (d *Drafts) Delete(key string) error {
	err := os.Remove(d.path(key))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("history: %w", err)
	}
	return nil
}

// path maps any key to a safe file name: letters, digits, '-', '_' and '.'
// are kept, everything else is %XX-escaped, so keys cannot escape the
// directory or collide.
func (d *Drafts) path(key string) string {
	var b strings.Builder
	if key == "" {
		b.WriteByte('%') // no other key maps to a lone '%'
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_':
			b.WriteByte(c)
		case c == '.' && i > 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	name := b.String()
	if len(name) > 200 {
		sum := sha256.Sum256([]byte(key))
		name = name[:150] + "-" + hex.EncodeToString(sum[:8])
	}
	return filepath.Join(d.dir, name+".draft")
}
