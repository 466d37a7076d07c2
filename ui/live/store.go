package live

import (
	"path/filepath"

	"github.com/mcpterm/mcpterm/session/history"
	"github.com/mcpterm/mcpterm/ui"
)

// Store is the composer's draft and history on top of session/history: the
// draft lives in StateDir/drafts under a key per server (so each server
// keeps its own half-written batch), and the history is the call log that
// `mcpterm call` writes too, read back as the sources the user wrote.
type Store struct {
	drafts *history.Drafts
	log    *history.Log
	key    string
}

// NewStore opens the state directory for the server named key.
func NewStore(getenv func(string) string, home, key string, opt history.Options) (*Store, error) {
	dir, err := history.StateDir(getenv, home)
	if err != nil {
		return nil, err
	}
	log, err := history.Open(filepath.Join(dir, "history.jsonl"), opt)
	if err != nil {
		return nil, err
	}
	if key == "" {
		key = "default"
	}
	return &Store{drafts: history.NewDrafts(filepath.Join(dir, "drafts")), log: log, key: key}, nil
}

// Log is the call history, for the Backend to record calls in.
func (s *Store) Log() *history.Log { return s.log }

func (s *Store) LoadDraft() (string, error)  { return s.drafts.Load(s.key) }
func (s *Store) SaveDraft(text string) error { return s.drafts.Save(s.key, text) }

// AddHistory is a no-op: every call is recorded with its outcome by the
// Backend when it finishes (see RecordTo), which keeps one history for the
// workbench and the command line.
func (s *Store) AddHistory(string) error { return nil }

// History returns the distinct sources of the last calls, oldest first:
// a batch shows once, as the batch the user wrote.
func (s *Store) History(limit int) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	err := s.log.Scan(func(e history.Entry) bool {
		src := e.Source
		if e.Batch != "" {
			src = e.Batch
		}
		if src != "" && !seen[src] {
			seen[src] = true
			out = append(out, src)
		}
		return limit <= 0 || len(out) < limit
	})
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, err
}

var _ ui.Store = (*Store)(nil)
