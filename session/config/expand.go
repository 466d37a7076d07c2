package config

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcpterm/mcpterm/convert/safe"
)

// expander resolves ${...} references for one server.
type expander struct {
	env    Env
	dir    string            // ${workspaceFolder}
	inputs map[string]string // VS Code input descriptions, for the error
	// bare also expands $VAR, as Gemini CLI does in its settings; other
	// clients pass a lone $ through, so it stays literal in their files.
	bare bool
	// secrets collects substituted values that are credentials, so they are
	// redacted wherever they end up (an argument, a URL).
	secrets []string
}

// maxExpandDepth bounds nested defaults such as ${A:-${B:-${C}}}.
const maxExpandDepth = 8

// expand replaces every reference in s; where names the field for errors.
// Text that merely looks like "${" without a closing brace stays as it is.
func (x *expander) expand(s, where string) (string, error) {
	return x.expandDepth(s, where, 0)
}

func (x *expander) expandDepth(s, where string, depth int) (string, error) {
	if !strings.Contains(s, "$") || (!x.bare && !strings.Contains(s, "${")) {
		return s, nil
	}
	if depth > maxExpandDepth {
		return "", fmt.Errorf("%s: variable defaults nested deeper than %d", where, maxExpandDepth)
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '$')
		if j < 0 {
			b.WriteString(s[i:])
			break
		}
		b.WriteString(s[i : i+j])
		i += j
		if i+1 < len(s) && s[i+1] == '{' {
			end := closing(s, i+2)
			if end < 0 {
				b.WriteString(s[i:])
				break
			}
			val, err := x.ref(s[i+2:end], where, depth)
			if err != nil {
				return "", err
			}
			b.WriteString(val)
			i = end + 1
			continue
		}
		if n := identLen(s[i+1:]); x.bare && n > 0 {
			name := s[i+1 : i+1+n]
			val, err := x.variable(name, "$"+name, where)
			if err != nil {
				return "", err
			}
			b.WriteString(val)
			i += 1 + n
			continue
		}
		b.WriteByte('$')
		i++
	}
	return b.String(), nil
}

// identLen is the length of the variable name s starts with (0 for none).
func identLen(s string) int {
	n := 0
	for n < len(s) {
		c := s[n]
		if c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || n > 0 && c >= '0' && c <= '9' {
			n++
			continue
		}
		break
	}
	return n
}

// closing finds the brace that closes a reference whose body starts at i,
// counting nested ${...}; -1 if there is none.
func closing(s string, i int) int {
	depth := 0
	for ; i < len(s); i++ {
		switch {
		case s[i] == '$' && i+1 < len(s) && s[i+1] == '{':
			depth++
			i++
		case s[i] == '}':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// ref resolves the body of one ${...}.
func (x *expander) ref(body, where string, depth int) (string, error) {
	switch body {
	case "userHome":
		if x.env.Home == "" {
			return "", fmt.Errorf("%s: ${userHome} used but the home directory is unknown", where)
		}
		return x.env.Home, nil
	case "workspaceFolder":
		return x.dir, nil
	case "workspaceFolderBasename":
		return filepath.Base(x.dir), nil
	case "pathSeparator", "/":
		return string(filepath.Separator), nil
	}
	if name, ok := strings.CutPrefix(body, "env:"); ok {
		if !isIdent(name) {
			return "", fmt.Errorf("%s: ${env:%s} is not a valid variable name", where, name)
		}
		return x.variable(name, "${env:"+name+"}", where)
	}
	if id, ok := strings.CutPrefix(body, "input:"); ok {
		what := ""
		if d := x.inputs[id]; d != "" {
			what = fmt.Sprintf(" (%q)", d)
		}
		return "", fmt.Errorf("%s: ${input:%s}%s is a value VS Code prompts for, which mcpterm cannot do; "+
			"put it in an environment variable and write ${env:NAME} instead", where, id, what)
	}
	name, def, hasDef := strings.Cut(body, ":-")
	if isIdent(name) {
		if hasDef {
			if v, ok := x.env.lookup(name); ok {
				x.note(name, v)
				return v, nil
			}
			return x.expandDepth(def, where, depth+1)
		}
		return x.variable(name, "${"+name+"}", where)
	}
	return "", fmt.Errorf("%s: unsupported variable ${%s} (mcpterm knows ${VAR}, ${VAR:-default}, ${env:VAR}, "+
		"${userHome}, ${workspaceFolder}, ${workspaceFolderBasename}, ${pathSeparator})", where, body)
}

func (x *expander) variable(name, spelled, where string) (string, error) {
	v, ok := x.env.lookup(name)
	if !ok {
		return "", fmt.Errorf("%s: environment variable %s is not set (used as %s; write ${%s:-} to allow it empty)",
			where, name, spelled, name)
	}
	x.note(name, v)
	return v, nil
}

// note remembers a substituted value as a secret when its variable's name or
// its shape says it is one.
func (x *expander) note(name, value string) {
	if safe.IsSecretName(name) || tokenLike(value) {
		x.secrets = append(x.secrets, value)
	}
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		switch {
		case c == '_', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// tokenLike reports values shaped like generated credentials: long, no
// spaces, letters and digits mixed, and not a path or URL. It catches the
// token in "env": {"X": "ghp_..."} whose name gives nothing away.
func tokenLike(v string) bool {
	if len(v) < 16 || strings.ContainsAny(v, " \t\n") || strings.HasPrefix(v, "/") ||
		strings.HasPrefix(v, "~") || strings.HasPrefix(v, ".") || strings.Contains(v, "://") ||
		(len(v) > 2 && v[1] == ':' && (v[2] == '\\' || v[2] == '/')) {
		return false
	}
	letters, digits := 0, 0
	for _, c := range v {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			letters++
		}
	}
	return letters > 0 && digits > 0
}
