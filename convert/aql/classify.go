package aql

import (
	"fmt"
	"strings"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

// verbClass is what a verb says about a tool's effect. upsert is its own
// class because "write"/"save"/"put" may add or overwrite: the annotations
// decide which (see classify).
type verbClass int

const (
	noVerb verbClass = iota
	verbCreate
	verbRead
	verbUpdate
	verbDelete
	verbExecute
	verbUpsert
)

// verbs maps a word to its class. The lists follow the spec's canonical and
// additional verbs per endpoint (operations.md 6.2) plus common tool-name verbs.
var verbs = map[string]verbClass{}

func init() {
	add := func(c verbClass, words string) {
		for _, w := range strings.Fields(words) {
			verbs[w] = c
		}
	}
	add(verbRead, "get list search read find query describe fetch show view retrieve lookup count export check inspect browse download")
	add(verbCreate, "create add new insert upload register import append")
	add(verbUpdate, "update edit set modify patch rename move change replace merge assign")
	add(verbDelete, "delete remove destroy clear purge drop unregister erase wipe truncate unlink del rm")
	add(verbExecute, "execute exec run start stop cancel trigger invoke send call launch restart resume pause abort kill deploy toggle enable disable")
	add(verbUpsert, "write save put store upsert")
}

func (v verbClass) category() Category {
	switch v {
	case verbCreate:
		return Create
	case verbRead:
		return Read
	case verbUpdate:
		return Update
	case verbDelete:
		return Delete
	}
	return Execute
}

// Classification is a tool's category and why it got it.
type Classification struct {
	Category Category
	// Source is what decided: "override", "name", "description",
	// "annotations" or "default".
	Source string
	// Reason is one line a person can check, e.g.
	// `name verb "delete" -> DELETE; readOnlyHint=true ignored: a write verb beats a read-only hint`.
	Reason string
	// Conflict is set when the name or description and the annotations
	// disagreed and the documented rule settled it.
	Conflict bool
}

// Classify decides a tool's category from its name, its description's first
// word and its annotations. Annotations are hints a server may get wrong, so
// when they disagree with the verb the safer reading wins:
//
//  1. The first verb among the name's words decides (get/list/search/read/...
//     READ; create/add/new/insert/upload... CREATE; update/edit/set/modify/
//     patch/rename/move... UPDATE; delete/remove/destroy/clear/purge... DELETE;
//     execute/run/start/stop/trigger/toggle... EXECUTE). Without one, the
//     first word of the description does ("Returns ...", "Get ...").
//  2. write/save/put/store/upsert add or overwrite: CREATE, or UPDATE when
//     destructiveHint is true.
//  3. A CREATE verb with destructiveHint: true is UPDATE: the server says it
//     may overwrite, and CREATE is defined as non-destructive.
//  4. A READ verb followed by a DELETE verb ("list_and_drop",
//     "find_and_remove") is DELETE whatever the annotations say: a name
//     that says it removes is not put among the reads. A READ verb with
//     readOnlyHint: false is not trusted to be safe either: a later non-READ
//     verb of the name decides, else EXECUTE.
//  5. A write verb with readOnlyHint: true keeps its category: a hint cannot
//     make "delete_x" safe. Likewise DELETE stays DELETE under
//     destructiveHint: false.
//  6. With no verb, the annotations decide: readOnlyHint true -> READ;
//     destructiveHint false -> CREATE if idempotentHint is true, else EXECUTE;
//     destructiveHint true -> UPDATE if idempotentHint is true, else EXECUTE;
//     anything else (including no annotations) -> EXECUTE.
//
// A READ classification is routing, not a promise: the READ endpoint is
// only marked read-only when the annotations back every operation in it
// (ReadOnly, Adapter.Tools).
func Classify(t *toolset.Tool) Classification {
	a := t.Annotations
	found := nameVerbs(t.Name)
	source := "name"
	if len(found) == 0 {
		if w, c := descriptionVerb(t.Description); c != noVerb {
			found = []foundVerb{{w, c}}
			source = "description"
		}
	}
	if len(found) == 0 {
		return byAnnotations(a)
	}
	v := found[0]
	what := fmt.Sprintf("%s verb %q", source, v.word)
	switch v.class {
	case verbUpsert:
		if isTrue(a.DestructiveHint) {
			return Classification{Update, source, what + " adds or overwrites; destructiveHint=true -> UPDATE", false}
		}
		return Classification{Create, source, what + " adds or overwrites; not marked destructive -> CREATE", false}
	case verbCreate:
		if isTrue(a.DestructiveHint) && !a.ReadOnly() {
			return Classification{Update, source, what + " -> CREATE, but destructiveHint=true says it may overwrite -> UPDATE", true}
		}
	case verbRead:
		for _, w := range found[1:] {
			if w.class == verbDelete {
				return Classification{Delete, source, fmt.Sprintf("%s -> READ, but the name also says %q -> DELETE, whatever the hints say", what, w.word), true}
			}
		}
		if isFalse(a.ReadOnlyHint) {
			for _, w := range found[1:] {
				if w.class != verbRead {
					c := w.class.category()
					if w.class == verbUpsert {
						c = Create
						if isTrue(a.DestructiveHint) {
							c = Update
						}
					}
					return Classification{c, source, fmt.Sprintf("%s -> READ, but readOnlyHint=false; next verb %q -> %s", what, w.word, c), true}
				}
			}
			return Classification{Execute, source, what + " -> READ, but readOnlyHint=false says it changes state -> EXECUTE", true}
		}
	}
	c := v.class.category()
	switch {
	case c != Read && a.ReadOnly():
		return Classification{c, source, fmt.Sprintf("%s -> %s; readOnlyHint=true ignored: a write verb beats a read-only hint", what, c), true}
	case c == Delete && isFalse(a.DestructiveHint):
		return Classification{c, source, what + " -> DELETE; destructiveHint=false ignored: removal stays DELETE", true}
	}
	return Classification{c, source, fmt.Sprintf("%s -> %s%s", what, c, agreement(c, a)), false}
}

// agreement notes annotations that back the verb, so the reason shows both signals.
func agreement(c Category, a toolset.Annotations) string {
	switch {
	case c == Read && a.ReadOnly():
		return "; readOnlyHint=true agrees"
	case (c == Delete || c == Update) && isTrue(a.DestructiveHint):
		return "; destructiveHint=true agrees"
	case c == Create && isFalse(a.DestructiveHint):
		return "; destructiveHint=false agrees"
	}
	return ""
}

func byAnnotations(a toolset.Annotations) Classification {
	const src = "annotations"
	switch {
	case a.ReadOnly():
		return Classification{Read, src, "no verb; readOnlyHint=true -> READ", false}
	case isFalse(a.DestructiveHint):
		if isTrue(a.IdempotentHint) {
			return Classification{Create, src, "no verb; not read-only, destructiveHint=false, idempotentHint=true -> CREATE (additive)", false}
		}
		return Classification{Execute, src, "no verb; not read-only, destructiveHint=false, not idempotent -> EXECUTE", false}
	case isTrue(a.DestructiveHint):
		if isTrue(a.IdempotentHint) {
			return Classification{Update, src, "no verb; destructiveHint=true, idempotentHint=true -> UPDATE (overwrites)", false}
		}
		return Classification{Execute, src, "no verb; destructiveHint=true, not idempotent -> EXECUTE", false}
	case isFalse(a.ReadOnlyHint):
		return Classification{Execute, src, "no verb; readOnlyHint=false -> EXECUTE", false}
	}
	return Classification{Execute, "default", "no verb and no annotations -> EXECUTE", false}
}

type foundVerb struct {
	word  string
	class verbClass
}

func nameVerbs(name string) []foundVerb {
	var out []foundVerb
	for _, w := range Words(name) {
		if c, ok := verbs[w]; ok {
			out = append(out, foundVerb{w, c})
		}
	}
	return out
}

// descriptionVerb looks only at the description's first word, in base or
// third-person form ("Returns", "Lists", "Queries").
func descriptionVerb(desc string) (string, verbClass) {
	ws := Words(firstWord(desc))
	if len(ws) == 0 {
		return "", noVerb
	}
	w := ws[0]
	for _, cand := range []string{w, thirdPersonBase(w)} {
		if c, ok := verbs[cand]; ok {
			return cand, c
		}
		if cand == "return" { // "Returns the ...": reads, but too vague a verb for names
			return cand, verbRead
		}
	}
	return "", noVerb
}

func firstWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

func thirdPersonBase(w string) string {
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "oes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "s") && len(w) > 3:
		return w[:len(w)-1]
	}
	return w
}

func isTrue(b *bool) bool  { return b != nil && *b }
func isFalse(b *bool) bool { return b != nil && !*b }
