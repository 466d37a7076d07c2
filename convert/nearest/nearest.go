// Package nearest finds the names a user probably meant when they typed one
// that does not exist — the "did you mean" of unknown tools, parameters,
// enum values, AQL operations and config server names — so every front end
// measures closeness the same way.
package nearest

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Distance is the Levenshtein distance in runes between a and b. It stops
// early and returns limit+1 once the distance must exceed limit (pass a
// negative limit for no bound), so long candidate lists stay cheap.
func Distance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if limit >= 0 {
		if d := len(ra) - len(rb); d > limit || -d > limit {
			return limit + 1
		}
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if limit >= 0 && best > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	if limit >= 0 && prev[len(rb)] > limit {
		return limit + 1
	}
	return prev[len(rb)]
}

// Fold makes names that differ only in case or '-' versus '_' compare equal,
// the commonest slips when typing tool and parameter names.
func Fold(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' {
			return '_'
		}
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// DefaultLimit is how far a name may be from what was typed: a third of its
// length, at least one edit and at most three.
func DefaultLimit(word string) int {
	return max(1, min(3, utf8.RuneCountInString(word)/3))
}

// Suggest returns up to n distinct candidates within limit edits of word
// after folding, nearest first (ties keep the candidates' order). The word
// itself is never suggested.
func Suggest(word string, candidates []string, limit, n int) []string {
	if word == "" || n <= 0 {
		return nil
	}
	type hit struct {
		s string
		d int
	}
	var hits []hit
	fw := Fold(word)
	seen := map[string]bool{}
	for _, c := range candidates {
		if seen[c] || c == word {
			continue
		}
		seen[c] = true
		if d := Distance(fw, Fold(c), limit); d <= limit {
			hits = append(hits, hit{c, d})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].d < hits[j].d })
	out := make([]string, 0, min(n, len(hits)))
	for i := 0; i < len(hits) && i < n; i++ {
		out = append(out, hits[i].s)
	}
	return out
}

// Without is candidates less those drop reports, in order: the names a
// "did you mean" may offer once a policy's refused tools are set aside, so
// that a refusal never suggests another tool the policy refuses. It
// returns candidates itself when nothing is dropped.
func Without(candidates []string, drop func(string) bool) []string {
	if drop == nil {
		return candidates
	}
	for i, c := range candidates {
		if drop(c) {
			out := append([]string(nil), candidates[:i]...)
			for _, c := range candidates[i+1:] {
				if !drop(c) {
					out = append(out, c)
				}
			}
			return out
		}
	}
	return candidates
}
