package ui

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// fuzzyMatch scores pattern as a case-insensitive subsequence of s. Matches
// at word starts (after _ - . / space or a case change) and consecutive runs
// score higher, so "fr" ranks file_read above "buffer". It returns the byte
// offsets of the matched runes in s, for highlighting. ok is false when the
// pattern is not a subsequence.
func fuzzyMatch(pattern, s string) (score int, pos []int, ok bool) {
	if pattern == "" {
		return 0, nil, true
	}
	pr := []rune(strings.ToLower(pattern))
	pi := 0
	prevMatch := -2
	var prev rune
	idx := 0
	for i, r := range s {
		if pi >= len(pr) {
			break
		}
		lr := unicode.ToLower(r)
		if lr == pr[pi] {
			bonus := 1
			if i == 0 || isBoundary(prev, r) {
				bonus += 8
			}
			if prevMatch == idx-1 {
				bonus += 5
			}
			score += bonus
			pos = append(pos, i)
			prevMatch = idx
			pi++
		}
		prev = r
		idx++
	}
	if pi < len(pr) {
		return 0, nil, false
	}
	// Shorter names with the same matches rank first.
	score -= utf8.RuneCountInString(s) / 8
	return score, pos, true
}

func isBoundary(prev, r rune) bool {
	switch prev {
	case '_', '-', '.', '/', ' ', ':':
		return true
	}
	return unicode.IsLower(prev) && unicode.IsUpper(r)
}
