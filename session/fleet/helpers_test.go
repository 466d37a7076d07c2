package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/demo"
)

// The test binary doubles as the upstream the fleet tests run: with
// upstreamArg as its first argument it is the demo server (session/demo)
// on stdio, cut down to the tools named by a "keep=a,b" argument, so that
// a config entry's args decide its tools. Before serving it appends
// "NAME PID" to the file $FLEET_TEST_STARTS names, so a test can tell
// which entries were started and how often; while the file
// $FLEET_TEST_BROKEN names exists it appends "NAME broken" and exits at
// once, as a server whose command no longer works.
const (
	upstreamArg = "fleet-test-upstream"
	startsEnv   = "FLEET_TEST_STARTS"
	brokenEnv   = "FLEET_TEST_BROKEN"
	nameEnv     = "FLEET_TEST_NAME"
)

func TestMain(m *testing.M) {
	if len(os.Args) >= 2 && os.Args[1] == upstreamArg {
		os.Exit(runUpstream(os.Args[2:]))
	}
	os.Exit(m.Run())
}

func runUpstream(args []string) int {
	name := os.Getenv(nameEnv)
	record := func(what string) {
		if p := os.Getenv(startsEnv); p != "" {
			f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
			if err == nil {
				fmt.Fprintf(f, "%s %s\n", name, what)
				f.Close()
			}
		}
	}
	if p := os.Getenv(brokenEnv); p != "" {
		if _, err := os.Stat(p); err == nil {
			record("broken")
			fmt.Fprintln(os.Stderr, "fleet test upstream: broken on purpose")
			return 3
		}
	}
	srv := demo.New(demo.Options{})
	for _, a := range args {
		if keep, ok := strings.CutPrefix(a, "keep="); ok {
			want := strings.Split(keep, ",")
			for n := range srv.ListTools() {
				if !slices.Contains(want, n) {
					srv.DeleteTools(n)
				}
			}
		}
	}
	record(strconv.Itoa(os.Getpid()))
	if err := demo.ServeStdio(context.Background(), srv, os.Stdin, os.Stdout, log.New(os.Stderr, "fleet test upstream: ", 0)); err != nil {
		return 1
	}
	return 0
}

// testEntry is one config entry running the test upstream with the tools
// keep names; starts (and broken, when set) are the files above.
type testEntry struct {
	keep           string
	starts, broken string
}

// writeConfig writes an mcpServers config of entries to path.
func writeConfig(t *testing.T, path string, entries map[string]testEntry) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	servers := map[string]any{}
	for name, e := range entries {
		env := map[string]string{nameEnv: name, startsEnv: e.starts}
		if e.broken != "" {
			env[brokenEnv] = e.broken
		}
		servers[name] = map[string]any{"command": exe, "args": []string{upstreamArg, "keep=" + e.keep}, "env": env}
	}
	b, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, b)
}

// writeFile replaces path's content at once (a rename), so the config
// poller never reads half a file.
func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// starts counts the recorded starts per entry name (broken ones apart,
// as "NAME broken").
func starts(t *testing.T, path string) map[string]int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	out := map[string]int{}
	for line := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
		name, what, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		if what == "broken" {
			name += " broken"
		}
		out[name]++
	}
	return out
}

// lastPid is the pid of the latest start of name.
func lastPid(t *testing.T, path, name string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pid := 0
	for line := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
		if n, what, ok := strings.Cut(line, " "); ok && n == name {
			if p, err := strconv.Atoi(what); err == nil {
				pid = p
			}
		}
	}
	if pid == 0 {
		t.Fatalf("%s was never started", name)
	}
	return pid
}

// testConfig is the Config the CLI would build for `--config path --all`.
func testConfig(dir, path string) *Config {
	return &Config{Selection: session.Selection{Configs: []string{path}}, All: true,
		Env: session.Env{Getenv: os.Getenv, Cwd: dir, Home: dir}}
}

// notes collects a fleet's Notef lines and lets a test wait for one.
type notes struct{ ch chan string }

func newNotes() *notes { return &notes{ch: make(chan string, 1024)} }

func (n *notes) notef(format string, args ...any) {
	select {
	case n.ch <- fmt.Sprintf(format, args...):
	default:
	}
}

// wait returns the first note from now on containing want.
func (n *notes) wait(t *testing.T, want string) string {
	t.Helper()
	deadline := time.After(hangGuard)
	for {
		select {
		case s := <-n.ch:
			if strings.Contains(s, want) {
				return s
			}
		case <-deadline:
			t.Fatalf("no note containing %q", want)
			return ""
		}
	}
}

// hangGuard bounds every wait on an event; it only turns a hang into a
// failure (a loaded machine starts race-built processes slowly).
const hangGuard = 90 * time.Second

// toolsOf is the fleet's listing as "name@server" strings, sorted.
func toolsOf(t *testing.T, ctx context.Context, f *Fleet) []string {
	t.Helper()
	set, err := f.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tl := range set.Tools {
		out = append(out, tl.Name+"@"+tl.Server)
	}
	slices.Sort(out)
	return out
}

// waitTools waits, one list_changed event of events at a time, until the
// fleet lists want.
func waitTools(t *testing.T, ctx context.Context, f *Fleet, events <-chan session.Event, want ...string) {
	t.Helper()
	slices.Sort(want)
	deadline := time.After(hangGuard)
	var got []string
	for {
		select {
		case e := <-events:
			if e.Kind != session.EventListChanged || e.Source != "tools" {
				continue
			}
			if got = toolsOf(t, ctx, f); slices.Equal(got, want) {
				return
			}
		case <-deadline:
			t.Fatalf("tools never became %v; last %v", want, got)
		}
	}
}

// waitEvent returns the first event of events whose text contains want.
func waitEvent(t *testing.T, events <-chan session.Event, want string) session.Event {
	t.Helper()
	deadline := time.After(hangGuard)
	for {
		select {
		case e := <-events:
			if strings.Contains(e.Text, want) {
				return e
			}
		case <-deadline:
			t.Fatalf("no event containing %q", want)
			return session.Event{}
		}
	}
}

// callReq is a call of one of the demo's tools with the arguments it
// needs.
func callReq(tool string) session.CallRequest {
	args := `{}`
	switch tool {
	case "file_read":
		args = `{"path":"/docs/README.md"}`
	case "create_todo":
		args = `{"title":"from the fleet test"}`
	}
	a, _ := ojson.Parse([]byte(args))
	return session.CallRequest{Tool: tool, Arguments: a}
}

func call(ctx context.Context, f *Fleet, tool string) *session.CallResult {
	return f.Call(ctx, callReq(tool))
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func cacheFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}
