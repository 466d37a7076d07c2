package widget

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// FuzzyMatch scores pattern as a case-insensitive subsequence of s. Matches
// at the start, at word starts (after _ - . / space or a case change) and in
// consecutive runs score higher, so "fr" ranks file_read above "buffer" and
// "gt" finds get_todo's two words. It returns the byte offsets of the matched
// runes in s, for highlighting; ok is false when the pattern is not a
// subsequence. The best placement is found by dynamic programming over the
// (short) name; very long names fall back to the first placement.
func FuzzyMatch(pattern, s string) (score int, pos []int, ok bool) {
	if pattern == "" {
		return 0, nil, true
	}
	pr := []rune(strings.ToLower(pattern))
	sr := []rune(s)
	offs := make([]int, len(sr)) // byte offset of each rune
	o := 0
	for i, r := range sr {
		offs[i] = o
		o += utf8.RuneLen(r)
	}
	bonus := func(j int) int {
		switch {
		case j == 0:
			return 10
		case isBoundary(sr[j-1], sr[j]):
			return 8
		}
		return 0
	}
	lower := make([]rune, len(sr))
	for i, r := range sr {
		lower[i] = unicode.ToLower(r)
	}
	P, S := len(pr), len(sr)
	if P > S {
		return 0, nil, false
	}
	if S > 256 {
		return greedyMatch(pr, lower, offs, bonus)
	}
	// best[i][j]: best score matching pr[i:] with pr[i] placed at j;
	// sufArg[i][j]: the k >= j with the highest best[i][k]. O(P·S).
	const none = -1 << 30
	best := make([][]int, P)
	next := make([][]int, P)
	sufArg := make([][]int, P)
	for i := range best {
		best[i] = make([]int, S)
		next[i] = make([]int, S)
		sufArg[i] = make([]int, S+1)
	}
	for i := P - 1; i >= 0; i-- {
		for j := S - 1; j >= 0; j-- {
			best[i][j] = none
			if lower[j] == pr[i] {
				sc := 1 + bonus(j)
				if i == P-1 {
					best[i][j] = sc
				} else if j+1 < S {
					// Either the next rune right after (a consecutive run)
					// or the best placement anywhere further on.
					if k := sufArg[i+1][j+1]; k >= 0 && best[i+1][k] != none {
						best[i][j], next[i][j] = sc+best[i+1][k], k
					}
					if b := best[i+1][j+1]; b != none && sc+b+5 > best[i][j] {
						best[i][j], next[i][j] = sc+b+5, j+1
					}
				}
			}
		}
		sufArg[i][S] = -1
		for j := S - 1; j >= 0; j-- {
			sufArg[i][j] = sufArg[i][j+1]
			if best[i][j] != none && (sufArg[i][j] < 0 || best[i][j] >= best[i][sufArg[i][j]]) {
				sufArg[i][j] = j
			}
		}
	}
	start, top := -1, none
	for j := 0; j < S; j++ {
		if best[0][j] > top {
			start, top = j, best[0][j]
		}
	}
	if start < 0 {
		return 0, nil, false
	}
	for i, j := 0, start; i < P; i++ {
		pos = append(pos, offs[j])
		j = next[i][j]
	}
	// Shorter names with the same matches rank first.
	return top - S/8, pos, true
}

func greedyMatch(pr, lower []rune, offs []int, bonus func(int) int) (int, []int, bool) {
	score, pi, prev := 0, 0, -2
	var pos []int
	for j := 0; j < len(lower) && pi < len(pr); j++ {
		if lower[j] == pr[pi] {
			score += 1 + bonus(j)
			if prev == j-1 {
				score += 5
			}
			pos = append(pos, offs[j])
			prev = j
			pi++
		}
	}
	if pi < len(pr) {
		return 0, nil, false
	}
	return score - len(lower)/8, pos, true
}

func isBoundary(prev, r rune) bool {
	switch prev {
	case '_', '-', '.', '/', ' ', ':':
		return true
	}
	return unicode.IsLower(prev) && unicode.IsUpper(r)
}
