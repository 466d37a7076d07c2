package auth

import (
	"net/http"
	"strings"
)

// Challenge is one WWW-Authenticate challenge: its scheme and parameters
// (names lower-cased). Only Bearer challenges matter here.
type Challenge struct {
	Scheme string
	Params map[string]string
}

// Bounds for parsing a server's (untrusted) challenges.
const (
	maxChallengeBytes  = 8 << 10
	maxChallengeParams = 32
)

// bearerChallenge returns the first Bearer challenge of h's
// WWW-Authenticate headers, or a zero Challenge.
func bearerChallenge(h http.Header) Challenge {
	for _, line := range h.Values("WWW-Authenticate") {
		for _, c := range ParseChallenges(line) {
			if strings.EqualFold(c.Scheme, "bearer") {
				return c
			}
		}
	}
	return Challenge{}
}

// ParseChallenges reads a WWW-Authenticate header value (RFC 9110 §11.6.1):
// challenges, each a scheme followed by auth-params (name=token or
// name="quoted string") separated by commas. A token68 is skipped. Input is
// cut at maxChallengeBytes and at most maxChallengeParams are kept per
// challenge; malformed parts are skipped, never an error.
func ParseChallenges(s string) []Challenge {
	if len(s) > maxChallengeBytes {
		s = s[:maxChallengeBytes]
	}
	var out []Challenge
	var cur *Challenge
	i := 0
	for i < len(s) {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == ',') {
			i++
		}
		start := i
		for i < len(s) && isTokenChar(s[i]) {
			i++
		}
		name := s[start:i]
		if name == "" {
			i++ // a stray character
			continue
		}
		j := i
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if j < len(s) && s[j] == '=' && cur != nil {
			// name=value; but "abc==" is a token68 of a new scheme.
			k := j + 1
			if k < len(s) && s[k] == '=' {
				for i < len(s) && s[i] != ',' {
					i++
				}
				continue
			}
			for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
				k++
			}
			val, next := readParamValue(s, k)
			i = next
			if len(cur.Params) < maxChallengeParams {
				key := strings.ToLower(name)
				if _, dup := cur.Params[key]; !dup {
					cur.Params[key] = val
				}
			}
			continue
		}
		// A scheme name starts a new challenge; a token68 may follow.
		out = append(out, Challenge{Scheme: name, Params: map[string]string{}})
		cur = &out[len(out)-1]
		i = j
		if i < len(s) && s[i] != ',' {
			// A token68 or the first param: look ahead for '='.
			k := i
			for k < len(s) && isTokenChar(s[k]) {
				k++
			}
			m := k
			for m < len(s) && (s[m] == ' ' || s[m] == '\t') {
				m++
			}
			if m >= len(s) || s[m] != '=' || (m+1 < len(s) && s[m+1] == '=') {
				// token68: skip to the next comma.
				for i < len(s) && s[i] != ',' {
					i++
				}
			}
		}
	}
	return out
}

// readParamValue reads a token or a quoted string at s[i:], returning the
// value and the index after it.
func readParamValue(s string, i int) (string, int) {
	if i < len(s) && s[i] == '"' {
		var b strings.Builder
		i++
		for i < len(s) {
			c := s[i]
			switch {
			case c == '\\' && i+1 < len(s):
				b.WriteByte(s[i+1])
				i += 2
			case c == '"':
				return b.String(), i + 1
			default:
				b.WriteByte(c)
				i++
			}
		}
		return b.String(), i
	}
	start := i
	for i < len(s) && isTokenChar(s[i]) {
		i++
	}
	return s[start:i], i
}

// isTokenChar is RFC 9110's tchar, plus '/' and ':' so that an unquoted
// URL survives (servers do send them unquoted).
func isTokenChar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~/:", c) >= 0
}

// scopes splits a space-separated scope string.
func scopes(s string) []string { return strings.Fields(s) }
