package call

import (
	"strconv"
	"sync"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/term"
)

// assist keeps what completion and signature help would otherwise redo on
// every keystroke: the head candidates of the tool list, the type notation
// of each slot, the declarations. It lives in the Resolver (its zero value
// is ready) and, like the view cache, is safe for concurrent use. Every
// text in it is the server's, unsanitised: a front end cleans it when it
// draws it.
type assist struct {
	headsOnce sync.Once
	heads     []Candidate // code then name, tool by tool, in the list's order

	notes  memo[viewKey, string] // the notation of a slot
	vnotes memo[*view, string]   // the notation of a variant's fields
	values memo[valuesKey, []Candidate]
	params memo[paramsKey, []Candidate]
	decls  memo[string, *decl] // tool name -> its declaration
}

// memo is a map filled on first use, safe for concurrent use. compute runs
// outside the lock, since it may read other memos; two callers may then both
// compute a missing value, which is the same, and either is kept.
type memo[K comparable, V any] struct {
	mu sync.RWMutex
	m  map[K]V
}

func (c *memo[K, V]) get(k K, compute func() V) V {
	c.mu.RLock()
	v, ok := c.m[k]
	c.mu.RUnlock()
	if ok {
		return v
	}
	v = compute()
	c.mu.Lock()
	if c.m == nil {
		c.m = map[K]V{}
	}
	c.m[k] = v
	c.mu.Unlock()
	return v
}

func (r *Resolver) headCandidates() []Candidate {
	a := &r.assist
	a.headsOnce.Do(func() {
		a.heads = make([]Candidate, 0, 2*len(r.set.Tools))
		for _, t := range r.set.Tools {
			detail := term.FirstSentence(t.Description)
			if detail == "" {
				detail = t.Title
			}
			if code := r.codeOf[t.Name]; code != "" {
				a.heads = append(a.heads, Candidate{Text: code, Kind: KindToolCode, Detail: t.Name + ": " + detail})
			}
			a.heads = append(a.heads, Candidate{Text: headNode(t.Name).String(), Kind: KindToolName, Detail: detail})
		}
	})
	return a.heads
}

// notation is the MCP-Term type of slot s under root, written once.
func (r *Resolver) notation(root, s *ojson.Value) string {
	return r.assist.notes.get(viewKey{root, s}, func() string { return r.views.notation(root, s, 0) })
}

// variantNotation is a variant's fields, (rec (pos integer) (len integer)).
func (r *Resolver) variantNotation(root *ojson.Value, v *view) string {
	return r.assist.vnotes.get(v, func() string { return r.views.objectNotation(root, v, 1) })
}

const batchDetail = "(batch :concurrency N :stop-on-error (ID CALL) ...): several calls in one text"

var batchOptions = []Candidate{
	{Text: ":concurrency", Kind: KindBatchOption, Detail: "integer: calls in flight at once, 0 to 64; 0 runs them one after another"},
	{Text: ":stop-on-error", Kind: KindBatchOption, Detail: "bool: skip the remaining calls after a failure"},
}

// complete offers, into m, what may be typed at the cursor.
func (w *walker) complete(m *matcher) {
	where := w.walk()
	switch where {
	case atHead, atTop:
		if where == atTop {
			m.add(Candidate{Text: "batch", Kind: KindBatch, Detail: batchDetail})
		}
		for _, h := range w.r.headCandidates() {
			m.add(h)
		}
		return
	case atBatch:
		w.batchOptions(m)
		return
	}
	if len(w.spots) > 1 {
		m.dedupe()
	}
	for i := range w.spots {
		w.offer(&w.spots[i], m)
	}
}

// batchOptions offers the options not given yet, while no entry is written.
func (w *walker) batchOptions(m *matcher) {
	items := w.c.items(0)[1:]
	for _, it := range items {
		if it.kind == sexpr.List {
			return // options go before the calls
		}
	}
	if n := len(items); n > 0 && items[n-1].kind == sexpr.Keyword {
		switch w.c.text(items[n-1]) {
		case "concurrency":
			return // a number goes here
		case "stop-on-error":
			m.add(Candidate{Text: "true", Kind: KindLiteral, Detail: "bool"})
			m.add(Candidate{Text: "false", Kind: KindLiteral, Detail: "bool"})
		}
	}
	for _, o := range batchOptions {
		given := false
		for _, it := range items {
			if it.kind == sexpr.Keyword && ":"+w.c.text(it) == o.Text {
				given = true
			}
		}
		if !given {
			m.add(o)
		}
	}
}

// offer adds one reading's candidates: a variant's tags at the head of its
// list, the values of the slot at the cursor, then the parameters that may
// still be named.
func (w *walker) offer(sp *spot, m *matcher) {
	if t := sp.tags; t != nil {
		for _, tag := range t.values {
			text := headText(tag)
			if sp.tagVal {
				text = asKeyword(tag)
			}
			m.add(Candidate{Text: text, Kind: KindVariant, Detail: w.r.variantNotation(w.root, t.variants[tag])})
		}
		return
	}
	if sp.hasVal {
		if sp.whole != nil {
			w.offerValues(sp, sp.whole, m)
		}
		w.offerValues(sp, sp.val, m)
	}
	if sp.rec == nil {
		return
	}
	for k, c := range w.r.paramCandidates(w.root, sp.rec, sp.st.call) {
		if sp.given[k] || !sp.keyed && c.Text[0] == '"' {
			continue // a string names a parameter only once named ones have begun
		}
		m.add(c)
	}
}

// offerValues adds the values of slot s. Where a parameter could be named
// instead (a positional slot), a keyword that names one is read as that
// name, so it is not offered as a value: (:text "x") names the field text
// even where the tag :text would go.
func (w *walker) offerValues(sp *spot, s *ojson.Value, m *matcher) {
	for _, c := range w.r.slotValues(w.root, s, m.quoted) {
		if sp.rec != nil && c.Text[0] == ':' {
			if _, names := sp.rec.index[c.Text[1:]]; names {
				continue
			}
		}
		m.add(c)
	}
}

type valuesKey struct {
	root, s *ojson.Value
	quoted  bool
}

type paramsKey struct {
	v    *view
	call bool
}

// slotValues are the values that may be written where s goes: its enum or
// const values, through unions; nil, true and false where the type takes
// them (an untyped slot takes them all). For a word that is a string, the
// string values, quoted.
func (r *Resolver) slotValues(root, s *ojson.Value, quoted bool) []Candidate {
	return r.assist.values.get(valuesKey{root, s, quoted}, func() []Candidate {
		col := valueCollector{r: r, root: root, quoted: quoted, detail: r.notation(root, s)}
		col.add(s, 0)
		return col.out
	})
}

type valueCollector struct {
	r      *Resolver
	root   *ojson.Value
	quoted bool
	detail string
	out    []Candidate
}

func (c *valueCollector) add(s *ojson.Value, depth int) {
	if depth > maxUnionDepth {
		return
	}
	v := c.r.views.get(c.root, s)
	switch {
	case v.never:
		return
	case v.constV != nil:
		c.literal(v.constV)
	case v.hasEnum:
		for _, e := range v.enum {
			c.literal(e)
		}
	case v.tag != nil:
		// variants are lists: their tags are offered inside the '('
	case len(v.alts) > 0 && !v.ownShape():
		for _, a := range v.alts {
			c.add(a, depth+1)
		}
	case v.isAny():
		c.word("nil", KindLiteral)
		c.word("true", KindLiteral)
		c.word("false", KindLiteral)
	case v.types&tBool != 0:
		c.word("true", KindLiteral)
		c.word("false", KindLiteral)
	}
	if v.nullable {
		c.word("nil", KindLiteral)
	}
}

// literal adds one enum or const value as the reader takes it: a
// keyword-like string as :word (quoted when the word is a string), other
// scalars as themselves. Arrays and objects are lists, not words.
func (c *valueCollector) literal(x *ojson.Value) {
	switch x.Kind {
	case ojson.String:
		if !c.quoted && sexpr.IsKeywordText(x.Str) {
			c.word(":"+x.Str, KindEnum)
		} else {
			c.word(sexpr.Str(x.Str).String(), KindEnum)
		}
	case ojson.Number:
		c.word(string(x.Num), KindEnum)
	case ojson.Bool:
		c.word(strconv.FormatBool(x.Bool), KindEnum)
	case ojson.Null:
		c.word("nil", KindEnum)
	}
}

func (c *valueCollector) word(text string, kind CandidateKind) {
	if c.quoted && text[0] != '"' {
		return
	}
	for _, o := range c.out {
		if o.Text == text {
			return
		}
	}
	c.out = append(c.out, Candidate{Text: text, Kind: kind, Detail: c.detail})
}

// paramCandidates are :name for each parameter of a record, in call order
// (index k is parameter k), with its type.
func (r *Resolver) paramCandidates(root *ojson.Value, v *view, call bool) []Candidate {
	return r.assist.params.get(paramsKey{v, call}, func() []Candidate {
		kind := KindField
		if call {
			kind = KindParam
		}
		out := make([]Candidate, len(v.params))
		for i, p := range v.params {
			out[i] = Candidate{Text: asKeyword(p.name), Kind: kind, Detail: r.notation(root, p.schema)}
		}
		return out
	})
}
