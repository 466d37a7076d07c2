package config

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/safe"
)

// randomSecret makes a value that cannot occur by chance in any output.
func randomSecret(rng *rand.Rand, i int) string {
	const alpha = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := make([]byte, 6+rng.IntN(20))
	for k := range b {
		b[k] = alpha[rng.IntN(len(alpha))]
	}
	return fmt.Sprintf("S%d%s", i, b)
}

// everyView renders a server in every way a caller might print it.
func everyView(s Server) []string {
	r := s.Redacted()
	return []string{
		s.String(), s.GoString(), fmt.Sprint(s), fmt.Sprintf("%v %+v %#v %s", s, s, s, s),
		fmt.Sprintf("%v", r.Env), fmt.Sprintf("%v", r.Headers), strings.Join(r.Args, " "), r.URL, r.Command, r.String(),
		safe.Redact(fmt.Sprintf("%v %v %v %v", s.Env, s.Headers, s.Args, s.URL), s.Secrets()),
	}
}

func TestPropertySecretsNeverShown(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for round := range 300 {
		envSecret := randomSecret(rng, round)
		hdrSecret := randomSecret(rng, round+1000)
		varSecret := randomSecret(rng, round+2000)
		urlPw := randomSecret(rng, round+3000)
		argTok := randomSecret(rng, round+4000)
		short := fmt.Sprintf("v%d", round%10) // a short env value: masked in views, not a redaction target
		getenv := envOf("MY_API_TOKEN", varSecret)
		stdio := ojson.NewObject()
		stdio.Set("command", ojson.NewString("server"))
		stdio.Set("args", ojson.NewArray(ojson.NewString("--api-key"), ojson.NewString(argTok),
			ojson.NewString("--token=${MY_API_TOKEN}"), ojson.NewString("postgres://u:"+urlPw+"@h/db")))
		env := ojson.NewObject()
		env.Set("WHATEVER", ojson.NewString(envSecret))
		env.Set("SHORT", ojson.NewString(short))
		env.Set("FROM_VAR", ojson.NewString("${MY_API_TOKEN}"))
		stdio.Set("env", env)
		remote := ojson.NewObject()
		remote.Set("url", ojson.NewString("https://user:"+urlPw+"@example.com/mcp?api_key="+argTok+"&x=1"))
		h := ojson.NewObject()
		h.Set("Authorization", ojson.NewString("Bearer "+hdrSecret))
		h.Set("X-Custom", ojson.NewString(hdrSecret+"x"))
		h.Set("X-Var", ojson.NewString("${MY_API_TOKEN}"))
		remote.Set("headers", h)
		top := ojson.NewObject()
		servers := ojson.NewObject()
		servers.Set("s", stdio)
		servers.Set("r", remote)
		top.Set("mcpServers", servers)
		p := filepath.Join(t.TempDir(), "mcp.json")
		write(t, p, top.Pretty())
		set, err := Load(Env{Getenv: getenv}, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"s", "r"} {
			srv := mustFind(t, set, name)
			secrets := []string{envSecret, hdrSecret, varSecret, urlPw, argTok}
			for _, view := range everyView(srv) {
				for _, sec := range secrets {
					if strings.Contains(view, sec) {
						t.Fatalf("server %s: secret %q shown in %q", name, sec, view)
					}
				}
			}
			r := srv.Redacted()
			for k, v := range r.Env {
				if v != safe.Mask {
					t.Fatalf("Redacted env %s = %q", k, v)
				}
			}
		}
		// errors raised after secrets were read must not quote them
		bad := ojson.NewObject()
		bad.Set("command", ojson.NewString("x"))
		benv := ojson.NewObject()
		benv.Set("TOKEN", ojson.NewString(envSecret))
		benv.Set("LATER", ojson.NewString("${UNSET_VAR_"+fmt.Sprint(round)+"}"))
		bad.Set("env", benv)
		badURL := ojson.NewObject()
		badURL.Set("url", ojson.NewString("ftp://u:"+urlPw+"@h/"))
		badURL2 := ojson.NewObject()
		badURL2.Set("url", ojson.NewString("http://h/%zz"+urlPw))
		badHdr := ojson.NewObject()
		badHdr.Set("url", ojson.NewString("http://h/"))
		bh := ojson.NewObject()
		bh.Set("Authorization", ojson.NewString(hdrSecret+"\r\nInjected: 1"))
		badHdr.Set("headers", bh)
		servers = ojson.NewObject()
		servers.Set("bad", bad)
		servers.Set("badurl", badURL)
		servers.Set("badurl2", badURL2)
		servers.Set("badhdr", badHdr)
		top = ojson.NewObject()
		top.Set("mcpServers", servers)
		write(t, p, top.Compact())
		set, err = Load(Env{}, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"bad", "badurl", "badurl2", "badhdr"} {
			_, _, err := set.Find(name)
			if err == nil {
				t.Fatalf("%s: want an error", name)
			}
			for _, sec := range []string{envSecret, urlPw, hdrSecret} {
				if strings.Contains(err.Error(), sec) {
					t.Fatalf("%s: error shows secret: %v", name, err)
				}
			}
		}
	}
}

func TestSecretsList(t *testing.T) {
	s := Server{
		Env:     map[string]string{"NODE_ENV": "production", "ROOT": "/home/u/projects/alpha2024", "GITHUB_TOKEN": "abc", "X": "q8Zr2LmN4pT7vW1yA3bC"},
		Headers: map[string]string{"Authorization": "Bearer tok-123456", "Accept": "application/json"},
		Args:    []string{"--port", "8080", "--password", "pw-secret", "API_KEY=k-secret-1", "q8Zr2LmN4pT7vW1yXXXX"},
	}
	got := strings.Join(s.Secrets(), "|")
	for _, want := range []string{"abc", "q8Zr2LmN4pT7vW1yA3bC", "Bearer tok-123456", "tok-123456", "pw-secret", "k-secret-1", "q8Zr2LmN4pT7vW1yXXXX"} {
		if !strings.Contains(got, want) {
			t.Errorf("Secrets() = %s: missing %q", got, want)
		}
	}
	for _, not := range []string{"production", "/home/u/projects/alpha2024", "application/json", "8080"} {
		if strings.Contains(got, not) {
			t.Errorf("Secrets() = %s: %q is not a credential", got, not)
		}
	}
	r := s.Redacted()
	if r.Headers["Authorization"] != "Bearer ***" || r.Headers["Accept"] != "***" {
		t.Errorf("headers %v", r.Headers)
	}
	if strings.Join(r.Args, " ") != "--port 8080 --password *** API_KEY=*** ***" {
		t.Errorf("args %q", r.Args)
	}
	if s.Env["GITHUB_TOKEN"] != "abc" {
		t.Error("Redacted changed the original")
	}
}
