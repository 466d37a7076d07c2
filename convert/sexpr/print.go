package sexpr

import (
	"fmt"
	"strings"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// String prints n canonically on one line.
func (n *Node) String() string {
	var b strings.Builder
	write(&b, n)
	return b.String()
}

// Print is n.String(), for symmetry with Parse.
func Print(n *Node) string { return n.String() }

func write(b *strings.Builder, n *Node) {
	if n == nil {
		b.WriteString("nil")
		return
	}
	switch n.Kind {
	case List:
		if kws, ok := keywordUnion(n); ok {
			for i, k := range kws {
				if i > 0 {
					b.WriteByte('|')
				}
				b.WriteByte(':')
				b.WriteString(k)
			}
			return
		}
		b.WriteByte('(')
		for i, it := range n.Items {
			if i > 0 {
				b.WriteByte(' ')
			}
			write(b, it)
		}
		b.WriteByte(')')
	case Symbol:
		if IsSymbolText(n.Text) {
			b.WriteString(n.Text)
		} else {
			writeQuoted(b, n.Text) // not representable as a symbol; degrade visibly
		}
	case Keyword:
		if IsKeywordText(n.Text) {
			b.WriteByte(':')
			b.WriteString(n.Text)
		} else {
			writeQuoted(b, n.Text)
		}
	case String:
		writeQuoted(b, n.Text)
	case Number:
		if validNumber(n.Text) {
			b.WriteString(n.Text)
		} else {
			writeQuoted(b, n.Text)
		}
	case Nil:
		b.WriteString("nil")
	case Bool:
		if n.Bool {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	}
}

// keywordUnion recognises (or :a :b ...) with two or more printable keywords.
func keywordUnion(n *Node) ([]string, bool) {
	if len(n.Items) < 3 || !n.Items[0].IsSym("or") {
		return nil, false
	}
	out := make([]string, 0, len(n.Items)-1)
	for _, it := range n.Items[1:] {
		if it.Kind != Keyword || !IsKeywordText(it.Text) {
			return nil, false
		}
		out = append(out, it.Text)
	}
	return out, true
}

// Pretty prints n across lines: a list that fits in width stays on one line,
// otherwise its head stays on the first line and each further item goes on
// its own line, indented by two spaces per level.
func Pretty(n *Node, width int) string {
	var b strings.Builder
	pretty(&b, n, width, 0, 0)
	return b.String()
}

// pretty writes n starting at column indent; trail closing parentheses of
// enclosing lists will follow it on its last line and count against width.
func pretty(b *strings.Builder, n *Node, width, indent, trail int) {
	flat := n.String()
	if n == nil || n.Kind != List || len(flat)+indent+trail <= width || len(n.Items) < 2 {
		b.WriteString(flat)
		return
	}
	if _, ok := keywordUnion(n); ok {
		b.WriteString(flat)
		return
	}
	if isPlist(n.Items) {
		prettyPlist(b, n.Items, width, indent, trail)
		return
	}
	last := len(n.Items) - 1
	closing := func(i int) int { // parentheses that follow item i on its line
		if i == last {
			return trail + 1
		}
		return 0
	}
	b.WriteByte('(')
	pretty(b, n.Items[0], width, indent+1, closing(0))
	col := indent + 1 + len(n.Items[0].String())
	if n.Items[0].Kind == List {
		col = width // a data list: its items go under one another
	}
	// Fill the head line with atoms that fit (a short code, a name), and a
	// first list only when no other list follows (a parameter's type), so
	// sibling lists — parameters, fields — always line up under each other.
	i := 1
	for i < len(n.Items) {
		flat := n.Items[i].String()
		if col+1+len(flat)+closing(i) > width {
			break
		}
		if !atomLike(n.Items[i]) && (i != 1 || hasList(n.Items[2:])) {
			break
		}
		b.WriteByte(' ')
		b.WriteString(flat)
		col += 1 + len(flat)
		i++
	}
	// A list of data (its head is itself a list) lines its items up under
	// the first one; a form (head symbol) indents its body by two.
	step := 2
	if n.Items[0].Kind == List {
		step = 1
	}
	for i < len(n.Items) {
		b.WriteByte('\n')
		b.WriteString(strings.Repeat(" ", indent+step))
		it := n.Items[i]
		// Keep ":keyword value" together, as in ":default 0".
		if it.Kind == Keyword && i+1 < len(n.Items) && n.Items[i+1].Kind != Keyword {
			key := it.String()
			b.WriteString(key)
			b.WriteByte(' ')
			pretty(b, n.Items[i+1], width, indent+step+len(key)+1, closing(i+1))
			i += 2
			continue
		}
		pretty(b, it, width, indent+step, closing(i))
		i++
	}
	b.WriteByte(')')
}

// atomLike reports whether n prints as one token: an atom or a keyword union.
func atomLike(n *Node) bool {
	if n.Kind != List {
		return true
	}
	_, ok := keywordUnion(n)
	return ok
}

func hasList(items []*Node) bool {
	for _, it := range items {
		if !atomLike(it) {
			return true
		}
	}
	return false
}

// isPlist reports whether items alternate :keyword value, as records and
// maps do in MCP-Term data.
func isPlist(items []*Node) bool {
	if len(items) < 2 || len(items)%2 != 0 {
		return false
	}
	for i := 0; i < len(items); i += 2 {
		if items[i].Kind != Keyword {
			return false
		}
	}
	return true
}

// prettyPlist keeps each :key value pair together, one pair a line, so a
// record reads like a table of fields.
func prettyPlist(b *strings.Builder, items []*Node, width, indent, trail int) {
	b.WriteByte('(')
	for i := 0; i < len(items); i += 2 {
		if i > 0 {
			b.WriteByte('\n')
			b.WriteString(strings.Repeat(" ", indent+1))
		}
		key := items[i].String()
		b.WriteString(key)
		b.WriteByte(' ')
		closing := 0
		if i+2 == len(items) {
			closing = trail + 1
		}
		pretty(b, items[i+1], width, indent+1+len(key)+1, closing)
	}
	b.WriteByte(')')
}

func writeQuoted(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r >= 0x7f && r <= 0x9f:
			// C0, DEL and C1 controls (U+009B is a CSI on some terminals)
			b.WriteString(`\u00`)
			b.WriteByte(hex[r>>4])
			b.WriteByte(hex[r&0xf])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}
