package tokens

// mergeCount runs tiktoken's byte-pair merge over one piece and returns the
// number of tokens it ends with. tiktoken merges, at every step, the adjacent
// pair of lowest rank, the leftmost one on ties; a heap ordered by (rank,
// position) with stale entries skipped picks exactly the same pair, in
// O(n log n) rather than the O(n²) of a linear scan per merge.
func mergeCount(piece string, ranks map[string]int) int {
	n := len(piece)
	if n <= 1 {
		return n
	}
	// Parts form a linked list over byte offsets; part i covers
	// piece[start[i]:start[next[i]]] (or to the end).
	next := make([]int32, n)
	prev := make([]int32, n)
	end := make([]int32, n)
	gen := make([]uint32, n) // bumped whenever a part changes or dies
	alive := make([]bool, n)
	for i := 0; i < n; i++ {
		next[i], prev[i], end[i], alive[i] = int32(i+1), int32(i-1), int32(i+1), true
	}
	next[n-1] = -1
	h := make(pairHeap, 0, n)
	// candidate is the pair starting at part i, if its bytes are a token.
	candidate := func(i int32) (pair, bool) {
		if i < 0 || next[i] < 0 {
			return pair{}, false
		}
		j := next[i]
		r, ok := ranks[piece[i:end[j]]]
		return pair{rank: r, left: i, right: j, lgen: gen[i], rgen: gen[j]}, ok
	}
	for i := int32(0); i < int32(n-1); i++ {
		if p, ok := candidate(i); ok {
			h = append(h, p)
		}
	}
	h.init()
	parts := n
	for len(h) > 0 {
		p := h.pop()
		if !alive[p.left] || !alive[p.right] || gen[p.left] != p.lgen || gen[p.right] != p.rgen || next[p.left] != p.right {
			continue
		}
		// Merge right into left.
		l, r := p.left, p.right
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
			if p, ok := candidate(i); ok {
				h.push(p)
			}
		}
	}
	return parts
}

type pair struct {
	rank        int
	left, right int32
	lgen, rgen  uint32
}

// pairHeap is a min-heap of pairs by (rank, left). It is written out
// rather than used through container/heap, whose interface boxes every
// pushed and popped pair: three allocations per merge, which made a 10 MB
// stretch of one letter cost 30 million of them.
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
