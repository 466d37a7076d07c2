package fleet

import (
	"context"
	"crypto/sha256"
	"io"
	"os"
	"slices"
	"time"
)

// watcher tells when any of the config files changed: polled, by size,
// modification time and, when those moved, content hash (an editor that
// rewrites a file with the same bytes changes nothing).
type watcher struct {
	files []string
	seen  map[string]fileMark
}

type fileMark struct {
	size  int64
	mtime time.Time
	sum   [sha256.Size]byte
	gone  bool
}

func newWatcher(files []string) *watcher {
	w := &watcher{}
	w.reset(files)
	return w
}

func (w *watcher) reset(files []string) {
	w.files = slices.Clone(files)
	w.seen = map[string]fileMark{}
	for _, f := range w.files {
		w.seen[f] = markOf(f, fileMark{})
	}
}

func markOf(path string, prev fileMark) fileMark {
	fi, err := os.Stat(path)
	if err != nil {
		return fileMark{gone: true}
	}
	m := fileMark{size: fi.Size(), mtime: fi.ModTime()}
	if !prev.gone && prev.size == m.size && prev.mtime.Equal(m.mtime) {
		m.sum = prev.sum
		return m
	}
	fh, err := os.Open(path)
	if err != nil {
		return fileMark{gone: true}
	}
	defer fh.Close()
	h := sha256.New()
	_, _ = io.Copy(h, io.LimitReader(fh, 64<<20))
	copy(m.sum[:], h.Sum(nil))
	return m
}

// changed reports whether any file differs from what was seen last.
func (w *watcher) changed() bool {
	any := false
	for _, f := range w.files {
		prev := w.seen[f]
		now := markOf(f, prev)
		if now.gone != prev.gone || now.sum != prev.sum {
			any = true
		}
		w.seen[f] = now
	}
	return any
}

func (f *Fleet) watchLoop() {
	defer f.wg.Done()
	t := time.NewTicker(f.opts.Poll)
	defer t.Stop()
	for {
		select {
		case <-f.ctx.Done():
			return
		case <-t.C:
			if f.watch.changed() {
				f.Reload(f.ctx)
			}
		}
	}
}

// Reload reads the config again and applies it: entries gone are closed,
// new ones started (as the start mode says), changed ones (another
// fingerprint) restarted; then the fleet publishes list_changed. A config
// that cannot be read leaves the fleet as it is.
func (f *Fleet) Reload(ctx context.Context) {
	f.reloading.Lock()
	defer f.reloading.Unlock()
	specs, files, err := f.opts.Load()
	if err != nil {
		f.notef("config changed but cannot be read (%v); keeping the servers as they are", err)
		return
	}
	if f.watch != nil {
		f.watch.reset(files)
	}
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		for _, sp := range specs {
			if sp.Close != nil {
				sp.Close()
			}
		}
		return
	}
	old := map[string]*upstream{}
	for _, u := range f.ups {
		old[u.spec.Name] = u
	}
	var next, added, dropped []*upstream
	for _, sp := range specs {
		if u, ok := old[sp.Name]; ok && u.spec.Fingerprint == sp.Fingerprint && (u.spec.Err == nil) == (sp.Err == nil) {
			delete(old, sp.Name)
			next = append(next, u)
			if sp.Close != nil {
				sp.Close() // the new resolution is not needed
			}
			continue
		}
		u := f.newUpstream(sp)
		next = append(next, u)
		added = append(added, u)
	}
	for _, u := range old {
		dropped = append(dropped, u)
	}
	f.ups = next
	f.mu.Unlock()
	for _, u := range dropped {
		f.notef("%s: removed or changed in the config; stopping it", u.spec.Name)
		u.shutdown()
	}
	if len(added) > 0 || len(dropped) > 0 {
		f.bump()
	}
	f.startAll(ctx, added)
	f.listsChanged()
}
