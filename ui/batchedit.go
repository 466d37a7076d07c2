package ui

import (
	"strconv"
	"strings"

	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// insertCall adds call (an MCP-Term call, such as a tool's template) to the
// composer's draft at the cursor, the way batches are built up:
//   - an empty draft becomes the call;
//   - in a (batch ...), the call becomes a new entry with the next free
//     numeric id, after the entry the cursor is in (at the end when it is
//     in none);
//   - a draft of one or more calls becomes a batch of them, the new call
//     last;
//   - anything else (a half-written draft, JSON, AQL) gets the call on a
//     line of its own at the cursor, as typing it would.
//
// It returns the new text and the byte offset where the call starts in it.
func insertCall(draft string, cur int, call string) (string, int) {
	if strings.TrimSpace(draft) == "" {
		return call, 0
	}
	cur = clamp(cur, 0, len(draft))
	forms, err := sexpr.Parse(draft)
	if err == nil && len(forms) > 0 && allLists(forms) {
		if len(forms) == 1 && isBatch(forms[0]) {
			return addEntry(draft, cur, forms[0], call)
		}
		if !anyBatch(forms) {
			return wrapInBatch(draft, forms, call)
		}
	}
	// At the cursor, on a line of its own.
	before, after := draft[:cur], draft[cur:]
	pre, post := "", ""
	if before != "" && !strings.HasSuffix(before, "\n") {
		pre = "\n"
	}
	if after != "" && !strings.HasPrefix(after, "\n") {
		post = "\n"
	}
	return before + pre + call + post + after, len(before) + len(pre)
}

// addEntry puts call into batch b of draft as entry N, N one more than the
// largest numeric id there, after the entry holding the cursor.
func addEntry(draft string, cur int, b *sexpr.Node, call string) (string, int) {
	next := 1
	at := b.End.Offset - 1 // before the batch's closing paren
	indent := "\n  "
	for _, e := range b.Items[1:] {
		if e.Kind != sexpr.List || len(e.Items) == 0 {
			continue
		}
		if n, err := strconv.Atoi(e.Items[0].Text); err == nil && e.Items[0].Kind == sexpr.Number && n >= next {
			next = n + 1
		}
		if e.Pos.Offset <= cur && cur <= e.End.Offset {
			at = e.End.Offset
		}
		if col := e.Pos.Col - 1; col > 0 {
			indent = "\n" + strings.Repeat(" ", col)
		}
	}
	entry := indent + "(" + strconv.Itoa(next) + " "
	text := draft[:at] + entry + call + ")" + draft[at:]
	return text, at + len(entry)
}

// wrapInBatch makes the calls of draft entries 1..n of a batch and call
// entry n+1.
func wrapInBatch(draft string, forms []*sexpr.Node, call string) (string, int) {
	var b strings.Builder
	b.WriteString("(batch")
	for i, f := range forms {
		b.WriteString("\n  (" + strconv.Itoa(i+1) + " " + draft[f.Pos.Offset:f.End.Offset] + ")")
	}
	entry := "\n  (" + strconv.Itoa(len(forms)+1) + " "
	b.WriteString(entry)
	at := b.Len()
	b.WriteString(call + "))")
	return b.String(), at
}

func allLists(forms []*sexpr.Node) bool {
	for _, f := range forms {
		if f.Kind != sexpr.List || len(f.Items) == 0 {
			return false
		}
	}
	return true
}

func isBatch(n *sexpr.Node) bool {
	return n.Kind == sexpr.List && len(n.Items) > 0 && n.Items[0].Kind == sexpr.Symbol && n.Items[0].Text == "batch"
}

func anyBatch(forms []*sexpr.Node) bool {
	for _, f := range forms {
		if isBatch(f) {
			return true
		}
	}
	return false
}

// firstHole is where typing should start in a call's text: inside its
// first empty string or list (the first value a template leaves to fill),
// else after its first value, else just before its closing paren, so
// what is typed goes into the call.
func firstHole(call string) int {
	inString := false
	for i := 0; i < len(call); i++ {
		c := call[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"' && !inString && i+1 < len(call) && call[i+1] == '"':
			return i + 1
		case c == '"':
			inString = !inString
		case !inString && c == '(' && i > 0 && i+1 < len(call) && call[i+1] == ')':
			return i + 1
		}
	}
	// No empty slot: after the first value given (a 0 or false the
	// template had to put there), for backspace and the real one.
	if forms, err := sexpr.Parse(call); err == nil && len(forms) == 1 && forms[0].Kind == sexpr.List {
		for _, it := range forms[0].Items[1:] {
			if it.Kind != sexpr.Keyword {
				return it.End.Offset
			}
		}
	}
	if strings.HasSuffix(call, ")") {
		return len(call) - 1
	}
	return len(call)
}
