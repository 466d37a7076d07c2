package ui

// ShutdownMsg asks the workbench to quit now, as a signal does (mcpterm
// sends it on SIGINT, SIGTERM or SIGHUP): the calls running are
// cancelled, the draft is written as it stands and the session closed,
// with no dialog, then the program ends.
type ShutdownMsg struct{}

// FlushDraft writes the composer's text as the draft, after any write in
// flight. mcpterm calls it once the program has ended, however it ended
// (the terminal gone before the quit's own write ran, a second signal's
// kill), so the draft holds the last keystroke. Call it only after the
// program has stopped: it reads the model without Update's ordering.
func (m *Model) FlushDraft() error {
	if m.opts.Drafts == nil {
		return nil
	}
	m.drafts.wg.Wait()
	return m.drafts.save(m.opts.Drafts, m.opts.DraftKey, m.composer.Value())
}
