package calls

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/content"
	"github.com/mcpterm/mcpterm/convert/ojson"
)

// An image, an audio clip and an embedded resource in three results of an
// AQL batch: the answer refers to each by block number, across the batch,
// and holds none of their base64; the blocks are the items exactly as the
// server sent them, in the references' order, and the term answer passes
// the same ones.
func TestAnswerBlocks(t *testing.T) {
	c := New(todo(t), Options{})
	png := base64.StdEncoding.EncodeToString([]byte("\x89PNG not really an image, but long enough to matter"))
	wav := base64.StdEncoding.EncodeToString([]byte("RIFF....WAVEfmt and a few samples"))
	blob := base64.StdEncoding.EncodeToString([]byte("%PDF-1.7 a document"))
	image := `{"type":"image","data":"` + png + `","mimeType":"image/png"}`
	audio := `{"type":"audio","data":"` + wav + `","mimeType":"audio/wav","annotations":{"audience":["user"]}}`
	resource := `{"type":"resource","resource":{"uri":"file:///r.pdf","mimeType":"application/pdf","blob":"` + blob + `"}}`
	link := `{"type":"resource_link","uri":"file:///log.txt","name":"log.txt"}`
	results := []string{
		`{"content":[{"type":"text","text":"a chart and its sound:"},` + image + `,` + audio + `]}`,
		`{"content":[{"type":"text","text":"{\"id\":\"7\"}"},` + resource + `],"structuredContent":{"id":"7"}}`,
		`{"content":[{"type":"text","text":"failed; see the log"},` + link + `],"isError":true}`,
	}
	p := mustRead(t, c, `{"operations":[{"operation":"list_todos"},{"operation":"get_todo","params":{"id":"7"}},{"operation":"list_todos","params":{"limit":1}}]}`)
	outs := make([]Outcome, len(results))
	for i, r := range results {
		outs[i] = Outcome{Result: args(t, r)}
	}
	resp, blocks := c.AnswerBlocks(p, outs)
	text := resp.Compact()
	for _, b64 := range []string{png, wav, blob} {
		if strings.Contains(text, b64) || strings.Contains(RenderAQL(resp, true, 0), b64) {
			t.Fatalf("base64 in the answer: %s", text)
		}
	}
	want := []string{image, audio, resource, link}
	if len(blocks) != len(want) {
		t.Fatalf("%d blocks, want %d", len(blocks), len(want))
	}
	for i, w := range want {
		if !ojson.Equal(blocks[i], args(t, w)) {
			t.Errorf("block %d: %s\nwant %s", i+1, blocks[i].Compact(), w)
		}
	}
	res := resp.Get("results").Items
	refs := map[string]*ojson.Value{
		`{"type":"image","mimeType":"image/png","bytes":51,"block":1}`:                                res[0].Get("result").Get("data").Items[1],
		`{"type":"audio","mimeType":"audio/wav","bytes":33,"block":2}`:                                res[0].Get("result").Get("data").Items[2],
		`{"type":"resource","uri":"file:///r.pdf","mimeType":"application/pdf","bytes":19,"block":3}`: res[1].Get("result").Get("_meta").Get("blocks").Items[0],
		`{"type":"resource_link","uri":"file:///log.txt","name":"log.txt","block":4}`:                 res[2].Get("result").Get("error").Get("details").Get("blocks").Items[0],
	}
	for w, got := range refs {
		if got == nil || got.Compact() != w {
			t.Errorf("reference %v, want %s\nin %s", got, w, text)
		}
	}
	if d := res[1].Get("result").Get("data").Compact(); d != `{"id":"7"}` {
		t.Errorf("structured data: %s", d)
	}
	// The text around the blocks stays where it was.
	if res[0].Get("result").Get("data").Items[0].Get("text").StringOr("") != "a chart and its sound:" {
		t.Errorf("text lost: %s", text)
	}
	// Term answers pass the same blocks, in the same order.
	term := TermBlocks(outs)
	if len(term) != len(blocks) {
		t.Fatalf("term passes %d blocks, AQL %d", len(term), len(blocks))
	}
	for i := range term {
		if term[i] != blocks[i] {
			t.Errorf("block %d differs between term and AQL", i+1)
		}
	}
	// One item alone numbers from 1, in Answer and ItemAnswer alike.
	one := mustRead(t, c, `{"operation":"get_todo","params":{"id":"7"}}`)
	single, sb := c.AnswerBlocks(one, outs[1:2])
	item, _ := c.ItemAnswer(&one.Items[0], outs[1])
	if len(sb) != 1 || !strings.Contains(single.Compact(), `"block":1}`) || !ojson.Equal(single, item) || !ojson.Equal(c.Answer(one, outs[1:2]), single) {
		t.Errorf("single answer %s, %d blocks; item answer %s", single.Compact(), len(sb), item.Compact())
	}
}

// Past content.MaxBlocks the items are referenced but not passed, and the
// reference says so.
func TestAnswerBlocksLimit(t *testing.T) {
	c := New(todo(t), Options{})
	items := ojson.NewArray()
	for range content.MaxBlocks + 3 {
		items.Items = append(items.Items, args(t, `{"type":"image","data":"AAAA","mimeType":"image/png"}`))
	}
	p := mustRead(t, c, `{"operation":"list_todos"}`)
	resp, blocks := c.AnswerBlocks(p, []Outcome{{Result: ojson.NewObject().Set("content", items)}})
	if len(blocks) != content.MaxBlocks {
		t.Fatalf("%d blocks passed", len(blocks))
	}
	data := resp.Get("data").Items
	if last := data[content.MaxBlocks-1].Get("block"); last == nil || last.Compact() != "64" {
		t.Errorf("block 64: %s", data[content.MaxBlocks-1].Compact())
	}
	if over := data[content.MaxBlocks]; over.Has("block") || !strings.Contains(over.Get("omitted").StringOr(""), "64") {
		t.Errorf("past the limit: %s", over.Compact())
	}
}
