package demo

import (
	"strings"
	"testing"
)

// Argument errors name the place and, for tagged unions, speak about the
// variant the caller chose instead of listing every variant's complaints.
func TestArgumentErrorsAreClear(t *testing.T) {
	h := connect(t, Options{})
	cases := []struct {
		tool, args string
		want       string
	}{
		{"data_platform_query", `{"qid": "x", "sources": [{"type": "graphql"}], "output": {}}`,
			`at /sources/0/type: "graphql" is not one of "sql", "mongodb", "api"`},
		{"data_platform_query", `{"qid": "x", "sources": [{"type": "mongodb", "uri": "mongodb://h", "database": "d"}], "output": {}}`,
			"at /sources/0: missing property 'collection'"},
		{"data_platform_query", `{"qid": "x", "sources": [{"type": "api", "url": "u", "method": "PUT"}], "output": {}}`,
			"at /sources/0/method: value must be one of 'GET', 'POST'"},
		{"data_platform_query", `{"qid": "x", "sources": [{"type": "api", "url": "u"}], "transformations": [{"type": "agg", "aggs": {"n": {"fn": "median"}}}], "output": {}}`,
			"at /transformations/0/aggs/n/fn: value must be one of"},
		{"note_update", `{"doc": "d", "ops": [{"type": "insert", "pos": 0, "blocks": [{"type": "heading", "level": 7, "content": []}]}]}`,
			"at /ops/0/blocks/0/level: value must be one of 1, 2, 3, 4, 5, 6"},
		{"note_update", `{"doc": "d", "ops": [{"type": "delete", "pos": -1, "len": 1}]}`,
			"at /ops/0/pos: minimum: got -1, want 0"},
		// Inline has no discriminator for its string member: all alternatives are listed.
		{"note_update", `{"doc": "d", "ops": [{"type": "insert", "pos": 0, "blocks": [{"type": "paragraph", "id": "a", "content": [5]}]}]}`,
			"at /ops/0/blocks/0/content/0: matches none of the 3 alternatives"},
		{"file_read", `{"path": "/etc/hosts", "mode": "r"}`, "additional properties 'mode' not allowed"},
		{"file_read", `{"path": 5}`, "at /path: got number, want string"},
	}
	for _, c := range cases {
		msg := h.fails(c.tool, c.args, c.want)
		if !strings.HasPrefix(msg, "invalid arguments for "+c.tool+":\n- ") {
			t.Errorf("%s: message %q does not start with the tool name", c.tool, msg)
		}
		if strings.Count(msg, "\n- ") > 3 {
			t.Errorf("%s: too many lines for one mistake:\n%s", c.tool, msg)
		}
	}
}
