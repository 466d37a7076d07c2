// Package ranks stores an encoding's byte-pair ranks as one precomputed
// blob read in place: token bytes, offsets and a fixed hash table.
//
// Why not a map: tiktoken-go decodes 200,000 base64 ranks into a map on
// every start (about 200 ms and 48 MB for o200k). The blob is generated once
// (go generate in tokens/internal/bpe), so opening an encoding costs a
// header check, and a lookup hashes and compares bytes with nothing
// allocated.
package ranks

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Blob layout, all integers little-endian uint32:
//
//	header  magic "mcptbpe1", n (tokens), bits (table size 1<<bits),
//	        offsets start, table start, data start
//	offsets n+1 entries: token r is data[off[r]:off[r+1]]
//	table   1<<bits slots, open addressing with linear probing; a slot is
//	        0 (empty) or tag<<rankBits | (rank+1), tag being the top bits
//	        of the token's hash so most probes of other keys stop without
//	        comparing bytes
//	data    every token's bytes, in rank order
//
// Ranks must be dense (0..n-1), as they are in tiktoken's files, so the rank
// is the token's index and needs no storing.
const (
	magic     = "mcptbpe1"
	headerLen = 8 + 5*4
	rankBits  = 18 // ranks up to 262,142
	rankMask  = 1<<rankBits - 1
	tagShift  = 64 - (32 - rankBits)
)

// Table is one encoding's ranks, a view of its blob. The zero Table has no
// tokens.
type Table struct {
	n     int
	mask  uint64
	offs  string
	slots string
	data  string
}

// OpenTable checks blob's header and returns a Table reading it in place: no
// copy, nothing allocated, pages of the blob touched only as lookups need
// them.
func OpenTable(blob string) (Table, error) {
	if len(blob) < headerLen || blob[:8] != magic {
		return Table{}, errors.New("bpe: not a rank blob")
	}
	n, bits := int(u32(blob, 8)), uint(u32(blob, 12))
	offStart, slotStart, dataStart := int(u32(blob, 16)), int(u32(blob, 20)), int(u32(blob, 24))
	if bits > 30 || n >= rankMask || offStart != headerLen || slotStart != offStart+4*(n+1) ||
		dataStart != slotStart+4<<bits || dataStart > len(blob) {
		return Table{}, errors.New("bpe: corrupt rank blob header")
	}
	t := Table{n: n, mask: 1<<bits - 1, offs: blob[offStart:slotStart], slots: blob[slotStart:dataStart], data: blob[dataStart:]}
	if int(u32(t.offs, 4*n)) != len(t.data) {
		return Table{}, errors.New("bpe: corrupt rank blob offsets")
	}
	return t, nil
}

// Len is the number of tokens.
func (t *Table) Len() int { return t.n }

// Token is the bytes of the token of a rank, for decoding.
func (t *Table) Token(rank int) string {
	return t.data[u32(t.offs, 4*rank):u32(t.offs, 4*rank+4)]
}

// Rank looks up the rank of a token's bytes. It is the merge's inner loop
// (a handful of lookups per byte of text), so it is small enough to inline
// and sends keys of up to eight bytes, most of them, to rankWord.
func (t *Table) Rank(b string) (int, bool) {
	if uint(len(b))-1 < 8 && len(t.slots) > 0 {
		return t.rankWord(len(b), word(b))
	}
	return t.rankLong(b)
}

// rankLong is Rank for any key (and the zero Table); the length is compared
// before the bytes and the fields are read into locals once.
func (t *Table) rankLong(b string) (int, bool) {
	slots, offs, data, mask := t.slots, t.offs, t.data, t.mask
	if len(slots) == 0 {
		return 0, false
	}
	h := hash(b)
	tag := uint32(h >> tagShift)
	for i := h & mask; ; i = (i + 1) & mask {
		s := u32(slots, int(4*i))
		if s == 0 {
			return 0, false
		}
		if s>>rankBits == tag {
			r := int(s&rankMask) - 1
			lo, hi := u32(offs, 4*r), u32(offs, 4*r+4)
			if int(hi-lo) == len(b) && data[lo:hi] == b {
				return r, true
			}
		}
	}
}

// rankWord is Rank for a key of k bytes, one to eight, given as the word w
// (see word), most of the merge's lookups: hashed as hash would (one
// round) and compared with a candidate token as a word, with no call.
func (t *Table) rankWord(k int, w uint64) (int, bool) {
	slots, offs, data, mask := t.slots, t.offs, t.data, t.mask
	h := (uint64(k)*k0 ^ w) * m1
	h ^= h >> 31
	h = (h ^ h>>32) * m2
	h ^= h >> 29
	tag := uint32(h >> tagShift)
	for i := h & mask; ; i = (i + 1) & mask {
		s := u32(slots, int(4*i))
		if s == 0 {
			return 0, false
		}
		if s>>rankBits == tag {
			r := int(s&rankMask) - 1
			lo, hi := u32(offs, 4*r), u32(offs, 4*r+4)
			if int(hi-lo) != k {
				continue
			}
			// The token's bytes as a word: one load and a mask, except
			// for the last tokens of the data, which have no eight bytes
			// after their start.
			var d uint64
			if int(lo)+8 <= len(data) {
				d = u64(data[lo:]) & (^uint64(0) >> (64 - 8*k))
			} else {
				d = word(data[lo:hi])
			}
			if d == w {
				return r, true
			}
		}
	}
}

// word is the bytes of s (one to eight) as a little-endian word, zero
// above: two overlapping loads, or three single bytes, instead of a loop.
func word(s string) uint64 {
	if k := len(s); k >= 4 {
		return uint64(u32(s, 0)) | uint64(u32(s, k-4))<<(8*(k-4))
	}
	k := len(s)
	return uint64(s[0]) | uint64(s[k/2])<<(8*(k/2)) | uint64(s[k-1])<<(8*(k-1))
}

// The hash's constants.
const k0, m1, m2 = 0x9e3779b97f4a7c15, 0xbf58476d1ce4e5b9, 0x94d049bb133111eb

// hash is a fixed 64-bit hash (the table is built once and checked in, so
// it cannot be seeded per process), mixing eight bytes at a time.
func hash(s string) uint64 {
	h := uint64(len(s)) * k0
	for len(s) >= 8 {
		h = (h ^ u64(s)) * m1
		h ^= h >> 31
		s = s[8:]
	}
	if k := len(s); k > 0 {
		// The tail's bytes little-endian, zero-padded (word reads them
		// without a byte loop).
		h = (h ^ word(s)) * m1
		h ^= h >> 31
	}
	h = (h ^ h>>32) * m2
	return h ^ h>>29
}

// u32 reads s[i:i+4]. Re-slicing first (rather than a bounds hint on
// s[i+3]) lets the compiler prove the four reads in range and make them one
// load.
func u32(s string, i int) uint32 {
	s = s[i : i+4]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

func u64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// ParseTiktoken reads a tiktoken rank file (one "base64-token rank" per
// line) into the tokens in rank order. It refuses ranks that are not dense.
func ParseTiktoken(file string) ([]string, error) {
	var toks []string
	for ln, line := range strings.Split(file, "\n") {
		if line == "" {
			continue
		}
		b64, num, ok := strings.Cut(line, " ")
		if !ok {
			return nil, fmt.Errorf("line %d: no rank", ln+1)
		}
		tok, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", ln+1, err)
		}
		r, err := strconv.Atoi(num)
		if err != nil || r != len(toks) {
			return nil, fmt.Errorf("line %d: rank %q, want %d (ranks must be dense and in order)", ln+1, num, len(toks))
		}
		toks = append(toks, string(tok))
	}
	return toks, nil
}

// Build makes the blob for tokens in rank order.
func Build(tokens []string) ([]byte, error) {
	n := len(tokens)
	if n >= rankMask {
		return nil, fmt.Errorf("bpe: %d tokens, at most %d fit", n, rankMask-1)
	}
	bits := uint(4)
	for float64(n) > 0.4*float64(uint64(1)<<bits) {
		bits++
	}
	offStart := headerLen
	slotStart := offStart + 4*(n+1)
	dataStart := slotStart + 4<<bits
	size := dataStart
	for _, t := range tokens {
		size += len(t)
	}
	blob := make([]byte, size)
	copy(blob, magic)
	le := binary.LittleEndian
	for i, v := range []int{n, int(bits), offStart, slotStart, dataStart} {
		le.PutUint32(blob[8+4*i:], uint32(v))
	}
	mask := uint64(1)<<bits - 1
	off := 0
	seen := make(map[string]bool, n)
	for r, tok := range tokens {
		if seen[tok] {
			return nil, fmt.Errorf("bpe: token of rank %d repeats an earlier one", r)
		}
		seen[tok] = true
		le.PutUint32(blob[offStart+4*r:], uint32(off))
		copy(blob[dataStart+off:], tok)
		off += len(tok)
		h := hash(tok)
		i := h & mask
		for le.Uint32(blob[slotStart+int(4*i):]) != 0 {
			i = (i + 1) & mask
		}
		le.PutUint32(blob[slotStart+int(4*i):], uint32(h>>tagShift)<<rankBits|uint32(r+1))
	}
	le.PutUint32(blob[offStart+4*n:], uint32(off))
	return blob, nil
}
