package aql

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// fuzzAdapters are built once per target from the fixtures, in both modes.
func fuzzAdapters(t testing.TB) []*Adapter {
	var out []*Adapter
	for _, f := range []string{"hard.tools.json", "todo.tools.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		set, err := toolset.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []Mode{Single, Semantic} {
			a, err := New(set, nil, m)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, a)
		}
	}
	return out
}

// FuzzParseInput: any bytes either fail to parse with an error, or give a
// document that every adapter answers with a well-formed OperationResult or
// batch result; calls only ever go to real tools with object arguments.
func FuzzParseInput(f *testing.F) {
	for _, s := range []string{
		`{"operation":"get_todo","params":{"id":"1"}}`,
		`{"operation":"update_todo","params":{"id":"1","input":{"title":"x"}}}`,
		`{"operation":"api_get_user","user_id":"u_1","params":{"userId":"u_2"}}`,
		`{"operation":"introspect","params":{"query":"operations","name":"tree"}}`,
		`{"operation":"introspect","params":{"query":"types","name":"User"}}`,
		`{"operations":[{"operation":"list_todos","params":{"fields":["items.id"]}},{"operation":"nope"},5]}`,
		`{"operation":"set_config","params":{"a":1,"_meta":{}}}`,
		`{"operation":"tree","params":{"value":1e400,"children":[[[]]]}}`,
		`{"operation":7}`, `[]`, `{"operations":{}}`, "{\"operation\":\"\xff\"}", `{"operation":"x"`,
	} {
		f.Add([]byte(s))
	}
	adapters := fuzzAdapters(f)
	exec := func(c ToolCall) (*ojson.Value, error) {
		switch len(c.Arguments.Members) % 3 {
		case 0:
			return textResult(c.Arguments.Compact()), nil
		case 1:
			return nil, errors.New("down")
		}
		return textResult("no").Set("isError", ojson.NewBool(true)), nil
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := ParseInput(data)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		reqs := in.Batch
		if !in.IsBatch() {
			reqs = []*Request{in.Request}
		}
		for _, a := range adapters {
			vias := []string{SingleTool}
			if a.Mode == Semantic {
				vias = []string{Read.Tool(), Delete.Tool(), "mcp_aql_bogus"}
			}
			for _, via := range vias {
				for _, r := range reqs {
					st := a.Prepare(via, r)
					if (st.Local == nil) == (st.Call == nil) {
						t.Fatalf("step must be local xor call: %+v", st)
					}
					if st.Call != nil {
						if a.ForTool(st.Call.Name) == nil || st.Call.Arguments == nil || st.Call.Arguments.Kind != ojson.Object {
							t.Fatalf("bad call %s", st.Call.Params().Compact())
						}
						continue
					}
					checkResult(t, st.Local)
				}
				out := a.Run(via, in, exec)
				if in.IsBatch() {
					if !IsSuccess(out) || len(out.Get("results").Items) != len(reqs) {
						t.Fatalf("batch result: %s", out.Compact())
					}
				} else {
					checkResult(t, out)
				}
			}
		}
	})
}

func checkResult(t *testing.T, r *ojson.Value) {
	t.Helper()
	if r == nil || r.Kind != ojson.Object {
		t.Fatalf("result is not an object: %v", r)
	}
	if IsSuccess(r) {
		if !r.Has("data") || r.Has("error") {
			t.Fatalf("success without data: %s", r.Compact())
		}
		return
	}
	e := r.Get("error")
	if e == nil || e.Get("code").StringOr("") == "" || e.Get("message").StringOr("") == "" || r.Has("data") {
		t.Fatalf("malformed failure: %s", r.Compact())
	}
}

// FuzzSnakeName: every string gets a valid, stable operation name.
func FuzzSnakeName(f *testing.F) {
	for _, s := range []string{"API-get-user", "getUserByID", "日本語", "2fa", "", "a__b", "XMLHttp.v2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := SnakeName(s)
		if !ValidName(n) || SnakeName(n) != n {
			t.Fatalf("SnakeName(%q) = %q", s, n)
		}
	})
}

// FuzzToolSchema: a hostile input schema (loops of $ref, unions pointing
// back at the root, deep nesting) never panics and answers introspection
// in bounded time.
func FuzzToolSchema(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"a":{"$ref":"#"}}}`,
		`{"anyOf":[{"$ref":"#"},{"$ref":"#"},{"$ref":"#"},{"$ref":"#"}]}`,
		`{"$ref":"#/$defs/A","$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}`,
		`{"type":"object","properties":{"x":{"type":"array","items":{"oneOf":[{"$ref":"#/properties/x"},{"type":"null"}]}}},"required":["x"]}`,
		`{"allOf":[{"$ref":"#"}],"properties":{"p":{"enum":[1,"a",null]}}}`,
		`true`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, schema []byte) {
		v, err := ojson.Parse(schema)
		if err != nil || (v.Kind != ojson.Object && v.Kind != ojson.Bool) {
			return
		}
		tool := ojson.NewObject().Set("name", ojson.NewString("t")).Set("inputSchema", v)
		set, err := toolset.FromValue(ojson.NewArray(tool))
		if err != nil {
			return
		}
		start := time.Now()
		a, err := New(set, nil, Single)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range a.IntrospectCosts() {
			if _, err := ojson.Parse([]byte(c.Answer)); err != nil {
				t.Fatalf("answer is not JSON: %v", err)
			}
		}
		a.TypeDetails("A")
		in, _ := FromValue(a.OperationDetails("t").Get("examples").Items[0].Get("request"))
		a.Prepare(SingleTool, in.Request)
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("introspecting a %d-byte schema took %v", len(schema), d)
		}
	})
}

// FuzzProject: projection never panics and keeps only what was there.
func FuzzProject(f *testing.F) {
	f.Add([]byte(`{"a":{"b":[{"c":1,"d":2}]},"e":3}`), "a.b.c,e,x.y")
	f.Add([]byte(`[1,{"a":[[{"a":1}]]}]`), "a.a")
	f.Fuzz(func(t *testing.T, data []byte, paths string) {
		v, err := ojson.Parse(data)
		if err != nil {
			return
		}
		before := v.Compact()
		p := Project(v, strings.Split(paths, ","))
		if v.Compact() != before {
			t.Fatal("Project changed its input")
		}
		if len(p.Compact()) > len(before) && v.Kind != ojson.Null && v.Kind != ojson.String && v.Kind != ojson.Number && v.Kind != ojson.Bool {
			t.Fatalf("projection %s larger than %s", p.Compact(), before)
		}
	})
}
