package config

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// resolve turns a raw entry into a Server: transport decided, variables
// expanded, env file read, fields checked.
func (s *Set) resolve(e Entry) (Server, error) {
	fail := func(err error) (Server, error) {
		return Server{}, fmt.Errorf("config: %s: server %q: %w", e.Source.Path, e.Name, err)
	}
	v := e.raw
	if v.Kind != ojson.Object {
		return fail(fmt.Errorf("is a JSON %s, want an object", v.Kind))
	}
	if e.problem != nil {
		return fail(e.problem)
	}
	t, guessed, err := transportOf(v)
	if err != nil {
		return fail(err)
	}
	x := &expander{env: s.env, dir: e.dir, inputs: e.inputs, bare: e.Source.Format == Gemini}
	srv := Server{Name: e.Name, Transport: t, Guessed: guessed, Disabled: disabled(v), Source: e.Source}
	switch t {
	case Stdio:
		err = resolveStdio(&srv, v, x, e.dir)
	default:
		err = resolveHTTP(&srv, v, x)
	}
	if err != nil {
		return fail(err)
	}
	srv.secrets = x.secrets
	return srv, nil
}

func resolveStdio(srv *Server, v *ojson.Value, x *expander, dir string) error {
	cmd := v.Get("command")
	if cmd == nil || cmd.Kind != ojson.String || strings.TrimSpace(cmd.Str) == "" {
		return errors.New("\"command\" must be a non-empty string")
	}
	var err error
	if srv.Command, err = x.expand(cmd.Str, "command"); err != nil {
		return err
	}
	if args := v.Get("args"); args != nil && args.Kind != ojson.Null {
		if args.Kind != ojson.Array {
			return fmt.Errorf("\"args\" is a JSON %s, want an array of strings", args.Kind)
		}
		for i, a := range args.Items {
			where := fmt.Sprintf("args[%d]", i)
			text, err := scalar(a, where)
			if err != nil {
				return err
			}
			if text, err = x.expand(text, where); err != nil {
				return err
			}
			srv.Args = append(srv.Args, text)
		}
	}
	env := map[string]string{}
	if f := v.Get("envFile"); f != nil && f.Kind != ojson.Null {
		if f.Kind != ojson.String {
			return fmt.Errorf("\"envFile\" is a JSON %s, want a path", f.Kind)
		}
		path, err := x.expand(f.Str, "envFile")
		if err != nil {
			return err
		}
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		if err := readDotenv(path, env); err != nil {
			return err
		}
	}
	if ev := v.Get("env"); ev != nil && ev.Kind != ojson.Null {
		if ev.Kind != ojson.Object {
			return fmt.Errorf("\"env\" is a JSON %s, want an object of NAME: value", ev.Kind)
		}
		for _, m := range ev.Members {
			if m.Value.Kind == ojson.Null {
				continue // VS Code: null removes a variable; we only ever add
			}
			where := "env." + m.Key
			text, err := scalar(m.Value, where)
			if err != nil {
				return err
			}
			if env[m.Key], err = x.expand(text, where); err != nil {
				return err
			}
		}
	}
	if len(env) > 0 {
		srv.Env = env
	}
	if c := v.Get("cwd"); c != nil && c.Kind != ojson.Null {
		if c.Kind != ojson.String {
			return fmt.Errorf("\"cwd\" is a JSON %s, want a directory", c.Kind)
		}
		d, err := x.expand(c.Str, "cwd")
		if err != nil {
			return err
		}
		if d != "" && !filepath.IsAbs(d) {
			d = filepath.Join(dir, d)
		}
		srv.Dir = d
	}
	return nil
}

func resolveHTTP(srv *Server, v *ojson.Value, x *expander) error {
	u := urlField(v)
	if u == nil || u.Kind != ojson.String || strings.TrimSpace(u.Str) == "" {
		return errors.New("\"url\" must be a non-empty string")
	}
	raw, err := x.expand(u.Str, "url")
	if err != nil {
		return err
	}
	// The parse error of net/url quotes the URL, which may hold a token:
	// say what is wrong without it.
	parsed, err := url.Parse(raw)
	if err != nil {
		return errors.New("\"url\" is not a valid URL")
	}
	if parsed.Scheme != "http" && parsed.Scheme != "https" {
		return errors.New("\"url\" must start with http:// or https://")
	}
	if parsed.Host == "" {
		return errors.New("\"url\" has no host")
	}
	srv.URL = raw
	if h := v.Get("headers"); h != nil && h.Kind != ojson.Null {
		if h.Kind != ojson.Object {
			return fmt.Errorf("\"headers\" is a JSON %s, want an object of Name: value", h.Kind)
		}
		srv.Headers = map[string]string{}
		for _, m := range h.Members {
			where := "headers." + m.Key
			if !validHeaderName(m.Key) {
				return fmt.Errorf("%s: not a valid HTTP header name", where)
			}
			text, err := scalar(m.Value, where)
			if err != nil {
				return err
			}
			if text, err = x.expand(text, where); err != nil {
				return err
			}
			if strings.ContainsAny(text, "\r\n\x00") {
				return fmt.Errorf("%s: the value contains a line break or NUL", where)
			}
			srv.Headers[m.Key] = text
		}
	}
	return nil
}

// scalar reads a config value that should be a string; numbers and booleans
// are taken as written, since clients pass them on as text.
func scalar(v *ojson.Value, where string) (string, error) {
	switch v.Kind {
	case ojson.String:
		return v.Str, nil
	case ojson.Number:
		return string(v.Num), nil
	case ojson.Bool:
		return strconv.FormatBool(v.Bool), nil
	}
	return "", fmt.Errorf("%s is a JSON %s, want a string", where, v.Kind)
}

func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("()<>@,;:\\\"/[]?={}", c) >= 0 {
			return false
		}
	}
	return true
}

// readDotenv adds the KEY=VALUE lines of an env file (as VS Code's and
// Cursor's envFile read them) to env: # comments, optional "export ",
// single quotes taken literally, double quotes with \n \t \" \\ escapes.
func readDotenv(path string, env map[string]string) error {
	data, err := readBounded(path)
	if err != nil {
		return fmt.Errorf("envFile: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), maxFileSize)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		key, val, ok := strings.Cut(line, "=")
		key = strings.TrimSpace(key)
		if !ok || !isIdent(key) {
			return fmt.Errorf("envFile %s:%d: want NAME=value", path, n)
		}
		val = strings.TrimSpace(val)
		switch {
		case len(val) >= 2 && val[0] == '\'' && val[len(val)-1] == '\'':
			val = val[1 : len(val)-1]
		case len(val) >= 2 && val[0] == '"' && val[len(val)-1] == '"':
			val = strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\"`, `"`, `\\`, `\`).Replace(val[1 : len(val)-1])
		default:
			if i := strings.Index(val, " #"); i >= 0 {
				val = strings.TrimSpace(val[:i])
			}
		}
		env[key] = val
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("envFile %s: %w", path, err)
	}
	return nil
}
