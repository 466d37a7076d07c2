package ui

import (
	"net/url"
	"strings"
)

// templateVars lists the variable names of an RFC 6570 URI template in
// order of appearance (each once), for the form that asks for them.
func templateVars(tpl string) []string {
	var out []string
	seen := map[string]bool{}
	for _, expr := range templateExprs(tpl) {
		_, names := splitExpr(expr)
		for _, n := range names {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// templateExprs returns the {...} expressions of tpl, without braces.
func templateExprs(tpl string) []string {
	var out []string
	for {
		i := strings.IndexByte(tpl, '{')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(tpl[i:], '}')
		if j < 0 {
			return out
		}
		out = append(out, tpl[i+1:i+j])
		tpl = tpl[i+j+1:]
	}
}

// splitExpr separates an expression's operator from its variable names
// (modifiers like :3 and * are dropped).
func splitExpr(expr string) (op byte, names []string) {
	if expr != "" && strings.IndexByte("+#./;?&", expr[0]) >= 0 {
		op, expr = expr[0], expr[1:]
	}
	for _, v := range strings.Split(expr, ",") {
		v = strings.TrimSuffix(v, "*")
		if i := strings.IndexByte(v, ':'); i >= 0 {
			v = v[:i]
		}
		if v = strings.TrimSpace(v); v != "" {
			names = append(names, v)
		}
	}
	return op, names
}

// expandTemplate fills an RFC 6570 template (levels 1-3, which is what MCP
// resource templates use) with values; unset variables expand to nothing.
func expandTemplate(tpl string, values map[string]string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(tpl, '{')
		j := strings.IndexByte(tpl, '}')
		if i < 0 || j < i {
			b.WriteString(tpl)
			return b.String()
		}
		b.WriteString(tpl[:i])
		op, names := splitExpr(tpl[i+1 : j])
		tpl = tpl[j+1:]
		var parts []string
		for _, n := range names {
			v, ok := values[n]
			if !ok || (v == "" && op != '?' && op != '&') {
				continue
			}
			esc := url.PathEscape(v)
			if op == '+' || op == '#' {
				esc = strings.ReplaceAll(url.PathEscape(v), "%2F", "/")
			}
			switch op {
			case ';', '?', '&':
				parts = append(parts, n+"="+url.QueryEscape(v))
			default:
				parts = append(parts, esc)
			}
		}
		if len(parts) == 0 {
			continue
		}
		switch op {
		case 0, '+':
			b.WriteString(strings.Join(parts, ","))
		case '#':
			b.WriteString("#" + strings.Join(parts, ","))
		case '.':
			b.WriteString("." + strings.Join(parts, "."))
		case '/':
			b.WriteString("/" + strings.Join(parts, "/"))
		case ';':
			b.WriteString(";" + strings.Join(parts, ";"))
		case '?':
			b.WriteString("?" + strings.Join(parts, "&"))
		case '&':
			b.WriteString("&" + strings.Join(parts, "&"))
		}
	}
}
