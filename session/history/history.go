// Package history keeps a durable record of every call mcpterm makes, for
// the UI's history view and for re-running a call later.
//
// Records are JSON lines in $XDG_STATE_HOME/mcpterm/history.jsonl
// (~/.local/state/mcpterm/ when XDG_STATE_HOME is unset). Each Append is one
// write(2) of one whole line to a file opened O_APPEND, followed by fsync:
// a crash can at worst tear the line being written, never an earlier one,
// and two processes appending at once do not interleave. Readers skip a
// torn or malformed line, and the next Append starts on a fresh line.
//
// Records are bounded (Options.MaxRecord): an oversized result summary,
// argument list or source is cut with a visible "…(cut N bytes)" marker and
// Entry.Cut says how much went. Every text field and every string inside the
// arguments passes through the redactor first, before any cut (safe.Redactor:
// config and environment secrets; argument members named like credentials
// become "***", and their values are hidden in every other field too), so a
// token never reaches the disk, whole or as a prefix.
//
// The API:
//
//   - DefaultPath(getenv, home), StateDir(getenv, home): where the files live.
//   - Open(path, Options) (*Log, error); (*Log).Append(Entry);
//     (*Log).Recent(limit) newest first; (*Log).Scan(fn) newest first.
//   - OpenLines(path) (*Lines, error); (*Lines).Write(line): the same durable
//     append for any JSON-lines file (policy's audit log uses it).
//   - NewDrafts(dir); (*Drafts).Save/Load/Delete(key, text): the composer's
//     unsent text, saved atomically (temp file + rename).
package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mcpterm/mcpterm/convert/safe"
)

// Outcome says how a call ended.
type Outcome string

const (
	OK        Outcome = "ok"         // the tool returned a result
	ToolError Outcome = "tool_error" // the tool returned isError: true
	Failed    Outcome = "error"      // no result: transport, protocol, timeout, refusal
	Cancelled Outcome = "cancelled"  // no result: the user gave up (Ctrl-C, a signal, the UI's cancel)
)

// Entry is one call and its outcome.
type Entry struct {
	Time   time.Time `json:"time"`
	Server string    `json:"server"`
	Tool   string    `json:"tool"`
	// Arguments is the JSON object sent as tools/call arguments.
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// Source is the call as the user wrote it (S-expression, AQL, JSON), so
	// it can be shown and edited again.
	Source   string        `json:"source,omitempty"`
	Outcome  Outcome       `json:"outcome"`
	Error    string        `json:"error,omitempty"`
	Duration time.Duration `json:"-"`
	// Summary is a short account of the result (first text, sizes).
	Summary string `json:"summary,omitempty"`
	// Batch and BatchID place the call inside a (batch ...) run.
	Batch   string `json:"batch,omitempty"`
	BatchID string `json:"batch_id,omitempty"`
	// Cut is the number of bytes left out to keep the record bounded.
	Cut int `json:"cut,omitempty"`
}

type entryJSON Entry

type entryWire struct {
	*entryJSON
	DurationMS float64 `json:"duration_ms"`
}

// MarshalJSON writes the duration as fractional milliseconds, which people
// and jq read more easily than nanoseconds.
func (e Entry) MarshalJSON() ([]byte, error) {
	ej := entryJSON(e)
	return json.Marshal(entryWire{entryJSON: &ej, DurationMS: float64(e.Duration.Microseconds()) / 1000})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (e *Entry) UnmarshalJSON(data []byte) error {
	w := entryWire{entryJSON: (*entryJSON)(e)}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	e.Duration = time.Duration(w.DurationMS * float64(time.Millisecond))
	return nil
}

// Options tune a Log.
type Options struct {
	// Redactor hides secrets in every record; nil writes text as given.
	Redactor *safe.Redactor
	// MaxRecord bounds one line in bytes; 0 means DefaultMaxRecord.
	MaxRecord int
	// Now stamps entries whose Time is zero; nil means time.Now.
	Now func() time.Time
}

// DefaultMaxRecord keeps a record small enough to read back quickly while
// holding a useful summary; whole results belong in the UI, not here.
const DefaultMaxRecord = 64 << 10

// minRecord is the least MaxRecord honoured: enough for the fixed fields
// and the cut markers.
const minRecord = 1 << 10

// Log is the call history file. It is safe for concurrent use, and other
// processes may append to the same file at the same time.
type Log struct {
	lines *Lines
	opt   Options
	mu    sync.Mutex // orders this process's appends (the file itself copes with other processes)
}

// Open prepares the history at path, creating its directory (0700) if need
// be. The file itself is created (0600) by the first Append.
func Open(path string, opt Options) (*Log, error) {
	if opt.MaxRecord <= 0 {
		opt.MaxRecord = DefaultMaxRecord
	}
	opt.MaxRecord = max(opt.MaxRecord, minRecord)
	if opt.Now == nil {
		opt.Now = time.Now
	}
	lines, err := OpenLines(path)
	if err != nil {
		return nil, err
	}
	return &Log{lines: lines, opt: opt}, nil
}

// Path is the file the log writes.
func (l *Log) Path() string { return l.lines.Path() }

// Append records one call durably: it returns after the line is on disk.
func (l *Log) Append(e Entry) error {
	if e.Time.IsZero() {
		e.Time = l.opt.Now()
	}
	e.Time = e.Time.UTC()
	line, err := l.encode(e)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lines.Write(line)
}

// SummaryBytes bounds Entry.Summary as Summary makes it: a short account,
// not the result.
const SummaryBytes = 200

// Summary shortens a result's text for Entry.Summary: redacted first, then
// cut to SummaryBytes, so a secret across the cut is hidden whole rather
// than stored as a clear prefix that no later redaction can recognise.
func (l *Log) Summary(text string) string {
	s, _ := l.opt.Redactor.Cut(text, SummaryBytes)
	return s
}

// Redactor is the log's redactor (nil when it has none), for a runner that
// must teach it a plan's secret arguments before any call is recorded.
func (l *Log) Redactor() *safe.Redactor { return l.opt.Redactor }

// encode redacts e and bounds its JSON to MaxRecord bytes. The redactor
// first learns the values of e's secret-named arguments, so a password is
// hidden in the source, error and summary too, not only in the arguments;
// every cut happens after redaction.
func (l *Log) encode(e Entry) ([]byte, error) {
	r := l.opt.Redactor
	r.AddArgs(e.Arguments)
	const maxName = 1 << 10
	var cut int
	for _, f := range []*string{&e.Server, &e.Tool, &e.Batch, &e.BatchID} {
		var n int
		*f, n = safe.Cut(r.Redact(*f), maxName)
		cut += n
	}
	e.Source, e.Error, e.Summary = r.Redact(e.Source), r.Redact(e.Error), r.Redact(e.Summary)
	if len(e.Arguments) > 0 {
		e.Arguments = r.JSON(e.Arguments)
	}
	e.Cut += cut
	line, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	// Too long: shorten the bulky fields, least useful for re-running first.
	base := e.Cut
	for _, field := range []*string{&e.Summary, &e.Error, &e.Source, nil} {
		orig := ""
		if field != nil {
			orig = *field
		} else {
			orig = string(e.Arguments)
		}
		for keep := len(orig); len(line) > l.opt.MaxRecord && keep > 0; {
			keep -= len(line) - l.opt.MaxRecord + 64
			text, n := cutTo(orig, keep)
			if field != nil {
				*field = text
			} else {
				// a cut JSON object is not JSON: keep the cut text as a string
				e.Arguments, _ = json.Marshal(text)
			}
			e.Cut = base + n
			if line, err = json.Marshal(e); err != nil {
				return nil, fmt.Errorf("history: %w", err)
			}
		}
		base = e.Cut
	}
	if len(line) > l.opt.MaxRecord {
		return nil, errors.New("history: record does not fit MaxRecord even with every field cut")
	}
	return line, nil
}

// cutTo keeps the first keep bytes of s (on a UTF-8 boundary) and says how
// many went, in the text and in the count.
func cutTo(s string, keep int) (string, int) {
	if keep >= len(s) {
		return s, 0
	}
	keep = max(keep, 0)
	for keep > 0 && !utf8.RuneStart(s[keep]) {
		keep--
	}
	return s[:keep] + "…(cut " + strconv.Itoa(len(s)-keep) + " bytes)", len(s) - keep
}

// Recent returns up to limit entries, newest first (all when limit <= 0).
// Torn or malformed lines are skipped.
func (l *Log) Recent(limit int) ([]Entry, error) {
	var out []Entry
	err := l.Scan(func(e Entry) bool {
		out = append(out, e)
		return limit <= 0 || len(out) < limit
	})
	return out, err
}

// Scan calls fn with each entry, newest first, until fn returns false. It
// reads the file backwards, so the latest entries of a long history come
// back without reading the rest. A missing file is an empty history.
func (l *Log) Scan(fn func(Entry) bool) error {
	return l.lines.ScanBackward(func(line []byte) bool {
		var e Entry
		if json.Unmarshal(line, &e) != nil || e.Time.IsZero() {
			return true // torn or foreign line: skip
		}
		return fn(e)
	})
}

// StateDir is mcpterm's state directory: $XDG_STATE_HOME/mcpterm, or
// ~/.local/state/mcpterm when XDG_STATE_HOME is unset or not absolute (as
// the XDG spec says to treat it).
func StateDir(getenv func(string) string, home string) (string, error) {
	if getenv != nil {
		if x := getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
			return filepath.Join(x, "mcpterm"), nil
		}
	}
	if home == "" {
		return "", errors.New("history: neither XDG_STATE_HOME nor a home directory is known")
	}
	return filepath.Join(home, ".local", "state", "mcpterm"), nil
}

// DefaultPath is the history file inside StateDir.
func DefaultPath(getenv func(string) string, home string) (string, error) {
	dir, err := StateDir(getenv, home)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "history.jsonl"), nil
}
