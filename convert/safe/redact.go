package safe

import (
	"bytes"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// Mask is what a redacted secret becomes.
const Mask = "***"

// MinSecretLen is the shortest value that is hidden as a secret wherever it
// occurs. Shorter values ("1", "yes", "dev") are too common to hide without
// garbling unrelated text, and too short to be credentials; places that know
// a value is secret (an env map, a header) mask it whole whatever its length.
const MinSecretLen = 4

// Redactor hides a set of secret values. It is safe for concurrent use;
// build one per session from the config's secrets and hand it to history,
// the audit log and the protocol trace. The set only grows: Add and AddArgs
// extend it (a secret named by the environment, a password typed into a
// call), and every holder of the pointer hides the new values from then on.
type Redactor struct {
	mu    sync.Mutex // serialises Add
	state atomic.Pointer[redactState]
}

// redactState is one immutable generation of a Redactor's secrets.
type redactState struct {
	all []string // every spelling hidden, longest first
	r   *strings.Replacer
	// star is set when a secret contains '*', so that masking could form a
	// new occurrence ("a***" in "aa***") and Redact must repeat to a fixed point.
	star bool
	// longest is the length of the longest spelling, the margin Cut reads
	// past its bound so that no secret is split by the cut.
	longest int
}

// NewRedactor prepares a redactor for secrets. Each secret is also hidden in
// its JSON-escaped spelling, so it cannot slip through inside a JSON
// document. Empty and short (< MinSecretLen) values are ignored.
func NewRedactor(secrets []string) *Redactor {
	r := &Redactor{}
	r.Add(secrets...)
	return r
}

// Add extends the set with secrets (the same rules as NewRedactor). A nil
// Redactor ignores it; values already known cost nothing.
func (r *Redactor) Add(secrets ...string) {
	if r == nil || len(secrets) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.state.Load()
	seen := map[string]bool{}
	var all []string
	if old != nil {
		all = append(all, old.all...)
		for _, s := range old.all {
			seen[s] = true
		}
	}
	grew := false
	add := func(s string) {
		if len(s) >= MinSecretLen && !seen[s] {
			seen[s] = true
			all = append(all, s)
			grew = true
		}
	}
	for _, s := range secrets {
		add(s)
		q := ojson.Quote(s)
		add(q[1 : len(q)-1])
	}
	if !grew {
		return
	}
	// Longest first: where secrets overlap, the longer one is hidden whole.
	sort.Slice(all, func(i, j int) bool {
		if len(all[i]) != len(all[j]) {
			return len(all[i]) > len(all[j])
		}
		return all[i] < all[j]
	})
	pairs := make([]string, 0, 2*len(all))
	star := false
	for _, s := range all {
		pairs = append(pairs, s, Mask)
		star = star || strings.Contains(s, "*")
	}
	r.state.Store(&redactState{all: all, r: strings.NewReplacer(pairs...), star: star, longest: len(all[0])})
}

// Redact returns text with every secret replaced by "***". A nil Redactor
// changes nothing.
func (r *Redactor) Redact(text string) string {
	if r == nil {
		return text
	}
	st := r.state.Load()
	if st == nil {
		return text
	}
	out := st.r.Replace(text)
	for st.star && out != text { // each round shortens the text, so this ends
		text, out = out, st.r.Replace(out)
	}
	return out
}

// Cut redacts text and then bounds it to max bytes as safe.Cut does, so a
// secret that straddles the bound is hidden whole instead of leaving its
// clear start behind (cutting first and redacting after cannot match a
// half secret). Only a window of text is redacted, never less than
// 4×(max + the longest secret): a mask is at most a quarter shorter than
// what it hides, so a secret cut off by the window's end still lies past
// max in the redacted text. The count is the bytes left out, of the
// redacted window plus whatever lay beyond it.
func (r *Redactor) Cut(text string, max int) (string, int) {
	if max <= 0 {
		return r.Redact(text), 0
	}
	if w := r.window(max); len(text) > w {
		return cutWithBeyond(r.Redact(text[:w]), max, len(text)-w)
	}
	return Cut(r.Redact(text), max)
}

// cutWithBeyond is Cut(s, bound) for an s followed by beyond more bytes
// not at hand: the marker counts them too. s is longer than bound (a
// redacted window is at least 3×bound).
func cutWithBeyond(s string, bound, beyond int) (string, int) {
	total := len(s) + beyond
	keep := min(max(0, bound-len(marker(total))), len(s))
	for keep > 0 && !utf8.RuneStart(s[keep]) {
		keep--
	}
	return s[:keep] + marker(total-keep), total - keep
}

// CutBytes is Cut for bytes, copying only the window it redacts (a huge
// message costs no more than a small one).
func (r *Redactor) CutBytes(b []byte, max int) (string, int) {
	if w := r.window(max); max > 0 && len(b) > w {
		return cutWithBeyond(r.Redact(string(b[:w])), max, len(b)-w)
	}
	return r.Cut(string(b), max)
}

// window is how much of a text Cut redacts for a bound of max bytes.
func (r *Redactor) window(max int) int {
	longest := 0
	if r != nil {
		if st := r.state.Load(); st != nil {
			longest = st.longest
		}
	}
	return 4 * (max + longest)
}

// AddArgs learns the values of tool arguments named like credentials
// (IsSecretArg: password, api_key, access_token, ...) anywhere in args (a
// JSON object, nested objects and arrays included), so the value a user
// typed as a password is hidden in the call's source, its result, the
// trace and every later record of the session, not only in the arguments
// member JSON masks. Values SecretValue rejects are left out; args that are
// not JSON are ignored.
func (r *Redactor) AddArgs(args []byte) {
	if r == nil || len(args) == 0 {
		return
	}
	v, err := ojson.Parse(args)
	if err != nil {
		return
	}
	r.AddArgsValue(v)
}

// AddArgsValue is AddArgs for a parsed value.
func (r *Redactor) AddArgsValue(v *ojson.Value) {
	if r == nil || v == nil {
		return
	}
	var found []string
	var walk func(v *ojson.Value)
	walk = func(v *ojson.Value) {
		switch v.Kind {
		case ojson.Array:
			for _, it := range v.Items {
				walk(it)
			}
		case ojson.Object:
			for _, m := range v.Members {
				if m.Value.Kind == ojson.String && IsSecretArg(m.Key) && SecretValue(m.Value.Str) {
					found = append(found, m.Value.Str)
					continue
				}
				walk(m.Value)
			}
		}
	}
	walk(v)
	r.Add(found...)
}

// MinNamedSecretLen is the shortest value hidden everywhere because of its
// name alone (an environment variable called *TOKEN*, an argument called
// password). Longer than MinSecretLen because names are a guess: a short
// value under a secret-looking name is more often a setting ("basic", "x11")
// than a credential, and hiding it would garble every output it occurs in.
const MinNamedSecretLen = 6

// settingWords are values that are settings, not credentials, whatever the
// variable is called (TOKENIZERS_PARALLELISM=false, AUTH_MODE=disabled).
var settingWords = map[string]bool{
	"true": true, "false": true, "yes": true, "no": true, "on": true, "off": true,
	"none": true, "null": true, "auto": true, "enabled": true, "disabled": true,
	"default": true, "required": true, "optional": true,
}

// SecretValue reports whether a value found under a secret-looking name is
// worth hiding wherever it occurs: at least MinNamedSecretLen bytes and not
// a plain setting word (true, false, none, disabled, ...).
func SecretValue(v string) bool {
	return len(v) >= MinNamedSecretLen && !settingWords[strings.ToLower(strings.TrimSpace(v))]
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

// IsSecretEnv reports whether an environment variable's name says its value
// is a credential, for variables nobody declared secret (mcpterm's own
// environment, --env): a part of the name (split at '_', '-' and '.')
// containing TOKEN, SECRET, PASSWORD, PASSWD, PASSPHRASE, CREDENTIAL,
// PRIVATE, COOKIE, KEY or AUTH, or a part that is PASS, PWD or PAT
// (DB_PASS, MYSQL_PWD, GITHUB_PAT). It is narrower than IsSecretName, whose
// SESSION, CERT and SIGNATURE would hide XDG_SESSION_CLASS=user or
// SSL_CERT_FILE everywhere, and it lets through the everyday names that
// merely contain a fragment: KEYBOARD…, KEYMAP, KEYTIMEOUT, KEYRING,
// GIT_AUTHOR_NAME (AUTHOR), GIT_ASKPASS/SSH_ASKPASS (a program), PWD and
// OLDPWD (directories). MONKEY or TURKEY still match: a hidden harmless
// value costs less than a shown token.
func IsSecretEnv(name string) bool {
	u := strings.ToUpper(name)
	if u == "PWD" || u == "OLDPWD" {
		return false
	}
	parts := strings.FieldsFunc(u, func(r rune) bool { return r == '_' || r == '-' || r == '.' })
	for _, p := range parts {
		switch p {
		case "PASS", "PWD", "PAT":
			return true
		}
		for _, w := range envSecretWords {
			if strings.Contains(p, w) {
				return true
			}
		}
		if strings.Contains(envHarmlessKey.Replace(p), "KEY") {
			return true
		}
		if strings.Contains(envAuthor.Replace(p), "AUTH") ||
			strings.Contains(p, "AUTHORI") { // AUTHORIZATION, AUTHORITY
			return true
		}
	}
	return false
}

// envSecretWords mark a credential anywhere in a part of a variable name.
var envSecretWords = []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "PRIVATE", "COOKIE"}

// envHarmlessKey removes the KEY words of everyday variables before KEY is
// looked for; envAuthor removes AUTHOR (GIT_AUTHOR_NAME) before AUTH is.
var (
	envHarmlessKey = strings.NewReplacer("KEYBOARD", "", "KEYMAP", "", "KEYTIMEOUT", "", "KEYRING", "")
	envAuthor      = strings.NewReplacer("AUTHORS", "", "AUTHOR", "")
)
