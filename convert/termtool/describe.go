package termtool

import (
	"fmt"
	"strings"

	"github.com/mcpterm/mcpterm/convert/nearest"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/term"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// DescribeHead is the word that makes an expr of the term-lazy tool a
// request for declarations instead of a call. It is the gateway's own: an
// upstream tool named describe is still called by its short code (never
// "describe", which is longer than a code) or as JSON.
const DescribeHead = "describe"

// Request is a (describe ...) read from an expr: the tools asked for, by
// short code or name, and the servers, whose every tool is asked for.
type Request struct {
	Tools   []string
	Servers []string
}

// DescribeExpr is the expr that asks for one tool's declaration.
func DescribeExpr(code string) string { return "(" + DescribeHead + " " + code + ")" }

// DescribeArguments is the tools/call arguments a model sends for
// DescribeExpr(code), minified: what the token report counts as the
// request half of a describe exchange.
func DescribeArguments(code string) string {
	return ojson.NewObject().Set("expr", ojson.NewString(DescribeExpr(code))).Compact()
}

// ReadDescribe reads expr as a describe request. ok is false when expr is
// something else (a call, a batch, JSON), which the caller reads as calls;
// err is set when it is a describe request that is malformed.
//
//	(describe CODE|NAME ...)
//	(describe :server NAME ...)
//
// Both may be mixed; names that are not symbols are written as strings.
func ReadDescribe(expr string) (req Request, ok bool, err error) {
	if !looksLikeDescribe(expr) {
		return Request{}, false, nil
	}
	forms, err := sexpr.Parse(expr)
	if err != nil {
		return Request{}, true, err
	}
	if len(forms) != 1 || forms[0].Head() != DescribeHead {
		return Request{}, true, fmt.Errorf("expected one (describe CODE ...) or (describe :server NAME)")
	}
	items := forms[0].Items[1:]
	for i := 0; i < len(items); i++ {
		it := items[i]
		switch {
		case it.Kind == sexpr.Keyword && it.Text == "server":
			if i+1 >= len(items) || !nameKind(items[i+1]) {
				return Request{}, true, sexpr.Errorf(it, "expected a server name after :server")
			}
			req.Servers = append(req.Servers, items[i+1].Text)
			i++
		case nameKind(it):
			req.Tools = append(req.Tools, it.Text)
		default:
			return Request{}, true, sexpr.Errorf(it, "expected a short code, a tool name or :server NAME, found %s", sexpr.Describe(it))
		}
	}
	if len(req.Tools) == 0 && len(req.Servers) == 0 {
		return Request{}, true, fmt.Errorf("describe what? write (describe CODE ...) or (describe :server NAME)")
	}
	return req, true, nil
}

func nameKind(n *sexpr.Node) bool {
	return (n.Kind == sexpr.Symbol || n.Kind == sexpr.String) && n.Text != ""
}

// looksLikeDescribe is a cheap test before parsing: past white space and
// ; comments the text opens a list headed describe.
func looksLikeDescribe(s string) bool {
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		if !strings.HasPrefix(s, ";") {
			break
		}
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return false
		}
		s = s[i+1:]
	}
	rest, ok := strings.CutPrefix(s, "("+DescribeHead)
	if !ok {
		return false
	}
	return rest == "" || strings.ContainsRune(" \t\r\n()\";", rune(rest[0]))
}

// UnknownError is a describe request naming tools or servers the list does
// not have; its text says which, with the nearest names.
type UnknownError struct {
	Names []string // "tool X" or "server Y", with suggestions
}

func (e *UnknownError) Error() string { return "no " + strings.Join(e.Names, "; no ") }

// Describer answers describe requests for one tool list: the full,
// lossless MCP-Term declarations (model-facing, as the term mode lists
// them) of the tools asked for, with the short codes they have in the
// whole list. Build it once per list; it is read-only afterwards.
type Describer struct {
	set    *toolset.Set
	codes  map[string]string // name -> code, over the whole list
	byName map[string]int
	byCode map[string]int
}

// NewDescriber is the Describer of set; codes as term.Options.Codes (nil:
// term.ShortCodes of the names).
func NewDescriber(set *toolset.Set, codes map[string]string) *Describer {
	names := make([]string, len(set.Tools))
	for i, t := range set.Tools {
		names[i] = t.Name
	}
	all := term.ShortCodes(names)
	for n, c := range codes {
		if _, ok := all[n]; ok {
			all[n] = c
		}
	}
	d := &Describer{set: set, codes: all, byName: map[string]int{}, byCode: map[string]int{}}
	for i, t := range set.Tools {
		if _, dup := d.byName[t.Name]; !dup {
			d.byName[t.Name] = i
		}
	}
	for i, t := range set.Tools {
		if c := all[t.Name]; c != "" {
			if _, dup := d.byCode[c]; !dup {
				d.byCode[c] = i
			}
		}
	}
	return d
}

// Code is the tool's short code in the whole list.
func (d *Describer) Code(tool string) string { return d.codes[tool] }

// Answer is the declarations of every tool req names, each once, in list
// order, grouped per server when they come from several: the text a
// describe call answers. A name is a tool's short code or name (exact,
// then ignoring case); a server is a Tool.Server, or the list's own
// server name for a single server's list.
func (d *Describer) Answer(req Request) (string, error) {
	want := map[int]bool{}
	var unknown []string
	for _, n := range req.Tools {
		i, ok := d.find(n)
		if !ok {
			unknown = append(unknown, "tool "+quoteName(n)+suggest(n, d.names()))
			continue
		}
		want[i] = true
	}
	for _, s := range req.Servers {
		found := false
		for i, t := range d.set.Tools {
			if strings.EqualFold(t.Server, s) || t.Server == "" && strings.EqualFold(d.set.Server, s) {
				want[i], found = true, true
			}
		}
		if !found {
			unknown = append(unknown, "server "+quoteName(s)+suggest(s, d.servers()))
		}
	}
	if len(unknown) > 0 {
		return "", &UnknownError{Names: unknown}
	}
	sub := &toolset.Set{Server: d.set.Server, Version: d.set.Version, Source: d.set.Source}
	codes := make(map[string]string, len(want))
	for i, t := range d.set.Tools {
		if want[i] {
			sub.Tools = append(sub.Tools, t)
			codes[t.Name] = d.codes[t.Name]
		}
	}
	doc, err := term.Render(sub, term.Options{ModelFacing: true, Codes: codes})
	if err != nil {
		return "", err
	}
	return doc.Text, nil
}

func (d *Describer) find(n string) (int, bool) {
	if i, ok := d.byCode[n]; ok {
		return i, true
	}
	if i, ok := d.byName[n]; ok {
		return i, true
	}
	for i, t := range d.set.Tools {
		if strings.EqualFold(t.Name, n) || strings.EqualFold(d.codes[t.Name], n) {
			return i, true
		}
	}
	return 0, false
}

func (d *Describer) names() []string {
	out := make([]string, 0, 2*len(d.set.Tools))
	for _, t := range d.set.Tools {
		out = append(out, d.codes[t.Name], t.Name)
	}
	return out
}

func (d *Describer) servers() []string {
	var out []string
	if d.set.Server != "" {
		out = append(out, d.set.Server)
	}
	for _, g := range term.Groups(d.set) {
		if g.Server != "" {
			out = append(out, g.Server)
		}
	}
	return out
}

func suggest(word string, candidates []string) string {
	s := nearest.Suggest(word, candidates, nearest.DefaultLimit(word), 3)
	if len(s) == 0 {
		return ""
	}
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = quoteName(x)
	}
	return " (did you mean " + strings.Join(q, ", ") + "?)"
}

func quoteName(s string) string { return term.EscapeHidden(sexpr.Print(nameOrString(s))) }

func nameOrString(s string) *sexpr.Node {
	if sexpr.IsSymbolText(s) {
		return sexpr.Sym(s)
	}
	return sexpr.Str(s)
}
