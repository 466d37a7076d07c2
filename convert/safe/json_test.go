package safe

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestJSON(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":"plain"}`:                   `{"a":"plain"}`,
		"{\"a\":\"x\u009b2Jy\u007f\"}":    `{"a":"x\u009b2Jy\u007f"}`,
		"[\"\u202eevil\u2069\u2028\"]":    `["\u202eevil\u2069\u2028"]`,
		"\"tag\U000E0041\"":               `"tag\udb40\udc41"`,
		`"already \u009b escaped, é ok"`:  `"already \u009b escaped, é ok"`,
		"\"csi \u009b31mred kept whole\"": `"csi \u009b31mred kept whole"`,
		"\"file_read\u200b\u00a0\"":       `"file_read\u200b\u00a0"`,
		"\"raw \x1b[2J\"":                 `"raw \u001b[2J"`,
		"{\r\n\"a\":\r1}":                 "{\n\"a\":\n1}",
		"\"bad \xff\"":                    `"bad \ufffd"`,
	} {
		if got := JSON(in); got != want {
			t.Errorf("JSON(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzJSON: the output never carries a character JSON escapes, and valid
// JSON reads back as the same value.
func FuzzJSON(f *testing.F) {
	f.Add("{\"k\":\"\u0085\u202e\U000E0020\"}")
	f.Add(`["a", 1, null]`)
	f.Add("\x1b[2J")
	f.Fuzz(func(t *testing.T, s string) {
		out := JSON(s)
		if strings.ContainsFunc(out, jsonHidden) {
			t.Fatalf("JSON(%q) = %q keeps a hidden character", s, out)
		}
		var a, b any
		if json.Unmarshal([]byte(s), &a) != nil {
			return
		}
		if err := json.Unmarshal([]byte(out), &b); err != nil {
			t.Fatalf("JSON(%q) = %q is not JSON: %v", s, out, err)
		}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Fatalf("JSON(%q) reads back as %s, want %s", s, jb, ja)
		}
	})
}
