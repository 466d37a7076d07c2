package ui

// Every async reply says what it answers with a ticket, and the root drops
// stale replies in one place (fresh) before any of them is applied: a
// report for an older tool list, a render for a tool no longer selected, a
// check of text since edited, a connection attempt since retried, the
// history of a server no longer connected. Replies that stand for
// themselves (a finished run, a saved file, a loaded encoding) carry a
// ticket too, and are never stale.

// replyKind names a kind of request; each has its own sequence.
type replyKind int

const (
	kindConnect   replyKind = iota
	kindTools               // tools/list after list_changed
	kindReport              // the token report of a tool list
	kindSchema              // the side-by-side pane's documents
	kindCheck               // the composer's live check
	kindCheckTick           // the pause after an edit that starts the check
	kindExplore             // resources, templates and prompts lists
	kindDetail              // one resource read or prompt got
	kindRender              // the results pane's rendering
	kindDraft               // autosave ticks and writes
	kindFlash               // clearing a status message
	kindFeed                // the session's events (one subscription per connection)
	kindTokenizer           // loading an encoding (each load stands for itself)
	kindDraftLoad           // restoring the draft at start
	kindHistory             // the connected server's past calls
	kindRun                 // a run of the composer's calls (each run stands for itself)
	kindFileSave            // writing a file (each write stands for itself)
	kindFileOpen            // reading a file into the composer
	kindSuggTick            // the pause in typing after which a form field is completed
	kindSuggest             // completion/complete for a form field
	kindSubscribe           // resources/subscribe or unsubscribe (each stands for itself)
	kindTasks               // the Tasks tab's tasks/list (ui/tasks.go)
	kindTaskStop            // a tasks/cancel from the Tasks tab
	numKinds
)

// latestOnly says whether only the newest request of a kind may land.
func (k replyKind) latestOnly() bool {
	switch k {
	case kindSchema, kindFeed, kindTokenizer, kindRun, kindFileSave, kindSubscribe:
		return false
	}
	return true
}

// ticket identifies one request: the connection and tool list it was made
// on and its sequence within its kind.
type ticket struct {
	kind replyKind
	conn int    // connection generation; 0 for requests that outlive connections
	list int    // tool-list generation; 0 when the reply does not depend on it
	seq  uint64 // per kind, increasing
}

// reply is implemented by every message answering a ticketed request.
type reply interface{ answers() ticket }

// tickets hands out and remembers the newest ticket of each kind.
type tickets struct {
	newest [numKinds]uint64
}

// issue makes the ticket for a new request of kind k.
func (m *Model) issue(k replyKind, dependsOnList bool) ticket {
	m.tickets.newest[k]++
	t := ticket{kind: k, conn: m.gen, seq: m.tickets.newest[k]}
	switch k {
	case kindConnect, kindDraft, kindFlash, kindTokenizer, kindDraftLoad, kindFileSave, kindFileOpen:
		t.conn = 0 // these outlive a connection
	case kindRun:
		t.conn = 0 // a run's outcome is shown whatever became of its connection
	}
	if dependsOnList && m.cat != nil {
		t.list = m.cat.gen
	}
	return t
}

// fresh reports whether a reply still answers what the model shows: the
// same connection, the same tool list, and (for most kinds) the newest
// request of its kind.
func (m *Model) fresh(t ticket) bool {
	if t.conn != 0 && t.conn != m.gen {
		return false
	}
	if t.list != 0 && (m.cat == nil || t.list != m.cat.gen) {
		return false
	}
	return !t.kind.latestOnly() || t.seq == m.tickets.newest[t.kind]
}
