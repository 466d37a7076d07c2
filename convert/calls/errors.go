package calls

import (
	"errors"
	"strings"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// ErrorPos is where in the source a Read error points, when it knows
// (*call.Error and *sexpr.Error do); the composer highlights it.
func ErrorPos(err error) (sexpr.Pos, bool) {
	var ce *call.Error
	if errors.As(err, &ce) && ce.Pos.Line > 0 {
		return ce.Pos, true
	}
	var se *sexpr.Error
	if errors.As(err, &se) && se.Pos.Line > 0 {
		return se.Pos, true
	}
	return sexpr.Pos{}, false
}

// maxCaretLine is the longest source line Caret quotes: a caret under a
// huge line helps nobody.
const maxCaretLine = 200

// Caret is the source line a Read error points at and a caret under its
// column, two lines indented by two spaces, the way compilers show errors;
// "" when the error has no position or the line is too long to help.
// Control characters of the line become spaces, so the excerpt is safe to
// print.
func Caret(src string, err error) string {
	pos, ok := ErrorPos(err)
	if !ok {
		return ""
	}
	lines := strings.Split(src, "\n")
	if pos.Line > len(lines) {
		return ""
	}
	line := []rune(lines[pos.Line-1])
	if len(line) > maxCaretLine || pos.Col < 1 || pos.Col-1 > len(line) {
		return ""
	}
	for i, r := range line {
		if r < ' ' || (r >= 0x7f && r <= 0x9f) {
			line[i] = ' '
		}
	}
	return "  " + string(line) + "\n  " + strings.Repeat(" ", pos.Col-1) + "^"
}

// ErrorTerm is a Read error as the (err CODE "message") answer a model
// gets: the call error's kind as the code; for an unknown tool without a
// suggestion, the codes it could have used; an AQL failure with its code
// and details.
func (c *Codec) ErrorTerm(err error) *sexpr.Node {
	var ce *call.Error
	if errors.As(err, &ce) && ce.Kind == call.ErrUnknownTool && ce.Expected == "" {
		return sexpr.L(sexpr.Sym("err"), sexpr.Sym(string(ce.Kind)), sexpr.Str(ce.Error()+"; expected one of "+c.codeList()))
	}
	var ae *aql.Error
	if errors.As(err, &ae) {
		return AQLTerm(ae.Response())
	}
	return call.ErrorToTerm(err)
}

// codeList names the tools by the codes a call may use.
func (c *Codec) codeList() string {
	if len(c.set.Tools) == 0 {
		return "no tool: the tool list is empty"
	}
	codes := make([]string, 0, len(c.set.Tools))
	for _, t := range c.set.Tools {
		if c.r.Suggestable(t.Name) {
			codes = append(codes, c.r.Code(t.Name))
		}
	}
	if len(codes) == 0 {
		return "no tool the policy allows"
	}
	return strings.Join(codes, " ")
}
