package fleet

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session"
)

// CacheDirName is the lazy start's cache under the state directory.
const CacheDirName = "fleet-cache"

// maxCacheFile bounds what is read back from a cache file.
const maxCacheFile = 32 << 20

// cached is a snapshot as stored: what a lazy fleet needs to list a server
// it has not started. Tools are kept as the server sent them, so a cached
// tool counts the same tokens as a live one.
type cached struct {
	Name         string                 `json:"name"`
	Version      string                 `json:"version,omitempty"`
	Instructions string                 `json:"instructions,omitempty"`
	Capabilities mcp.ServerCapabilities `json:"capabilities"`
	Tools        []json.RawMessage      `json:"tools"`
	Resources    []mcp.Resource         `json:"resources,omitempty"`
	Templates    []mcp.ResourceTemplate `json:"resourceTemplates,omitempty"`
	Prompts      []mcp.Prompt           `json:"prompts,omitempty"`
}

func (u *upstream) cachePath() string {
	fp := u.spec.Fingerprint
	if u.f.opts.CacheDir == "" || fp == "" || strings.ContainsAny(fp, `/\.`) {
		return ""
	}
	return filepath.Join(u.f.opts.CacheDir, fp+".json")
}

// saveCache keeps snap for the next lazy start; failures only cost that.
func (u *upstream) saveCache(snap *snapshot) {
	path := u.cachePath()
	if path == "" {
		return
	}
	c := cached{Name: snap.info.Name, Version: snap.info.Version, Instructions: snap.info.Instructions,
		Capabilities: snap.info.Capabilities, Resources: snap.resources, Templates: snap.templates, Prompts: snap.prompts}
	for _, t := range snap.tools.Tools {
		if t.Raw != nil {
			c.Tools = append(c.Tools, json.RawMessage(t.Raw.Compact()))
		}
	}
	data, err := json.Marshal(c)
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".fleet-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
	}
}

// loadCache sets the snapshot from the cache; false when there is none
// usable.
func (u *upstream) loadCache() bool {
	path := u.cachePath()
	if path == "" {
		return false
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Size() > maxCacheFile {
		return false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var c cached
	if json.Unmarshal(data, &c) != nil {
		return false
	}
	if c.Tools == nil {
		c.Tools = []json.RawMessage{}
	}
	list, err := json.Marshal(map[string]any{"tools": c.Tools})
	if err != nil {
		return false
	}
	set, err := toolset.Parse(list)
	if err != nil {
		return false
	}
	set.Server, set.Version = c.Name, c.Version
	info := session.Info{Name: c.Name, Version: c.Version, Instructions: c.Instructions, Capabilities: c.Capabilities, Kind: session.Stdio}
	u.mu.Lock()
	u.snap = &snapshot{info: info, tools: set, resources: c.Resources, templates: c.Templates, prompts: c.Prompts}
	u.mu.Unlock()
	return true
}
