package aql

import (
	"strconv"
	"strings"
)

// reserved are the operation names the spec keeps for protocol use (8.5.4);
// a tool that would take one gets a "_tool" suffix instead.
var reserved = map[string]bool{
	"introspect":            true,
	"execute_agent":         true,
	"record_execution_step": true,
	"complete_execution":    true,
	"abort_execution":       true,
	"confirm_operation":     true,
	"verify_challenge":      true,
}

// IsReserved reports whether name is an operation name the spec reserves.
func IsReserved(name string) bool { return reserved[name] }

// ValidName reports whether s matches the spec's ^[a-z][a-z0-9_]*$, the
// form every operation and parameter name must take.
func ValidName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// Words splits a name written in any convention (snake_case, kebab-case,
// camelCase, PascalCase, dotted, "API-get-user", "HTMLParser2") into
// lowercase ASCII words. Digits stay with the letters before them ("v2").
// Anything that is not an ASCII letter or digit separates words, so names
// in other scripts yield no words at all.
func Words(s string) []string {
	var words []string
	var cur []byte
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = cur[:0]
		}
	}
	b := []byte(s)
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			cur = append(cur, c)
		case c >= 'A' && c <= 'Z':
			if len(cur) > 0 {
				prev := b[i-1]
				lowerBefore := prev >= 'a' && prev <= 'z' || prev >= '0' && prev <= '9'
				upperBefore := prev >= 'A' && prev <= 'Z'
				lowerAfter := i+1 < len(b) && b[i+1] >= 'a' && b[i+1] <= 'z'
				// getUser: a capital after a lowercase starts a word;
				// HTMLParser: the last capital of a run starts one too.
				if lowerBefore || upperBefore && lowerAfter {
					flush()
				}
			}
			cur = append(cur, c+('a'-'A'))
		default:
			flush()
		}
	}
	flush()
	return words
}

// SnakeName is the snake_case form of any name: "API-get-user" -> "api_get_user",
// "getUserByID" -> "get_user_by_id". The result always satisfies ValidName:
// a name with no usable characters becomes "op", one that would start with
// a digit gets an "op_" prefix.
func SnakeName(s string) string {
	n := strings.Join(Words(s), "_")
	switch {
	case n == "":
		return "op"
	case n[0] >= '0' && n[0] <= '9':
		return "op_" + n
	}
	return n
}

// uniqueNames assigns each input name a distinct snake_case name. Fixed
// entries (from an override file, "" when absent) are taken as given and
// must already be distinct; then names that are already valid snake_case keep
// themselves; then the rest take their SnakeName, with _2, _3 ... added on a
// clash and "_tool" added to reserved names. Order of the input decides who
// keeps the plain name, so the result is deterministic.
func uniqueNames(names, fixed []string) []string {
	out := make([]string, len(names))
	taken := map[string]bool{}
	for i, f := range fixed {
		if f != "" {
			out[i] = f
			taken[f] = true
		}
	}
	for i, n := range names {
		if out[i] == "" && ValidName(n) && !reserved[n] && !taken[n] {
			out[i] = n
			taken[n] = true
		}
	}
	for i, n := range names {
		if out[i] != "" {
			continue
		}
		base := SnakeName(n)
		if reserved[base] {
			base += "_tool"
		}
		cand := base
		for k := 2; taken[cand]; k++ {
			cand = base + "_" + strconv.Itoa(k)
		}
		out[i] = cand
		taken[cand] = true
	}
	return out
}
