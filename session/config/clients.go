package config

import (
	"errors"
	"fmt"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// normalize returns a copy of one server entry in the shape resolve reads
// (command, args, env, cwd, url, headers, type), whichever client's
// spelling the file used:
//
//   - Zed's older "command": {"path", "args", "env"} becomes command, args
//     and env; a Zed extension's server ("source": "extension" with no
//     command) is a problem: Zed starts it from the extension.
//   - Gemini CLI's "httpUrl" is a streamable HTTP url; in a Gemini CLI file
//     a plain "url" without a type is SSE, as Gemini CLI reads it.
//   - Codex's "http_headers" (literal), "env_http_headers" (header: VAR) and
//     "bearer_token_env_var" (VAR, sent as Authorization: Bearer) become
//     headers with ${VAR} references, so the expander resolves them and
//     their values are secrets like any header's; a Codex url is streamable
//     HTTP, the only HTTP transport Codex speaks.
//
// Entries that are not objects are returned as they are, for resolve to
// report.
func normalize(f Format, v *ojson.Value) (*ojson.Value, error) {
	if v == nil || v.Kind != ojson.Object {
		return v, nil
	}
	v = v.Clone()
	if c := v.Get("command"); c != nil && c.Kind == ojson.Object {
		path := c.Get("path")
		if path == nil {
			return v, errors.New("\"command\" is an object without \"path\"")
		}
		v.Set("command", path)
		for _, k := range []string{"args", "env"} {
			if x := c.Get(k); x != nil && v.Get(k) == nil {
				v.Set(k, x)
			}
		}
	}
	if src := v.Get("source"); src != nil && src.Kind == ojson.String && src.Str == "extension" &&
		v.Get("command") == nil && urlField(v) == nil {
		return v, errors.New("is provided by a Zed extension, which Zed starts itself; " +
			"give it a \"command\" (or a \"url\") in settings.json to reach it from mcpterm")
	}
	typed := v.Get("type") != nil || v.Get("transport") != nil
	if h := v.Get("httpUrl"); h != nil {
		// Gemini CLI prefers httpUrl over url and command.
		v.Set("url", h)
		v.Delete("httpUrl")
		if !typed {
			v.Set("type", ojson.NewString("http"))
		}
	} else if !typed && v.Get("url") != nil && v.Get("command") == nil {
		switch f {
		case Gemini:
			v.Set("type", ojson.NewString("sse"))
		case Codex:
			v.Set("type", ojson.NewString("http"))
		}
	}
	if err := codexHeaders(v); err != nil {
		return v, err
	}
	return v, nil
}

// codexHeaders folds Codex's header fields into "headers".
func codexHeaders(v *ojson.Value) error {
	literal, fromEnv, bearer := v.Get("http_headers"), v.Get("env_http_headers"), v.Get("bearer_token_env_var")
	if literal == nil && fromEnv == nil && bearer == nil {
		return nil
	}
	h := v.Get("headers")
	if h == nil || h.Kind != ojson.Object {
		h = ojson.NewObject()
	}
	if literal != nil {
		if literal.Kind != ojson.Object {
			return fmt.Errorf("\"http_headers\" is a %s, want a table of Name = value", literal.Kind)
		}
		for _, m := range literal.Members {
			h.Set(m.Key, m.Value)
		}
	}
	if fromEnv != nil {
		if fromEnv.Kind != ojson.Object {
			return fmt.Errorf("\"env_http_headers\" is a %s, want a table of Name = \"VARIABLE\"", fromEnv.Kind)
		}
		for _, m := range fromEnv.Members {
			if m.Value.Kind != ojson.String || !isIdent(m.Value.Str) {
				return fmt.Errorf("env_http_headers.%s: want the name of an environment variable", m.Key)
			}
			h.Set(m.Key, ojson.NewString("${"+m.Value.Str+"}"))
		}
	}
	if bearer != nil {
		if bearer.Kind != ojson.String || !isIdent(bearer.Str) {
			return errors.New("\"bearer_token_env_var\": want the name of an environment variable")
		}
		h.Set("Authorization", ojson.NewString("Bearer ${"+bearer.Str+"}"))
	}
	v.Set("headers", h)
	v.Delete("http_headers")
	v.Delete("env_http_headers")
	v.Delete("bearer_token_env_var")
	return nil
}
