package gateway

import (
	"encoding/base64"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/session"
)

// base64Run is a run of base64 long enough to be a blob, not a word.
var base64Run = regexp.MustCompile(`[A-Za-z0-9+/=]{80,}`)

// aqlModes are the gateway's modes that answer in AQL.
func aqlModes() []Mode {
	var out []Mode
	for _, m := range Modes() {
		if strings.HasPrefix(string(m), "aql") {
			out = append(out, m)
		}
	}
	return out
}

// TestAQLBlocksEverything calls server-everything's get-tiny-image (the
// MCP logo as a PNG) and get-resource-reference (an embedded blob
// resource) through every AQL mode, alone and in a batch: the AQL text
// names each block by number and holds no base64, and the blocks follow it
// as real MCP content, the image with the very data the upstream sent. Run
// with -v for the o200k_base tokens of the answer text.
func TestAQLBlocksEverything(t *testing.T) {
	u := everythingUpstream(t)
	up := openSession(t, u.source(), session.Options{})
	direct := up.Call(ctxT(t, 30*time.Second), session.CallRequest{Tool: "get-tiny-image"})
	if direct.Err != nil {
		t.Fatal(direct.Err)
	}
	var image *ojson.Value
	for _, it := range direct.Raw.Get("content").Items {
		if it.Get("type").StringOr("") == "image" {
			image = it
		}
	}
	if image == nil || image.Get("data").StringOr("") == "" {
		t.Fatalf("get-tiny-image sent no image: %s", clip(json.RawMessage(direct.Raw.Compact())))
	}
	data, mime := image.Get("data").Str, image.Get("mimeType").StringOr("")
	count := o200kCounter(t)
	// noBlob: the answer text carries no base64, only references.
	noBlob := func(t *testing.T, txt string) {
		t.Helper()
		if strings.Contains(txt, data[:40]) || base64Run.MatchString(txt) {
			t.Errorf("base64 in the AQL text: %.300s", txt)
		}
	}
	isImage := func(t *testing.T, c mcp.Content) {
		t.Helper()
		img, ok := c.(mcp.ImageContent)
		if !ok || img.Data != data || img.MIMEType != mime {
			t.Errorf("not the upstream's image block: %#.200v", c)
		}
	}
	// ref checks a reference {"type", "mimeType", ..., "block": n}.
	ref := func(t *testing.T, v *ojson.Value, typ string, block int64) {
		t.Helper()
		if v.Get("type").StringOr("") != typ || v.Get("block") == nil || v.Get("block").Compact() != ojson.NewInt(block).Compact() {
			t.Errorf("want a %s reference to block %d, got %s", typ, block, v.Compact())
		}
	}
	for _, m := range aqlModes() {
		t.Run(string(m), func(t *testing.T) {
			g := newGateway(t, up, Options{Mode: m, Policy: allowAll(t)})
			st := g.st.Load()
			c, _ := inProcessClient(t, g)
			a := adapterOf(t, st)

			tool, args := viaGateway(t, st, m, e2eCall{Tool: "get-tiny-image", Args: `{}`})
			res := callTool(t, c, tool, string(args.(json.RawMessage)))
			txt := text(res)
			t.Logf("get-tiny-image through %s: %d o200k tokens of AQL text, %d content blocks", tool, count(txt), len(res.Content))
			noBlob(t, txt)
			if res.IsError || len(res.Content) != 2 {
				t.Fatalf("want the text and one image block, got %d blocks (isError %v): %.300s", len(res.Content), res.IsError, txt)
			}
			isImage(t, res.Content[1])
			items := obj(t, txt).Get("data").Items
			if len(items) != 3 {
				t.Fatalf("data: %s", txt)
			}
			ref(t, items[1], "image", 1)
			if items[1].Get("mimeType").StringOr("") != mime {
				t.Errorf("the reference does not say the MIME type: %s", items[1].Compact())
			}
			if items[0].Get("text").StringOr("") != "Here's the image you requested:" {
				t.Errorf("the text around the image is lost: %s", txt)
			}

			// A batch numbers the blocks across its operations, in order.
			img, res2 := a.ForTool("get-tiny-image").Name, a.ForTool("get-resource-reference").Name
			batch := `{"operations":[{"operation":"` + img + `"},{"operation":"` + res2 + `","params":{"resource_type":"Blob","resource_id":2}},{"operation":"` + img + `"}]}`
			bres := callTool(t, c, a.Via(img), batch)
			btxt := text(bres)
			t.Logf("batch of 3 through %s: %d o200k tokens of AQL text, %d content blocks", a.Via(img), count(btxt), len(bres.Content))
			noBlob(t, btxt)
			if len(bres.Content) != 4 {
				t.Fatalf("want the text and three blocks, got %d: %.400s", len(bres.Content), btxt)
			}
			results := obj(t, btxt).Get("results").Items
			if len(results) != 3 {
				t.Fatalf("results: %.400s", btxt)
			}
			ref(t, results[0].Get("result").Get("data").Items[1], "image", 1)
			ref(t, results[1].Get("result").Get("data").Items[1], "resource", 2)
			ref(t, results[2].Get("result").Get("data").Items[1], "image", 3)
			isImage(t, bres.Content[1])
			isImage(t, bres.Content[3])
			er, ok := bres.Content[2].(mcp.EmbeddedResource)
			blob, isBlob := er.Resource.(mcp.BlobResourceContents)
			if !ok || !isBlob || blob.URI != "demo://resource/dynamic/blob/2" {
				t.Fatalf("block 2 is not the embedded blob resource: %#.300v", bres.Content[2])
			}
			if strings.Contains(btxt, blob.Blob) {
				t.Errorf("the resource's blob is in the AQL text: %.400s", btxt)
			}
			if b, err := base64.StdEncoding.DecodeString(blob.Blob); err != nil || !strings.HasPrefix(string(b), "Resource 2: ") {
				t.Errorf("the resource's blob is not passed whole: %q (%v)", b, err)
			}
			if uri := results[1].Get("result").Get("data").Items[1].Get("uri").StringOr(""); uri != blob.URI {
				t.Errorf("the reference names %q, the block %q", uri, blob.URI)
			}
		})
	}
}
