package ui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpterm/mcpterm/convert"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/history"
	"github.com/mcpterm/mcpterm/tokens"
)

// Every function here returns a tea.Cmd: the I/O and the slow work happen
// inside it, and its reply carries the ticket of what it answers. A Cmd
// reads only what it was handed when it was made, never the model.

const connectTimeout = 45 * time.Second

// connectCmd opens the session and lists its tools, and builds the
// catalog of that list off the UI goroutine.
func (m *Model) connectCmd() tea.Cmd {
	t := m.issue(kindConnect, false)
	m.conn = connConnecting
	m.connErr = nil
	m.connStart = m.opts.Now()
	m.listGen++
	gen, opts := m.listGen, m.opts
	if opts.Connect == nil {
		return func() tea.Msg { return connectedMsg{t: t, err: errors.New("no server selected")} }
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
		defer cancel()
		s, err := opts.Connect(ctx)
		if err != nil {
			return connectedMsg{t: t, err: err}
		}
		set, err := s.Tools(ctx)
		if err != nil {
			_ = s.Close()
			return connectedMsg{t: t, err: err}
		}
		return connectedMsg{t: t, sess: s, info: s.Info(), cat: newCatalog(gen, s, set, opts)}
	}
}

// closeCmd closes a session no longer shown (a stale attempt, a retry).
func closeCmd(s Session) tea.Cmd {
	if s == nil {
		return nil
	}
	return func() tea.Msg { _ = s.Close(); return nil }
}

func (m *Model) loadEncodingCmd(enc string) tea.Cmd {
	cs, t := m.opts.Counters, m.issue(kindTokenizer, false)
	return func() tea.Msg {
		c, err := cs.Get(enc)
		if err == nil {
			err = c.Wait(context.Background())
		}
		return tokenizerMsg{t: t, enc: enc, err: err}
	}
}

// counter is the loaded counter of enc, or nil while it loads.
func (m *Model) counter(enc string) *tokens.Counter {
	if !m.encReady[enc] {
		return nil
	}
	c, err := m.opts.Counters.Get(enc)
	if err != nil {
		return nil
	}
	return c
}

// reportCmd counts the tool list for the current encoding with the same
// call `mcpterm tokens` makes (tokens.BuildFrom over the catalog's
// renderer), once per encoding and tool list.
func (m *Model) reportCmd() tea.Cmd {
	c := m.counter(m.enc)
	if m.cat == nil || c == nil || m.reports[m.enc] != nil {
		return nil
	}
	t, enc, rd := m.issue(kindReport, true), m.enc, m.cat.renderer
	return func() tea.Msg {
		rep, err := tokens.BuildFrom(c, []*convert.Renderer{rd})
		msg := reportMsg{t: t, enc: enc, err: err}
		if err == nil && len(rep.Servers) == 1 {
			msg.report = rep.Servers[0]
		}
		if parts := rd.PerServer(); err == nil && parts != nil {
			msg.servers, msg.err = tokens.BuildFrom(c, parts)
		}
		return msg
	}
}

// schemaCmd renders the side-by-side pane for the selected tool unless it
// is cached.
func (m *Model) schemaCmd() tea.Cmd {
	tool := m.tools.selected()
	rep := m.reports[m.enc]
	k, need := m.schema.target(tool, m.enc, rep != nil)
	if !need || m.cat == nil {
		return nil
	}
	t, st, cat, san := m.issue(kindSchema, true), *m.styles, m.cat, m.opts.Sanitize
	return func() tea.Msg { return renderSchema(t, k, st, cat, tool, rep, san) }
}

// checkDelay is the pause in typing after which the composer's text is
// checked. Checking a 30-entry batch takes a millisecond or two; at every
// key it piled up behind fast typing.
const checkDelay = 120 * time.Millisecond

// checkSoonCmd checks the composer once typing pauses: a later edit makes
// this tick stale.
func (m *Model) checkSoonCmd() tea.Cmd {
	t := m.issue(kindCheckTick, false)
	return tea.Tick(checkDelay, func(time.Time) tea.Msg { return checkTickMsg{t: t} })
}

// checkCmd parses, validates and counts the composer's text for its
// current edit.
func (m *Model) checkCmd() tea.Cmd {
	seq, src := m.composer.seq, m.composer.Value()
	if strings.TrimSpace(src) == "" {
		m.composer.takeCheck(seq, composerCheck{})
		return nil
	}
	if m.cat == nil {
		return nil
	}
	t, codec, c, pv := m.issue(kindCheck, true), m.cat.codec, m.counter(m.enc), m.composer.preview
	return func() tea.Msg { return checkMsg{t: t, seq: seq, check: checkComposer(codec, c, src, pv)} }
}

func (m *Model) loadDraftCmd() tea.Cmd {
	o := m.opts
	if o.Drafts == nil {
		return nil
	}
	t := m.issue(kindDraftLoad, false)
	return func() tea.Msg {
		d, err := o.Drafts.Load(o.DraftKey)
		return draftLoadedMsg{t: t, text: d, err: err}
	}
}

// loadHistoryCmd reads back the calls made to server (here or with
// `mcpterm call`), for the composer's ↑.
func (m *Model) loadHistoryCmd(server string) tea.Cmd {
	log := m.opts.History
	if log == nil {
		return nil
	}
	t := m.issue(kindHistory, false)
	return func() tea.Msg {
		h, err := log.Sources(server, maxHistory)
		return historyLoadedMsg{t: t, history: h, err: err}
	}
}

// maxHistory is how many past calls ↑ goes back through.
const maxHistory = 500

// autosaveDelay is the most a keystroke waits to be in the draft file:
// the first edit after a write starts the clock, and the edits until it
// runs out are written together (a throttle, not a debounce, so steady
// typing is saved too). It is all that kill -9 can lose; a signal, the
// terminal closing or quitting lose nothing (ShutdownMsg, FlushDraft).
// Each write is a temporary file renamed over the draft, so a kill in the
// middle of one leaves the previous draft whole.
const autosaveDelay = 100 * time.Millisecond

// autosaveCmd schedules the draft's next write, unless one is scheduled
// already (a tick that was lost, a reply dropped as stale, is given up
// after a few delays).
func (m *Model) autosaveCmd() tea.Cmd {
	d := m.drafts
	if !d.tickSince.IsZero() && time.Since(d.tickSince) < 4*autosaveDelay {
		return nil
	}
	d.tickSince = time.Now()
	t := m.issue(kindDraft, false)
	return tea.Tick(autosaveDelay, func(time.Time) tea.Msg { return draftTickMsg{t: t} })
}

// draftWriter serialises the draft's writes and lets quitting wait for the
// one in flight, so the program never exits halfway through a write.
type draftWriter struct {
	mu sync.Mutex
	wg sync.WaitGroup
	// tickSince is when the pending autosave tick was scheduled; zero when
	// none is. Only Update touches it.
	tickSince time.Time
	// last is the text last written (under mu), saved says there is one:
	// a write of the same text again is skipped.
	last  string
	saved bool
}

// saveCmd writes text as the draft. The write is counted before the Cmd
// is handed out, so a quit that starts before the Cmd runs still waits.
func (d *draftWriter) saveCmd(t ticket, drafts *history.Drafts, key, text string) tea.Cmd {
	if drafts == nil {
		return nil
	}
	d.wg.Add(1)
	return func() tea.Msg {
		defer d.wg.Done()
		return draftSavedMsg{t: t, err: d.save(drafts, key, text)}
	}
}

// save writes text as the draft now, unless it is what was written last.
func (d *draftWriter) save(drafts *history.Drafts, key, text string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.saved && d.last == text {
		return nil
	}
	if err := drafts.Save(key, text); err != nil {
		return err
	}
	d.last, d.saved = text, true
	return nil
}

// feedCmd waits for the next item of the session's feed or a progress
// note of a run, then drains whatever else is already buffered, so a
// flood costs one Update per batch. It is the UI's one subscription.
func feedCmd(t ticket, feed <-chan session.FeedItem, progress <-chan progressNote) tea.Cmd {
	return func() tea.Msg {
		msg := feedMsg{t: t}
		select {
		case it, ok := <-feed:
			if !ok {
				msg.closed = true
				return msg
			}
			msg.items = append(msg.items, it)
		case p := <-progress:
			msg.progress = append(msg.progress, p)
		}
		for len(msg.items)+len(msg.progress) < 512 {
			select {
			case it, ok := <-feed:
				if !ok {
					msg.closed = true
					return msg
				}
				msg.items = append(msg.items, it)
			case p := <-progress:
				msg.progress = append(msg.progress, p)
			default:
				return msg
			}
		}
		return msg
	}
}

func (m *Model) renderResultsCmd() tea.Cmd {
	k, need := m.results.target(m.enc)
	if !need {
		return nil
	}
	r := m.results.current()
	t, st, c, san := m.issue(kindRender, false), *m.styles, m.counter(m.enc), m.opts.Sanitize
	return func() tea.Msg {
		text, starts, toks := renderResults(r, k, st, c, san)
		return resultsRenderedMsg{t: t, key: k, text: text, offsets: starts, tokens: toks}
	}
}

func (m *Model) loadExploreCmd() tea.Cmd {
	s := m.sess
	if s == nil {
		return nil
	}
	t := m.issue(kindExplore, false)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		msg := exploreMsg{t: t}
		msg.resources, msg.errs[0] = s.Resources(ctx)
		msg.templates, msg.errs[1] = s.ResourceTemplates(ctx)
		msg.prompts, msg.errs[2] = s.Prompts(ctx)
		return msg
	}
}

func (m *Model) readResourceCmd(uri string) tea.Cmd {
	s := m.sess
	if s == nil {
		return nil
	}
	t, st, san, w := m.issue(kindDetail, false), *m.styles, m.opts.Sanitize, m.explore.detail.Width()
	title := oneLine(san(uri))
	m.explore.waitDetail(title)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		rc, err := s.ReadResource(ctx, uri)
		if err != nil {
			return detailMsg{t: t, title: title, err: err}
		}
		var contents []contentBlock
		if rc.Raw != nil {
			for _, c := range rc.Raw.Get("contents").Items {
				contents = append(contents, resourceBlock(c, uri))
			}
		}
		return detailMsg{t: t, title: title, body: renderBlocks(contents, nil, st, san, markdownRenderer(st, w))}
	}
}

func (m *Model) getPromptCmd(name string, args map[string]string) tea.Cmd {
	s := m.sess
	if s == nil {
		return nil
	}
	t, st, san, w := m.issue(kindDetail, false), *m.styles, m.opts.Sanitize, m.explore.detail.Width()
	title := "prompt " + oneLine(san(name))
	m.explore.waitDetail(title)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		res, err := s.GetPrompt(ctx, name, args)
		if err != nil {
			return detailMsg{t: t, title: title, err: err}
		}
		return detailMsg{t: t, title: title, body: renderPrompt(res, st, san, markdownRenderer(st, w))}
	}
}

// refreshToolsCmd lists the tools again after list_changed and builds the
// new list's catalog.
func (m *Model) refreshToolsCmd() tea.Cmd {
	s := m.sess
	if s == nil {
		return nil
	}
	t := m.issue(kindTools, false)
	m.listGen++
	gen, opts := m.listGen, m.opts
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		set, err := s.Tools(ctx)
		if err != nil {
			return toolsMsg{t: t, err: err}
		}
		return toolsMsg{t: t, set: set, cat: newCatalog(gen, s, set, opts)}
	}
}

func (m *Model) resolvePath(p string) string {
	p = strings.TrimSpace(p)
	if p == "" || filepath.IsAbs(p) || m.opts.WorkingDir == "" {
		return p
	}
	return filepath.Join(m.opts.WorkingDir, p)
}

func (m *Model) saveFileCmd(path, data, what string) tea.Cmd {
	write, full, t := m.opts.WriteFile, m.resolvePath(path), m.issue(kindFileSave, false)
	return func() tea.Msg {
		if full == "" {
			return fileSavedMsg{t: t, path: path, what: what, err: errors.New("no file name")}
		}
		return fileSavedMsg{t: t, path: path, what: what, err: write(full, []byte(data))}
	}
}

// maxOpenBytes bounds a file opened into the composer.
const maxOpenBytes = 4 << 20

func (m *Model) openFileCmd(path string) tea.Cmd {
	read, full, t := m.opts.ReadFile, m.resolvePath(path), m.issue(kindFileOpen, false)
	return func() tea.Msg {
		data, err := read(full)
		if err == nil && len(data) > maxOpenBytes {
			err = fmt.Errorf("%s is %s; the composer opens files up to %s", path, byteSize(len(data)), byteSize(maxOpenBytes))
		}
		return fileOpenedMsg{t: t, path: path, text: string(data), err: err}
	}
}
