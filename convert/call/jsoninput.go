package call

import (
	"encoding/json"
	"errors"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// maxJSONDepth bounds JSON input nesting, as the S-expression reader does.
const maxJSONDepth = 200

// readJSON accepts {"name", "arguments"}, a JSON-RPC tools/call request, or
// an array of either (a batch, ids from each "id" or the 1-based index).
func (r *Resolver) readJSON(src string) (*Batch, error) {
	b, err := r.readJSONTracked(src, false)
	if err != nil {
		// Read again, keeping every value's offset, to say where it went wrong.
		_, err = r.readJSONTracked(src, true)
		return nil, err
	}
	for i := range b.Calls {
		b.Calls[i].locate = func() (*ojson.Value, map[*ojson.Value]sexpr.Pos) {
			d := r.decodeTracked(src)
			bt, err := r.readJSONWith(d)
			if err != nil || i >= len(bt.Calls) {
				return nil, nil
			}
			where := map[*ojson.Value]sexpr.Pos{}
			d.positions(bt.Calls[i].Arguments, where)
			return bt.Calls[i].Arguments, where
		}
	}
	return b, nil
}

func (r *Resolver) decodeTracked(src string) *jsonDecoder {
	d := &jsonDecoder{dec: json.NewDecoder(strings.NewReader(src)), src: src, offs: map[*ojson.Value]int{}}
	d.dec.UseNumber()
	return d
}

func (r *Resolver) readJSONTracked(src string, track bool) (*Batch, error) {
	if track {
		return r.readJSONWith(r.decodeTracked(src))
	}
	// Only the calls' own offsets, for Call.Pos.
	d := &jsonDecoder{dec: json.NewDecoder(strings.NewReader(src)), src: src, offs: map[*ojson.Value]int{}, shallow: true}
	d.dec.UseNumber()
	return r.readJSONWith(d)
}

func (r *Resolver) readJSONWith(d *jsonDecoder) (*Batch, error) {
	root, err := d.value(0)
	if err != nil {
		return nil, d.errorOf(err)
	}
	if _, err := d.dec.Token(); err != io.EOF {
		return nil, errAt(ErrSyntax, d.pos(int(d.dec.InputOffset())), "end of input", "more text after the JSON value")
	}
	switch root.Kind {
	case ojson.Object:
		c, err := r.jsonCall(d, root, "")
		if err != nil {
			return nil, err
		}
		return &Batch{Calls: []Call{c}}, nil
	case ojson.Array:
		if len(root.Items) == 0 {
			return nil, errAt(ErrShape, d.posOf(root), `[{"name": ..., "arguments": {...}}, ...]`, "empty batch")
		}
		if len(root.Items) > MaxBatchCalls {
			return nil, errAt(ErrLimit, d.posOf(root), "", "a batch holds at most %d calls", MaxBatchCalls)
		}
		b := &Batch{IsBatch: true}
		seen := map[string]sexpr.Pos{}
		for i, it := range root.Items {
			if it.Kind != ojson.Object {
				return nil, errAt(ErrShape, d.posOf(it), `{"name": ..., "arguments": {...}}`, "found a JSON %s where a call goes", it.Kind)
			}
			id := strconv.Itoa(i + 1)
			if idv := it.Get("id"); idv != nil && (idv.Kind == ojson.String || idv.Kind == ojson.Number) {
				id = idv.Str
				if idv.Kind == ojson.Number {
					id = string(idv.Num)
				}
			}
			if prev, dup := seen[id]; dup {
				return nil, errAt(ErrDuplicate, d.posOf(it), "", "duplicate batch id %s (first used at %s)", id, prev)
			}
			seen[id] = d.posOf(it)
			c, err := r.jsonCall(d, it, id)
			if err != nil {
				return nil, err
			}
			b.Calls = append(b.Calls, c)
		}
		return b, nil
	}
	return nil, errAt(ErrShape, d.posOf(root), `{"name": ..., "arguments": {...}} or an array of them`, "found a JSON %s", root.Kind)
}

func (r *Resolver) jsonCall(d *jsonDecoder, obj *ojson.Value, id string) (Call, error) {
	at := obj
	if m := obj.Get("method"); m != nil {
		if m.Kind != ojson.String || m.Str != "tools/call" {
			return Call{}, errAt(ErrShape, d.posOf(m), `"tools/call"`, "not a tools/call request")
		}
		obj = obj.Get("params")
		if obj == nil || obj.Kind != ojson.Object {
			return Call{}, errAt(ErrShape, d.posOf(at), `"params": {"name": ..., "arguments": {...}}`, "tools/call request without params")
		}
	}
	name := obj.Get("name")
	if name == nil || name.Kind != ojson.String {
		p := d.posOf(obj)
		if name != nil {
			p = d.posOf(name)
		}
		return Call{}, errAt(ErrShape, p, `"name": "TOOL"`, "call without a tool name")
	}
	t := r.Lookup(name.Str)
	if t == nil {
		return Call{}, errAt(ErrUnknownTool, d.posOf(name), "", "unknown tool %s%s", name.Str, didYouMean(name.Str, r.candidates(), plain))
	}
	args := obj.Get("arguments")
	if args == nil || args.Kind == ojson.Null {
		args = ojson.NewObject()
	} else if args.Kind != ojson.Object {
		return Call{}, errAt(ErrType, d.posOf(args), "a JSON object", "arguments are a JSON %s", args.Kind)
	}
	if msg := checkJSON(args, maxJSONDepth); msg != "" {
		return Call{}, errAt(ErrLimit, d.posOf(args), "", "%s", msg)
	}
	return Call{ID: id, Tool: t.Name, Arguments: args, Pos: d.posOf(at)}, nil
}

// jsonDecoder is ojson's decoder plus the source offset of every value.
type jsonDecoder struct {
	dec     *json.Decoder
	src     string
	offs    map[*ojson.Value]int
	lines   []int // offsets of line starts, built on first use
	last    sexpr.Pos
	shallow bool // record offsets only of the outer two levels
}

var errTooDeep = errors.New("JSON nested deeper than " + strconv.Itoa(maxJSONDepth) + " levels")

// start is where the next token begins: the decoder's offset is just past
// the previous token, before any separator and white space.
func (d *jsonDecoder) start() int {
	i := int(d.dec.InputOffset())
	for i < len(d.src) {
		switch d.src[i] {
		case ' ', '\t', '\r', '\n', ',', ':':
			i++
			continue
		}
		break
	}
	return i
}

func (d *jsonDecoder) value(depth int) (*ojson.Value, error) {
	if depth > maxJSONDepth {
		return nil, errTooDeep
	}
	at := d.start()
	tok, err := d.dec.Token()
	if err != nil {
		return nil, err
	}
	var v *ojson.Value
	switch t := tok.(type) {
	case nil:
		v = ojson.NewNull()
	case bool:
		v = ojson.NewBool(t)
	case json.Number:
		v = &ojson.Value{Kind: ojson.Number, Num: t}
	case string:
		v = ojson.NewString(t)
	case json.Delim:
		switch t {
		case '[':
			v = ojson.NewArray()
			for d.dec.More() {
				item, err := d.value(depth + 1)
				if err != nil {
					return nil, err
				}
				v.Items = append(v.Items, item)
			}
		case '{':
			v = ojson.NewObject()
			for d.dec.More() {
				kt, err := d.dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := kt.(string)
				val, err := d.value(depth + 1)
				if err != nil {
					return nil, err
				}
				v.Set(key, val)
			}
		default:
			return nil, &json.SyntaxError{Offset: int64(at)}
		}
		if _, err := d.dec.Token(); err != nil {
			return nil, err
		}
	}
	if d.offs != nil && (!d.shallow || depth <= 1) {
		d.offs[v] = at
	}
	return v, nil
}

func (d *jsonDecoder) errorOf(err error) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		off := int(se.Offset)
		if off > 0 {
			off--
		}
		return errAt(ErrSyntax, d.pos(off), "", "invalid JSON: %s", se.Error())
	case errors.Is(err, errTooDeep):
		return errAt(ErrLimit, d.pos(d.start()), "", "%s", err.Error())
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return errAt(ErrSyntax, d.pos(len(d.src)), "", "JSON ends too early")
	}
	return errAt(ErrSyntax, d.pos(d.start()), "", "invalid JSON: %s", err.Error())
}

func (d *jsonDecoder) posOf(v *ojson.Value) sexpr.Pos {
	off, ok := d.offs[v]
	if !ok {
		return sexpr.Pos{Line: 1, Col: 1}
	}
	return d.pos(off)
}

// pos turns a byte offset into line:column, columns counted in characters
// as the S-expression reader counts them.
func (d *jsonDecoder) pos(off int) sexpr.Pos {
	if d.lines == nil {
		d.lines = []int{0}
		for i := 0; i < len(d.src); i++ {
			if d.src[i] == '\n' {
				d.lines = append(d.lines, i+1)
			}
		}
	}
	off = min(max(off, 0), len(d.src))
	line := sort.Search(len(d.lines), func(i int) bool { return d.lines[i] > off }) - 1
	from, col := d.lines[line], 1
	if d.last.Line == line+1 && d.last.Offset <= off {
		from, col = d.last.Offset, d.last.Col // values come in source order: count on
	}
	col += utf8.RuneCountInString(d.src[from:off])
	d.last = sexpr.Pos{Offset: off, Line: line + 1, Col: col}
	return d.last
}

func (d *jsonDecoder) positions(v *ojson.Value, out map[*ojson.Value]sexpr.Pos) {
	if off, ok := d.offs[v]; ok {
		out[v] = d.pos(off)
	}
	for _, it := range v.Items {
		d.positions(it, out)
	}
	for _, m := range v.Members {
		d.positions(m.Value, out)
	}
}
