package session

import (
	"fmt"
	"net/url"
	"runtime"
	"strings"

	"github.com/mcpterm/mcpterm/convert/safe"
)

// A stdio server is someone else's program: it gets a small environment
// that lets programs run, not mcpterm's whole one, so the tokens a shell
// exports for other tools (GITHUB_TOKEN, OPENAI_API_KEY, AWS_*) do not reach
// every server tried. The list follows the official TypeScript SDK's
// getDefaultEnvironment (HOME, LOGNAME, PATH, SHELL, TERM, USER; on
// Windows the system directories and the user's profile) and adds what
// servers commonly need to behave like they do in a shell and that never
// holds a credential: the locale (LANG, LANGUAGE, LC_*), the time zone
// (TZ), the temporary directory (TMPDIR: macOS gives each user their own)
// and the XDG base directories (where npx, uvx and pip keep their caches
// and configs). Proxies (HTTPS_PROXY, ...) are not passed by default because
// their URLs often carry a password; --env HTTPS_PROXY passes one.
var (
	posixDefaultEnv = []string{
		"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER",
		"LANG", "LANGUAGE", "TZ", "TMPDIR",
		"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR",
		"XDG_CONFIG_DIRS", "XDG_DATA_DIRS",
	}
	windowsDefaultEnv = []string{
		"APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PATHEXT", "PROCESSOR_ARCHITECTURE",
		"PROGRAMFILES", "SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "TMP", "USERNAME", "USERPROFILE",
	}
)

// DefaultEnvNames lists the variables a stdio server gets from mcpterm's
// environment unless --inherit-env is given (plus every LC_* on POSIX).
func DefaultEnvNames() []string { return defaultEnvNames(runtime.GOOS) }

func defaultEnvNames(goos string) []string {
	if goos == "windows" {
		return append([]string(nil), windowsDefaultEnv...)
	}
	return append([]string(nil), posixDefaultEnv...)
}

// isDefaultEnv reports whether name is passed to servers by default.
// Windows names are case-insensitive ("Path").
func isDefaultEnv(goos, name string) bool {
	if goos == "windows" {
		name = strings.ToUpper(name)
	} else if strings.HasPrefix(name, "LC_") {
		return true
	}
	for _, n := range defaultEnvNames(goos) {
		if n == name {
			return true
		}
	}
	return false
}

// serverEnv is a stdio server's environment: the default variables of
// environ (or all of it when inherit is set), then extra (the config
// entry's env block and --env) over them. A default variable whose value
// starts with "()" is left out, as the SDK does: it is a bash exported
// function, which some shells run on start (Shellshock).
func serverEnv(environ []string, inherit bool, extra map[string]string) []string {
	return serverEnvFor(runtime.GOOS, environ, inherit, extra)
}

func serverEnvFor(goos string, environ []string, inherit bool, extra map[string]string) []string {
	base := environ
	if !inherit {
		base = make([]string, 0, len(posixDefaultEnv)+4)
		for _, kv := range environ {
			k, v, ok := strings.Cut(kv, "=")
			if ok && k != "" && isDefaultEnv(goos, k) && !strings.HasPrefix(v, "()") {
				base = append(base, kv)
			}
		}
	}
	return mergeEnv(base, extra)
}

// envSecrets are the values of environ (KEY=VALUE entries) to hide in every
// output: those of variables named like credentials (safe.IsSecretEnv)
// that look like one (safe.SecretValue), and the password of any value
// that is a URL with user info (DATABASE_URL=postgres://u:pw@db,
// HTTPS_PROXY=http://u:pw@proxy). They are hidden whether or not the
// server gets them: a server may find them by other means, and the trace
// and history record what it says.
func envSecrets(environ []string) []string {
	var out []string
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		out = append(out, namedSecrets(k, v)...)
	}
	return out
}

// namedSecrets is what envSecrets hides of one variable.
func namedSecrets(name, value string) []string {
	var out []string
	if safe.IsSecretEnv(name) && safe.SecretValue(value) {
		out = append(out, value)
	}
	if strings.Contains(value, "://") {
		if u, err := url.Parse(strings.TrimSpace(value)); err == nil && u.User != nil {
			if p, ok := u.User.Password(); ok && p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// parseEnvFlags reads the --env values: NAME=VALUE sets NAME; a bare NAME
// passes NAME's value from getenv (as docker run -e does), so a token need
// not be written on the command line, where ps and the shell's history see
// it. Later values win. It returns the variables and the secrets among
// them (namedSecrets).
func parseEnvFlags(flags []string, getenv func(string) string) (map[string]string, []string, error) {
	if len(flags) == 0 {
		return nil, nil, nil
	}
	out := make(map[string]string, len(flags))
	var secrets []string
	for _, f := range flags {
		name, value, hasValue := strings.Cut(f, "=")
		if err := checkEnvName(name); err != nil {
			return nil, nil, fmt.Errorf("--env %q: %w", clipArg(f), err)
		}
		if !hasValue {
			value = getenv(name)
			if value == "" {
				return nil, nil, fmt.Errorf("--env %s: the variable is empty or unset here (give --env %s=VALUE to set it)", name, name)
			}
		}
		if strings.ContainsRune(value, 0) {
			return nil, nil, fmt.Errorf("--env %s: the value may not contain NUL", name)
		}
		out[name] = value
		secrets = append(secrets, namedSecrets(name, value)...)
	}
	return out, secrets, nil
}

// checkEnvName accepts what a process environment can hold as a name:
// not empty, no '=' or NUL (the flag's own syntax and the OS's).
func checkEnvName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("want NAME=VALUE or NAME")
	case strings.ContainsAny(name, "\x00 \t\r\n"):
		return fmt.Errorf("a variable name may not contain blanks or NUL")
	}
	return nil
}

// mergeEnvMaps is a copy of base with over's entries over it; nil when
// both are empty.
func mergeEnvMaps(base, over map[string]string) map[string]string {
	if len(base) == 0 && len(over) == 0 {
		return base
	}
	out := make(map[string]string, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		out[k] = v
	}
	return out
}
