package bpe

import "github.com/mcpterm/mcpterm/tokens/internal/ranks"

// shortPiece is the length up to which a piece is merged with tiktoken's own
// algorithm on stack arrays: a linear scan for the lowest-ranked pair per
// merge, O(n²) but with nothing allocated, and faster than a heap for the
// words and JSON fragments that make up nearly every piece.
const shortPiece = 128

const noRank = ^uint32(0)

// ranker is what the merge looks ranks up in: the table, and the rank of
// every two-byte token indexed by its bytes. The merge's first round asks for
// every adjacent byte pair of a piece, a third of all its lookups, and an
// index is far cheaper than a hash probe.
type ranker struct {
	t     *ranks.Table
	pairs *[1 << 16]uint32
}

// pairTable is the two-byte index of t: noRank where the pair is no token.
func pairTable(t *ranks.Table) *[1 << 16]uint32 {
	var p [1 << 16]uint32
	for i := range p {
		p[i] = noRank
	}
	for r := range t.Len() {
		if tok := t.Token(r); len(tok) == 2 {
			p[uint16(tok[0])<<8|uint16(tok[1])] = uint32(r)
		}
	}
	return &p
}

// pair is the rank of p[i:i+2].
func (m *ranker) pair(p string, i int) uint32 {
	return m.pairs[uint16(p[i])<<8|uint16(p[i+1])]
}

// smallPiece is the length up to which the merge's parts live in a smaller
// stack array: most pieces are words, and zeroing the array for 128 bytes
// on every piece cost more than the merge of a short word.
const smallPiece = 32

// part is one part of a piece during the merge: where it starts, and the
// rank of it joined with the next part (noRank if that is no token).
type part struct {
	start int32
	rank  uint32
}

// countPiece is the number of tokens tiktoken's byte-pair merge gives one
// pre-tokenizer piece.
func countPiece(m *ranker, p string) int {
	if len(p) <= 1 {
		return len(p)
	}
	if _, ok := m.t.Rank(p); ok {
		return 1
	}
	switch {
	case len(p) <= smallPiece:
		var buf [smallPiece + 1]part
		return len(mergeShort(m, p, buf[:])) - 1
	case len(p) <= shortPiece:
		var buf [shortPiece + 1]part
		return len(mergeShort(m, p, buf[:])) - 1
	}
	return mergeLong(m, p, nil)
}

// appendPiece appends the ranks of one piece's tokens to dst.
func appendPiece(m *ranker, dst []int, p string) []int {
	t := m.t
	if len(p) == 0 {
		return dst
	}
	if r, ok := t.Rank(p); ok {
		return append(dst, r)
	}
	if len(p) <= shortPiece {
		var buf [shortPiece + 1]part
		parts := mergeShort(m, p, buf[:])
		for k := 0; k+1 < len(parts); k++ {
			r, _ := t.Rank(p[parts[k].start:parts[k+1].start])
			dst = append(dst, r)
		}
		return dst
	}
	var ends []int32
	mergeLong(m, p, &ends)
	start := int32(0)
	for _, e := range ends {
		r, _ := t.Rank(p[start:e])
		dst = append(dst, r)
		start = e
	}
	return dst
}

// rankOf is the rank of p[a:b] as a pair candidate, noRank if none.
func rankOf(t *ranks.Table, p string, a, b int32) uint32 {
	if r, ok := t.Rank(p[a:b]); ok {
		return uint32(r)
	}
	return noRank
}

// mergeShort is tiktoken's merge on a piece of two bytes or more, in buf
// (at least len(p)+1 long): the parts start as its bytes, with a sentinel
// part at len(p); the lowest-ranked pair, leftmost on ties, merges until no
// pair is a token. It returns the final parts and the sentinel.
func mergeShort(m *ranker, p string, buf []part) []part {
	n := len(p)
	parts := buf[:n+1]
	for i := 0; i+1 < n; i++ {
		parts[i] = part{start: int32(i), rank: m.pair(p, i)}
	}
	parts[n-1] = part{start: int32(n - 1), rank: noRank}
	parts[n] = part{start: int32(n), rank: noRank}
	t := m.t
	for {
		k := len(parts)
		best, bi := noRank, -1
		for i, q := range parts[:k-1] {
			if q.rank < best {
				best, bi = q.rank, i
			}
		}
		if bi < 0 {
			return parts
		}
		// Parts bi and bi+1 become one; the pairs ending and starting at it
		// are re-ranked with the part after bi+1 in mind.
		if bi+3 < k {
			parts[bi].rank = rankOf(t, p, parts[bi].start, parts[bi+3].start)
		} else {
			parts[bi].rank = noRank
		}
		if bi > 0 {
			parts[bi-1].rank = rankOf(t, p, parts[bi-1].start, parts[bi+2].start)
		}
		copy(parts[bi+1:], parts[bi+2:])
		parts = parts[:k-1]
	}
}

// mergeLong is the same merge for long pieces (a run of thousands of one
// letter), in O(n log n): a heap ordered by (rank, position) with stale
// entries skipped picks exactly the pair the linear scan would. It returns
// the number of tokens and, if ends is not nil, stores each token's end.
func mergeLong(m *ranker, p string, ends *[]int32) int {
	t := m.t
	n := len(p)
	next := make([]int32, n)
	prev := make([]int32, n)
	end := make([]int32, n)
	gen := make([]uint32, n) // bumped whenever a part changes or dies
	alive := make([]bool, n)
	for i := range n {
		next[i], prev[i], end[i], alive[i] = int32(i+1), int32(i-1), int32(i+1), true
	}
	next[n-1] = -1
	h := make(pairHeap, 0, n)
	candidate := func(i int32) (pair, bool) {
		if i < 0 || next[i] < 0 {
			return pair{}, false
		}
		j := next[i]
		r := rankOf(t, p, i, end[j])
		return pair{rank: r, left: i, right: j, lgen: gen[i], rgen: gen[j]}, r != noRank
	}
	for i := int32(0); i < int32(n-1); i++ {
		if c, ok := candidate(i); ok {
			h = append(h, c)
		}
	}
	h.init()
	parts := n
	for len(h) > 0 {
		c := h.pop()
		if !alive[c.left] || !alive[c.right] || gen[c.left] != c.lgen || gen[c.right] != c.rgen || next[c.left] != c.right {
			continue
		}
		l, r := c.left, c.right
		end[l] = end[r]
		next[l] = next[r]
		if next[r] >= 0 {
			prev[next[r]] = l
		}
		alive[r] = false
		gen[r]++
		gen[l]++
		parts--
		for _, i := range [2]int32{prev[l], l} {
			if c, ok := candidate(i); ok {
				h.push(c)
			}
		}
	}
	if ends != nil {
		for i := int32(0); i >= 0; i = next[i] {
			*ends = append(*ends, end[i])
		}
	}
	return parts
}

type pair struct {
	rank        uint32
	left, right int32
	lgen, rgen  uint32
}

// pairHeap is a min-heap of pairs by (rank, left), written out rather than
// used through container/heap, whose interface boxes every pair.
type pairHeap []pair

func (h pairHeap) less(i, j int) bool {
	if h[i].rank != h[j].rank {
		return h[i].rank < h[j].rank
	}
	return h[i].left < h[j].left
}

func (h pairHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *pairHeap) push(p pair) {
	*h = append(*h, p)
	h.up(len(*h) - 1)
}

func (h *pairHeap) pop() pair {
	old := *h
	n := len(old) - 1
	old[0], old[n] = old[n], old[0]
	*h = old[:n]
	h.down(0)
	return old[n]
}

func (h pairHeap) up(j int) {
	for j > 0 {
		i := (j - 1) / 2
		if !h.less(j, i) {
			break
		}
		h[i], h[j] = h[j], h[i]
		j = i
	}
}

func (h pairHeap) down(i int) {
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		j := l
		if r := l + 1; r < n && h.less(r, l) {
			j = r
		}
		if !h.less(j, i) {
			return
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
}
