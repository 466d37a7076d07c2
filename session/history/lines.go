package history

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// Lines is an append-only JSON-lines file written so that a crash loses at
// most the line being written. The history and the audit log both use it.
type Lines struct {
	path string
	mu   sync.Mutex
}

// OpenLines prepares path for appending, creating its directory (0700).
func OpenLines(path string) (*Lines, error) {
	if path == "" {
		return nil, errors.New("history: empty file path")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	return &Lines{path: path}, nil
}

// Path is the file written.
func (w *Lines) Path() string { return w.path }

// Write appends line plus a newline in a single write to a file opened
// O_APPEND, then fsyncs. If the file ends in a torn line (a crash
// mid-write), the record starts on a new line so it stays readable.
func (w *Lines) Write(line []byte) error {
	if bytes.IndexByte(line, '\n') >= 0 {
		return errors.New("history: a record must be a single line")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	_, statErr := os.Stat(w.path)
	created := errors.Is(statErr, fs.ErrNotExist)
	f, err := os.OpenFile(w.path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	unlock := lockFile(f)
	defer unlock()
	buf := make([]byte, 0, len(line)+2)
	if endsTorn(f) {
		buf = append(buf, '\n')
	}
	buf = append(buf, line...)
	buf = append(buf, '\n')
	if _, err := f.Write(buf); err != nil {
		f.Close()
		return fmt.Errorf("history: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("history: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	if created {
		syncDir(filepath.Dir(w.path))
	}
	return nil
}

// endsTorn reports a non-empty file whose last byte is not a newline.
func endsTorn(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return false
	}
	var last [1]byte
	if _, err := f.ReadAt(last[:], fi.Size()-1); err != nil {
		return false
	}
	return last[0] != '\n'
}

// syncDir makes a new directory entry durable; best effort, since some
// systems cannot fsync a directory.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// maxLine bounds a line held while reading backwards; anything longer is
// not a record of ours and is skipped without being kept in memory.
const maxLine = 16 << 20

// ScanBackward calls fn with each non-empty line, last line first, until fn
// returns false. It reads the file from the end in blocks. A missing file
// has no lines.
func (w *Lines) ScanBackward(fn func(line []byte) bool) error {
	f, err := os.Open(w.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	if err := scanBackward(f, fi.Size(), 64<<10, maxLine, fn); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	return nil
}

// scanBackward is ScanBackward over any ReaderAt, with the block size and
// line bound as parameters so tests can exercise every boundary.
func scanBackward(r io.ReaderAt, size int64, block, maxLine int, fn func(line []byte) bool) error {
	var carry []byte // the start of a line that began in an earlier block
	overlong := false
	for pos := size; pos > 0; {
		n := int64(block)
		if pos < n {
			n = pos
		}
		pos -= n
		buf := make([]byte, n, int(n)+len(carry))
		if _, err := r.ReadAt(buf, pos); err != nil && err != io.EOF {
			return err
		}
		buf = append(buf, carry...)
		for {
			i := bytes.LastIndexByte(buf, '\n')
			if i < 0 {
				break
			}
			line := buf[i+1:]
			if len(line) > 0 && !overlong && !fn(line) {
				return nil
			}
			overlong = false
			buf = buf[:i]
		}
		carry = buf
		if len(carry) > maxLine {
			carry, overlong = nil, true
		}
	}
	if len(carry) > 0 && !overlong {
		fn(carry)
	}
	return nil
}
