package demo

import (
	"bytes"
	"context"
	"encoding/base64"
	"image/png"
	"strconv"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestFileRead(t *testing.T) {
	h := connect(t, Options{})
	hosts := text(h.ok("file_read", `{"path": "/etc/hosts"}`, nil))
	if hosts != hostsText {
		t.Errorf("/etc/hosts = %q", hosts)
	}
	if got := text(h.ok("file_read", `{"path": "etc/hosts", "encoding": "utf8"}`, nil)); got != hostsText {
		t.Errorf("relative path: %q", got)
	}
	// Byte ranges.
	if got := text(h.ok("file_read", `{"path": "/etc/hosts", "offset": 2, "limit": 6}`, nil)); got != hostsText[2:8] {
		t.Errorf("range: %q, want %q", got, hostsText[2:8])
	}
	if got := text(h.ok("file_read", `{"path": "/etc/hosts", "offset": 10}`, nil)); got != hostsText[10:] {
		t.Errorf("offset only: %q", got)
	}
	if got := text(h.ok("file_read", `{"path": "/etc/hosts", "offset": `+strconv.Itoa(len(hostsText))+`}`, nil)); got != "" {
		t.Errorf("offset at end: %q", got)
	}
	// The binary file: base64 decodes to a real PNG.
	b64 := text(h.ok("file_read", `{"path": "/data/logo.png", "encoding": "base64"}`, nil))
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil || img.Bounds().Dx() != 16 {
		t.Errorf("logo.png does not decode as a 16px PNG: %v", err)
	}
	if got := text(h.ok("file_read", `{"path": "/data/logo.png", "encoding": "base64", "offset": 1, "limit": 3}`, nil)); got != base64.StdEncoding.EncodeToString(raw[1:4]) {
		t.Errorf("base64 range = %q", got)
	}
	// The CSV export matches the orders table.
	csv := text(h.ok("file_read", `{"path": "/data/orders.csv"}`, nil))
	if lines := strings.Split(strings.TrimSpace(csv), "\n"); len(lines) != len(h.st.tables["orders"].rows)+1 || lines[0] != "id,customer_id,sku,quantity,amount,status,created_at" {
		t.Errorf("orders.csv: %q", csv)
	}
	// UTF-8 text survives, and a range that splits a character is refused.
	src := text(h.ok("file_read", `{"path": "/src/hello.go"}`, nil))
	if !strings.Contains(src, "你好") {
		t.Errorf("hello.go lost its UTF-8: %q", src)
	}
	at := strings.Index(helloText, "你")
	h.fails("file_read", `{"path": "/src/hello.go", "offset": `+strconv.Itoa(at+1)+`, "limit": 2}`, "split a UTF-8 character", "base64")
}

func TestFileReadErrors(t *testing.T) {
	h := connect(t, Options{})
	h.fails("file_read", `{"path": "/etc/shadow"}`, "file not found: /etc/shadow")
	h.fails("file_read", `{"path": "/etc"}`, "/etc is a directory", "hosts", "passwd")
	h.fails("file_read", `{"path": "/"}`, "is a directory", "docs/", "etc/")
	h.fails("file_read", `{"path": "/data/logo.png"}`, "binary file", "base64")
	h.fails("file_read", `{"path": "/etc/hosts", "offset": 100000}`, "offset 100000 is outside /etc/hosts")
	// Schema-level rejections arrive as isError results too.
	h.fails("file_read", `{"path": "/etc/hosts", "encoding": "latin1"}`)
	h.fails("file_read", `{"path": "/etc/hosts", "limit": 0}`)
	h.fails("file_read", `{"path": "/etc/hosts", "offset": -1}`)
	h.fails("file_read", `{}`, "path")
	h.fails("file_read", `{"path": "/etc/hosts", "mode": "r"}`)
}

func TestResources(t *testing.T) {
	h := connect(t, Options{})
	ctx := context.Background()
	read := func(uri string) ([]mcp.ResourceContents, error) {
		req := mcp.ReadResourceRequest{}
		req.Params.URI = uri
		res, err := h.c.ReadResource(ctx, req)
		if err != nil {
			return nil, err
		}
		return res.Contents, nil
	}
	c, err := read("file:///docs/README.md")
	if err != nil {
		t.Fatal(err)
	}
	if tc, ok := c[0].(mcp.TextResourceContents); !ok || tc.Text != readmeText || tc.MIMEType != "text/markdown" {
		t.Errorf("README = %#v", c[0])
	}
	c, err = read("demo://catalog")
	if err != nil {
		t.Fatal(err)
	}
	if tc, ok := c[0].(mcp.TextResourceContents); !ok || !strings.Contains(tc.Text, `"customers"`) || !strings.Contains(tc.Text, inventoryURL) {
		t.Errorf("catalog = %#v", c[0])
	}
	// The template serves any file, nested paths included.
	c, err = read("file:///etc/passwd")
	if err != nil {
		t.Fatal(err)
	}
	if tc, ok := c[0].(mcp.TextResourceContents); !ok || tc.Text != passwdText || tc.URI != "file:///etc/passwd" {
		t.Errorf("passwd = %#v", c[0])
	}
	c, err = read("file:///data/logo.png")
	if err != nil {
		t.Fatal(err)
	}
	if bc, ok := c[0].(mcp.BlobResourceContents); !ok || bc.MIMEType != "image/png" || bc.Blob == "" {
		t.Errorf("logo = %#v", c[0])
	}
	if _, err := read("file:///etc/shadow"); err == nil || !strings.Contains(err.Error(), "file not found") {
		t.Errorf("missing file: err = %v", err)
	}
	if _, err := read("demo://nothing"); err == nil {
		t.Error("unknown resource read without error")
	}
}

func TestSummarizePrompt(t *testing.T) {
	h := connect(t, Options{})
	ctx := context.Background()
	get := func(args map[string]string) (*mcp.GetPromptResult, error) {
		req := mcp.GetPromptRequest{}
		req.Params.Name = "summarize_file"
		req.Params.Arguments = args
		return h.c.GetPrompt(ctx, req)
	}
	res, err := get(map[string]string{"path": "/etc/hosts", "style": "detailed"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Messages) != 2 {
		t.Fatalf("messages = %+v", res.Messages)
	}
	if tc, ok := res.Messages[0].Content.(mcp.TextContent); !ok || !strings.Contains(tc.Text, "detailed summary of /etc/hosts") {
		t.Errorf("ask = %#v", res.Messages[0].Content)
	}
	er, ok := res.Messages[1].Content.(mcp.EmbeddedResource)
	if !ok {
		t.Fatalf("second message = %#v", res.Messages[1].Content)
	}
	if tc, ok := er.Resource.(mcp.TextResourceContents); !ok || tc.Text != hostsText {
		t.Errorf("embedded = %#v", er.Resource)
	}
	for args, want := range map[*map[string]string]string{
		{"path": "/nope"}:                      "file not found",
		{"path": "/data/logo.png"}:             "binary",
		{"path": "/etc/hosts", "style": "odd"}: "unknown style",
		{}:                                     "path is required",
	} {
		if _, err := get(*args); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: err = %v, want %q", *args, err, want)
		}
	}
}
