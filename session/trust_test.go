package session

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/session/config"
)

// trustEnv is a home with a user config defining "github" and a project
// below it whose .mcp.json defines "github" and "solo".
func trustEnv(t *testing.T) Env {
	t.Helper()
	root := t.TempDir()
	home, proj := filepath.Join(root, "home"), filepath.Join(root, "home", "proj")
	for path, body := range map[string]string{
		filepath.Join(home, ".cursor", "mcp.json"): `{"mcpServers": {"github": {"command": "user-gh"}}}`,
		filepath.Join(proj, ".mcp.json"):           `{"mcpServers": {"github": {"command": "repo-gh", "args": ["--token", "ghp_repo0123456789abcdefghijklmnopqrstuv"]}, "solo": {"command": "repo-solo"}}}`,
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	state := filepath.Join(root, "state")
	return Env{Cwd: proj, Home: home, Getenv: func(k string) string {
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	}}
}

// Resolve applies the trust rule to --server: the user's entry wins over
// an untrusted project one, with the question and a notice on the Target;
// a project-only server is a usage error around a config.UntrustedError;
// --trust-project and AnswerTrust remember the file.
func TestResolveTrust(t *testing.T) {
	env := trustEnv(t)
	tgt, err := Resolve(Selection{Server: "github"}, env, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tgt.Source.Command != "user-gh" || tgt.Trust == nil || tgt.Trust.SetAside == nil || !tgt.Trust.SetAside.Ask() || len(tgt.Trust.Notices) != 1 {
		t.Fatalf("shadowing: %+v %+v", tgt.Source, tgt.Trust)
	}
	if strings.Contains(tgt.Trust.Notices[0], "ghp_repo") || !strings.Contains(tgt.Trust.Notices[0], "repo-gh --token ***") {
		t.Errorf("notice: %s", tgt.Trust.Notices[0])
	}

	_, err = Resolve(Selection{Server: "solo"}, env, Options{})
	var ue *UsageError
	if u, ok := config.IsUntrusted(err); !ok || !errors.As(err, &ue) || Classify(err) != ClassUsage || u.Server != "solo" {
		t.Fatalf("project-only: %T %v", err, err)
	}

	// The workbench's yes, then the same selection resolves to the repo's.
	if err := AnswerTrust(env, tgt.Trust.SetAside, true); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"github", "solo"} {
		tgt, err := Resolve(Selection{Server: name}, env, Options{})
		if err != nil || !strings.HasPrefix(tgt.Source.Command, "repo-") || len(tgt.Trust.Notices) != 0 {
			t.Errorf("%s after yes: %+v %v", name, tgt, err)
		}
	}
	if _, err := os.Stat(filepath.Join(env.Getenv("XDG_STATE_HOME"), "mcpterm", config.TrustFileName)); err != nil {
		t.Errorf("the store is not in the state directory: %v", err)
	}

	// --trust-project on a fresh state directory.
	env2 := trustEnv(t)
	tgt, err = Resolve(Selection{Server: "solo", TrustProject: true}, env2, Options{})
	if err != nil || tgt.Source.Command != "repo-solo" || len(tgt.Trust.Notices) != 1 || !strings.Contains(tgt.Trust.Notices[0], "trusted the project config") {
		t.Fatalf("--trust-project: %+v %v", tgt, err)
	}
	// Other selections carry no trust note, and take no --trust-project.
	if tgt, err := Resolve(Selection{}, env2, Options{}); err != nil || tgt.Trust != nil {
		t.Errorf("demo: %+v %v", tgt, err)
	}
	if _, err := Resolve(Selection{Command: []string{"x"}, TrustProject: true}, env2, Options{}); err == nil || err.Error() != "--trust-project needs --server NAME" || Classify(err) != ClassUsage {
		t.Errorf("--trust-project alone: %v", err)
	}
}
