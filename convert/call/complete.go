package call

import (
	"slices"
	"strings"

	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// Completion is what may be typed at a composer's cursor: the word the
// cursor stands on and what could replace it, best first. A front end
// replaces text[Start:cursor] with a candidate's Text, and cycles through
// Items itself (tab, shift+tab).
type Completion struct {
	Word  string // the word being typed: the text from Start to the cursor
	Start int    // byte offset of the word in the text before the cursor
	Items []Candidate
}

// Candidate is one thing that may be typed in place of the word.
type Candidate struct {
	Text   string // as written: "fr", ":path", ":utf8", "\"New York\"", "insert", "nil"
	Kind   CandidateKind
	Detail string // a type in MCP-Term notation, or a description's first sentence
}

// CandidateKind says what a candidate is, for a front end to label or
// colour it.
type CandidateKind uint8

const (
	KindToolCode    CandidateKind = iota + 1 // a tool's short code, in head position
	KindToolName                             // a tool's real name, in head position
	KindBatch                                // batch, at the head of the whole text
	KindBatchOption                          // :concurrency or :stop-on-error
	KindParam                                // :name of a tool's parameter
	KindField                                // :name of a nested record's field
	KindEnum                                 // an enum or const value of the slot
	KindVariant                              // a tagged union's tag, at the head of its list
	KindLiteral                              // nil, true or false, where a value of that type goes
	KindOperation                            // an AQL operation name (package calls)
	KindKey                                  // a key of a JSON call ("operation", "params", "name", "arguments")
)

var kindNames = [...]string{"", "tool-code", "tool-name", "batch", "batch-option", "param", "field", "enum", "variant", "literal", "operation", "key"}

func (k CandidateKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Complete says what may be typed at the cursor of a half-written call or
// batch, given only the text before the cursor: it may be unbalanced, end
// inside a string, or hold mistakes before the cursor. In head position it
// offers tool codes and names (and batch at the top); inside a call, the
// parameters not given yet, the values the slot at the cursor takes (enum
// values, nil, true, false), and, at the head of a tagged union's list, its
// tags; inside nested records, their fields. Positional arguments fill the
// parameters in call order, as Read assigns them, so after (fr "/x" the
// next slot is the second parameter's. Candidates that begin with the word
// come first, then those that begin with it ignoring case, then those with
// a part (after _ - . /) that does; when none match, the nearest names.
// JSON and AQL text is completed by package calls (Codec.Complete).
func (r *Resolver) Complete(before string) Completion {
	if len(before) > MaxSourceBytes {
		return Completion{Start: len(before)}
	}
	c := scan(before)
	word, start := c.wordText()
	out := Completion{Word: word, Start: start}
	if c.comment {
		out.Word, out.Start = "", len(before)
		return out
	}
	m := matcher{word: word, quoted: c.wordKind == sexpr.String}
	w := walker{r: r, c: c}
	w.complete(&m)
	out.Items = m.result()
	if len(out.Items) == 0 && len(word) > 1 {
		// Nothing begins with the word: offer what it is probably a slip for.
		all := matcher{quoted: m.quoted}
		w.complete(&all)
		out.Items = nearMisses(word, all.result())
	}
	return out
}

// Filter keeps the candidates that fit word, ordered as Complete orders
// them (the word itself, then what begins with it, begins with it ignoring
// case and - versus _, has a part that begins with it; the candidates'
// own order within each). A word that begins with a quote is a string, and
// only strings fit it. For front ends that narrow a list as typing goes on,
// and for package calls, which completes JSON with the same rule.
func Filter(word string, cands []Candidate) []Candidate {
	m := matcher{word: word, quoted: word != "" && word[0] == '"'}
	for _, c := range cands {
		m.add(c)
	}
	return m.result()
}

// matcher keeps the candidates that fit the word, with how well they fit.
type matcher struct {
	word   string
	quoted bool // the word is a string: only string-written candidates fit
	hits   []ranked
	seen   map[string]bool // set once candidates can repeat (several readings)
}

type ranked struct {
	Candidate
	rank int
}

func (m *matcher) add(c Candidate) {
	if c.Text == "" || m.quoted && c.Text[0] != '"' {
		return // inside a string only strings fit
	}
	rk := matchRank(c.Text, m.word)
	if rk < 0 {
		return
	}
	if m.seen != nil {
		if m.seen[c.Text] {
			return
		}
		m.seen[c.Text] = true
	}
	m.hits = append(m.hits, ranked{c, rk})
}

// dedupe makes add drop candidates already given, for when several readings
// of the list at the cursor can offer the same one.
func (m *matcher) dedupe() {
	if m.seen == nil {
		m.seen = make(map[string]bool, len(m.hits)+8)
		for _, h := range m.hits {
			m.seen[h.Text] = true
		}
	}
}

func (m *matcher) result() []Candidate {
	if len(m.hits) == 0 {
		return nil
	}
	slices.SortStableFunc(m.hits, func(a, b ranked) int { return a.rank - b.rank })
	out := make([]Candidate, len(m.hits))
	for i, h := range m.hits {
		out[i] = h.Candidate
	}
	return out
}

// matchRank is how well cand fits word: 0 it is the word, 1 it begins with
// the word, 2 it does ignoring case and - versus _, 3 a part of it after _
// - . / or a space does; -1 it does not fit.
func matchRank(cand, word string) int {
	switch {
	case cand == word:
		return 0
	case strings.HasPrefix(cand, word):
		return 1
	case foldPrefix(cand, word):
		return 2
	}
	body, lead := word, ""
	if len(word) > 0 && (word[0] == ':' || word[0] == '"') {
		body, lead = word[1:], word[:1]
	}
	if body == "" || !strings.HasPrefix(cand, lead) {
		return -1
	}
	for i := len(lead) + 1; i < len(cand); i++ {
		switch cand[i-1] {
		case '_', '-', '.', '/', ' ':
			if foldPrefix(cand[i:], body) {
				return 3
			}
		}
	}
	return -1
}

// foldPrefix is strings.HasPrefix after nearest.Fold, without building the
// folded strings.
func foldPrefix(s, prefix string) bool {
	if len(prefix) > len(s) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if foldByte(s[i]) != foldByte(prefix[i]) {
			return false
		}
	}
	return true
}

func foldByte(b byte) byte {
	switch {
	case b == '-':
		return '_'
	case b >= 'A' && b <= 'Z':
		return b + 'a' - 'A'
	}
	return b
}

// nearMisses are the candidates closest to a word none of them begins with.
func nearMisses(word string, all []Candidate) []Candidate {
	if len(all) == 0 {
		return nil
	}
	texts := make([]string, len(all))
	for i, c := range all {
		texts[i] = c.Text
	}
	near := suggest(word, texts)
	out := make([]Candidate, 0, len(near))
	for _, n := range near {
		if i := slices.Index(texts, n); i >= 0 {
			out = append(out, all[i])
		}
	}
	return out
}
