package call

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpterm/mcpterm/convert/nearest"

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

// suggest returns up to three candidates close to word, nearest first.
// Levenshtein distance counts two neighbours swapped (paht for path, lne for
// len) as two edits, more than a name under six letters is allowed, so the
// commonest slip of all found nothing; a candidate one swap away comes
// after the ones within the limit.
func suggest(word string, candidates []string) []string {
	out := nearest.Suggest(word, candidates, nearest.DefaultLimit(word), 3)
	if len(out) == 3 || len(word) < 2 {
		return out
	}
	fw := nearest.Fold(word)
	for _, c := range candidates {
		if len(out) == 3 {
			break
		}
		if len(c) == len(word) && c != word && oneSwap(fw, nearest.Fold(c)) && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// oneSwap reports whether b is a with two neighbouring bytes exchanged.
func oneSwap(a, b string) bool {
	if len(a) != len(b) {
		return false // folding turns an invalid byte into three
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
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
