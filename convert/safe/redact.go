package safe

import (
	"bytes"
	"sort"
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// Mask is what a redacted secret becomes.
const Mask = "***"

// MinSecretLen is the shortest value that is hidden as a secret wherever it
// occurs. Shorter values ("1", "yes", "dev") are too common to hide without
// garbling unrelated text, and too short to be credentials; places that know
// a value is secret (an env map, a header) mask it whole whatever its length.
const MinSecretLen = 4

// Redactor hides a fixed set of secret values. It is immutable and safe for
// concurrent use; build one per session from the config's secrets and hand it
// to history, the audit log and the protocol trace.
type Redactor struct {
	r *strings.Replacer
	// star is set when a secret contains '*', so that masking could form a
	// new occurrence ("a***" in "aa***") and Redact must repeat to a fixed point.
	star bool
}

// NewRedactor prepares a redactor for secrets. Each secret is also hidden in
// its JSON-escaped spelling, so it cannot slip through inside a JSON
// document. Empty and short (< MinSecretLen) values are ignored.
func NewRedactor(secrets []string) *Redactor {
	seen := map[string]bool{}
	var all []string
	add := func(s string) {
		if len(s) >= MinSecretLen && !seen[s] {
			seen[s] = true
			all = append(all, s)
		}
	}
	for _, s := range secrets {
		add(s)
		q := ojson.Quote(s)
		add(q[1 : len(q)-1])
	}
	if len(all) == 0 {
		return &Redactor{}
	}
	// Longest first: where secrets overlap, the longer one is hidden whole.
	sort.Slice(all, func(i, j int) bool {
		if len(all[i]) != len(all[j]) {
			return len(all[i]) > len(all[j])
		}
		return all[i] < all[j]
	})
	pairs := make([]string, 0, 2*len(all))
	for _, s := range all {
		pairs = append(pairs, s, Mask)
	}
	star := false
	for _, s := range all {
		star = star || strings.Contains(s, "*")
	}
	return &Redactor{r: strings.NewReplacer(pairs...), star: star}
}

// Redact returns text with every secret replaced by "***". A nil Redactor
// changes nothing.
func (r *Redactor) Redact(text string) string {
	if r == nil || r.r == nil {
		return text
	}
	out := r.r.Replace(text)
	for r.star && out != text { // each round shortens the text, so this ends
		text, out = out, r.r.Replace(out)
	}
	return out
}

// Redact is NewRedactor(secrets).Redact(text), for one-off use.
func Redact(text string, secrets []string) string {
	return NewRedactor(secrets).Redact(text)
}

// JSON returns a redacted copy of a JSON document: every string, key and
// number goes through Redact, and a string member whose key names a
// credential (IsSecretArg) becomes "***" whole. Member order is kept.
// Input that is not JSON comes back as a JSON string of its redacted text,
// so the result is always valid JSON; empty input stays empty.
func (r *Redactor) JSON(raw []byte) []byte {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	v, err := ojson.Parse(raw)
	if err != nil {
		return []byte(ojson.Quote(r.Redact(string(raw))))
	}
	r.value(v)
	return []byte(v.Compact())
}

func (r *Redactor) value(v *ojson.Value) {
	switch v.Kind {
	case ojson.String:
		v.Str = r.Redact(v.Str)
	case ojson.Number:
		if red := r.Redact(string(v.Num)); red != string(v.Num) {
			*v = ojson.Value{Kind: ojson.String, Str: red}
		}
	case ojson.Array:
		for _, it := range v.Items {
			r.value(it)
		}
	case ojson.Object:
		for i := range v.Members {
			m := &v.Members[i]
			m.Key = r.Redact(m.Key)
			if m.Value.Kind == ojson.String && IsSecretArg(m.Key) {
				m.Value = ojson.NewString(Mask)
				continue
			}
			r.value(m.Value)
		}
	}
}

// secretArgWords mark tool-argument names that carry credentials. The list
// is narrower than IsSecretName's: arguments named "key", "author" or
// "sort_key" are everyday data, and masking them would make history entries
// useless for re-running.
var secretArgWords = []string{
	"password", "passwd", "passphrase", "secret", "token", "apikey",
	"accesskey", "privatekey", "authorization", "credential", "cookie",
}

// IsSecretArg reports whether a tool argument (or JSON member) name holds a
// credential: password, api_key, apiKey, access_token, client_secret,
// Authorization... Case, '-' and '_' are ignored.
func IsSecretArg(name string) bool {
	n := strings.NewReplacer("_", "", "-", "", ".", "").Replace(strings.ToLower(name))
	for _, w := range secretArgWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// secretWords are the name fragments that mark a credential, matched
// case-insensitively anywhere in a header or variable name.
var secretWords = []string{
	"TOKEN", "SECRET", "KEY", "PASS", "PWD",
	"CREDENTIAL", "AUTH", "COOKIE", "SESSION", "PRIVATE", "SIGNATURE", "CERT",
}

// IsSecretName reports whether a header, variable or argument name looks
// like it holds a credential: Authorization, Proxy-Authorization, Cookie,
// X-Api-Key, GITHUB_TOKEN, client_secret, DB_PASSWORD and the like. It errs
// towards yes (KEYBOARD matches), because a hidden harmless value costs far
// less than a shown token. PWD itself, the working directory, is exempt.
func IsSecretName(name string) bool {
	u := strings.ToUpper(name)
	if u == "PWD" || u == "OLDPWD" {
		return false
	}
	for _, w := range secretWords {
		if strings.Contains(u, w) {
			return true
		}
	}
	return false
}
