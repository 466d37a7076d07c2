package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// errNoServers marks a well-formed file with no server list in it.
var errNoServers = errors.New("has neither \"mcpServers\" nor \"servers\" nor \"context_servers\"")

// readFile adds the servers of one file to s. dir is the file's project
// directory; localDir selects ~/.claude.json's per-project section.
func (s *Set) readFile(src Source, dir, localDir string) error {
	data, err := readBounded(src.Path)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	sum := sha256.Sum256(data)
	src.Hash = hex.EncodeToString(sum[:])
	return s.addData(src, data, dir, localDir)
}

// addData is readFile after the read, for the JSON (with comments) files.
func (s *Set) addData(src Source, data []byte, dir, localDir string) error {
	if isTOML(src.Path) {
		return s.addTOML(src, data, dir)
	}
	clean := stripJSONC(data)
	var top map[string]json.RawMessage
	if err := json.Unmarshal(clean, &top); err != nil {
		return positioned(src.Path, clean, err)
	}
	if top == nil {
		return fmt.Errorf("config: %s: the top level is null, want an object with \"mcpServers\"", src.Path)
	}
	servers, inputs, err := serversOf(top, localDir)
	if err != nil {
		return fmt.Errorf("config: %s: %w", src.Path, err)
	}
	if servers == nil {
		if localDir != "" || filepath.Base(src.Path) == ".claude.json" {
			return nil // Claude Code's state file without servers is normal
		}
		if src.Scope != "" && filepath.Base(src.Path) == "settings.json" {
			return nil // an editor's settings (Zed, Gemini CLI) need not name servers
		}
		return fmt.Errorf("config: %s: %w (is this an MCP config file?)", src.Path, errNoServers)
	}
	v, err := ojson.Parse(servers)
	if err != nil {
		return fmt.Errorf("config: %s: %w", src.Path, err)
	}
	return s.addServers(src, v, dir, inputs)
}

// addServers adds the members of a file's server object, each in the shape
// resolve reads (normalize).
func (s *Set) addServers(src Source, v *ojson.Value, dir string, inputs map[string]string) error {
	if v.Kind != ojson.Object {
		return fmt.Errorf("config: %s: the server list is a JSON %s, want an object of NAME: {...}", src.Path, v.Kind)
	}
	s.files = append(s.files, src)
	for _, m := range v.Members {
		raw, problem := normalize(src.Format, m.Value)
		e := Entry{Name: m.Key, Source: src, raw: raw, dir: dir, inputs: inputs, problem: problem}
		if raw.Kind == ojson.Object && problem == nil {
			e.Transport, _, _ = transportOf(raw)
		}
		if raw.Kind == ojson.Object {
			e.Disabled = disabled(raw)
		}
		s.entries = append(s.entries, e)
	}
	return nil
}

func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("%s: larger than %d MiB, not a config file", path, maxFileSize>>20)
	}
	return data, nil
}

// serversOf finds the server object in a file's top level: mcpServers,
// servers (VS Code), context_servers (Zed), mcp.servers (VS Code
// settings.json), or for localDir
// projects[DIR].mcpServers of the nearest DIR. It also returns VS Code's
// input descriptions by id.
func serversOf(top map[string]json.RawMessage, localDir string) (json.RawMessage, map[string]string, error) {
	if localDir != "" {
		raw, ok := top["projects"]
		if !ok {
			return nil, nil, nil
		}
		var projects map[string]struct {
			MCPServers json.RawMessage `json:"mcpServers"`
		}
		if err := json.Unmarshal(raw, &projects); err != nil {
			return nil, nil, nil // not the shape we know; the rest of the file still counts
		}
		for dir := localDir; ; {
			if p, ok := projects[dir]; ok && !isNull(p.MCPServers) {
				return p.MCPServers, nil, nil
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				return nil, nil, nil
			}
			dir = parent
		}
	}
	inputs := inputsOf(top["inputs"])
	if raw, ok := top["mcpServers"]; ok && !isNull(raw) {
		return raw, inputs, nil
	}
	if raw, ok := top["servers"]; ok && !isNull(raw) {
		return raw, inputs, nil
	}
	if raw, ok := top["context_servers"]; ok && !isNull(raw) {
		return raw, inputs, nil
	}
	if raw, ok := top["mcp"]; ok {
		var mcp struct {
			Servers json.RawMessage `json:"servers"`
			Inputs  json.RawMessage `json:"inputs"`
		}
		if json.Unmarshal(raw, &mcp) == nil && !isNull(mcp.Servers) {
			return mcp.Servers, inputsOf(mcp.Inputs), nil
		}
	}
	return nil, nil, nil
}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}

func inputsOf(raw json.RawMessage) map[string]string {
	var list []struct {
		ID          string `json:"id"`
		Description string `json:"description"`
	}
	if isNull(raw) || json.Unmarshal(raw, &list) != nil {
		return nil
	}
	m := map[string]string{}
	for _, in := range list {
		if in.ID != "" {
			m[in.ID] = in.Description
		}
	}
	return m
}

func disabled(v *ojson.Value) bool {
	if d := v.Get("disabled"); d != nil && d.Kind == ojson.Bool && d.Bool {
		return true
	}
	if e := v.Get("enabled"); e != nil && e.Kind == ojson.Bool && !e.Bool {
		return true
	}
	return false
}

// transportOf decides a server's transport from its raw fields; guessed is
// set when no type was given.
func transportOf(v *ojson.Value) (t Transport, guessed bool, err error) {
	typ := v.Get("type")
	if typ == nil || typ.Kind == ojson.Null {
		typ = v.Get("transport")
	}
	if typ != nil && typ.Kind != ojson.Null {
		if typ.Kind != ojson.String {
			return "", false, fmt.Errorf("\"type\" is a JSON %s, want \"stdio\", \"http\" or \"sse\"", typ.Kind)
		}
		switch typ.Str {
		case "stdio", "local":
			return Stdio, false, nil
		case "http", "streamable-http", "streamableHttp", "streamable_http", "streamable", "remote":
			return HTTP, false, nil
		case "sse":
			return SSE, false, nil
		}
		return "", false, fmt.Errorf("unknown \"type\" %q, want \"stdio\", \"http\" or \"sse\"", typ.Str)
	}
	cmd, url := v.Get("command"), urlField(v)
	switch {
	case cmd != nil && url != nil:
		return "", true, errors.New("has both \"command\" and \"url\"; add \"type\" to say which to use")
	case cmd != nil:
		return Stdio, true, nil
	case url != nil:
		if url.Kind == ojson.String && looksSSE(url.Str) {
			return SSE, true, nil
		}
		return HTTP, true, nil
	}
	return "", true, errors.New("has neither \"command\" (a stdio server) nor \"url\" (an HTTP server)")
}

// urlField is "url", or Windsurf's "serverUrl".
func urlField(v *ojson.Value) *ojson.Value {
	if u := v.Get("url"); u != nil {
		return u
	}
	return v.Get("serverUrl")
}
