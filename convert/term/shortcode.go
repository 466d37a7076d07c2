package term

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// reservedCodes are words that already mean something in MCP-Term documents,
// calls, batches or results; a short code equal to one would read ambiguously.
var reservedCodes = map[string]bool{
	"nil": true, "true": true, "false": true, "or": true, "opt": true, "one": true,
	"all": true, "not": true, "list": true, "map": true, "rec": true, "json": true,
	"any": true, "bool": true, "null": true, "ok": true, "err": true, "tag": true,
	"const": true,
}

// ShortCodes assigns every distinct tool name a 1-4 character code that a
// model can write instead of the name. The call parser and the declaration
// printer must agree on the codes without sharing state, so the result depends
// only on the set of names: input order and duplicates do not matter. Codes are
// lowercase ASCII, start with a letter, are unique, and never equal another
// tool's full name (so a name in a call is never ambiguous).
func ShortCodes(names []string) map[string]string {
	uniq := make([]string, 0, len(names))
	full := make(map[string]bool, len(names))
	for _, n := range names {
		if !full[n] {
			full[n] = true
			uniq = append(uniq, n)
		}
	}
	sort.Strings(uniq)
	out := make(map[string]string, len(uniq))
	taken := make(map[string]bool, len(uniq))
	free := func(code, owner string) bool {
		return validCode(code) && !taken[code] && (!full[code] || code == owner)
	}
	// A name that is already a valid code keeps itself, so nobody else can
	// take it first.
	for _, n := range uniq {
		if validCode(n) {
			out[n] = n
			taken[n] = true
		}
	}
	// next remembers, per numbered stem, the first number fallbackCode has
	// not yet seen taken: codes are only ever taken, never freed, so the
	// numbers below it need no second look. Without it every tool that falls
	// back walks the same taken numbers again, which on 20,000 tools of
	// similar names was most of the time spent on codes.
	next := map[string]int{}
	for _, n := range uniq {
		if _, done := out[n]; done {
			continue
		}
		code := ""
		for _, c := range candidates(n) {
			if free(c, n) {
				code = c
				break
			}
		}
		if code == "" {
			code = fallbackCode(n, func(c string) bool { return free(c, n) }, next)
		}
		if code != "" {
			out[n] = code
			taken[code] = true
		}
	}
	return out
}

func validCode(s string) bool {
	if len(s) < 1 || len(s) > 4 || reservedCodes[s] {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// words splits a tool name at separators and camelCase humps, keeping ASCII
// letters and digits only.
func words(name string) []string {
	var ws []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			ws = append(ws, cur.String())
			cur.Reset()
		}
	}
	var prev rune
	for _, r := range name {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if unicode.IsUpper(r) && prev != 0 && (unicode.IsLower(prev) || unicode.IsDigit(prev)) {
				flush()
			}
			cur.WriteRune(unicode.ToLower(r))
		default:
			flush()
			r = 0
		}
		prev = r
	}
	flush()
	return ws
}

// candidates lists codes for a name from most to least natural: the initials
// (file_read -> fr), then more letters of the earlier words, then longer
// prefixes.
func candidates(name string) []string {
	ws := words(name)
	// A code must start with a letter: drop leading all-digit words.
	for len(ws) > 0 && ws[0][0] >= '0' && ws[0][0] <= '9' {
		ws = ws[1:]
	}
	if len(ws) == 0 {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if len(s) > 4 {
			s = s[:4]
		}
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	if len(ws) == 1 {
		w := ws[0]
		for n := 2; n <= 4 && n <= len(w); n++ {
			add(w[:n])
		}
		add(w[:1])
		// first letter plus one or two later letters
		for i := 1; i < len(w); i++ {
			add(w[:1] + w[i:i+1])
		}
		for i := 1; i < len(w); i++ {
			for j := i + 1; j < len(w); j++ {
				add(w[:1] + w[i:i+1] + w[j:j+1])
			}
		}
		return out
	}
	k := len(ws)
	if k > 4 {
		k = 4
	}
	// Allocations of letters to the first k words, each at least one, total
	// at most 4: shorter totals first, earlier words favoured.
	for total := k; total <= 4; total++ {
		for _, alloc := range allocations(k, total) {
			var b strings.Builder
			for i, n := range alloc {
				w := ws[i]
				if n > len(w) {
					n = len(w)
				}
				b.WriteString(w[:n])
			}
			add(b.String())
		}
	}
	// Fewer words: initials of the first two or three.
	for j := k - 1; j >= 1; j-- {
		var b strings.Builder
		for i := 0; i < j; i++ {
			b.WriteByte(ws[i][0])
		}
		add(b.String())
	}
	// Initials of the later words, which often carry the meaning.
	var ini strings.Builder
	for _, w := range ws {
		ini.WriteByte(w[0])
	}
	s := ini.String()
	for i := 1; i < len(s); i++ {
		for j := i + 1; j < len(s) && j < i+3; j++ {
			add(s[:1] + s[i:j+1])
		}
	}
	return out
}

// allocations lists ways to give each of k words at least one letter with
// total letters in all, larger shares to earlier words first.
func allocations(k, total int) [][]int {
	var out [][]int
	var rec func(i, left int, cur []int)
	rec = func(i, left int, cur []int) {
		if i == k {
			if left == 0 {
				out = append(out, append([]int(nil), cur...))
			}
			return
		}
		for n := left - (k - i - 1); n >= 1; n-- {
			rec(i+1, left-n, append(cur, n))
		}
	}
	rec(0, total, nil)
	return out
}

// fallbackCode numbers the name's initials, then walks the whole code space
// in a name-dependent order, so it always finds a code while one is free.
// next holds, per stem, the first number not yet seen taken (see ShortCodes);
// the codes it returns are the same as without it, only found sooner.
func fallbackCode(name string, free func(string) bool, next map[string]int) string {
	base := "t"
	if c := candidates(name); len(c) > 0 {
		base = c[0]
	}
	for _, l := range []int{3, 2, 1} {
		if len(base) < l {
			continue
		}
		stem := base[:l]
		limit := 1
		for i := 0; i < 4-l; i++ {
			limit *= 10
		}
		for n := max(2, next[stem]); n < limit; n++ {
			c := stem + strconv.Itoa(n)
			if len(c) > 4 {
				break
			}
			next[stem] = n + 1 // taken now, or by the caller once returned
			if free(c) {
				return c
			}
		}
	}
	// Exhaustive walk of [a-z][a-z0-9]{0,3}, starting at a hash of the name.
	const space = 26 * 36 * 36 * 36
	h := uint32(2166136261)
	for i := 0; i < len(name); i++ {
		h = (h ^ uint32(name[i])) * 16777619
	}
	const alnum = "abcdefghijklmnopqrstuvwxyz0123456789"
	for i := 0; i < space; i++ {
		x := (int(h%space) + i) % space
		b := []byte{alnum[x%26]}
		x /= 26
		for j := 0; j < 3; j++ {
			b = append(b, alnum[x%36])
			x /= 36
		}
		if free(string(b)) {
			return string(b)
		}
	}
	return ""
}
