package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// trustScene is a home with the user's Cursor config and a cloned
// repository under it whose .mcp.json shadows the user's "github".
type trustScene struct {
	home, repo string
	store      *TrustStore
	clock      time.Time
}

const (
	repoSecret = "sk-repo-0123456789abcdefghij"
	repoToken  = "ghp_repoTokenabcdefghijklmnopqrstuvwxyz01"
)

func newTrustScene(t *testing.T) *trustScene {
	t.Helper()
	root := t.TempDir()
	sc := &trustScene{home: filepath.Join(root, "home"), clock: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	sc.repo = filepath.Join(sc.home, "src", "repo")
	place(t, filepath.Join("trust", "repo_mcp.json"), filepath.Join(sc.repo, ".mcp.json"))
	place(t, filepath.Join("trust", "user_cursor_mcp.json"), filepath.Join(sc.home, ".cursor", "mcp.json"))
	write(t, filepath.Join(sc.repo, ".env"), "READ_FROM_ENVFILE=1\n")
	sc.store = NewTrustStore(filepath.Join(root, "state", "mcpterm", TrustFileName), func() time.Time { return sc.clock })
	return sc
}

func (sc *trustScene) discover(t *testing.T) *Set {
	t.Helper()
	s, err := discover(Env{Cwd: sc.repo, Home: sc.home}, "linux")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func (sc *trustScene) choose(t *testing.T, name string, trustProject bool) (Choice, error) {
	t.Helper()
	return sc.discover(t).Choose(name, Trust{Store: sc.store, TrustProject: trustProject})
}

func sourceOf(t *testing.T, s *Set, path string) Source {
	t.Helper()
	for _, f := range s.Files() {
		if f.Path == path {
			return f
		}
	}
	t.Fatalf("%s not read; files: %v", path, s.Files())
	return Source{}
}

func noSecrets(t *testing.T, what, text string) {
	t.Helper()
	for _, s := range []string{repoSecret, repoToken, "ghp_userToken"} {
		if strings.Contains(text, s) {
			t.Errorf("%s shows the secret %q: %s", what, s, text)
		}
	}
}

// Project files are those found in the current directory and its parents
// below home; the home directory's own files, ~/.claude.json's project
// section and --config files are the user's.
func TestTrustClassification(t *testing.T) {
	sc := newTrustScene(t)
	write(t, filepath.Join(sc.home, ".claude.json"), `{"projects": {"`+sc.repo+`": {"mcpServers": {"local-one": {"command": "x"}}}}}`)
	write(t, filepath.Join(sc.home, ".mcp.json"), `{"mcpServers": {"home-one": {"command": "x"}}}`)
	s := sc.discover(t)
	scopes := map[string]bool{}
	for _, e := range s.Entries() {
		scopes[e.Name+"@"+e.Source.Path] = e.Source.IsProject()
	}
	want := map[string]bool{
		"github@" + filepath.Join(sc.repo, ".mcp.json"):           true,
		"repo-tool@" + filepath.Join(sc.repo, ".mcp.json"):        true,
		"github@" + filepath.Join(sc.home, ".cursor", "mcp.json"): false,
		"local-one@" + filepath.Join(sc.home, ".claude.json"):     false,
	}
	for k, v := range want {
		if got, ok := scopes[k]; !ok || got != v {
			t.Errorf("%s: project %v (found %v), want %v", k, got, ok, v)
		}
	}
	if _, ok := scopes["home-one@"+filepath.Join(sc.home, ".mcp.json")]; ok {
		t.Errorf("~/.mcp.json was read from a project below home: %v", scopes)
	}

	// cwd is home: its dot files are the user's, not a project's.
	h, err := discover(Env{Cwd: sc.home, Home: sc.home}, "linux")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range h.Files() {
		if f.IsProject() {
			t.Errorf("with cwd = home, %s counts as a project file", f.Path)
		}
		if st, _, err := sc.store.State(f); st != NoTrustNeeded || err != nil {
			t.Errorf("%s: %v %v", f.Path, st, err)
		}
	}

	// --config: named by the user, no trust needed.
	l, err := Load(Env{Home: sc.home}, filepath.Join(sc.repo, ".mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	ch, err := l.Choose("github", Trust{Store: sc.store})
	if err != nil || ch.SetAside != nil || len(ch.Notices) != 0 || ch.Server.Command != "sh" {
		t.Errorf("--config: %+v %v", ch, err)
	}
}

// Untrusted, a project entry shadowing the user's is set aside for it,
// with a notice naming the file and what it would run, secrets masked.
func TestTrustShadowingUsesTheUsersEntry(t *testing.T) {
	sc := newTrustScene(t)
	ch, err := sc.choose(t, "github", false)
	if err != nil {
		t.Fatal(err)
	}
	if ch.Server.Command != "npx" || ch.Server.Source.IsProject() {
		t.Fatalf("chose %q from %s, want the user's npx", ch.Server.Command, ch.Server.Source.Path)
	}
	q := ch.SetAside
	if q == nil || q.State != Untrusted || !q.Ask() || q.Server != "github" || q.Shadows == nil || q.Shadows.Path != filepath.Join(sc.home, ".cursor", "mcp.json") {
		t.Fatalf("set aside: %+v", q)
	}
	if want := "sh -c 'echo PWNED > marker' --api-key *** [env GITHUB_TOKEN]"; q.Runs != want {
		t.Errorf("Runs = %q, want %q", q.Runs, want)
	}
	if len(ch.Notices) != 1 {
		t.Fatalf("notices: %q", ch.Notices)
	}
	n := ch.Notices[0]
	for _, part := range []string{`ignored server "github" of the project config ~/src/repo/.mcp.json (Claude Code)`, "which you have not trusted",
		"it would run: sh -c", "using yours from ~/.cursor/mcp.json (Cursor)", "--trust-project"} {
		if !strings.Contains(n, part) {
			t.Errorf("notice lacks %q: %s", part, n)
		}
	}
	noSecrets(t, "the notice", n+q.Text())
	// Judging stores nothing.
	if _, err := os.Stat(sc.store.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the store was written without an answer: %v", err)
	}
}

// A server only the project defines is refused, and the question is not
// resolved: its envFile is not even read (its variables would be listed).
func TestTrustProjectOnlyIsRefused(t *testing.T) {
	sc := newTrustScene(t)
	_, err := sc.choose(t, "repo-tool", false)
	u, ok := IsUntrusted(err)
	if !ok {
		t.Fatalf("err = %v, want an UntrustedError", err)
	}
	if u.Shadows != nil || u.Runs != "node tools/server.js" || !u.Ask() {
		t.Errorf("question: %+v", u.Question)
	}
	for _, part := range []string{`server "repo-tool" comes from the project config ~/src/repo/.mcp.json`, "which you have not trusted",
		"it would run: node tools/server.js", "pass --trust-project"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error lacks %q: %s", part, err)
		}
	}
	if strings.Contains(u.Text(), "n uses") || !strings.Contains(u.Text(), "n connects to nothing") {
		t.Errorf("dialog text: %s", u.Text())
	}
	// An unknown name is still Find's error.
	if _, err := sc.choose(t, "githb", false); err == nil || !strings.Contains(err.Error(), `did you mean "github"`) {
		t.Errorf("unknown name: %v", err)
	}
}

// --trust-project uses the project's entry and remembers its file; the
// file's other servers are trusted with it; a changed file is asked about
// again, and so is the same file at another path.
func TestTrustRememberedByPathAndHash(t *testing.T) {
	sc := newTrustScene(t)
	ch, err := sc.choose(t, "github", true)
	if err != nil || ch.Server.Command != "sh" || ch.SetAside != nil {
		t.Fatalf("--trust-project: %+v %v", ch, err)
	}
	if len(ch.Notices) != 1 || !strings.Contains(ch.Notices[0], "trusted the project config ~/src/repo/.mcp.json") {
		t.Errorf("notices: %q", ch.Notices)
	}
	s := sc.discover(t)
	src := sourceOf(t, s, filepath.Join(sc.repo, ".mcp.json"))
	if st, r, err := sc.store.State(src); st != Trusted || !r.At.Equal(sc.clock) || r.SHA256 != src.Hash || err != nil {
		t.Fatalf("state %v %+v %v", st, r, err)
	}
	for _, name := range []string{"github", "repo-tool"} {
		ch, err := sc.choose(t, name, false)
		if err != nil || !ch.Server.Source.IsProject() || ch.SetAside != nil || len(ch.Notices) != 0 {
			t.Errorf("%s once trusted: %+v %v", name, ch, err)
		}
	}
	// Trusted again with the flag: nothing new to say.
	if ch, _ := sc.choose(t, "github", true); len(ch.Notices) != 0 {
		t.Errorf("re-trusting says %q", ch.Notices)
	}

	// One byte more: asked again.
	path := filepath.Join(sc.repo, ".mcp.json")
	data, _ := os.ReadFile(path)
	write(t, path, string(data)+" ")
	ch, err = sc.choose(t, "github", false)
	if err != nil || ch.Server.Command != "npx" || ch.SetAside == nil || ch.SetAside.State != Changed || !ch.SetAside.Ask() {
		t.Fatalf("changed: %+v %v", ch, err)
	}
	if !strings.Contains(ch.Notices[0], "changed since you trusted it on 2026-12-01") {
		t.Errorf("notice: %s", ch.Notices[0])
	}

	// The same content at another path.
	other := filepath.Join(sc.home, "src", "fork")
	write(t, filepath.Join(other, ".mcp.json"), string(data))
	s2, _ := discover(Env{Cwd: other, Home: sc.home}, "linux")
	if st, _, _ := sc.store.State(sourceOf(t, s2, filepath.Join(other, ".mcp.json"))); st != Untrusted {
		t.Errorf("a copy elsewhere is %v, want untrusted", st)
	}
}

// A remembered "no" is not asked again: the user's entry is used with a
// notice saying so, and a project-only server is refused.
func TestTrustDeclined(t *testing.T) {
	sc := newTrustScene(t)
	s := sc.discover(t)
	if err := sc.store.Record(sourceOf(t, s, filepath.Join(sc.repo, ".mcp.json")), false); err != nil {
		t.Fatal(err)
	}
	ch, err := sc.choose(t, "github", false)
	if err != nil || ch.Server.Command != "npx" || ch.SetAside == nil || ch.SetAside.State != Declined || ch.SetAside.Ask() {
		t.Fatalf("declined: %+v %v", ch, err)
	}
	if !strings.Contains(ch.Notices[0], "which you chose not to trust on 2026-12-01") {
		t.Errorf("notice: %s", ch.Notices[0])
	}
	_, err = sc.choose(t, "repo-tool", false)
	if u, ok := IsUntrusted(err); !ok || u.Ask() {
		t.Errorf("declined project-only: %v", err)
	}
	// --trust-project overrides a remembered no.
	if ch, err := sc.choose(t, "repo-tool", true); err != nil || !ch.Server.Source.IsProject() {
		t.Errorf("--trust-project after a no: %+v %v", ch, err)
	}
}

// Nested projects: an untrusted nearer file is passed over for a trusted
// further one, and the notice does not call it the user's.
func TestTrustNestedProjects(t *testing.T) {
	sc := newTrustScene(t)
	if _, err := sc.choose(t, "github", true); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(sc.repo, "vendor", "dep")
	write(t, filepath.Join(sub, ".mcp.json"), `{"mcpServers": {"github": {"command": "evil"}}}`)
	s, _ := discover(Env{Cwd: sub, Home: sc.home}, "linux")
	ch, err := s.Choose("github", Trust{Store: sc.store})
	if err != nil || ch.Server.Command != "sh" || ch.SetAside == nil || ch.SetAside.File.Path != filepath.Join(sub, ".mcp.json") {
		t.Fatalf("nested: %+v %v", ch, err)
	}
	if !strings.Contains(ch.Notices[0], "using the one of the trusted project config ~/src/repo/.mcp.json") {
		t.Errorf("notice: %s", ch.Notices[0])
	}
}

// A store that cannot be used is a clear warning and counts every project
// file as untrusted, never a panic and never trust; the next answer moves
// it aside.
func TestTrustCorruptStore(t *testing.T) {
	for name, content := range map[string]string{
		"not json":      "{not json",
		"wrong version": `{"version": 7, "files": {}}`,
		"relative path": `{"version": 1, "files": {"repo/.mcp.json": {"sha256": "` + strings.Repeat("a", 64) + `", "trusted": true}}}`,
		"bad hash":      `{"version": 1, "files": {"/x/.mcp.json": {"sha256": "abc", "trusted": true}}}`,
		"null":          `null`,
		"binary":        "\x00\xff\xfe",
	} {
		t.Run(name, func(t *testing.T) {
			sc := newTrustScene(t)
			s := sc.discover(t)
			src := sourceOf(t, s, filepath.Join(sc.repo, ".mcp.json"))
			// Trust the file first, then break the store.
			if err := sc.store.Record(src, true); err != nil {
				t.Fatal(err)
			}
			write(t, sc.store.Path(), content)
			st, _, err := sc.store.State(src)
			var bad *TrustStoreError
			if st != Untrusted || !errors.As(err, &bad) || !strings.Contains(err.Error(), sc.store.Path()) ||
				!strings.Contains(err.Error(), "every project config counts as untrusted") {
				t.Fatalf("state %v, err %v", st, err)
			}
			ch, err := s.Choose("github", Trust{Store: sc.store})
			if err != nil || ch.Server.Command != "npx" || len(ch.Notices) != 2 || !strings.HasPrefix(ch.Notices[0], "warning: the trust store") {
				t.Fatalf("choose over a corrupt store: %+v %v", ch, err)
			}
			if l, err := s.ListTrust(sc.store); err == nil || l[0].Trust != Untrusted {
				t.Errorf("ListTrust over a corrupt store: %v", err)
			}
			if err := sc.store.Record(src, true); err != nil {
				t.Fatal(err)
			}
			if data, _ := os.ReadFile(sc.store.Path() + ".bad"); string(data) != content {
				t.Errorf("kept aside: %q", data)
			}
			if st, _, err := sc.store.State(src); st != Trusted || err != nil {
				t.Errorf("after the new answer: %v %v", st, err)
			}
		})
	}
	// A directory where the file should be: an error, not a panic.
	sc := newTrustScene(t)
	if err := os.MkdirAll(sc.store.Path(), 0o700); err != nil {
		t.Fatal(err)
	}
	if st, _, err := sc.store.State(sourceOf(t, sc.discover(t), filepath.Join(sc.repo, ".mcp.json"))); st != Untrusted || err == nil {
		t.Errorf("a directory as the store: %v %v", st, err)
	}
}

// No store (no state directory): nothing is remembered, --trust-project
// holds for the run and says so.
func TestTrustNoStore(t *testing.T) {
	sc := newTrustScene(t)
	s := sc.discover(t)
	ch, err := s.Choose("github", Trust{TrustProject: true})
	if err != nil || ch.Server.Command != "sh" || len(ch.Notices) != 1 || !strings.Contains(ch.Notices[0], "for this run only") {
		t.Fatalf("no store: %+v %v", ch, err)
	}
	var none *TrustStore
	if st, _, err := none.State(sourceOf(t, s, filepath.Join(sc.repo, ".mcp.json"))); st != Untrusted || err != nil {
		t.Errorf("nil store: %v %v", st, err)
	}
}

// The store keeps at most maxTrustRecords answers, dropping the oldest.
func TestTrustStoreBounded(t *testing.T) {
	sc := newTrustScene(t)
	recs := map[string]TrustRecord{}
	base := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range maxTrustRecords {
		recs[filepath.Join(sc.home, "p", strings.Repeat("x", i%7), time.Duration(i).String(), ".mcp.json")] =
			TrustRecord{SHA256: strings.Repeat("b", 64), Trusted: true, At: base.Add(time.Duration(i) * time.Minute)}
	}
	oldest := filepath.Join(sc.home, "p", "", time.Duration(0).String(), ".mcp.json")
	writeStore(t, sc.store, recs)
	src := sourceOf(t, sc.discover(t), filepath.Join(sc.repo, ".mcp.json"))
	if err := sc.store.Record(src, true); err != nil {
		t.Fatal(err)
	}
	got, err := sc.store.load()
	if err != nil || len(got) != maxTrustRecords {
		t.Fatalf("%d records, %v", len(got), err)
	}
	if _, ok := got[oldest]; ok {
		t.Error("the oldest answer was kept")
	}
	if st, _, _ := sc.store.State(src); st != Trusted {
		t.Errorf("the new answer: %v", st)
	}
}

func writeStore(t *testing.T, ts *TrustStore, recs map[string]TrustRecord) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(ts.Path()), 0o700); err != nil {
		t.Fatal(err)
	}
	f := trustFile{Version: 1, Files: recs}
	data, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ts.Path(), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// ListTrust marks each project entry with its file's trust, and the
// user's entry that --server falls back to.
func TestTrustListing(t *testing.T) {
	sc := newTrustScene(t)
	s := sc.discover(t)
	l, err := s.ListTrust(sc.store)
	if err != nil {
		t.Fatal(err)
	}
	byKey := map[string]Listing{}
	for _, x := range l {
		byKey[x.Name+"@"+filepath.Base(filepath.Dir(x.Source.Path))] = x
	}
	if x := byKey["github@repo"]; x.Trust != Untrusted || x.Shadowed || x.Fallback {
		t.Errorf("project github: %+v", x)
	}
	if x := byKey["github@.cursor"]; x.Trust != NoTrustNeeded || !x.Shadowed || !x.Fallback {
		t.Errorf("user github: %+v", x)
	}
	if _, err := s.Choose("github", Trust{Store: sc.store, TrustProject: true}); err != nil {
		t.Fatal(err)
	}
	l, _ = s.ListTrust(sc.store)
	for _, x := range l {
		if x.Name == "github" && x.Source.IsProject() && x.Trust != Trusted || x.Fallback {
			t.Errorf("once trusted: %+v", x)
		}
	}
}

// FuzzTrustStore: whatever the store file holds, judging never panics,
// an unusable store is a *TrustStoreError that leaves the file untrusted,
// and a file is Trusted only by a record of its own path and hash.
func FuzzTrustStore(f *testing.F) {
	hash := strings.Repeat("c", 64)
	f.Add([]byte(`{"version": 1, "files": {"/w/.mcp.json": {"sha256": "` + hash + `", "trusted": true, "at": "2026-12-01T09:00:00Z"}}}`))
	f.Add([]byte(`{"version": 1, "files": {"/w/.mcp.json": {"sha256": "` + hash + `", "trusted": false}}}`))
	f.Add([]byte(`{"version": 1, "files": {"/w/.mcp.json": {"sha256": "` + strings.Repeat("d", 64) + `", "trusted": true}}}`))
	f.Add([]byte(`{"version": 1, "files": null}`))
	f.Add([]byte(`{"version": 1, "files": {"/w/.mcp.json": {"sha256": "` + hash + `", "trusted": true, "at": "yesterday"}}}`))
	f.Add([]byte("{not json"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "trust.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		ts := NewTrustStore(path, nil)
		src := Source{Path: "/w/.mcp.json", Scope: "project", Hash: hash}
		st, r, err := ts.State(src)
		var bad *TrustStoreError
		if err != nil && (!errors.As(err, &bad) || st != Untrusted) {
			t.Fatalf("state %v with error %v", st, err)
		}
		if st == Trusted && (r.SHA256 != hash || !r.Trusted) {
			t.Fatalf("trusted by %+v", r)
		}
		if st2, _, _ := ts.State(Source{Path: "/w/.mcp.json", Scope: "project", Hash: strings.Repeat("e", 64)}); st2 == Trusted || st2 == Declined {
			t.Fatalf("another content is %v", st2)
		}
	})
}
