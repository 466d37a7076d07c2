// Package tokens counts tokens exactly as OpenAI's tiktoken does, fast enough
// for live use, and builds the savings report that compares every rendering
// of a tool list (convert.Forms) against the JSON baseline and the floor.
package tokens

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
	"github.com/mcpterm/mcpterm/tokens/internal/bpe"
	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// Encoding names accepted by NewCounter and the --encoding flag.
const (
	O200kBase  = "o200k_base"
	Cl100kBase = "cl100k_base"
)

// DefaultEncoding is o200k_base, the tokenizer of OpenAI's current models.
const DefaultEncoding = O200kBase

// Encodings lists the supported encodings, the default first, so flag help
// and error messages stay in step with what NewCounter accepts.
func Encodings() []string { return []string{O200kBase, Cl100kBase} }

// spec is what building an encoding needs. The patterns are tiktoken's own
// pre-tokenizer expressions (the same strings tiktoken-go uses); the
// reference fixtures in testdata/ prove the combination counts exactly.
type spec struct {
	file     string // asset name inside tiktoken-go-loader
	pattern  string
	specials map[string]int
}

func specFor(name string) (spec, error) {
	switch name {
	case O200kBase:
		return spec{
			file: "o200k_base.tiktoken",
			pattern: strings.Join([]string{
				`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
				`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
				`\p{N}{1,3}`,
				` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
				`\s*[\r\n]+`,
				`\s+(?!\S)`,
				`\s+`,
			}, "|"),
			specials: map[string]int{tiktoken.ENDOFTEXT: 199999, tiktoken.ENDOFPROMPT: 200018},
		}, nil
	case Cl100kBase:
		return spec{
			file:    "cl100k_base.tiktoken",
			pattern: `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
			specials: map[string]int{
				tiktoken.ENDOFTEXT: 100257, tiktoken.FIM_PREFIX: 100258, tiktoken.FIM_MIDDLE: 100259,
				tiktoken.FIM_SUFFIX: 100260, tiktoken.ENDOFPROMPT: 100276,
			},
		}, nil
	}
	return spec{}, fmt.Errorf("unknown encoding %q (want %s)", name, strings.Join(Encodings(), " or "))
}

// encoder is one loaded encoding. It is built directly from the embedded
// ranks rather than through tiktoken.GetEncoding, so loading never touches
// tiktoken-go's process-global BPE loader (which would otherwise default to
// downloading the ranks) and no state outside this value is changed.
type encoder struct {
	name string
	// core is the precomputed exact tokenizer (tokens/internal/bpe); when
	// set, nothing below it is used. The rest is tiktoken-go's path, kept
	// for an encoding not precomputed and as the tests' second opinion.
	core  *bpe.Encoding
	tk    *tiktoken.Tiktoken
	ranks map[string]int
	re    *regexp2.Regexp
}

// loadEncoder opens the precomputed core for name (a header check, no
// allocation to speak of), or loads tiktoken-go for an encoding without one.
func loadEncoder(name string) (*encoder, error) {
	if _, err := specFor(name); err != nil {
		return nil, err
	}
	core, ok, err := bpe.Open(name)
	if err != nil {
		return nil, err
	}
	if ok {
		return &encoder{name: name, core: core}, nil
	}
	return loadLibEncoder(name)
}

// loadLibEncoder builds the encoding through tiktoken-go from the loader's
// rank files: a few hundred milliseconds and tens of megabytes.
func loadLibEncoder(name string) (*encoder, error) {
	sp, err := specFor(name)
	if err != nil {
		return nil, err
	}
	ranks, err := tiktoken_loader.NewOfflineLoader().LoadTiktokenBpe(sp.file)
	if err != nil {
		return nil, fmt.Errorf("loading %s ranks: %w", name, err)
	}
	core, err := tiktoken.NewCoreBPE(ranks, sp.specials, sp.pattern)
	if err != nil {
		return nil, fmt.Errorf("building %s: %w", name, err)
	}
	set := make(map[string]any, len(sp.specials))
	for k := range sp.specials {
		set[k] = true
	}
	tk := tiktoken.NewTiktoken(core, &tiktoken.Encoding{
		Name: name, PatStr: sp.pattern, MergeableRanks: ranks, SpecialTokens: sp.specials,
	}, set)
	re, err := regexp2.Compile(sp.pattern, regexp2.None)
	if err != nil {
		return nil, fmt.Errorf("building %s: %w", name, err)
	}
	return &encoder{name: name, tk: tk, ranks: ranks, re: re}, nil
}

// longRun is the longest run of same-class characters (letters, digits,
// whitespace, other) that the library's quadratic byte-pair merge is trusted
// with; a pre-tokenizer piece spans at most three such runs, so pieces handed
// to it stay under about 1 KB and cost well under a millisecond.
const longRun = 256

// count is the exact token count of text, encoded as ordinary text:
// special-token strings such as <|endoftext|> are plain characters here.
// Invalid UTF-8 bytes count as U+FFFD, as tiktoken-go decodes them.
func (e *encoder) count(text string) int {
	if text == "" {
		return 0
	}
	if e.core != nil {
		return e.core.Count(text)
	}
	if !hasLongRun(text, longRun) {
		return len(e.tk.EncodeOrdinary(text))
	}
	return e.countPieces(text)
}

// countPieces is count for text holding long runs ("aaaa…", whitespace
// blocks, unbroken CJK): the same pre-tokenizer, then a heap-based byte-pair
// merge that is O(n log n) instead of O(n²) per piece.
func (e *encoder) countPieces(text string) int {
	if e.core != nil {
		return e.core.Count(text)
	}
	runes := []rune(text)
	n := 0
	m, err := e.re.FindRunesMatch(runes)
	for m != nil && err == nil {
		n += e.pieceCount(string(runes[m.Index : m.Index+m.Length]))
		m, err = e.re.FindNextMatch(m)
	}
	if err != nil {
		// regexp2 only fails on a match timeout, and none is set; fall back
		// to the library rather than return a wrong number.
		return len(e.tk.EncodeOrdinary(text))
	}
	return n
}

func (e *encoder) pieceCount(piece string) int {
	if len(piece) <= 1 {
		return len(piece)
	}
	if _, ok := e.ranks[piece]; ok {
		return 1
	}
	return mergeCount(piece, e.ranks)
}

type runClass uint8

const (
	classLetter runClass = iota
	classDigit
	classSpace
	classOther
)

func classOf(r rune) runClass {
	switch {
	case unicode.IsLetter(r) || unicode.Is(unicode.M, r):
		return classLetter
	case unicode.IsNumber(r):
		return classDigit
	case unicode.IsSpace(r) || unicode.Is(unicode.Z, r):
		return classSpace
	}
	return classOther
}

// hasLongRun reports whether text holds more than limit bytes of consecutive
// characters of one class. ASCII is classified without table lookups since
// it dominates JSON and MCP-Term.
func hasLongRun(text string, limit int) bool {
	if len(text) <= limit {
		return false
	}
	start := 0
	prev := runClass(255)
	for i := 0; i < len(text); {
		var cl runClass
		c := text[i]
		size := 1
		if c < utf8.RuneSelf {
			switch {
			case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
				cl = classLetter
			case '0' <= c && c <= '9':
				cl = classDigit
			case c == ' ' || '\t' <= c && c <= '\r':
				cl = classSpace
			default:
				cl = classOther
			}
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(text[i:])
			cl = classOf(r)
		}
		if cl != prev {
			start, prev = i, cl
		}
		i += size
		if i-start > limit {
			return true
		}
	}
	return false
}
