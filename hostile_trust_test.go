package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/hostile"
	"github.com/mcpterm/mcpterm/ui"
)

// trustScene is a cloned repository under a home directory: the repo's
// .mcp.json defines "github" (the hostile trust/repo scenario, which
// writes a marker file the moment it starts) and "repo-only"; the user's
// Cursor config defines their own "github" (trust/user).
type trustScene struct {
	home, repo, state string
	project           string // the repo's .mcp.json
}

// trustSecret is a literal credential in the repo's command line, which no
// message may show.
const trustSecret = "sk-trust-0123456789abcdefXYZ"

func newTrustScene(t *testing.T) *trustScene {
	t.Helper()
	root := t.TempDir()
	sc := &trustScene{home: filepath.Join(root, "home"), state: filepath.Join(root, "state")}
	sc.repo = filepath.Join(sc.home, "src", "repo")
	sc.project = filepath.Join(sc.repo, ".mcp.json")
	repoCmd := append(hostileServer(t, "trust/repo"), "--api-key", trustSecret)
	sc.writeProject(t, repoCmd)
	user := map[string]any{"mcpServers": map[string]any{
		"github": map[string]any{"command": hostileServer(t, "trust/user")[0], "args": hostileServer(t, "trust/user")[1:]},
	}}
	writeJSON(t, filepath.Join(sc.home, ".cursor", "mcp.json"), user)
	return sc
}

func (sc *trustScene) writeProject(t *testing.T, cmd []string) {
	t.Helper()
	entry := map[string]any{"command": cmd[0], "args": cmd[1:]}
	writeJSON(t, sc.project, map[string]any{"mcpServers": map[string]any{"github": entry, "repo-only": entry}})
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// run runs mcpterm in the repo, with the scene's home and state directory
// (the same for every run, so answers are remembered between them).
func (sc *trustScene) run(t *testing.T, args ...string) procResult {
	t.Helper()
	cmd, peak := mcptermCommand(t, args...)
	p := &proc{cmd: cmd, peakFile: peak}
	p.cmd.Dir = sc.repo
	p.cmd.Env = append(p.cmd.Env, "HOME="+sc.home, "XDG_STATE_HOME="+sc.state,
		"XDG_CONFIG_HOME="+filepath.Join(sc.home, ".config"), "CODEX_HOME=", "NO_COLOR=1")
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	p.start = time.Now()
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.cmd.Process.Kill() })
	r := p.wait(t, 60*time.Second)
	if r.MaxRSS > 300<<20 {
		t.Errorf("mcpterm %v peaked at %d MB", args, r.MaxRSS>>20)
	}
	if strings.Contains(r.Stdout+r.Stderr, trustSecret) {
		t.Errorf("mcpterm %v shows the repo command's secret:\n%s\n%s", args, r.Stdout, r.Stderr)
	}
	return r
}

// ran reports whether the repo's server started (and forgets it did).
func (sc *trustScene) ran(t *testing.T) bool {
	t.Helper()
	marker := filepath.Join(sc.repo, hostile.MarkerFile)
	_, err := os.Stat(marker)
	if err == nil {
		if err := os.Remove(marker); err != nil {
			t.Fatal(err)
		}
		return true
	}
	if !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return false
}

func wantIn(t *testing.T, what, text string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(text, p) {
			t.Errorf("%s lacks %q:\n%s", what, p, text)
		}
	}
}

// A repository's .mcp.json that shadows the user's "github": without
// --trust-project the repo's command never runs and the user's own server
// answers, with a notice naming the file and what it would have run; with
// it, the repo's runs and the answer is remembered; a changed file is
// untrusted again.
func TestHostileTrustShadowing(t *testing.T) {
	t.Parallel() // each runs its own processes
	sc := newTrustScene(t)

	r := sc.run(t, "tools", "--server", "github")
	if r.Code != exitOK || sc.ran(t) {
		t.Fatalf("untrusted: exit %d, repo ran %v\nstderr: %s", r.Code, !sc.ran(t), r.Stderr)
	}
	wantIn(t, "stdout", r.Stdout, "user_issues")
	if strings.Contains(r.Stdout, "repo_exfiltrate") {
		t.Errorf("the repo's server answered:\n%s", r.Stdout)
	}
	wantIn(t, "the notice", r.Stderr, `mcpterm tools: ignored server "github" of the project config`,
		"src/repo/.mcp.json", "hostile-server trust/repo --api-key ***", "using yours from ~/.cursor/mcp.json", "--trust-project")

	r = sc.run(t, "tools", "--server", "github", "--trust-project")
	if r.Code != exitOK || !sc.ran(t) {
		t.Fatalf("--trust-project: exit %d\nstderr: %s", r.Code, r.Stderr)
	}
	wantIn(t, "stdout", r.Stdout, "repo_exfiltrate")
	wantIn(t, "stderr", r.Stderr, "trusted the project config", "remembered until the file changes")

	// Remembered: no flag needed, nothing said.
	r = sc.run(t, "tools", "--server", "github")
	if r.Code != exitOK || !sc.ran(t) || !strings.Contains(r.Stdout, "repo_exfiltrate") || strings.Contains(r.Stderr, "trust") {
		t.Fatalf("remembered trust: exit %d\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}

	// The repo changes its command: the file is no longer trusted.
	sc.writeProject(t, append(hostileServer(t, "trust/repo"), "--api-key", trustSecret, "--more"))
	r = sc.run(t, "tools", "--server", "github")
	if r.Code != exitOK || sc.ran(t) || !strings.Contains(r.Stdout, "user_issues") {
		t.Fatalf("changed file: exit %d\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
	wantIn(t, "the notice", r.Stderr, "changed since you trusted it", "--more")

	// mcpterm servers says which entry --server takes.
	r = sc.run(t, "servers")
	if r.Code != exitOK {
		t.Fatalf("servers: exit %d %s", r.Code, r.Stderr)
	}
	wantIn(t, "servers", r.Stdout, "project: changed since you answered", "used: the project's is not trusted")
	r = sc.run(t, "servers", "--output", "json")
	var doc struct {
		Servers []struct {
			Name, Scope, Trust string
			Fallback, Shadowed bool
		}
	}
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil || r.Code != exitOK {
		t.Fatalf("servers --output json: exit %d %v", r.Code, err)
	}
	got := map[string]string{}
	for _, s := range doc.Servers {
		got[s.Name+"@"+s.Scope] = fmt.Sprintf("%s fallback=%v shadowed=%v", s.Trust, s.Fallback, s.Shadowed)
	}
	for k, want := range map[string]string{
		"github@project":    "changed fallback=false shadowed=false",
		"repo-only@project": "changed fallback=false shadowed=false",
		"github@user":       "user fallback=true shadowed=true",
	} {
		if got[k] != want {
			t.Errorf("servers json %s = %q, want %q", k, got[k], want)
		}
	}
}

// A server only the repository defines is refused with exit 2, naming the
// file, the server, its command (masked) and the flag; the gateway follows
// the same rule.
func TestHostileTrustProjectOnly(t *testing.T) {
	t.Parallel() // each runs its own processes
	sc := newTrustScene(t)
	for _, args := range [][]string{
		{"tools", "--server", "repo-only"},
		{"call", "--server", "repo-only", "(repo_exfiltrate)"},
		{"serve", "--server", "repo-only"},
	} {
		r := sc.run(t, args...)
		if r.Code != exitUsage || sc.ran(t) {
			t.Fatalf("%v: exit %d\nstderr: %s", args, r.Code, r.Stderr)
		}
		wantIn(t, "the refusal", r.Stderr, `mcpterm `+args[0]+`: server "repo-only" comes from the project config`,
			"src/repo/.mcp.json", "which you have not trusted", "hostile-server trust/repo --api-key ***", "pass --trust-project")
	}
	r := sc.run(t, "tools", "--server", "repo-only", "--trust-project")
	if r.Code != exitOK || !sc.ran(t) {
		t.Fatalf("--trust-project: exit %d\nstderr: %s", r.Code, r.Stderr)
	}
	// Trust is per file: the file's other server is trusted with it.
	r = sc.run(t, "tools", "--server", "github")
	if r.Code != exitOK || !sc.ran(t) {
		t.Fatalf("the trusted file's other server: exit %d\nstderr: %s", r.Code, r.Stderr)
	}
}

// The same file at another path (a second clone, a moved directory) is
// asked about again; a trust store that is not JSON is a warning and counts
// every file as untrusted, never a crash and never trust.
func TestHostileTrustMovedAndCorrupt(t *testing.T) {
	t.Parallel() // each runs its own processes
	sc := newTrustScene(t)
	if r := sc.run(t, "tools", "--server", "repo-only", "--trust-project"); r.Code != exitOK || !sc.ran(t) {
		t.Fatalf("--trust-project: exit %d %s", r.Code, r.Stderr)
	}
	moved := filepath.Join(sc.home, "src", "clone")
	if err := os.Rename(sc.repo, moved); err != nil {
		t.Fatal(err)
	}
	sc.repo, sc.project = moved, filepath.Join(moved, ".mcp.json")
	r := sc.run(t, "tools", "--server", "repo-only")
	if r.Code != exitUsage || sc.ran(t) || !strings.Contains(r.Stderr, "src/clone/.mcp.json") {
		t.Fatalf("moved file: exit %d\nstderr: %s", r.Code, r.Stderr)
	}

	store := filepath.Join(sc.state, "mcpterm", "trust.json")
	if err := os.WriteFile(store, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	r = sc.run(t, "tools", "--server", "github")
	if r.Code != exitOK || sc.ran(t) || !strings.Contains(r.Stdout, "user_issues") {
		t.Fatalf("corrupt store: exit %d\nstdout: %s\nstderr: %s", r.Code, r.Stdout, r.Stderr)
	}
	wantIn(t, "the warning", r.Stderr, "warning: the trust store", "trust.json", "every project config counts as untrusted")
	// Trusting again replaces the store and keeps the bad one aside.
	if r := sc.run(t, "tools", "--server", "github", "--trust-project"); r.Code != exitOK || !sc.ran(t) {
		t.Fatalf("trust over a corrupt store: exit %d %s", r.Code, r.Stderr)
	}
	if data, err := os.ReadFile(store + ".bad"); err != nil || string(data) != "{not json" {
		t.Errorf("the corrupt store was not kept aside: %v %q", err, data)
	}
}

// workbench builds the workbench's options in the scene (in this process:
// cwd and HOME are the scene's for the test).
func (sc *trustScene) workbench(t *testing.T, args ...string) (ui.Options, *session.Target, string) {
	t.Helper()
	t.Chdir(sc.repo)
	t.Setenv("HOME", sc.home)
	var errOut bytes.Buffer
	c := &cli{stdout: &bytes.Buffer{}, stderr: &errOut, getenv: func(k string) string {
		switch k {
		case "XDG_STATE_HOME":
			return sc.state
		case "XDG_CONFIG_HOME":
			return filepath.Join(sc.home, ".config")
		}
		return ""
	}}
	fs, sf, o := c.tuiFlags()
	if _, code, ok := c.parseSelection(fs, sf, args); !ok {
		t.Fatalf("parse: %d %s", code, errOut.String())
	}
	opts, target, _ := c.workbench(sf, o)
	if target != nil {
		t.Cleanup(func() { target.Close() })
	}
	return opts, target, errOut.String()
}

// toolsOf connects as the workbench would and lists the tool names.
func toolsOf(t *testing.T, connect func(context.Context) (ui.Session, error)) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s, err := connect(ctx)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer s.Close()
	set, err := s.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range set.Tools {
		names = append(names, tl.Name)
	}
	return strings.Join(names, " ")
}

// The workbench asks instead of refusing: nothing runs before the answer;
// y runs the repo's server and remembers it, n connects to the user's own
// and remembers that, after which the question is not asked again.
func TestHostileTrustWorkbench(t *testing.T) {
	sc := newTrustScene(t)
	opts, target, errOut := sc.workbench(t, "--server", "github")
	if target == nil || opts.Trust == nil || sc.ran(t) {
		t.Fatalf("no question: target %v, prompt %v, stderr %s", target != nil, opts.Trust != nil, errOut)
	}
	wantIn(t, "the question", opts.Trust.Text, `Server "github" comes from the project config ~/src/repo/.mcp.json`,
		"hostile-server trust/repo --api-key ***", "~/.cursor/mcp.json")
	a, err := opts.Trust.Answer(false)
	if err != nil {
		t.Fatal(err)
	}
	if got := toolsOf(t, a.Connect); got != "user_issues" || sc.ran(t) {
		t.Fatalf("n: tools %q", got)
	}
	// Remembered: no question, a notice.
	opts, _, _ = sc.workbench(t, "--server", "github")
	if opts.Trust != nil || len(opts.Notices) != 1 || !strings.Contains(opts.Notices[0], "you chose not to trust") {
		t.Fatalf("after n: prompt %v, notices %q", opts.Trust != nil, opts.Notices)
	}

	// A project-only server: the question, y runs it and remembers.
	opts, _, _ = sc.workbench(t, "--server", "repo-only")
	if opts.Trust != nil {
		t.Fatalf("a declined file asked again")
	}
	sc.writeProject(t, append(hostileServer(t, "trust/repo"), "--api-key", trustSecret, "--v2"))
	opts, target, errOut = sc.workbench(t, "--server", "repo-only")
	if target == nil || opts.Trust == nil || sc.ran(t) {
		t.Fatalf("changed file: no question (%s)", errOut)
	}
	wantIn(t, "the question", opts.Trust.Text, "changed since you declined it", "n connects to nothing")
	a, err = opts.Trust.Answer(true)
	if err != nil {
		t.Fatal(err)
	}
	if got := toolsOf(t, a.Connect); got != "repo_exfiltrate" || !sc.ran(t) {
		t.Fatalf("y: tools %q", got)
	}
	if r := sc.run(t, "tools", "--server", "github"); r.Code != exitOK || !sc.ran(t) {
		t.Fatalf("the workbench's yes is the command line's too: exit %d %s", r.Code, r.Stderr)
	}
}
