package term

import (
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// The whole form keeps a tool's execution (how it may be called: as a task
// or not): required and optional as :task WORD, anything else in
// (json ...), the default (forbidden) left out and accounted for; the
// model-facing forms leave it out and account for it.
func TestTaskSupportKept(t *testing.T) {
	set, err := toolset.Parse([]byte(`{"tools":[
		{"name":"research","inputSchema":{"type":"object","properties":{"topic":{"type":"string"}},"required":["topic"]},"execution":{"taskSupport":"required"},"annotations":{"readOnlyHint":true}},
		{"name":"echo","inputSchema":{"type":"object"},"execution":{"taskSupport":"optional"}},
		{"name":"odd","inputSchema":{"type":"object"},"execution":{"taskSupport":"someday","x":1}},
		{"name":"plain","inputSchema":{"type":"object"},"execution":{"taskSupport":"forbidden"}}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	doc := mustRender(t, set, Options{})
	for _, want := range []string{":ro :task required", ":task optional", `(json "{\"execution\":{\"taskSupport\":\"someday\",\"x\":1}}")`} {
		if !strings.Contains(doc.Text, want) {
			t.Errorf("term-full lacks %s:\n%s", want, doc.Text)
		}
	}
	if strings.Contains(doc.Text, "forbidden") {
		t.Errorf("term-full writes the default:\n%s", doc.Text)
	}
	for _, o := range doc.LeftOut {
		if o.What == "execution" && o.Count != 1 {
			t.Errorf("term-full left out %d executions, want the forbidden one: %+v", o.Count, o)
		}
	}
	back, err := Parse(doc.Text)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, doc.Text)
	}
	for i, tl := range set.Tools[:3] {
		if got, want := back.Tools[i].Raw.Get("execution"), tl.Raw.Get("execution"); !ojson.Equal(got, want) {
			t.Errorf("%s: execution back as %v, want %s", tl.Name, got, want.Compact())
		}
	}
	if again := mustRender(t, back, Options{}); again.Text != doc.Text {
		t.Errorf("not a fixed point:\n%s", firstDiff(doc.Text, again.Text))
	}
	mf := mustRender(t, set, Options{ModelFacing: true})
	if strings.Contains(mf.Text, ":task") || strings.Contains(mf.Text, "execution") {
		t.Errorf("model-facing term shows execution:\n%s", mf.Text)
	}
	n := 0
	for _, o := range mf.LeftOut {
		if o.What == "execution" {
			n = o.Count
		}
	}
	if n != 4 {
		t.Errorf("model-facing term accounts for %d execution members, want 4: %+v", n, mf.LeftOut)
	}
	if back.Tools[3].Raw.Get("execution") != nil {
		t.Errorf("the default came back as %s", back.Tools[3].Raw.Get("execution").Compact())
	}
	if tk, err := Parse("(declare (p plain :task forbidden))"); err != nil || tk.Tools[0].Raw.Get("execution").Compact() != `{"taskSupport":"forbidden"}` {
		t.Errorf(":task forbidden read as %v", err)
	}
	if _, err := Parse("(declare (r research :task sometimes))"); err == nil || !strings.Contains(err.Error(), ":task") {
		t.Errorf("bad :task value: %v", err)
	}
}
