package call

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

func kindOf(err error) ErrorKind {
	var ce *Error
	if errors.As(err, &ce) {
		return ce.Kind
	}
	return ""
}

// Hostile input is refused quickly with a positioned error, never a panic,
// a hang or unbounded memory.
func TestHostileInput(t *testing.T) {
	r := NewResolver(fixtures(t))
	huge := strings.Repeat("x", 1<<20)
	tests := []struct {
		name string
		src  string
		kind ErrorKind // "" means it must read
	}{
		{"deep nesting", `(ms :meta ` + strings.Repeat("(", 10000), ErrSyntax},
		{"deep JSON", `{"name":"ms","arguments":{"meta":` + strings.Repeat("[", 10000), ErrLimit},
		{"deep raw JSON", `(ms :meta (json "` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `"))`, ErrLimit},
		{"1 MB string", `(fr "` + huge + `")`, ""},
		{"1 MB string in JSON", `{"name":"fr","arguments":{"path":"` + huge + `"}}`, ""},
		{"1 MB symbol", `(fr ` + huge + `)`, ErrType},
		{"huge exponent", `(fr "/x" :off 1e999999999)`, ErrLimit},
		{"huge exponent in JSON", `{"name":"fr","arguments":{"path":"/x","lim":1e999999999}}`, ErrLimit},
		{"huge exponent in an any slot", `(ms :meta (1 2 -4.5e-99999))`, ErrLimit},
		{"long number", `(ms :count ` + strings.Repeat("7", 100000) + `)`, ErrLimit},
		{"many data", `(ms :meta (` + strings.Repeat("1 ", 300000) + `))`, ErrSyntax},
		{"long batch", `(batch ` + strings.Repeat("(a (fr \"/\")) ", 1) + batchEntries(1001) + `)`, ErrLimit},
		{"oversized input", strings.Repeat(" ", MaxSourceBytes+1), ErrLimit},
	}
	for _, tt := range tests {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		// No timing here (a loaded machine took 8 s over 5): a blow-up
		// shows in the allocation bound below, and a hang in the test's
		// own timeout; speed is the benchmarks'.
		_, err := r.Parse(tt.src)
		if got := kindOf(err); got != tt.kind {
			t.Errorf("%s: got %v (%s), want kind %q", tt.name, err, got, tt.kind)
		}
		runtime.ReadMemStats(&after)
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20+8*uint64(len(tt.src)) {
			t.Errorf("%s allocated %d MB for %d bytes of input", tt.name, alloc>>20, len(tt.src))
		}
	}
}

func batchEntries(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString("(x")
		b.WriteString(itoa(i))
		b.WriteString(` (fr "/"))`)
	}
	return b.String()
}

// Hostile schemas: $ref cycles, self-referencing allOf/anyOf, and unions of
// unions that would take exponential time to try.
func TestHostileSchemas(t *testing.T) {
	// L0 is a string; Ln is one of three arrays of L(n-1): reading a value
	// that fails deep inside would try 3^13 paths without the step bound.
	bomb := `"L0":{"type":"string"}`
	for i := 1; i <= 13; i++ {
		ref := `{"type":"array","items":{"$ref":"#/$defs/L` + itoa(i-1) + `"}}`
		bomb += `,"L` + itoa(i) + `":{"anyOf":[` + ref + `,` + ref + `,` + ref + `]}`
	}
	set, err := toolset.Parse([]byte(`[
	 {"name":"cycle","inputSchema":{"type":"object","properties":{"x":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}},
	 {"name":"selfany","inputSchema":{"type":"object","properties":{"x":{"$ref":"#/$defs/A"}},"$defs":{"A":{"anyOf":[{"$ref":"#/$defs/A"},{"type":"string"}]}}}},
	 {"name":"selfall","inputSchema":{"type":"object","properties":{"x":{"$ref":"#/$defs/A"}},"$defs":{"A":{"allOf":[{"$ref":"#/$defs/A"},{"type":"object","properties":{"y":{"type":"integer"}}}]}}}},
	 {"name":"dangling","inputSchema":{"type":"object","properties":{"x":{"$ref":"#/$defs/Nope"},"y":{"$ref":"https://example.com/schema.json"},"z":{"$ref":"file:///etc/passwd"}}}},
	 {"name":"bomb","inputSchema":{"type":"object","properties":{"x":{"$ref":"#/$defs/L13"}},"$defs":{` + bomb + `}}},
	 {"name":"falsy","inputSchema":false},
	 {"name":"ecma","inputSchema":{"type":"object","properties":{"s":{"type":"string","pattern":"^(?!x)(a+)+$"}}}}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	r := NewResolverCodes(set, nil)
	deepList := strings.Repeat("(", 13) + `1` + strings.Repeat(")", 13)
	for _, tt := range []struct {
		src   string
		kinds []ErrorKind
	}{
		{`(cycle :x 1)`, []ErrorKind{"", ErrInvalidSchema, ErrSchema}},
		{`(selfany :x "s")`, []ErrorKind{"", ErrInvalidSchema, ErrSchema}},
		{`(selfany :x 1)`, []ErrorKind{ErrType}},
		{`(selfall :x (:y 1))`, []ErrorKind{"", ErrInvalidSchema, ErrSchema}},
		{`(dangling :x 1 :y 2 :z 3)`, []ErrorKind{ErrInvalidSchema}},
		{`(bomb :x ` + deepList + `)`, []ErrorKind{ErrLimit, ErrType}},
		{`(falsy)`, []ErrorKind{ErrInvalidSchema}},
		{`(ecma :s "` + strings.Repeat("a", 40) + `!")`, []ErrorKind{ErrSchema}},
		{`(ecma :s "aaa")`, []ErrorKind{""}},
	} {
		_, err := r.Parse(tt.src)
		got := kindOf(err)
		ok := false
		for _, k := range tt.kinds {
			ok = ok || got == k
		}
		if !ok {
			t.Errorf("%.60s: got %v, want one of %q", tt.src, err, tt.kinds)
		}
	}
}
