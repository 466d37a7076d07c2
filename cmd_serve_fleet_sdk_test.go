package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/session/gateway/sdktest"
	"github.com/mcpterm/mcpterm/session/peers"
)

// sdkClientScript is the gateway's SDK harness, the official TypeScript
// SDK client driven by a JSON script.
var sdkClientScript = filepath.Join("session", "gateway", "testdata", "client.mjs")

// fourUpstream is one entry of the four-server config: how its process
// starts, what it is called in the config.
type fourUpstream struct {
	name    string
	command string
	args    []string
	env     map[string]string
}

func (u fourUpstream) entry() map[string]any {
	return map[string]any{"command": u.command, "args": u.args, "env": u.env}
}

func (u fourUpstream) stdio() map[string]any {
	return map[string]any{"kind": "stdio", "command": u.command, "args": u.args, "env": u.env}
}

// fourServers are the demo server (this test binary as `mcpterm
// demo-server`), server-everything, server-filesystem rooted at fsDir and
// server-memory keeping its graph in a file under memDir: the four-server
// config of issue 17.
func fourServers(t *testing.T, fsDir, memDir string) []fourUpstream {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	peer := func(install func(context.Context, func(string) string) (peers.Peer, error)) peers.Peer {
		p, err := install(context.Background(), os.Getenv)
		if err != nil {
			if errors.Is(err, peers.ErrNoNode) && os.Getenv("CI") != "true" {
				t.Skipf("end-to-end test skipped: %v", err)
			}
			t.Fatalf("installing a peer: %v", err)
		}
		return p
	}
	ev, fs, mem := peer(peers.Everything), peer(peers.Filesystem), peer(peers.Memory)
	return []fourUpstream{
		{name: "demo", command: exe, args: []string{mainArg, "demo-server"}},
		{name: "everything", command: ev.Node, args: []string{ev.Entry, "stdio"}},
		{name: "filesystem", command: fs.Node, args: []string{fs.Entry, fsDir}},
		{name: "memory", command: mem.Node, args: []string{mem.Entry}, env: map[string]string{"MEMORY_FILE_PATH": filepath.Join(memDir, "memory.jsonl")}},
	}
}

// writeFourConfig writes ups as an mcpServers config in dir. The entry
// named kill is started through a wrapper that writes its pid to pidFile
// and then execs the server, so the pid is the server's. A restart (the
// pid file is there already) first waits until release exists, so that
// the test knows the server is down until it says otherwise.
func writeFourConfig(t *testing.T, dir string, ups []fourUpstream, kill string) (cfg, pidFile, release string) {
	t.Helper()
	pidFile, release = filepath.Join(dir, kill+".pid"), filepath.Join(dir, kill+".release")
	wrap := filepath.Join(dir, "wrap.sh")
	script := "#!/bin/sh\n" +
		"if [ -e \"$PIDFILE\" ]; then while [ ! -e \"$RELEASE\" ]; do sleep 0.05; done; fi\n" +
		"echo $$ > \"$PIDFILE\"\nexec \"$@\"\n"
	if err := os.WriteFile(wrap, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	servers := map[string]any{}
	for _, u := range ups {
		if u.name == kill {
			env := map[string]string{"PIDFILE": pidFile, "RELEASE": release}
			for k, v := range u.env {
				env[k] = v
			}
			u = fourUpstream{name: u.name, command: wrap, args: append([]string{u.command}, u.args...), env: env}
		}
		servers[u.name] = u.entry()
	}
	b, _ := json.Marshal(map[string]any{"mcpServers": servers})
	cfg = filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(cfg, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return cfg, pidFile, release
}

// serveStdio is how the SDK client starts `mcpterm serve ARGS` on stdio:
// this test binary as mcpterm, in a state directory of its own.
func serveStdio(t *testing.T, args ...string) map[string]any {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return map[string]any{"kind": "stdio", "command": exe, "args": append([]string{mainArg, "serve"}, args...),
		"env": map[string]string{"XDG_STATE_HOME": t.TempDir()}}
}

func termStep(expr string) sdktest.Step {
	return sdktest.Step{Op: "callTool", Name: "mcp_term", Arguments: map[string]string{"expr": expr}}
}

// stepResult is a callTool step's answer.
type stepResult struct {
	IsError bool `json:"isError"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
}

func (r stepResult) text() string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// TestServeFleetSDK is issue 17's end-to-end test: the official
// TypeScript SDK client against `mcpterm serve --config F --all` (its own
// process, on stdio; and served in process over streamable HTTP up to the
// kill) over the four-server config. In term mode it lists
// the tools (every upstream's, in its own declare group), calls each
// server, runs one batch mixing all four, reads a resource of each server
// that has resources (the one without is simply absent from the list),
// kills server-everything's process mid-session, checks the other three
// keep answering while it is dead and that it answers again once the fleet
// has restarted it (in a new process). In passthrough mode the same list
// and calls go by the upstreams' own tool names. Each upstream is also
// asked directly, by the same client, for what the gateway must show.
func TestServeFleetSDK(t *testing.T) {
	sdktest.Dir(t)
	fsDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(fsDir, "notes.txt"), []byte("four servers, one gateway\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	termDir, passDir, httpDir := t.TempDir(), t.TempDir(), t.TempDir()
	ups := fourServers(t, fsDir, termDir)
	termCfg, pidFile, release := writeFourConfig(t, termDir, ups, "everything")
	passCfg, _, _ := writeFourConfig(t, passDir, fourServers(t, fsDir, passDir), "")
	httpCfg, _, _ := writeFourConfig(t, httpDir, fourServers(t, fsDir, httpDir), "")
	// The same gateway over streamable HTTP, served in this process.
	url, _ := serveHTTPCLI(t, map[string]string{"XDG_STATE_HOME": t.TempDir()},
		"--config", httpCfg, "--all", "--yes", "--listen", "127.0.0.1:0")
	notes := strconv.Quote(filepath.Join(fsDir, "notes.txt"))

	term := []sdktest.Step{
		{Op: "listTools"},
		termStep(`(file_read "/etc/hosts")`),
		termStep(`(echo "hello from four servers")`),
		termStep(`(read_text_file ` + notes + `)`),
		termStep(`(create_entities ((:name "Ada Lovelace" :entityType "person" :observations ("wrote the first program"))))`),
		termStep(`(batch (1 (get-sum :a 19 :b 23)) (2 (list_todos :limit 1)) (3 (list_directory ` + strconv.Quote(fsDir) + `)) (4 (search_nodes "Ada")))`),
		{Op: "listResources"},
		{Op: "readResource", URI: "demo://catalog"},
		{Op: "readResource", URI: "demo://resource/static/document/architecture.md"},
		{Op: "readResource", URI: "memory://knowledge-graph"},
		{Op: "kill", File: pidFile},
		termStep(`(file_read "/docs/README.md" :limit 40)`),
		termStep(`(read_text_file ` + notes + `)`),
		termStep(`(open_nodes ("Ada Lovelace"))`),
		// everything's replacement is held by its wrapper: a call to it
		// fails (at once, or after the fleet's restart wait of 15 s) and
		// says it is down.
		termStep(`(echo "while down")`),
		{Op: "writeFile", File: release},
		{Op: "callUntil", Name: "mcp_term", Arguments: map[string]string{"expr": `(echo "back after the restart")`}, Contains: "back after the restart", TimeoutMS: 90000},
	}
	pass := []sdktest.Step{
		{Op: "listTools"},
		{Op: "callTool", Name: "file_read", Arguments: map[string]any{"path": "/etc/hosts"}},
		{Op: "callTool", Name: "echo", Arguments: map[string]any{"message": "passed through"}},
		{Op: "callTool", Name: "read_text_file", Arguments: map[string]any{"path": filepath.Join(fsDir, "notes.txt")}},
		{Op: "callTool", Name: "read_graph", Arguments: map[string]any{}},
	}
	// The client offers no roots and serve has no --root, so the gateway
	// offers none and server-filesystem keeps its own directory (a fallback
	// of the current directory would replace it: read_text_file would fail).
	script := sdktest.Script{Sessions: []sdktest.Session{
		{Name: "term", Transport: serveStdio(t, "--config", termCfg, "--all", "--yes"), Steps: term},
		{Name: "passthrough", Transport: serveStdio(t, "--config", passCfg, "--all", "--yes", "--mode", "passthrough"), Steps: pass},
		// Over HTTP: the steps up to the kill.
		{Name: "http", Transport: map[string]any{"kind": "http", "url": url}, Steps: term[:10]},
	}}
	directDir := t.TempDir()
	for _, u := range fourServers(t, fsDir, directDir) {
		script.Sessions = append(script.Sessions, sdktest.Session{Name: u.name, Transport: u.stdio(),
			Steps: []sdktest.Step{{Op: "listTools"}, {Op: "listResources"}}})
	}
	o := fourOutcome{out: sdktest.RunClient(t, sdkClientScript, script), at: map[string]int{}}
	for i, s := range o.out.Sessions {
		o.at[s.Name] = i
	}
	// What each upstream lists when asked directly.
	direct := map[string]listed{}
	var wantURIs []string
	for _, u := range ups {
		var tools, res listed
		if err := json.Unmarshal(o.step(t, u.name, 0), &tools); err != nil || len(tools.Tools) == 0 {
			t.Fatalf("%s lists no tools: %v", u.name, err)
		}
		// A server without resources answers resources/list with an
		// error (no such capability); it then must not show in the merge.
		if s := o.out.Sessions[o.at[u.name]].Steps[1]; s.Error == "" {
			if err := json.Unmarshal(s.Result, &res); err != nil {
				t.Fatal(err)
			}
		}
		tools.Resources = res.Resources
		direct[u.name] = tools
		for _, r := range res.Resources {
			wantURIs = append(wantURIs, r.URI)
		}
	}
	slices.Sort(wantURIs)
	if len(direct["filesystem"].Resources) != 0 || len(direct["demo"].Resources) == 0 || len(direct["everything"].Resources) == 0 || len(direct["memory"].Resources) == 0 {
		t.Fatalf("the peers' resources changed; this test reads demo's, everything's and memory's and expects none of filesystem: %+v", direct)
	}

	for _, session := range []string{"term", "http"} {
		t.Run(session, func(t *testing.T) { o.checkTerm(t, session, ups, direct, wantURIs) })
	}
	t.Run("term-kill", func(t *testing.T) {
		for i, w := range map[int]string{11: "# mcp", 12: "four servers, one gateway", 13: "wrote the first program"} {
			// While everything's process is dead, the others answer.
			if r := o.call(t, "term", i); r.IsError || !strings.Contains(r.text(), w) {
				t.Errorf("term step %d: isError=%v, want %q in\n%s", i, r.IsError, w, r.text())
			}
		}
		var killed struct{ Pid int }
		if err := json.Unmarshal(o.step(t, "term", 10), &killed); err != nil || killed.Pid <= 1 {
			t.Fatalf("kill: %v %s", err, o.step(t, "term", 10))
		}
		// The call that finds it dead says it stopped, a later one that
		// it is restarting; both name it.
		if r := o.call(t, "term", 14); !r.IsError || !strings.Contains(r.text(), `server \"everything\"`) || !strings.Contains(r.text(), "restarting") {
			t.Errorf("a call to everything while it is down: isError=%v %s", r.IsError, r.text())
		}
		// callUntil answered: everything is back, in a new process.
		var back struct{ Failures []string }
		if err := json.Unmarshal(o.step(t, "term", 16), &back); err != nil {
			t.Fatal(err)
		}
		t.Logf("everything answered again after %d failed tries: %q", len(back.Failures), back.Failures)
		raw, err := os.ReadFile(pidFile)
		if err != nil {
			t.Fatal(err)
		}
		if now, _ := strconv.Atoi(strings.TrimSpace(string(raw))); now == killed.Pid || now <= 1 {
			t.Errorf("everything answers again but its pid file says %q, the killed process was %d", raw, killed.Pid)
		}
	})

	t.Run("passthrough", func(t *testing.T) {
		var gw listed
		if err := json.Unmarshal(o.step(t, "passthrough", 0), &gw); err != nil {
			t.Fatal(err)
		}
		var got, want []string
		for _, tl := range gw.Tools {
			got = append(got, tl.Name)
		}
		for _, u := range ups {
			for _, tl := range direct[u.name].Tools {
				want = append(want, tl.Name)
			}
		}
		// As in term mode, server-everything adds tools for the
		// gateway's capabilities: every server's own tool is there by its
		// own name (none clash in this config).
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("passthrough lacks %s: %v", w, got)
			}
		}
		for i, w := range []string{"127.0.0.1", "passed through", "four servers, one gateway", `"entities"`} {
			if r := o.call(t, "passthrough", 1+i); r.IsError || !strings.Contains(r.text(), w) {
				t.Errorf("passthrough call %d: isError=%v, want %q in %s", 1+i, r.IsError, w, r.text())
			}
		}
	})
}

// listed is a listTools or listResources step's answer.
type listed struct {
	Tools []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	} `json:"tools"`
	Resources []struct {
		URI string `json:"uri"`
	} `json:"resources"`
}

// fourOutcome is client.mjs's answer, its sessions by name.
type fourOutcome struct {
	out sdktest.Outcome
	at  map[string]int
}

func (o fourOutcome) step(t *testing.T, session string, i int) json.RawMessage {
	t.Helper()
	s := o.out.Sessions[o.at[session]].Steps[i]
	if s.Error != "" {
		t.Fatalf("%s step %d (%s): %s", session, i, s.Op, s.Error)
	}
	return s.Result
}

func (o fourOutcome) call(t *testing.T, session string, i int) stepResult {
	t.Helper()
	var r struct {
		Result stepResult `json:"result"`
	}
	if err := json.Unmarshal(o.step(t, session, i), &r); err != nil {
		t.Fatal(err)
	}
	return r.Result
}

// checkTerm checks a term-mode session's steps up to the kill: every
// upstream's tools in its own declare group, a call on each server, the
// mixed batch, the merged resources and a read of each server's.
func (o fourOutcome) checkTerm(t *testing.T, session string, ups []fourUpstream, direct map[string]listed, wantURIs []string) {
	var gw listed
	if err := json.Unmarshal(o.step(t, session, 0), &gw); err != nil || len(gw.Tools) != 1 || gw.Tools[0].Name != "mcp_term" {
		t.Fatalf("tools: %v %+v", err, gw)
	}
	groups := declareGroups(gw.Tools[0].Description)
	for _, u := range ups {
		var missing []string
		for _, tl := range direct[u.name].Tools {
			if !slices.Contains(groups[u.name], tl.Name) {
				missing = append(missing, tl.Name)
			}
		}
		// The gateway offers its upstreams roots, sampling and
		// elicitation, for which server-everything adds tools a bare
		// client is not shown; so the server's own list is a subset.
		if len(missing) > 0 {
			t.Errorf("(declare :server %s ...) has %v; missing %v of the server's own", u.name, groups[u.name], missing)
		}
		for _, other := range ups {
			for _, tl := range direct[other.name].Tools {
				if other.name != u.name && slices.Contains(groups[u.name], tl.Name) {
					t.Errorf("%s's %s is declared under :server %s", other.name, tl.Name, u.name)
				}
			}
		}
	}
	checks := []struct {
		step int
		want []string
	}{
		{1, []string{"(ok ", "127.0.0.1"}},
		{2, []string{"(ok ", "hello from four servers"}},
		{3, []string{"(ok ", "four servers, one gateway"}},
		{4, []string{"(ok ", "Ada Lovelace"}},
		// One batch, four servers: each answer under its id.
		{5, []string{"(1 (ok ", "42", "(2 (ok ", "(3 (ok ", "notes.txt", "(4 (ok ", "wrote the first program"}},
	}
	for _, c := range checks {
		r := o.call(t, session, c.step)
		for _, w := range c.want {
			if r.IsError || !strings.Contains(r.text(), w) {
				t.Errorf("step %d: isError=%v, want %q in\n%s", c.step, r.IsError, w, r.text())
				break
			}
		}
	}
	var res listed
	if err := json.Unmarshal(o.step(t, session, 6), &res); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res.Resources {
		got = append(got, r.URI)
	}
	slices.Sort(got)
	if !slices.Equal(got, wantURIs) {
		t.Errorf("resources through the gateway:\n %v\nwant the upstreams' own:\n %v", got, wantURIs)
	}
	for i, uri := range []string{"demo://catalog", "demo://resource/static/document/architecture.md", "memory://knowledge-graph"} {
		var rr struct {
			Contents []struct {
				URI  string `json:"uri"`
				Text string `json:"text"`
			} `json:"contents"`
		}
		if err := json.Unmarshal(o.step(t, session, 7+i), &rr); err != nil || len(rr.Contents) == 0 || rr.Contents[0].URI != uri || rr.Contents[0].Text == "" {
			t.Errorf("read %s: %v %s", uri, err, sdktest.Clip(o.step(t, session, 7+i)))
			continue
		}
		if uri == "memory://knowledge-graph" && !strings.Contains(rr.Contents[0].Text, "Ada Lovelace") {
			t.Errorf("memory's graph through the gateway lacks the entity created through it: %s", rr.Contents[0].Text)
		}
	}
}

// declareGroups reads the tool names of each (declare :server NAME ...)
// group of an mcp_term description: every entry line is " (CODE NAME ...".
func declareGroups(desc string) map[string][]string {
	out := map[string][]string{}
	server := ""
	for line := range strings.SplitSeq(desc, "\n") {
		if name, ok := strings.CutPrefix(line, "(declare :server "); ok {
			server = strings.TrimSpace(name)
			continue
		}
		if server == "" || !strings.HasPrefix(line, " (") {
			server = ""
			continue
		}
		if f := strings.Fields(line[2:]); len(f) >= 2 {
			out[server] = append(out[server], f[1])
		}
	}
	return out
}
