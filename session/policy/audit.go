package policy

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session/history"
)

// AuditRecord is one line of the audit log: what was asked, what the policy
// said, and what happened. Refused calls are recorded too; a refusal an
// agent keeps hitting is exactly what an operator wants to see.
type AuditRecord struct {
	Time      time.Time       `json:"time"`
	Server    string          `json:"server,omitempty"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments,omitempty"` // redacted on write
	Decision  Verdict         `json:"decision"`
	Reason    string          `json:"reason,omitempty"`
	// Outcome is "ok", "tool_error", "error", "timeout", "cancelled" (the
	// user interrupted it), or empty for a call that did not run.
	Outcome  string        `json:"outcome,omitempty"`
	Error    string        `json:"error,omitempty"`
	Duration time.Duration `json:"-"`
	// Bytes is the size of the output produced, Cut how much of it --max-output left out.
	Bytes int `json:"bytes"`
	Cut   int `json:"cut,omitempty"`
}

type auditJSON AuditRecord

type auditWire struct {
	*auditJSON
	DurationMS float64 `json:"duration_ms"`
}

// MarshalJSON writes the duration as fractional milliseconds.
func (r AuditRecord) MarshalJSON() ([]byte, error) {
	a := auditJSON(r)
	return json.Marshal(auditWire{auditJSON: &a, DurationMS: float64(r.Duration.Microseconds()) / 1000})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (r *AuditRecord) UnmarshalJSON(data []byte) error {
	w := auditWire{auditJSON: (*auditJSON)(r)}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	r.Duration = time.Duration(w.DurationMS * float64(time.Millisecond))
	return nil
}

// Audit appends records to a JSON-lines file, durably (see history.Lines),
// with secrets redacted. It is safe for concurrent use.
type Audit struct {
	lines    *history.Lines
	redactor *safe.Redactor
	now      func() time.Time
	mu       sync.Mutex
}

// maxAuditField bounds the arguments and texts of a record; an audit line
// says what was done, it does not archive payloads.
const maxAuditField = 16 << 10

// OpenAudit prepares the audit log at path; r (may be nil) hides secrets.
func OpenAudit(path string, r *safe.Redactor) (*Audit, error) {
	lines, err := history.OpenLines(path)
	if err != nil {
		return nil, fmt.Errorf("policy: audit: %w", err)
	}
	return &Audit{lines: lines, redactor: r, now: time.Now}, nil
}

// Path is the file written.
func (a *Audit) Path() string { return a.lines.Path() }

// Record appends rec, stamping the time if it is zero.
func (a *Audit) Record(rec AuditRecord) error {
	if rec.Time.IsZero() {
		rec.Time = a.now()
	}
	rec.Time = rec.Time.UTC()
	r := a.redactor
	rec.Server, _ = safe.Cut(r.Redact(rec.Server), 1024)
	rec.Tool, _ = safe.Cut(r.Redact(rec.Tool), 1024)
	rec.Reason, _ = safe.Cut(r.Redact(rec.Reason), maxAuditField)
	rec.Error, _ = safe.Cut(r.Redact(rec.Error), maxAuditField)
	if len(rec.Arguments) > 0 {
		rec.Arguments = r.JSON(rec.Arguments)
		if len(rec.Arguments) > maxAuditField {
			cut, _ := safe.Cut(string(rec.Arguments), maxAuditField)
			rec.Arguments, _ = json.Marshal(cut) // a cut object is not JSON; keep it as a string
		}
	}
	line, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("policy: audit: %w", err)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := a.lines.Write(line); err != nil {
		return fmt.Errorf("policy: audit: %w", err)
	}
	return nil
}
