package ui

import (
	"context"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/ui/internal/uitest"
)

// formKit is what a form needs, on the demo server's tool list as a real
// in-process session lists it.
type formKit struct {
	set   *toolset.Set
	codec *calls.Codec
	st    *Styles
	keys  *KeyMap
}

var (
	demoKitOnce sync.Once
	demoKitSet  *toolset.Set
	demoKitErr  error
)

// demoFormKit lists the demo server's tools once per test binary (the
// list does not change) through a real session.
func demoFormKit(t testing.TB) *formKit {
	t.Helper()
	demoKitOnce.Do(func() {
		ctx := context.Background()
		s, err := demoEnv(t).opts.Connect(ctx)
		if err != nil {
			demoKitErr = err
			return
		}
		defer s.Close()
		demoKitSet, demoKitErr = s.Tools(ctx)
	})
	if demoKitErr != nil {
		t.Fatal(demoKitErr)
	}
	return newFormKit(demoKitSet)
}

func newFormKit(set *toolset.Set) *formKit {
	st := NewStyles(mustTheme("dark").Resolve(true))
	keys := DefaultKeyMap()
	return &formKit{set: set, codec: calls.New(set, calls.Options{}), st: &st, keys: &keys}
}

func (k *formKit) form(t testing.TB, tool string, w, h int) *toolForm {
	t.Helper()
	tl := k.set.Find(tool)
	if tl == nil {
		t.Fatalf("no tool %s", tool)
	}
	f := newToolForm(k.st, k.keys, k.codec, tl, nil)
	f.SetSize(w, h)
	f.Focus()
	return f
}

// canon is how the codec prints src, at width.
func (k *formKit) canon(t testing.TB, src string, width int) string {
	t.Helper()
	p, err := k.codec.Read(src)
	if err != nil {
		t.Fatalf("read %s: %v", src, err)
	}
	out, err := k.codec.Print(p, calls.SExpr, width)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// press sends keys ("ctrl+n", "x", "space") to the form; a string of
// several printable runes is typed one by one.
func press(f *toolForm, keys ...string) []tea.Msg {
	var out []tea.Msg
	for _, k := range keys {
		msgs := []tea.KeyPressMsg{uitest.Key(k)}
		if len([]rune(k)) > 1 && !strings.Contains(k, "+") && !isNamedKey(k) {
			msgs = msgs[:0]
			for _, r := range k {
				msgs = append(msgs, uitest.Key(string(r)))
			}
		}
		for _, m := range msgs {
			if cmd := f.Update(m); cmd != nil {
				out = append(out, cmd())
			}
			out = append(out, f.take()...) // what it asks of the root
		}
	}
	return out
}

func isNamedKey(k string) bool {
	switch k {
	case "enter", "esc", "tab", "up", "down", "left", "right", "backspace", "delete", "pgdown", "pgup", "home", "end", "space":
		return true
	}
	return false
}

// goTo moves the cursor to the row with the path.
func goTo(t testing.TB, f *toolForm, path string) {
	t.Helper()
	for i, r := range f.rows {
		if r.path == path {
			f.cur = i
			f.scrollToCursor()
			return
		}
	}
	var have []string
	for _, r := range f.rows {
		have = append(have, r.path)
	}
	t.Fatalf("no row %q; rows: %q", path, have)
}

func mustCall(t testing.TB, f *toolForm) (string, *calls.Plan) {
	t.Helper()
	text, plan, err := f.Call()
	if err != nil {
		t.Fatalf("Call: %v\n%s", err, text)
	}
	return text, plan
}

// TestFormFileRead fills file_read's fields — a string, an enum, two
// integers — and gets the call the codec prints for them.
func TestFormFileRead(t *testing.T) {
	k := demoFormKit(t)
	f := k.form(t, "file_read", 120, 20)
	if _, _, err := f.Call(); err == nil {
		t.Fatal("an empty path is a valid call; minLength 1 should refuse it")
	}
	goTo(t, f, "path")
	press(f, "/etc/hosts", "enter") // to encoding
	if r := f.current(); r.path != "encoding" {
		t.Fatalf("enter went to %q", r.path)
	}
	press(f, "space") // past the default utf8: base64
	press(f, "tab", "4", "tab", "64")
	text, plan := mustCall(t, f)
	want := k.canon(t, `(file_read "/etc/hosts" :encoding "base64" :offset 4 :limit 64)`, f.layout().callW)
	if text != want {
		t.Fatalf("call\n%s\nwant\n%s", text, want)
	}
	if !strings.HasPrefix(text, `(fr "/etc/hosts" :encoding :base64`) {
		t.Errorf("call %s does not start as the codec's short form", text)
	}
	if len(plan.Items) != 1 || plan.Items[0].Tool != "file_read" {
		t.Fatalf("plan %+v", plan.Items)
	}
	// enter on the last field uses the call.
	msgs := press(f, "enter")
	if len(msgs) != 1 {
		t.Fatalf("enter on the last field: %v", msgs)
	}
	if done, ok := msgs[0].(formDoneMsg); !ok || done.text != text {
		t.Fatalf("enter on the last field asked %#v, want formDoneMsg{%q}", msgs[0], text)
	}
	if msgs := press(f, "esc"); len(msgs) != 1 || msgs[0] != (formCancelMsg{}) {
		t.Fatalf("esc asked %#v", msgs)
	}
}

// TestFormNumbersCheckedAsTyped: an integer field refuses what is not an
// integer and what is out of range, each with a message naming the field.
func TestFormNumbersCheckedAsTyped(t *testing.T) {
	k := demoFormKit(t)
	for _, c := range []struct{ tool, path, typed, want string }{
		{"file_read", "offset", "-1", "offset: -1 is below the minimum 0"},
		{"file_read", "limit", "0", "limit: 0 is below the minimum 1"},
		{"file_read", "limit", "2.5", "limit: 2.5 is not an integer"},
		{"file_read", "limit", "ten", `limit: "ten" is not an integer`},
		{"data_platform_query", "output.limit", "5000", "output.limit: 5000 is above the maximum 1000"},
	} {
		f := k.form(t, c.tool, 120, 30)
		goTo(t, f, c.path)
		press(f, c.typed)
		_, plan, err := f.Call()
		if err == nil || plan != nil {
			t.Errorf("%s %s=%s: accepted", c.tool, c.path, c.typed)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s=%s: %v, want %q", c.tool, c.path, c.typed, err, c.want)
		}
		view := ansi.Strip(f.View())
		if !strings.Contains(view, "✗") {
			t.Errorf("%s %s=%s: the view shows no refusal:\n%s", c.tool, c.path, c.typed, view)
		}
		// Accepting is refused too, and says so.
		if msgs := press(f, "ctrl+s"); len(msgs) != 0 {
			t.Errorf("%s %s=%s: ctrl+s asked %v", c.tool, c.path, c.typed, msgs)
		}
	}
}

// TestFormVariantsAndLists builds a note_update call with keys: a variant
// chosen for an op (the fields below it swap, pos carried over), a second
// op added, a block's variant chosen, an item removed.
func TestFormVariantsAndLists(t *testing.T) {
	k := demoFormKit(t)
	f := k.form(t, "note_update", 120, 40)
	goTo(t, f, "doc")
	press(f, "doc.md")
	goTo(t, f, "ops[0]")
	if r := f.current(); r.f.kind != fieldUnion || r.f.alts[r.f.pick].label != "insert" {
		t.Fatalf("ops[0] is %v %q", r.f.kind, r.f.alts[r.f.pick].label)
	}
	goTo(t, f, "ops[0].pos")
	press(f, "3")
	goTo(t, f, "ops[0]")
	press(f, "right") // insert -> delete: pos stays, blocks go, len comes
	goTo(t, f, "ops[0].len")
	press(f, "2")
	text, _ := mustCall(t, f)
	if want := k.canon(t, `{"name":"note_update","arguments":{"doc":"doc.md","ops":[{"type":"delete","pos":3,"len":2}]}}`, f.layout().callW); text != want {
		t.Fatalf("delete op:\n%s\nwant\n%s", text, want)
	}
	// A second op after the first: an insert with one paragraph block.
	press(f, "ctrl+n")
	if r := f.current(); r.path != "ops[1]" {
		t.Fatalf("ctrl+n went to %q", r.path)
	}
	goTo(t, f, "ops[1].pos")
	press(f, "0")
	goTo(t, f, "ops[1].blocks[0]")
	press(f, "right", "right") // paragraph -> heading -> code
	goTo(t, f, "ops[1].blocks[0].content")
	press(f, "echo hi")
	text, _ = mustCall(t, f)
	want := k.canon(t, `{"name":"note_update","arguments":{"doc":"doc.md","ops":[
		{"type":"delete","pos":3,"len":2},
		{"type":"insert","pos":0,"blocks":[{"type":"code","content":"echo hi"}]}]}}`, f.layout().callW)
	if text != want {
		t.Fatalf("two ops:\n%s\nwant\n%s", text, want)
	}
	// Removing the first op leaves the insert.
	goTo(t, f, "ops[0]")
	press(f, "ctrl+x")
	text, _ = mustCall(t, f)
	want = k.canon(t, `{"name":"note_update","arguments":{"doc":"doc.md","ops":[
		{"type":"insert","pos":0,"blocks":[{"type":"code","content":"echo hi"}]}]}}`, f.layout().callW)
	if text != want {
		t.Fatalf("after removing ops[0]:\n%s\nwant\n%s", text, want)
	}
}

// TestFormNestedRecordAndEnum: data_platform_query's output record (an
// enum with a default, an integer with bounds) and a source variant, with
// the call read back into a new form.
func TestFormNestedRecordAndEnum(t *testing.T) {
	k := demoFormKit(t)
	f := k.form(t, "data_platform_query", 160, 50)
	goTo(t, f, "qid")
	press(f, "q1")
	goTo(t, f, "sources[0]")
	press(f, "left") // sql -> api (cycling back)
	goTo(t, f, "sources[0].url")
	press(f, "https://inventory.demo.internal/items")
	goTo(t, f, "output.format")
	press(f, "space") // json (the default) -> csv
	goTo(t, f, "output.limit")
	press(f, "25")
	text, plan := mustCall(t, f)
	want := k.canon(t, `{"name":"data_platform_query","arguments":{"qid":"q1",
		"sources":[{"type":"api","url":"https://inventory.demo.internal/items"}],
		"output":{"format":"csv","limit":25}}}`, f.layout().callW)
	if text != want {
		t.Fatalf("call\n%s\nwant\n%s", text, want)
	}
	g := k.form(t, "data_platform_query", 160, 50)
	if err := g.Load(&plan.Items[0]); err != nil {
		t.Fatal(err)
	}
	if again, _ := mustCall(t, g); again != text {
		t.Fatalf("read back\n%s\nwant\n%s", again, text)
	}
	goTo(t, g, "sources[0]")
	if r := g.current(); r.f.alts[r.f.pick].label != "api" {
		t.Fatalf("the loaded source is %q", r.f.alts[r.f.pick].label)
	}
}

// TestFormLoadRefusesOtherCalls: a call of another tool, or an AQL item
// answered locally, leaves the form as it was.
func TestFormLoadRefusesOtherCalls(t *testing.T) {
	k := demoFormKit(t)
	f := k.form(t, "file_read", 100, 20)
	goTo(t, f, "path")
	press(f, "/docs/README.md")
	before, _ := mustCall(t, f)
	plan, err := k.codec.Read(`(list_todos)`)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Load(&plan.Items[0]); err == nil || !strings.Contains(err.Error(), "list_todos") {
		t.Fatalf("Load of another tool's call: %v", err)
	}
	if err := f.Load(&calls.Item{Local: nil}); err == nil {
		t.Fatal("Load of an item with no tool: no error")
	}
	if after, _ := mustCall(t, f); after != before {
		t.Fatalf("a refused load changed the form: %s -> %s", before, after)
	}
}

// TestFormEverySize: from 20x8 to 200x60 the form draws exactly its
// rectangle, with the cursor anywhere in a loaded data_platform_query
// call (and in an empty note_update form), never an escape but styling.
func TestFormEverySize(t *testing.T) {
	k := demoFormKit(t)
	src := validCalls(t, k, "data_platform_query", 1, 60)[0]
	plan, err := k.codec.Read(src)
	if err != nil {
		t.Fatal(err)
	}
	loaded := k.form(t, "data_platform_query", 80, 24)
	if err := loaded.Load(&plan.Items[0]); err != nil {
		t.Fatal(err)
	}
	empty := k.form(t, "note_update", 80, 24)
	step := formSweepStep
	if testing.Short() {
		step = 7
	}
	for w := 20; w <= 200; w += step {
		for h := 8; h <= 60; h += step {
			f := loaded
			if (w+h)%3 == 0 {
				f = empty
			}
			f.cur = (w*7 + h) % len(f.rows)
			checkFormSize(t, f, w, h)
		}
	}
	// Below the smallest size the form still keeps its rectangle.
	for w := 1; w < 20; w++ {
		for h := 1; h < 8; h++ {
			checkFormSize(t, loaded, w, h)
		}
	}
}

// hostileSchemaTool has escapes in everything a schema can say: the
// descriptions, a property name, enum values, a default, a pattern, a
// $defs name used as a variant's label, a title.
const hostileSchemaTool = `[{"name": "evil\u001b]0;t\u0007", "description": "Looks harmless.\u001b[2J\u001b[H",
	"inputSchema": {"type": "object", "properties": {
		"na\u001b[31mme": {"type": "string", "description": "\u001b]52;c;SGVsbG8=\u0007steal \u009b31m c1", "pattern": "^\u001b[0m$"},
		"mode": {"enum": ["a\u001b[5m", "b\u0007"], "default": "a\u001b[5m", "description": "\u001b]8;;http://evil\u0007link\u001b]8;;\u0007"},
		"pick": {"oneOf": [{"$ref": "#/$defs/Ev\u001b[1Kil"}, {"type": "integer", "title": "t\u001b[2J"}]}
	}, "$defs": {"Ev\u001b[1Kil": {"type": "object", "properties": {"x": {"type": "string"}}}}}}]`

// TestFormUntrustedTextIsInert: none of a hostile schema's escapes, nor
// those in a loaded call's values, reach the screen, on any row.
func TestFormUntrustedTextIsInert(t *testing.T) {
	set, err := toolset.Parse([]byte(hostileSchemaTool))
	if err != nil {
		t.Fatal(err)
	}
	k := newFormKit(set)
	tl := set.Tools[0]
	f := newToolForm(k.st, k.keys, k.codec, tl, Options{}.withDefaults().Sanitize)
	f.Focus()
	args, err := ojson.Parse([]byte(`{"na\u001b[31mme": "v\u001b]52;c;QQ==\u0007\n\t\u009b2J", "mode": "b\u0007", "pick": {"x": "\u001b[2J"}}`))
	if err != nil {
		t.Fatal(err)
	}
	_ = f.Load(&calls.Item{Tool: tl.Name, Arguments: args})
	for _, size := range [][2]int{{120, 30}, {40, 16}, {20, 8}} {
		for i := range f.rows {
			f.cur = i
			checkFormSize(t, f, size[0], size[1])
		}
	}
	f.SetSize(120, 30)
	f.cur = 0 // the property whose description steals
	if view := ansi.Strip(f.View()); !strings.Contains(view, "Form · evil") || !strings.Contains(view, "steal") || !strings.Contains(view, "name") {
		t.Errorf("the text itself should still show:\n%s", view)
	}
}

// TestFormOptionalUnionAndNull: an optional multi-typed slot is written
// only once given (its first key gives the member shown); clearing a
// nullable field makes it null first, then not given.
func TestFormOptionalUnionAndNull(t *testing.T) {
	set, err := toolset.Parse([]byte(`[{"name": "t", "inputSchema": {"type": "object", "properties": {
		"flag": {"type": ["boolean", "string"]},
		"lim": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	k := newFormKit(set)
	f := k.form(t, "t", 100, 20)
	expect := func(want string) {
		t.Helper()
		if got, _ := mustCall(t, f); got != k.canon(t, want, f.layout().callW) {
			t.Fatalf("call %s, want %s", got, want)
		}
	}
	expect(`(t)`)
	if len(f.rows) != 2 {
		t.Fatalf("an optional union not given shows its member's fields: %d rows", len(f.rows))
	}
	goTo(t, f, "flag")
	press(f, "right") // gives the member shown: boolean
	expect(`(t :flag false)`)
	press(f, "down", "space")
	expect(`(t :flag true)`)
	goTo(t, f, "flag")
	press(f, "right") // boolean -> string
	press(f, "down", "yes")
	expect(`(t :flag "yes")`)
	goTo(t, f, "lim")
	press(f, "5")
	expect(`(t :flag "yes" :lim 5)`)
	press(f, "ctrl+x")
	expect(`(t :flag "yes" :lim nil)`)
	press(f, "ctrl+x")
	expect(`(t :flag "yes")`)
	goTo(t, f, "flag")
	press(f, "ctrl+x")
	expect(`(t)`)
}

// TestFormPaste: a paste goes into the focused text field whole, its CR
// line ends as newlines; on a choice it does nothing.
func TestFormPaste(t *testing.T) {
	k := demoFormKit(t)
	f := k.form(t, "note_update", 100, 30)
	goTo(t, f, "doc")
	f.Update(tea.PasteMsg{Content: "a\r\nb\rc"})
	goTo(t, f, "ops[0]")
	f.Update(tea.PasteMsg{Content: "ignored"})
	_, _, _ = f.Call()
	ps := &problems{}
	args, _ := f.root.value("", ps)
	if got := args.Get("doc").StringOr(""); got != "a\nb\nc" {
		t.Fatalf("doc %q", got)
	}
	if got := args.Get("ops").Items[0].Get("type").StringOr(""); got != "insert" {
		t.Fatalf("a paste on the variant choice changed it to %q", got)
	}
}
