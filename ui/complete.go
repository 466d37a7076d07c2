package ui

import (
	"sort"
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// completer proposes what may be typed at the cursor of an S-expression
// call: tool codes and names in head position, then the tool's :parameter
// names and the enum keywords of the parameter being filled. It reads only
// the text before the cursor, so it works on half-written, unbalanced input.
type completer struct {
	set   *toolset.Set
	codes map[string]string // name -> code
	byKey map[string]*toolset.Tool
}

func newCompleter(set *toolset.Set, codes map[string]string) *completer {
	c := &completer{set: set, codes: codes, byKey: map[string]*toolset.Tool{}}
	if set != nil {
		for _, t := range set.Tools {
			c.byKey[t.Name] = t
			if code := codes[t.Name]; code != "" {
				c.byKey[code] = t
			}
		}
	}
	return c
}

// complete returns the candidates for the word before the cursor, and that word.
func (c *completer) complete(before string) ([]string, string) {
	word := currentWord(before)
	ctx := before[:len(before)-len(word)]
	head, args, ok := enclosingCall(ctx)
	if !ok {
		return nil, word
	}
	var cands []string
	if head == "" { // the word is the head of its list
		if strings.HasPrefix("batch", word) {
			cands = append(cands, "batch")
		}
		for _, t := range c.set.Tools {
			if code := c.codes[t.Name]; code != "" && strings.HasPrefix(code, word) {
				cands = append(cands, code)
			}
			if strings.HasPrefix(t.Name, word) {
				cands = append(cands, t.Name)
			}
		}
		return uniqSorted(cands), word
	}
	tool := c.byKey[head]
	if tool == nil {
		return nil, word
	}
	props := tool.InputSchema.Get("properties")
	params := paramOrder(tool.InputSchema)
	// After ":param", offer that parameter's enum values.
	if len(args) > 0 && strings.HasPrefix(args[len(args)-1], ":") {
		name := strings.TrimPrefix(args[len(args)-1], ":")
		if ps := props.Get(name); ps != nil {
			return prefixed(enumValues(ps), word), word
		}
	}
	given := map[string]bool{}
	positional := 0
	for i := 0; i < len(args); i++ {
		if strings.HasPrefix(args[i], ":") && props.Get(strings.TrimPrefix(args[i], ":")) != nil {
			given[strings.TrimPrefix(args[i], ":")] = true
			i++ // its value
			continue
		}
		positional++
	}
	for i, n := range params {
		if i < positional {
			given[n] = true
		}
	}
	for _, n := range params {
		if !given[n] {
			cands = append(cands, ":"+n)
		}
	}
	if positional < len(params) {
		cands = append(cands, enumValues(props.Get(params[positional]))...)
	}
	return prefixed(cands, word), word
}

// paramOrder is the positional order: required in schema order, then the rest.
func paramOrder(schema *ojson.Value) []string {
	props := schema.Get("properties")
	if props == nil || props.Kind != ojson.Object {
		return nil
	}
	req := map[string]bool{}
	var out []string
	for _, r := range requiredNames(schema) {
		if props.Get(r) != nil && !req[r] {
			req[r] = true
			out = append(out, r)
		}
	}
	for _, k := range props.Keys() {
		if !req[k] {
			out = append(out, k)
		}
	}
	return out
}

// enumValues lists a schema's enum strings as :keywords (looking through
// arrays' items and anyOf/oneOf members).
func enumValues(s *ojson.Value) []string {
	var out []string
	var walk func(s *ojson.Value, depth int)
	walk = func(s *ojson.Value, depth int) {
		if s == nil || s.Kind != ojson.Object || depth > 4 {
			return
		}
		if e := s.Get("enum"); e != nil && e.Kind == ojson.Array {
			for _, v := range e.Items {
				if v.Kind == ojson.String {
					out = append(out, ":"+v.Str)
				}
			}
		}
		if c := s.Get("const"); c != nil && c.Kind == ojson.String {
			out = append(out, ":"+c.Str)
		}
		walk(s.Get("items"), depth+1)
		for _, k := range []string{"anyOf", "oneOf"} {
			if a := s.Get(k); a != nil && a.Kind == ojson.Array {
				for _, m := range a.Items {
					walk(m, depth+1)
				}
			}
		}
	}
	walk(s, 0)
	return out
}

func prefixed(cands []string, word string) []string {
	var out []string
	for _, c := range cands {
		if strings.HasPrefix(c, word) && c != word {
			out = append(out, c)
		}
	}
	return uniqSorted(out)
}

func uniqSorted(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if len(out[i]) != len(out[j]) {
			return len(out[i]) < len(out[j])
		}
		return out[i] < out[j]
	})
	return out
}

// currentWord is the partial atom right before the cursor.
func currentWord(before string) string {
	i := len(before)
	for i > 0 {
		c := before[i-1]
		if c == ' ' || c == '\n' || c == '\t' || c == '(' || c == ')' || c == '"' {
			break
		}
		i--
	}
	return before[i:]
}

// enclosingCall finds the innermost open list before the cursor: its head
// ("" when the cursor is at the head) and the atoms written after it. Strings
// and comments are skipped; ok is false outside any list.
func enclosingCall(s string) (head string, args []string, ok bool) {
	type frame struct{ atoms []string }
	var stack []frame
	var tok strings.Builder
	flush := func() {
		if tok.Len() > 0 && len(stack) > 0 {
			stack[len(stack)-1].atoms = append(stack[len(stack)-1].atoms, tok.String())
		}
		tok.Reset()
	}
	inStr, esc, comment := false, false, false
	for _, r := range s {
		switch {
		case comment:
			if r == '\n' {
				comment = false
			}
		case inStr:
			if esc {
				esc = false
			} else if r == '\\' {
				esc = true
			} else if r == '"' {
				inStr = false
				if len(stack) > 0 {
					stack[len(stack)-1].atoms = append(stack[len(stack)-1].atoms, `"…"`)
				}
			}
		case r == '"':
			flush()
			inStr = true
		case r == ';':
			flush()
			comment = true
		case r == '(':
			flush()
			stack = append(stack, frame{})
		case r == ')':
			flush()
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
				if len(stack) > 0 {
					stack[len(stack)-1].atoms = append(stack[len(stack)-1].atoms, "(…)")
				}
			}
		case r == ' ' || r == '\n' || r == '\t' || r == '\r':
			flush()
		default:
			tok.WriteRune(r)
		}
	}
	flush()
	if len(stack) == 0 || inStr || comment {
		return "", nil, false
	}
	top := stack[len(stack)-1]
	if len(top.atoms) == 0 {
		return "", nil, true
	}
	return top.atoms[0], top.atoms[1:], true
}

// requiredNames lists a schema's required property names.
func requiredNames(schema *ojson.Value) []string {
	var out []string
	if req := schema.Get("required"); req != nil && req.Kind == ojson.Array {
		for _, r := range req.Items {
			if r.Kind == ojson.String {
				out = append(out, r.Str)
			}
		}
	}
	return out
}
