package tokens

import (
	"testing"

	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// A call written as MCP-Term and the same call written as JSON share one
// JSON figure, and the JSON written as the model would write it costs what
// its JSON figure says.
func TestCountCallOneDefinition(t *testing.T) {
	set, err := toolset.Parse([]byte(`[{"name":"file_read","description":"Read a file.","inputSchema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}]`))
	if err != nil {
		t.Fatal(err)
	}
	codec := calls.New(set, calls.Options{})
	c := testCounter(t, DefaultEncoding)
	term := `(batch (1 (fr "/etc/hosts")) (2 (fr "/a")))`
	pt, err := codec.Read(term)
	if err != nil {
		t.Fatal(err)
	}
	json := calls.ModelJSON(pt)
	pj, err := codec.Read(json)
	if err != nil {
		t.Fatalf("the JSON form does not read back: %v\n%s", err, json)
	}
	ct, err := CountCall(c, term, pt)
	if err != nil {
		t.Fatal(err)
	}
	cj, err := CountCall(c, json, pj)
	if err != nil {
		t.Fatal(err)
	}
	if ct.JSON != cj.JSON || cj.JSON != cj.Written || ct.Written >= ct.JSON {
		t.Errorf("term %+v, json %+v: the JSON figure should be one number, the JSON as written, and above the MCP-Term", ct, cj)
	}
	if n, _ := c.Count(term); n != ct.Written {
		t.Errorf("written %d, the text counts %d", ct.Written, n)
	}
	bad, err := CountCall(c, "(fr", nil)
	if err != nil || bad.JSON != -1 || bad.Written <= 0 {
		t.Errorf("unreadable text: %+v %v", bad, err)
	}
}
