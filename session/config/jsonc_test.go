package config

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestStripJSONC(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a": 1}`, `{"a": 1}`},
		{"{\"a\": 1 // note\n}", "{\"a\": 1        \n}"},
		{"{/* x */\"a\": 1}", "{       \"a\": 1}"},
		{`{"a": [1, 2,], }`, `{"a": [1, 2 ]  }`},
		{"{\"a\": 1, // trailing\n}", "{\"a\": 1" + strings.Repeat(" ", 13) + "\n}"},
		{"{\"a\": 1, /* c */ }", "{\"a\": 1          }"},
		{`{"u": "http://x//y", "c": "/* no */", "t": ",}"}`, `{"u": "http://x//y", "c": "/* no */", "t": ",}"}`},
		{`{"q": "a\"//b"}`, `{"q": "a\"//b"}`},
		{"\xef\xbb\xbf{}", "   {}"},
		{"{/* multi\nline */}", "{        \n       }"},
	}
	for _, tt := range tests {
		got := string(stripJSONC([]byte(tt.in)))
		if got != tt.want {
			t.Errorf("stripJSONC(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if len(got) != len(tt.in) {
			t.Errorf("length changed for %q", tt.in)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("stripJSONC(%q) = %q is not valid JSON", tt.in, got)
		}
	}
}

func FuzzStripJSONC(f *testing.F) {
	for _, s := range []string{`{"a":1}`, "{\"a\":1,//c\n}", "[1,/*x*/2,]", `"//"`, "/*", `{"a":"\\"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out := stripJSONC(in)
		if len(out) != len(in) {
			t.Fatalf("length %d -> %d", len(in), len(out))
		}
		if strings.Count(string(out), "\n") != strings.Count(string(in), "\n") {
			t.Fatalf("line count changed")
		}
		// valid JSON without a BOM has nothing to strip
		if json.Valid(in) && !strings.HasPrefix(string(in), "\xef\xbb\xbf") && string(out) != string(in) {
			t.Fatalf("valid JSON changed: %q -> %q", in, out)
		}
	})
}
