package call

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// ErrorKind sorts call errors so that front ends (the CLI's exit code, the
// composer's highlighting) can react without parsing messages.
type ErrorKind string

const (
	ErrSyntax        ErrorKind = "syntax"         // the text is not an S-expression or JSON
	ErrUnknownTool   ErrorKind = "unknown-tool"   // no tool by that name or short code
	ErrUnknownParam  ErrorKind = "unknown-param"  // :name that the tool does not declare
	ErrMissing       ErrorKind = "missing-param"  // a required parameter was not given
	ErrType          ErrorKind = "wrong-type"     // a value of the wrong JSON type
	ErrDuplicate     ErrorKind = "duplicate"      // an argument, key or batch id given twice
	ErrTooMany       ErrorKind = "too-many"       // more positional arguments than parameters
	ErrEnum          ErrorKind = "enum"           // a value outside enum/const
	ErrShape         ErrorKind = "shape"          // a malformed call, batch or argument list
	ErrLimit         ErrorKind = "limit"          // input beyond a size or depth bound
	ErrSchema        ErrorKind = "schema"         // JSON Schema validation failed
	ErrInvalidSchema ErrorKind = "invalid-schema" // the tool's own schema is unusable
	ErrNotCallable   ErrorKind = "not-representable"
)

// Error is every call error: it says where (line:col in the source the user
// typed), what was wrong, and what would have been right there, in MCP-Term
// notation, so a person or a model can fix the call in one step.
type Error struct {
	Kind     ErrorKind
	Pos      sexpr.Pos
	Msg      string
	Expected string

	lazy func() string // Expected, written only if the error is shown
}

// finish writes a deferred Expected; errors leave the package finished.
func finish(err error) error {
	if e, ok := err.(*Error); ok && e.lazy != nil {
		e.Expected, e.lazy = e.lazy(), nil
	}
	return err
}

func (e *Error) Error() string {
	if e.lazy != nil {
		c := *e
		c.Expected, c.lazy = e.lazy(), nil
		return c.Error()
	}
	var b strings.Builder
	if e.Pos.Line > 0 {
		b.WriteString(e.Pos.String())
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Expected != "" {
		b.WriteString("; expected ")
		b.WriteString(e.Expected)
	}
	return b.String()
}

func errAt(kind ErrorKind, p sexpr.Pos, expected, format string, args ...any) *Error {
	return &Error{Kind: kind, Pos: p, Msg: fmt.Sprintf(format, args...), Expected: expected}
}

func errLazy(kind ErrorKind, n *sexpr.Node, expected func() string, format string, args ...any) *Error {
	e := errNode(kind, n, "", format, args...)
	e.lazy = expected
	return e
}

func errNode(kind ErrorKind, n *sexpr.Node, expected, format string, args ...any) *Error {
	var p sexpr.Pos
	if n != nil {
		p = n.Pos
	}
	return errAt(kind, p, expected, format, args...)
}

// fromSexpr turns a reader error into an *Error.
func fromSexpr(err error) error {
	var se *sexpr.Error
	if errors.As(err, &se) {
		return &Error{Kind: ErrSyntax, Pos: se.Pos, Msg: se.Msg}
	}
	return err
}

// closePos is where a list's ')' stands: a missing argument is reported there,
// the place it would have to be inserted.
func closePos(n *sexpr.Node) sexpr.Pos {
	if n == nil {
		return sexpr.Pos{}
	}
	if n.End.Line == 0 {
		return n.Pos
	}
	p := n.End
	p.Offset--
	p.Col--
	return p
}

// levenshtein is the edit distance in runes, with an early exit once the
// distance must exceed max (names and codes are short; enum lists are not).
func levenshtein(a, b string, max int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > max || -d > max {
		return max + 1
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
		if best > max {
			return max + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// fold makes names that differ only in case or '-' versus '_' compare equal,
// the commonest slips when typing tool and parameter names.
func fold(s string) string {
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

// suggest returns up to three candidates close to word, nearest first.
func suggest(word string, candidates []string) []string {
	if word == "" || len(candidates) == 0 {
		return nil
	}
	limit := max(1, min(3, utf8.RuneCountInString(word)/3))
	type hit struct {
		s string
		d int
	}
	var hits []hit
	fw := fold(word)
	seen := map[string]bool{}
	for _, c := range candidates {
		if seen[c] || c == word {
			continue
		}
		seen[c] = true
		d := levenshtein(fw, fold(c), limit)
		if fold(c) == fw {
			d = 0
		}
		if d <= limit {
			hits = append(hits, hit{c, d})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].d < hits[j].d })
	var out []string
	for i := 0; i < len(hits) && i < 3; i++ {
		out = append(out, hits[i].s)
	}
	return out
}

// didYouMean renders suggestions as " (did you mean x or y?)", with each
// candidate passed through show (to add a ':' or quotes).
func didYouMean(word string, candidates []string, show func(string) string) string {
	s := suggest(word, candidates)
	if len(s) == 0 {
		return ""
	}
	for i := range s {
		s[i] = show(s[i])
	}
	return " (did you mean " + strings.Join(s, " or ") + "?)"
}

func plain(s string) string { return s }

func asKeyword(s string) string {
	if sexpr.IsKeywordText(s) {
		return ":" + s
	}
	return sexpr.Str(s).String()
}
