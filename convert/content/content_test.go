package content

import (
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

func parse(t *testing.T, s string) *ojson.Value {
	t.Helper()
	v, err := ojson.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Each kind's reference, and the items that cannot be sent as a typed MCP
// block: referenced with the reason, never passed, never numbered.
func TestAdd(t *testing.T) {
	cases := []struct{ item, ref string }{
		{`{"type":"image","data":"AAAABB==","mimeType":"image/png"}`, `{"type":"image","mimeType":"image/png","bytes":4,"block":1}`},
		{`{"type":"audio","data":"AAAA","mimeType":"audio/wav"}`, `{"type":"audio","mimeType":"audio/wav","bytes":3,"block":1}`},
		{`{"type":"resource","resource":{"uri":"a://t","text":"héllo"}}`, `{"type":"resource","uri":"a://t","bytes":6,"block":1}`},
		{`{"type":"resource","resource":{"uri":"a://b","mimeType":"x/y","blob":"AAAA"}}`, `{"type":"resource","uri":"a://b","mimeType":"x/y","bytes":3,"block":1}`},
		{`{"type":"resource_link","uri":"a://c","name":"c","title":"C","size":9}`, `{"type":"resource_link","uri":"a://c","name":"c","block":1}`},
		{`{"type":"image","data":"AAAA"}`, `{"type":"image","bytes":3,"omitted":"malformed: not a valid MCP content item"}`},
		{`{"type":"audio","data":7,"mimeType":"audio/wav"}`, `{"type":"audio","mimeType":"audio/wav","omitted":"malformed: not a valid MCP content item"}`},
		{`{"type":"resource","resource":{"uri":"a://b","text":"t","blob":"AAAA"}}`, `{"type":"resource","uri":"a://b","bytes":1,"omitted":"malformed: not a valid MCP content item"}`},
		{`{"type":"resource","resource":"a://b"}`, `{"type":"resource","omitted":"malformed: not a valid MCP content item"}`},
		{`{"type":"resource_link","uri":"a://c"}`, `{"type":"resource_link","uri":"a://c","omitted":"malformed: not a valid MCP content item"}`},
	}
	for _, c := range cases {
		var b Blocks
		ref := b.Add(parse(t, c.item))
		if ref.Compact() != c.ref {
			t.Errorf("%s:\n got %s\nwant %s", c.item, ref.Compact(), c.ref)
		}
		if passed := len(b.Items) == 1; passed != ref.Has("block") {
			t.Errorf("%s: passed %v, reference %s", c.item, passed, ref.Compact())
		}
	}
	// Text and unknown kinds are not blocks; a result's blocks keep order.
	var b Blocks
	refs := b.AddResult(parse(t, `{"content":[{"type":"text","text":"x"},{"type":"audio","data":"AAAA","mimeType":"a/b"},{"type":"video"},null,{"type":"image","data":"","mimeType":"i/p"}]}`))
	if len(refs) != 2 || len(b.Items) != 2 || b.Items[0].Get("type").Str != "audio" || refs[1].Get("block").Compact() != "2" {
		t.Errorf("AddResult: %v %v", refs, b.Items)
	}
	for _, bad := range []string{`null`, `[]`, `{"content":{}}`, `{}`} {
		if refs := b.AddResult(parse(t, bad)); refs != nil {
			t.Errorf("%s: %v", bad, refs)
		}
	}
}
