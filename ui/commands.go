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
)

// Every function here returns a tea.Cmd: the I/O and the slow work happen
// inside it, and its message names what it answers.

const connectTimeout = 45 * time.Second

func (m *Model) connectCmd() tea.Cmd {
	m.attempt++
	m.conn = connConnecting
	m.connErr = nil
	m.connStart = m.opts.Now()
	attempt, connect := m.attempt, m.opts.Connect
	if connect == nil {
		return func() tea.Msg {
			return connectedMsg{attempt: attempt, err: errors.New("no server selected")}
		}
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
		defer cancel()
		b, err := connect(ctx)
		return connectedMsg{attempt: attempt, backend: b, err: err}
	}
}

func (m *Model) loadEncodingCmd(enc string) tea.Cmd {
	c := m.opts.Counter
	return func() tea.Msg { return tokenizerMsg{enc: enc, err: c.Load(enc)} }
}

// reportCmd recounts the whole server for the current encoding (once per
// encoding and tool list; cached in m.reports).
func (m *Model) reportCmd() tea.Cmd {
	if m.set == nil || m.opts.Counter == nil || !m.encReady[m.enc] {
		return nil
	}
	if r := m.reports[m.enc]; r != nil {
		m.tools.setReport(r, m.primaryForm())
		return nil
	}
	m.repSeq++
	seq, set, r, c, enc := m.repSeq, m.set, m.opts.Renderer, m.opts.Counter, m.enc
	return func() tea.Msg {
		rep, err := computeReport(set, r, c, enc)
		return reportMsg{seq: seq, report: rep, err: err}
	}
}

// schemaCmd renders the side-by-side pane for the selected tool unless the
// result is cached.
func (m *Model) schemaCmd() tea.Cmd {
	tool := m.tools.selected()
	counted := m.opts.Counter != nil && m.encReady[m.enc]
	k, need := m.schema.target(tool, m.enc, counted)
	if !need {
		return nil
	}
	st, set, r, c, san := *m.styles, m.set, m.opts.Renderer, m.opts.Counter, m.opts.Sanitize
	return func() tea.Msg { return renderSchema(k, st, set, tool, r, c, san) }
}

// checkCmd parses, validates and counts the composer's text for its
// current edit sequence.
func (m *Model) checkCmd() tea.Cmd {
	seq, src := m.composer.seq, m.composer.Value()
	if strings.TrimSpace(src) == "" {
		m.composer.checked = seq
		m.composer.check = composerCheck{}
		return nil
	}
	set, codec, c, enc, id, pv := m.set, m.opts.Codec, m.opts.Counter, m.enc, m.nextRunID+1, m.composer.preview
	if set == nil {
		return nil
	}
	return func() tea.Msg {
		ck, counted := checkComposer(set, codec, c, enc, src, id, pv)
		return checkMsg{seq: seq, check: ck, counts: counted}
	}
}

func (m *Model) loadDraftCmd() tea.Cmd {
	store := m.opts.Store
	return func() tea.Msg {
		d, err := store.LoadDraft()
		h, herr := store.History(500)
		return draftLoadedMsg{text: d, history: h, err: errors.Join(err, herr)}
	}
}

func (m *Model) autosaveCmd() tea.Cmd {
	m.composer.saveSeq++
	seq := m.composer.saveSeq
	return tea.Tick(autosaveDelay, func(time.Time) tea.Msg { return draftTickMsg{seq: seq} })
}

func (m *Model) saveDraftCmd(seq int) tea.Cmd {
	store, text := m.opts.Store, m.composer.Value()
	return func() tea.Msg { return draftSavedMsg{seq: seq, err: store.SaveDraft(text)} }
}

// subscribeCmd waits for the next session event and drains whatever else
// is already buffered, so a flood costs one Update per batch.
func subscribeCmd(ch <-chan Event, gen int) tea.Cmd {
	return func() tea.Msg {
		e, ok := <-ch
		if !ok {
			return eventsMsg{gen: gen, closed: true}
		}
		evs := []Event{e}
		for len(evs) < 512 {
			select {
			case e, ok := <-ch:
				if !ok {
					return eventsMsg{gen: gen, events: evs, closed: true}
				}
				evs = append(evs, e)
			default:
				return eventsMsg{gen: gen, events: evs}
			}
		}
		return eventsMsg{gen: gen, events: evs}
	}
}

// runCmd executes a run's calls: one after another, or up to Concurrency at
// once; with StopOnError the calls not yet started after a failure are
// skipped. Cancelling ctx cancels the calls in flight.
func runCmd(ctx context.Context, b Backend, id int64, src string, p *Parsed, now func() time.Time) tea.Cmd {
	return func() tea.Msg {
		items := make([]runItem, len(p.Calls))
		conc := max(p.Concurrency, 1)
		sem := make(chan struct{}, conc)
		var wg sync.WaitGroup
		var mu sync.Mutex
		failed := false
		for i, c := range p.Calls {
			items[i] = runItem{ID: c.ID, Tool: c.Tool, Args: c.Arguments}
			if c.Direct != nil {
				items[i].Result = c.Direct
				continue
			}
			sem <- struct{}{}
			mu.Lock()
			skip := failed && p.StopOnError
			mu.Unlock()
			if skip || ctx.Err() != nil {
				<-sem
				if ctx.Err() != nil {
					items[i].Err = errors.New("cancelled before it started")
				} else {
					items[i].Err = errors.New("skipped: an earlier call failed (stop-on-error)")
				}
				continue
			}
			wg.Add(1)
			go func(i int, c ParsedCall) {
				defer wg.Done()
				defer func() { <-sem }()
				t0 := now()
				res, err := b.Call(ctx, CallRequest{ID: id, Tool: c.Tool, Arguments: c.Arguments, Source: src, Batch: p.Batch, BatchID: c.ID})
				if err == nil && res != nil && c.Answer != nil {
					res = c.Answer(res)
				}
				d := now().Sub(t0)
				if res != nil && res.Duration > 0 {
					d = res.Duration
				}
				mu.Lock()
				items[i].Result, items[i].Err, items[i].Duration = res, err, d
				if err != nil || (res != nil && res.IsError) {
					failed = true
				}
				mu.Unlock()
			}(i, c)
			if conc == 1 {
				wg.Wait()
			}
		}
		wg.Wait()
		msg := callDoneMsg{runID: id, items: items}
		if ctx.Err() != nil {
			msg.err = context.Canceled
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
	st, codec, c, san := *m.styles, m.opts.Codec, m.opts.Counter, m.opts.Sanitize
	return func() tea.Msg {
		return resultsRenderedMsg{key: k, text: renderResults(r, k, st, codec, c, san)}
	}
}

func (m *Model) loadExploreCmd() tea.Cmd {
	b, gen := m.backend, m.gen
	if b == nil {
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		var msg exploreMsg
		msg.gen = gen
		msg.resources, msg.errs[0] = b.Resources(ctx)
		msg.templates, msg.errs[1] = b.ResourceTemplates(ctx)
		msg.prompts, msg.errs[2] = b.Prompts(ctx)
		return msg
	}
}

func (m *Model) readResourceCmd(uri string) tea.Cmd {
	m.nextReq++
	id, b, st, san, w := m.nextReq, m.backend, *m.styles, m.opts.Sanitize, m.explore.detail.Width()
	m.explore.waitDetail(id, oneLine(san(uri)))
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cs, err := b.ReadResource(ctx, uri)
		if err != nil {
			return detailMsg{reqID: id, title: oneLine(san(uri)), err: err}
		}
		body := renderContents(&CallResult{Content: cs}, st, san, markdownRenderer(st, w))
		return detailMsg{reqID: id, title: oneLine(san(uri)), body: body}
	}
}

func (m *Model) getPromptCmd(name string, args map[string]string) tea.Cmd {
	m.nextReq++
	id, b, st, san, w := m.nextReq, m.backend, *m.styles, m.opts.Sanitize, m.explore.detail.Width()
	title := "prompt " + oneLine(san(name))
	m.explore.waitDetail(id, title)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		res, err := b.GetPrompt(ctx, name, args)
		if err != nil {
			return detailMsg{reqID: id, title: title, err: err}
		}
		var parts []string
		if res.Description != "" {
			parts = append(parts, st.Muted.Render(san(res.Description)))
		}
		for _, pm := range res.Messages {
			body := renderContents(&CallResult{Content: []Content{pm.Content}}, st, san, markdownRenderer(st, w))
			parts = append(parts, st.PaneTitle.Render(oneLine(san(pm.Role)))+"\n"+body)
		}
		return detailMsg{reqID: id, title: title, body: strings.Join(parts, "\n\n")}
	}
}

func (m *Model) refreshToolsCmd() tea.Cmd {
	b, gen := m.backend, m.gen
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		set, err := b.RefreshTools(ctx)
		return toolsRefreshedMsg{gen: gen, set: set, err: err}
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
	write, full := m.opts.WriteFile, m.resolvePath(path)
	return func() tea.Msg {
		if full == "" {
			return fileSavedMsg{path: path, what: what, err: errors.New("no file name")}
		}
		return fileSavedMsg{path: path, what: what, err: write(full, []byte(data))}
	}
}

// maxOpenBytes bounds a file opened into the composer.
const maxOpenBytes = 4 << 20

func (m *Model) openFileCmd(path string) tea.Cmd {
	read, full := m.opts.ReadFile, m.resolvePath(path)
	return func() tea.Msg {
		data, err := read(full)
		if err == nil && len(data) > maxOpenBytes {
			err = fmt.Errorf("%s is %s; the composer opens files up to %s", path, byteSize(len(data)), byteSize(maxOpenBytes))
		}
		return fileOpenedMsg{path: path, text: string(data), err: err}
	}
}
