package config

// Config trust, as editors do workspace trust.
//
// A project config (.mcp.json, .cursor/mcp.json, .vscode/mcp.json,
// .zed/settings.json, .gemini/settings.json, .codex/config.toml in the
// current directory or a parent) is written by whoever controls that
// directory: a cloned repository can put a server there that runs any
// command, and name it like one the user already has ("github"). So a
// server is taken from a project file only once the user has trusted that
// file as it is now — its path and the SHA-256 of its bytes — and the answer
// is remembered in the state directory (trust.json, TrustStore). A changed
// file, or the same file at another path, is asked about again.
//
// The user's own files (under the home directory, the per-project section
// of ~/.claude.json that Claude Code writes on the user's command) and files
// named with --config need no trust: the user wrote or chose them.
//
// Choose is the rule every face calls:
//
//   - the nearest entry of the name comes from a user file, or from a
//     trusted project file: it is used;
//   - with --trust-project (Trust.TrustProject): the nearest entry is used
//     whatever its file, and a project file is remembered as trusted;
//   - else an untrusted project entry is set aside and the next entry of
//     the same name that is usable wins — the user's own, when the project
//     file shadows it — with a notice naming the file set aside and what it
//     would have run;
//   - with nothing usable left, *UntrustedError: the command line exits 2
//     with it, the workbench asks.
//
// On a shadowing the user's entry wins rather than the run being refused:
// it is exactly what would run outside the repository, so nothing the
// repository wrote runs, and the user's scripts keep working in every clone
// that happens to ship a server of the same name. Refusing there would
// teach users to pass --trust-project by reflex, which is the habit this
// guard must not create.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// TrustState is what is known of a config file's trust.
type TrustState int

const (
	// NoTrustNeeded: a user file, Claude Code's per-project section of
	// ~/.claude.json, or a file named with --config.
	NoTrustNeeded TrustState = iota
	// Untrusted: a project file never answered about.
	Untrusted
	// Changed: a project file answered about before, with other contents.
	Changed
	// Declined: a project file the user chose not to trust, as it is now.
	Declined
	// Trusted: a project file the user trusted, as it is now.
	Trusted
)

func (t TrustState) String() string {
	switch t {
	case NoTrustNeeded:
		return "user"
	case Untrusted:
		return "untrusted"
	case Changed:
		return "changed"
	case Declined:
		return "declined"
	case Trusted:
		return "trusted"
	}
	return fmt.Sprintf("TrustState(%d)", int(t))
}

// Usable reports whether a server may be taken from a file in this state
// without asking.
func (t TrustState) Usable() bool { return t == NoTrustNeeded || t == Trusted }

// TrustRecord is one remembered answer about a file.
type TrustRecord struct {
	SHA256  string    `json:"sha256"`
	Trusted bool      `json:"trusted"`
	At      time.Time `json:"at"`
}

// TrustStore keeps the answers, one per file path, in a JSON file of the
// state directory. It is read at every judgement and written whole (a
// temporary file renamed over it), so a crash never leaves half a file; two
// processes answering at the same moment may lose one answer, which is then
// asked again — never a trust nobody gave.
type TrustStore struct {
	path string
	now  func() time.Time
}

// TrustFileName is the store's file name in mcpterm's state directory.
const TrustFileName = "trust.json"

// maxTrustRecords bounds the store; the oldest answers go first.
const maxTrustRecords = 4096

// maxTrustFile bounds what is read of the store.
const maxTrustFile = 8 << 20

// NewTrustStore is the store kept in the file at path (usually
// StateDir/trust.json). now stamps the answers; nil is time.Now.
func NewTrustStore(path string, now func() time.Time) *TrustStore {
	if now == nil {
		now = time.Now
	}
	return &TrustStore{path: path, now: now}
}

// Path is the store's file.
func (ts *TrustStore) Path() string {
	if ts == nil {
		return ""
	}
	return ts.path
}

// TrustStoreError is a store that exists but cannot be read or is not
// what mcpterm writes. Every project file then counts as untrusted (never
// the other way round), and the next answer replaces the file, keeping the
// old one beside it as trust.json.bad.
type TrustStoreError struct {
	Path string
	Err  error
}

func (e *TrustStoreError) Error() string {
	return fmt.Sprintf("the trust store %s cannot be used (%v); every project config counts as untrusted until it is fixed or removed", e.Path, e.Err)
}
func (e *TrustStoreError) Unwrap() error { return e.Err }

// trustFile is the store's format.
type trustFile struct {
	Version int                    `json:"version"`
	Files   map[string]TrustRecord `json:"files"`
}

// load reads the records: none for a missing file (or a nil store), none
// and a *TrustStoreError for one that cannot be used.
func (ts *TrustStore) load() (map[string]TrustRecord, error) {
	if ts == nil {
		return nil, nil
	}
	f, err := os.Open(ts.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &TrustStoreError{Path: ts.path, Err: err}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxTrustFile+1))
	if err != nil {
		return nil, &TrustStoreError{Path: ts.path, Err: err}
	}
	if len(data) > maxTrustFile {
		return nil, &TrustStoreError{Path: ts.path, Err: fmt.Errorf("larger than %d MiB", maxTrustFile>>20)}
	}
	var tf trustFile
	if err := json.Unmarshal(data, &tf); err != nil {
		return nil, &TrustStoreError{Path: ts.path, Err: fmt.Errorf("not valid JSON: %w", err)}
	}
	if tf.Version != 1 {
		return nil, &TrustStoreError{Path: ts.path, Err: fmt.Errorf("version %d, want 1", tf.Version)}
	}
	for p, r := range tf.Files {
		if !filepath.IsAbs(p) || !validHash(r.SHA256) {
			return nil, &TrustStoreError{Path: ts.path, Err: errors.New("a record is not an absolute path with a SHA-256")}
		}
	}
	return tf.Files, nil
}

// validHash reports a hex SHA-256.
func validHash(h string) bool {
	if len(h) != 64 {
		return false
	}
	for i := 0; i < len(h); i++ {
		if c := h[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// trustKey is the path a file's answer is kept under.
func trustKey(src Source) string {
	p, err := filepath.Abs(src.Path)
	if err != nil {
		return filepath.Clean(src.Path)
	}
	return p
}

// stateIn judges src against the records read.
func stateIn(recs map[string]TrustRecord, src Source) (TrustState, TrustRecord) {
	if !src.IsProject() {
		return NoTrustNeeded, TrustRecord{}
	}
	r, ok := recs[trustKey(src)]
	switch {
	case !ok:
		return Untrusted, TrustRecord{}
	case r.SHA256 != src.Hash:
		return Changed, r
	case r.Trusted:
		return Trusted, r
	}
	return Declined, r
}

// State judges the file a server came from: NoTrustNeeded for a user
// file; for a project file, what the store remembers of it as it is now.
// A store that cannot be read leaves every project file Untrusted, with a
// *TrustStoreError saying why.
func (ts *TrustStore) State(src Source) (TrustState, TrustRecord, error) {
	recs, err := ts.load()
	st, r := stateIn(recs, src)
	return st, r, err
}

// Record remembers the answer about a project file as it is now (its path
// and the hash of the bytes read). A store that could not be read is
// moved aside to trust.json.bad and started afresh.
func (ts *TrustStore) Record(src Source, trusted bool) error {
	if ts == nil {
		return errors.New("no state directory to remember the answer in (neither XDG_STATE_HOME nor a home directory is known)")
	}
	if !src.IsProject() {
		return fmt.Errorf("%s is not a project config; it needs no trust", src.Path)
	}
	if !validHash(src.Hash) {
		return fmt.Errorf("%s: no content hash to remember the answer by", src.Path)
	}
	recs, err := ts.load()
	var bad *TrustStoreError
	if errors.As(err, &bad) {
		if err := os.Rename(ts.path, ts.path+".bad"); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("the trust store %s cannot be used and cannot be moved aside: %w", ts.path, err)
		}
		recs = nil
	}
	if recs == nil {
		recs = map[string]TrustRecord{}
	}
	recs[trustKey(src)] = TrustRecord{SHA256: src.Hash, Trusted: trusted, At: ts.now().UTC()}
	if len(recs) > maxTrustRecords {
		keys := make([]string, 0, len(recs))
		for k := range recs {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return recs[keys[i]].At.Before(recs[keys[j]].At) })
		for _, k := range keys[:len(recs)-maxTrustRecords] {
			delete(recs, k)
		}
	}
	data, err := json.MarshalIndent(trustFile{Version: 1, Files: recs}, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(ts.path, append(data, '\n'))
}

// writeAtomic writes data to path through a temporary file in the same
// directory (created 0700, the file 0600: the store says which commands
// the user lets run).
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".trust-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op after the rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
