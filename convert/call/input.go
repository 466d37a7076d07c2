package call

import (
	"strconv"
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// readLimits bound the reader for one call text: lists nest at most 200
// deep and hold at most 200,000 data in all (some 30 MB of tree at worst).
var readLimits = sexpr.Limits{MaxDepth: 200, MaxNodes: 200_000}

// Read is Parse without schema validation: the arguments have the right
// shape for their schema but constraints (lengths, ranges, patterns, ...)
// are not checked yet. The composer uses it to give feedback while typing.
func (r *Resolver) Read(src string) (*Batch, error) {
	if len(src) > MaxSourceBytes {
		return nil, errAt(ErrLimit, sexpr.Pos{Line: 1, Col: 1}, "", "input is larger than %d bytes", MaxSourceBytes)
	}
	if first, at := firstChar(src); first == '{' || first == '[' {
		// Leading ; comments become spaces, so offsets and lines stay put.
		lead := strings.Map(func(r rune) rune {
			if r == '\n' {
				return r
			}
			return ' '
		}, src[:at])
		return r.readJSON(strings.Repeat(" ", at-len(lead)) + lead + src[at:])
	}
	nodes, err := sexpr.ParseLimits(src, readLimits)
	if err != nil {
		return nil, fromSexpr(err)
	}
	if len(nodes) == 0 {
		return nil, errAt(ErrShape, sexpr.Pos{Line: 1, Col: 1}, "(TOOL ARG ...)", "no call given")
	}
	if len(nodes) > 1 {
		return nil, errNode(ErrShape, nodes[1], "one expression; write several calls as (batch (1 CALL) (2 CALL) ...)", "more than one call")
	}
	n := nodes[0]
	steps := 0
	if n.IsSym("batch") || n.Head() == "batch" {
		return r.readBatch(n, &steps)
	}
	c, err := r.readCall(n, "", &steps)
	if err != nil {
		return nil, err
	}
	return &Batch{Calls: []Call{c}}, nil
}

// firstChar is the first character that is not white space or a ; comment,
// and its offset.
func firstChar(src string) (byte, int) {
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case ' ', '\t', '\r', '\n', '\f', '\v':
		case ';':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		default:
			return c, i
		}
	}
	return 0, len(src)
}

func (r *Resolver) readCall(n *sexpr.Node, id string, steps *int) (Call, error) {
	c, _, err := r.readCallArgs(n, id, steps, false)
	if err == nil {
		c.locate = func() (*ojson.Value, map[*ojson.Value]sexpr.Pos) {
			c, where, err := r.readCallArgs(n, id, new(int), true)
			if err != nil {
				return nil, nil
			}
			return c.Arguments, where
		}
	}
	return c, finish(err)
}

func (r *Resolver) readCallArgs(n *sexpr.Node, id string, steps *int, track bool) (Call, map[*ojson.Value]sexpr.Pos, error) {
	if n.Kind != sexpr.List {
		return Call{}, nil, errNode(ErrShape, n, "(TOOL ARG ...)", "found %s where a call goes", sexpr.Describe(n))
	}
	if len(n.Items) == 0 {
		return Call{}, nil, errNode(ErrShape, n, "(TOOL ARG ...)", "empty call")
	}
	head := n.Items[0]
	if head.Kind != sexpr.Symbol && head.Kind != sexpr.String {
		return Call{}, nil, errNode(ErrShape, head, "a tool name or short code", "found %s where the tool goes", sexpr.Describe(head))
	}
	if head.IsSym("batch") {
		return Call{}, nil, errNode(ErrShape, head, "(TOOL ARG ...)", "batches do not nest")
	}
	t := r.Lookup(head.Text)
	if t == nil {
		return Call{}, nil, r.unknownTool(head, head.Text)
	}
	p := r.newParser(t, steps, track)
	v := p.view(t.InputSchema)
	var args *ojson.Value
	var err error
	switch {
	case v.never:
		err = errNode(ErrInvalidSchema, head, "", "tool %s accepts no arguments at all (its inputSchema is false)", t.Name)
	case v.record:
		args, err = p.record(n, n.Items[1:], v, 0, nil, 0)
	case v.tag != nil || len(v.alts) > 0 && !v.ownShape():
		// A union at the top: the arguments after the head are read as
		// the union's list would be, (TOOL TAG ARG ...) for a tagged one.
		rest := &sexpr.Node{Kind: sexpr.List, Items: n.Items[1:], Pos: n.Pos, End: n.End}
		if len(rest.Items) > 0 {
			rest.Pos = rest.Items[0].Pos
		}
		args, err = p.val(rest, t.InputSchema, 0)
		if err == nil && args.Kind != ojson.Object {
			err = errNode(ErrType, head, "a JSON object", "the arguments of %s read as a JSON %s", t.Name, args.Kind)
		}
	default:
		args, err = p.mapping(n, n.Items[1:], v, 0)
	}
	if err != nil {
		return Call{}, nil, err
	}
	p.note(args, n)
	return Call{ID: id, Tool: t.Name, Arguments: args, Pos: n.Pos}, p.where, nil
}

func (r *Resolver) readBatch(n *sexpr.Node, steps *int) (*Batch, error) {
	if n.Kind != sexpr.List {
		return nil, errNode(ErrShape, n, "(batch (ID CALL) ...)", "a batch is a list")
	}
	b := &Batch{IsBatch: true}
	items := n.Items[1:]
	i := 0
	for i < len(items) && items[i].Kind == sexpr.Keyword {
		opt := items[i]
		switch opt.Text {
		case "concurrency":
			if i+1 >= len(items) || items[i+1].Kind != sexpr.Number || !isIntegral(items[i+1].Text) || len(items[i+1].Text) > 4 {
				return nil, errNode(ErrShape, opt, "a whole number after :concurrency, as in :concurrency 4", "malformed :concurrency option")
			}
			c, err := strconv.Atoi(items[i+1].Text)
			if err != nil || c < 0 || c > MaxConcurrency {
				return nil, errNode(ErrLimit, items[i+1], "0 to "+strconv.Itoa(MaxConcurrency), "concurrency %s out of range", items[i+1].Text)
			}
			b.Concurrency = c
			i += 2
		case "stop-on-error":
			b.StopOnError = true
			i++
			if i < len(items) && items[i].Kind == sexpr.Bool {
				b.StopOnError = items[i].Bool
				i++
			}
		default:
			return nil, errNode(ErrShape, opt, ":concurrency N or :stop-on-error", "unknown batch option :%s%s", opt.Text,
				didYouMean(opt.Text, []string{"concurrency", "stop-on-error"}, asKeyword))
		}
	}
	seen := map[string]*sexpr.Node{}
	for ; i < len(items); i++ {
		e := items[i]
		if e.Kind == sexpr.Keyword {
			return nil, errNode(ErrShape, e, "(ID CALL)", "batch options go before the calls")
		}
		if e.Kind != sexpr.List || len(e.Items) != 2 || e.Items[1].Kind != sexpr.List {
			return nil, errNode(ErrShape, e, "(ID CALL), as in (1 (fr \"/etc/hosts\"))", "found %s where a batch entry goes", sexpr.Describe(e))
		}
		idn := e.Items[0]
		if idn.Kind != sexpr.Symbol && idn.Kind != sexpr.Number {
			return nil, errNode(ErrShape, idn, "a symbol or number as the batch id", "found %s where the id goes", sexpr.Describe(idn))
		}
		if prev := seen[idn.Text]; prev != nil {
			return nil, errNode(ErrDuplicate, idn, "", "duplicate batch id %s (first used at %s)", idn.Text, prev.Pos)
		}
		seen[idn.Text] = idn
		if len(b.Calls) >= MaxBatchCalls {
			return nil, errNode(ErrLimit, e, "", "a batch holds at most %d calls", MaxBatchCalls)
		}
		c, err := r.readCall(e.Items[1], idn.Text, steps)
		if err != nil {
			return nil, err
		}
		b.Calls = append(b.Calls, c)
	}
	if len(b.Calls) == 0 {
		return nil, errAt(ErrShape, closePos(n), "(ID CALL)", "empty batch")
	}
	return b, nil
}
