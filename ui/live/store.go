package live

import (
	"bufio"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/mcpterm/mcpterm/ui"
)

// Store keeps the composer's draft and its history under the XDG state
// directory ($XDG_STATE_HOME/mcpterm, default ~/.local/state/mcpterm). The
// draft is written through a temporary file and a rename, so a crash leaves
// either the old draft or the new one, never half of one.
type Store struct {
	dir string
	mu  sync.Mutex
}

// maxHistoryLine bounds one history entry read back.
const maxHistoryLine = 1 << 20

// NewStore finds (and creates) the state directory.
func NewStore(getenv func(string) string) (*Store, error) {
	dir := getenv("XDG_STATE_HOME")
	if dir == "" {
		home := getenv("HOME")
		if home == "" {
			return nil, errors.New("neither XDG_STATE_HOME nor HOME is set")
		}
		dir = filepath.Join(home, ".local", "state")
	}
	dir = filepath.Join(dir, "mcpterm")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return &Store{dir: dir}, nil
}

func (s *Store) draftPath() string   { return filepath.Join(s.dir, "draft.mcpt") }
func (s *Store) historyPath() string { return filepath.Join(s.dir, "composer-history.jsonl") }

func (s *Store) LoadDraft() (string, error) {
	data, err := os.ReadFile(s.draftPath())
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	return string(data), err
}

func (s *Store) SaveDraft(text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	tmp := s.draftPath() + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, s.draftPath())
}

func (s *Store) AddHistory(src string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	line, err := json.Marshal(src)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(s.historyPath(), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// History reads back the last limit entries; a torn last line (a crash
// mid-append) is skipped.
func (s *Store) History(limit int) ([]string, error) {
	f, err := os.Open(s.historyPath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), maxHistoryLine)
	for sc.Scan() {
		var src string
		if json.Unmarshal(sc.Bytes(), &src) == nil {
			out = append(out, src)
		}
	}
	if limit > 0 && len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out, nil
}

var _ ui.Store = (*Store)(nil)
