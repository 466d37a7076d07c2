package session

import (
	"sort"
	"sync"

	"github.com/mcpterm/mcpterm/session/policy"
)

// heldAudit is the audit lines a run with RunOptions.HoldAudit keeps back,
// with the plan index of each, filled as the calls finish (concurrently).
type heldAudit struct {
	mu   sync.Mutex
	recs []heldRecord
}

type heldRecord struct {
	item int
	rec  policy.AuditRecord
}

func (h *heldAudit) add(item int, rec policy.AuditRecord) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.recs = append(h.recs, heldRecord{item, rec})
}

// take empties h and returns what it held, in plan order.
func (h *heldAudit) take() []heldRecord {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := h.recs
	h.recs = nil
	sort.SliceStable(out, func(i, j int) bool { return out[i].item < out[j].item })
	return out
}

// WriteAudit writes the audit lines a run with RunOptions.HoldAudit kept
// back, in plan order, each recording that the face printed bytes bytes for
// the run and that a cap left cut of them out (policy.AuditRecord's Bytes
// and Cut). A run without HoldAudit, a runner without an Audit, or a second
// call has nothing to write.
func (r *Runner) WriteAudit(res *RunResult, bytes, cut int) {
	if res == nil || res.held == nil {
		return
	}
	for _, h := range res.held.take() {
		h.rec.Bytes, h.rec.Cut = bytes, cut
		r.audit(h.rec)
	}
}
