package term

import (
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

func mustSet(t *testing.T, js string) *toolset.Set {
	t.Helper()
	s, err := toolset.Parse([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustRender(t *testing.T, set *toolset.Set, opts Options) *Document {
	t.Helper()
	d, err := Render(set, opts)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestFirstSentence(t *testing.T) {
	for in, want := range map[string]string{
		"Read a file. Then more.":                  "Read a file.",
		"Use e.g. globs here. More.":               "Use e.g. globs here.",
		"No period at all":                         "No period at all",
		"Line one\nLine two.":                      "Line one",
		"  Spaces first.  ":                        "Spaces first.",
		"Version 1.2 works. Yes.":                  "Version 1.2 works.",
		"读取文件。然后返回。":                               "读取文件。",
		"Ends with question? And more":             "Ends with question?",
		"Pattern like '*.ext' to match. Returns x": "Pattern like '*.ext' to match.",
	} {
		if got := FirstSentence(in); got != want {
			t.Errorf("FirstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLean(t *testing.T) {
	sets := fixtureSets(t)
	for name, set := range sets {
		full := mustRender(t, set, Options{})
		lean := mustRender(t, set, Options{Lean: true})
		if len(lean.Text) >= len(full.Text) {
			t.Errorf("%s: lean (%d B) is not smaller than full (%d B)", name, len(lean.Text), len(full.Text))
		}
		back, err := Parse(lean.Text)
		if err != nil {
			t.Fatalf("%s: lean does not read back: %v", name, err)
		}
		wantToolBytes := 0
		for i, orig := range set.Tools {
			want := FirstSentence(orig.Description)
			wantToolBytes += len(orig.Description) - len(want)
			if back.Tools[i].Description != want {
				t.Errorf("%s/%s: lean description %q, want %q", name, orig.Name, back.Tools[i].Description, want)
			}
			for _, s := range []*ojson.Value{back.Tools[i].InputSchema, back.Tools[i].OutputSchema} {
				if s != nil && (strings.Contains(s.Compact(), `"description":"`) || strings.Contains(s.Compact(), `"title":"`)) {
					t.Errorf("%s/%s: lean schema still has descriptions: %s", name, orig.Name, clipText(s.Compact(), 300))
				}
			}
			// Descriptions never decide validity: lean keeps the verdicts.
			equivalent(t, name+"/"+orig.Name+" lean", orig.InputSchema, back.Tools[i].InputSchema, 7)
		}
		got := map[string]Omission{}
		for _, d := range lean.Dropped {
			got[d.What] = d
		}
		if wantToolBytes > 0 && got["tool description beyond the first sentence"].Bytes != wantToolBytes {
			t.Errorf("%s: dropped tool description bytes %d, want %d", name, got["tool description beyond the first sentence"].Bytes, wantToolBytes)
		}
		if fd := got["field descriptions"]; strings.Contains(full.Text, `" :default`) || fd.Count > 0 {
			if fd.Count == 0 || fd.Bytes == 0 {
				t.Errorf("%s: lean reports no dropped field descriptions: %+v", name, lean.Dropped)
			}
		}
		if len(full.Dropped) != 0 {
			t.Errorf("%s: the lossless form reports drops: %+v", name, full.Dropped)
		}
	}
}

func TestLeftOutAndDedupe(t *testing.T) {
	set := fixtureSets(t)["notion"]
	doc := mustRender(t, set, Options{})
	want := map[string]Omission{}
	add := func(what string, k string, v *ojson.Value) {
		o := want[what]
		o.What, o.Count, o.Bytes = what, o.Count+1, o.Bytes+len(ojson.Quote(k))+1+len(v.Compact())
		want[what] = o
	}
	for _, tl := range set.Tools {
		add("icons", "icons", tl.Raw.Get("icons"))
		add("_meta", "_meta", tl.Raw.Get("_meta"))
		add("$schema", "$schema", tl.InputSchema.Get("$schema"))
		add("unused $defs", "unusedLegacy", tl.InputSchema.Get("$defs").Get("unusedLegacy"))
	}
	got := map[string]Omission{}
	for _, o := range doc.LeftOut {
		got[o.What] = o
	}
	for k, w := range want {
		if k == "unused $defs" {
			// Every tool also leaves some shared defs unused; at least the
			// legacy one is counted per tool.
			if got[k].Count < w.Count || got[k].Bytes < w.Bytes {
				t.Errorf("left out %s: got %+v, want at least %+v", k, got[k], w)
			}
			continue
		}
		if got[k] != w {
			t.Errorf("left out %s: got %+v, want %+v", k, got[k], w)
		}
	}
	if strings.Contains(doc.Text, "base64") || strings.Contains(doc.Text, "unusedLegacy") {
		t.Error("icons or unused $defs leaked into the document")
	}
	for _, name := range []string{"richText", "annotations", "parent", "filter"} {
		if n := strings.Count(doc.Text, "(deftype "+name+" "); n != 1 {
			t.Errorf("deftype %s emitted %d times, want once", name, n)
		}
	}
	if s := doc.Summary(); !strings.Contains(s, "icons ×3") || !strings.Contains(s, "$schema ×3") {
		t.Errorf("summary %q does not account for icons and $schema", s)
	}
	p, err := ParseDocument(doc.Text)
	if err != nil {
		t.Fatal(err)
	}
	for name, code := range doc.Codes {
		if p.Codes[name] != code {
			t.Errorf("code of %s read back as %q, rendered %q", name, p.Codes[name], code)
		}
	}
}

func TestClashAndIdentity(t *testing.T) {
	doc := mustRender(t, fixtureSets(t)["edge"], Options{})
	for _, want := range []string{
		"(deftype Item (rec (id integer)))",
		"(deftype Item2 (rec (id string)))",
		// Twin and Other have the same content: one deftype serves both.
		"(ca clash_a (opt (item Item) (same Twin))",
		"(cb clash_b (opt (item Item2) (same Twin))",
		"(deftype node (rec (name string) (opt (children (list node)))))",
		"(deftype Source (tagged type (sql (driver :pg|:my|:ch)",
		"(deftype Transformation (tagged-any op (filter (cond string))",
		"(rr root_ref (n integer)",
	} {
		if !strings.Contains(doc.Text, want) {
			t.Errorf("document lacks %q:\n%s", want, doc.Text)
		}
	}
	if strings.Contains(doc.Text, "Other") {
		t.Error("identical definition Other was not merged into Twin")
	}
}

func TestReusedRecords(t *testing.T) {
	set := corpusSets(t)["server-memory"]
	doc := mustRender(t, set, Options{})
	if n := strings.Count(doc.Text, `"The name of the entity where the relation starts"`); n != 2 {
		// once in the closed (output) Relation, once in the open (input) one
		t.Errorf("relation record written %d times, want 2 (one deftype each for the open and closed form)", n)
	}
	if !strings.Contains(doc.Text, "-> ReadGraphResult") {
		t.Errorf("the graph result shared by three tools is not a deftype:\n%s", doc.Text)
	}
}

func TestParseErrors(t *testing.T) {
	for src, want := range map[string]string{
		`(declare (fr file_read (path strin)))`:                              "1:30: unknown type strin",
		`(declare (fr file_read (path)))`:                                    "1:24: parameter path has no type",
		`(declare (fr file_read (path string) :bogus))`:                      "1:38: unknown tool flag :bogus",
		`(declare (a x) (a y))`:                                              "short code a is used by both x and y",
		`(declare (x x) (x x))`:                                              "tool x is declared twice",
		`(deftype A string) (deftype A number)`:                              "1:29: type A is defined twice",
		`(deftype string any)`:                                               "1:10: expected a type name",
		`(declare (t t (a (list string) "d" "e")))`:                          "unexpected string",
		`(declare (t t (a (json "{nope"))))`:                                 "invalid JSON in (json ...)",
		`(declare (t t (a (json "{\"$ref\":\"#/$defs/Q\"}"))))`:              "",
		`(declare (t t "one" "two"))`:                                        "second doc string",
		`(frob)`:                                                             "expected (declare ...) or (deftype ...)",
		`(declare (t t (a (tagged k (x) (x)))))`:                             "variant x appears twice",
		`(declare (t t (a (string :minLength))))`:                            "expected a value after :minLength",
		`(declare (t t (a (list string -1))))`:                               "non-negative integer",
		`(declare (t t (a (rec (b string) (b number)))))`:                    "parameter b is declared twice",
		`(declare (t t (a (map string))))`:                                   "expected (map KEY-TYPE VALUE-TYPE)",
		`(declare (t t (a string :default)))`:                                "",
		`(declare (t t (a string :default x)))`:                              "expected a value, found symbol x",
		`(declare (t t (input any) (a string)))`:                             "gives (input TYPE) and parameters",
		`(declare (t t (a (or :x :y) :default (obj :k))))`:                   "a value for every key",
		`(declare (t t (a (string :closed :closed))))`:                       ":closed given together with additionalProperties",
		`(declare (t t -> ))`:                                                "expected a result type after ->",
		`(declare (fr read (a string)) (read fr (b string)))`:                "is another tool's name",
		`(declare (t t (a ((or :x :y) :description "d" :description "e"))))`: "keyword :description is given twice",
	} {
		_, err := Parse(src)
		if want == "" {
			if err != nil {
				t.Errorf("Parse(%s): %v", src, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%s) = %v, want an error containing %q", src, err, want)
		}
	}
}

// The design notes' own examples read as written (plus the types they use
// but never define).
func TestSeedForms(t *testing.T) {
	src := `(declare
;; 文件操作
(fr file_read
(path string)
(opt (enc (or :utf8 :base64) :utf8)
(off (opt number) nil)
(lim (opt number) nil))
string
"Read file content")
;; 笔记操作
(nu note_update
(doc string)
(ops (list Op))
(tuple (ver number) (blocks (list Block)))
"Update document with operations")
(dp data_platform_query
(qid string)
(srcs (list Source 1 10))
(joins (opt (list Join)))
(trans (opt (list Xform)))
(out Output)
-> QueryResult)
)
(deftype Op
(i insert (pos number) (blocks (list Block)))
(d delete (pos number) (len number))
(r retain (pos number)))
(deftype Block
(p paragraph (id string) (props (map keyword any)) (content (list Inline)))
(h heading (level (or 1 2 3 4 5 6)) (content (list Inline)))
(c code (lang (opt string)) (content string))
(i image (src string) (alt string) (props (map keyword any))))
(deftype Source (or SQL Mongo API))
(deftype SQL (sql (driver :pg|:my|:ch) (host string) (db string) (q (sql string))))
(deftype Join (join (left string) (right string) (type :inner|:left|:right) (on (list Cond))))
(deftype Xform (or (filter (cond string)) (agg (group (list string)) (aggs map))))
; not in the notes:
(deftype Inline string) (deftype Mongo (mongo (uri string))) (deftype API (api (url string)))
(deftype Output (rec (format :json|:csv))) (deftype QueryResult (list any)) (deftype Cond string)
`
	set, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	fr := set.Find("file_read")
	checkJSON(t, "file_read input", fr.InputSchema, `{"type":"object","properties":{"path":{"type":"string"},"enc":{"enum":["utf8","base64"],"default":"utf8"},"off":{"type":["number","null"],"default":null},"lim":{"type":["number","null"],"default":null}},"required":["path"]}`)
	checkJSON(t, "file_read output", fr.OutputSchema, `{"type":"string"}`)
	nu := set.Find("note_update")
	checkJSON(t, "note_update output", nu.OutputSchema, `{"type":"object","properties":{"ver":{"type":"number"},"blocks":{"type":"array","items":{"$ref":"#/$defs/Block"}}},"required":["ver","blocks"],"$defs":{"Block":`+nu.OutputSchema.Get("$defs").Get("Block").Compact()+`,"Inline":{"type":"string"}}}`)
	op := nu.InputSchema.Get("$defs").Get("Op")
	checkJSON(t, "Op", op.Get("oneOf").Items[1], `{"type":"object","properties":{"type":{"const":"delete"},"pos":{"type":"number"},"len":{"type":"number"}},"required":["type","pos","len"]}`)
	dp := set.Find("data_platform_query")
	if req := dp.InputSchema.Get("required").Compact(); req != `["qid","srcs","out"]` {
		t.Errorf("data_platform_query required %s: (joins (opt T)) should make joins optional", req)
	}
	defs := dp.InputSchema.Get("$defs")
	checkJSON(t, "SQL", defs.Get("SQL"), `{"type":"object","properties":{"type":{"const":"sql"},"driver":{"enum":["pg","my","ch"]},"host":{"type":"string"},"db":{"type":"string"},"q":{"type":"string","format":"sql"}},"required":["type","driver","host","db","q"]}`)
	checkJSON(t, "Join", defs.Get("Join").Get("properties").Get("type"), `{"enum":["inner","left","right"]}`)
	if defs.Get("Xform").Get("anyOf") == nil {
		t.Errorf("Xform: want anyOf of tagged variants, got %s", defs.Get("Xform").Compact())
	}
	// Whatever the notes wrote, the result renders canonically and is
	// stable from there on.
	doc := mustRender(t, set, Options{})
	again, err := Parse(doc.Text)
	if err != nil {
		t.Fatalf("canonical rendering does not read back: %v\n%s", err, doc.Text)
	}
	if d2 := mustRender(t, again, Options{}); d2.Text != doc.Text {
		t.Errorf("not a fixed point:\n%s", firstDiff(doc.Text, d2.Text))
	}
	if _, err := Parse(strings.Replace(src, "(deftype Inline string)", "", 1)); err == nil || !strings.Contains(err.Error(), "unknown type Inline") {
		t.Errorf("an undefined type must be an error naming it, got %v", err)
	}
}

func checkJSON(t *testing.T, label string, got *ojson.Value, want string) {
	t.Helper()
	w, err := ojson.Parse([]byte(want))
	if err != nil {
		t.Fatalf("%s: bad expectation: %v", label, err)
	}
	if !ojson.Equal(got, w) {
		t.Errorf("%s:\n got %s\nwant %s", label, got.Compact(), want)
	}
}

func TestHiddenCharacters(t *testing.T) {
	// A hostile server: C1 CSI, ESC, a bidi override and a tag character in
	// names, keys, enum values and descriptions.
	set := mustSet(t, `[{"name":"evil\u009b31m","description":"desc \u001b]52;c;aGk=\u0007 \u202e txt \udb40\udc41",
	  "inputSchema":{"type":"object","properties":{"p\u202ex":{"enum":["a\u0085b","c"]},"q":{"type":"object","properties":{"k\u009b":{"const":"v\u2028"}}}},"x\u009b-bad key":1}}]`)
	doc := mustRender(t, set, Options{})
	for _, r := range doc.Text {
		if hiddenRune(r) && r != '\n' {
			t.Fatalf("rendering contains hidden character %U:\n%s", r, doc.Text)
		}
	}
	back, err := Parse(doc.Text)
	if err != nil {
		t.Fatal(err)
	}
	if back.Tools[0].Name != set.Tools[0].Name || back.Tools[0].Description != set.Tools[0].Description {
		t.Errorf("escaping changed the text: %q %q", back.Tools[0].Name, back.Tools[0].Description)
	}
	equivalent(t, "hidden", set.Tools[0].InputSchema, back.Tools[0].InputSchema, 3)
	if got := EscapeHidden("ok\n\tfine"); got != "ok\n\tfine" {
		t.Errorf("EscapeHidden changed plain text: %q", got)
	}
	if got := EscapeHidden("a\u009bb\U000E0041"); got != `a\u009bb\udb40\udc41` {
		t.Errorf("EscapeHidden = %q", got)
	}
}
