package demo

import (
	"context"
	"encoding/base64"
	"fmt"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// maxRead bounds one file_read answer; the tree's files are far smaller.
const maxRead = 1 << 20

type file struct {
	data []byte
	mime string
}

// fileTree is a small read-only tree. It is built once per server and never
// changed, so it needs no lock.
type fileTree struct {
	files map[string]*file
}

func newFileTree(tables map[string]*table) *fileTree {
	t := &fileTree{files: map[string]*file{}}
	add := func(p, mime string, data []byte) { t.files[p] = &file{data: data, mime: mime} }
	add("/docs/README.md", "text/markdown", []byte(readmeText))
	add("/docs/changelog.md", "text/markdown", []byte(changelogText))
	add("/etc/hosts", "text/plain", []byte(hostsText))
	add("/etc/passwd", "text/plain", []byte(passwdText))
	add("/src/hello.go", "text/x-go", []byte(helloText))
	add("/data/logo.png", "image/png", []byte(logoPNG))
	add("/data/orders.csv", "text/csv", []byte(tables["orders"].csv()))
	return t
}

// clean turns a user path into the tree's absolute form.
func cleanPath(p string) string {
	return path.Clean("/" + strings.TrimPrefix(strings.TrimSpace(p), "file://"))
}

// lookup finds a file, or explains why there is none.
func (t *fileTree) lookup(p string) (*file, error) {
	p = cleanPath(p)
	if f, ok := t.files[p]; ok {
		return f, nil
	}
	if entries := t.list(p); len(entries) > 0 {
		return nil, fmt.Errorf("%s is a directory (entries: %s)", p, strings.Join(entries, ", "))
	}
	return nil, fmt.Errorf("file not found: %s", p)
}

// list names the direct children of dir, directories with a trailing slash.
func (t *fileTree) list(dir string) []string {
	prefix := strings.TrimSuffix(dir, "/") + "/"
	seen := map[string]bool{}
	for p := range t.files {
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok {
			continue
		}
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			rest = rest[:i+1]
		}
		seen[rest] = true
	}
	out := make([]string, 0, len(seen))
	for name := range seen {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

func isText(f *file) bool { return !strings.HasPrefix(f.mime, "image/") && utf8.Valid(f.data) }

const fileReadInput = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "minLength": 1, "description": "Absolute path of the file, e.g. /etc/hosts"},
    "encoding": {"type": "string", "enum": ["utf8", "base64"], "default": "utf8", "description": "utf8 returns text; base64 returns the raw bytes encoded, for binary files"},
    "offset": {"type": "integer", "minimum": 0, "default": 0, "description": "Byte offset to start reading at"},
    "limit": {"type": "integer", "minimum": 1, "description": "Maximum number of bytes to read; the rest of the file if omitted"}
  },
  "required": ["path"],
  "additionalProperties": false
}`

type fileReadArgs struct {
	Path     string `json:"path"`
	Encoding string `json:"encoding"`
	Offset   int    `json:"offset"`
	Limit    *int   `json:"limit"`
}

func (st *state) addFileTools(s *server.MCPServer) {
	st.add(s, tool("file_read", "Read File",
		"Read a file from the demo file tree. Returns UTF-8 text by default; use encoding \"base64\" for binary files. offset and limit select a byte range. The tree is read-only and has /docs, /etc, /src and /data.",
		fileReadInput, "", hints("Read File", true, false, true)), st.fileRead)
}

func (st *state) fileRead(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a fileReadArgs
	if err := bind(req, &a); err != nil {
		return toolErr("%v", err)
	}
	f, err := st.files.lookup(a.Path)
	if err != nil {
		return toolErr("%v", err)
	}
	p := cleanPath(a.Path)
	if a.Offset < 0 || a.Offset > len(f.data) {
		return toolErr("offset %d is outside %s (%d bytes)", a.Offset, p, len(f.data))
	}
	end := len(f.data)
	if a.Limit != nil {
		if *a.Limit < 1 {
			return toolErr("limit must be at least 1, got %d", *a.Limit)
		}
		end = min(end, a.Offset+*a.Limit)
	}
	if end-a.Offset > maxRead {
		end = a.Offset + maxRead
	}
	chunk := f.data[a.Offset:end]
	switch a.Encoding {
	case "", "utf8":
		if !utf8.Valid(chunk) {
			if !isText(f) {
				return toolErr("%s is a binary file (%s); read it with encoding \"base64\"", p, f.mime)
			}
			return toolErr("bytes %d-%d of %s split a UTF-8 character; adjust offset/limit or use encoding \"base64\"", a.Offset, end, p)
		}
		return mcp.NewToolResultText(string(chunk)), nil
	case "base64":
		return mcp.NewToolResultText(base64.StdEncoding.EncodeToString(chunk)), nil
	default:
		return toolErr("unknown encoding %q: use \"utf8\" or \"base64\"", a.Encoding)
	}
}

// contents renders a file as resource contents: text when it is text.
func (f *file) contents(uri string) mcp.ResourceContents {
	if isText(f) {
		return mcp.TextResourceContents{URI: uri, MIMEType: f.mime, Text: string(f.data)}
	}
	return mcp.BlobResourceContents{URI: uri, MIMEType: f.mime, Blob: base64.StdEncoding.EncodeToString(f.data)}
}

func (st *state) addResources(s *server.MCPServer) {
	readme := st.files.files["/docs/README.md"]
	s.AddResource(mcp.NewResource("file:///docs/README.md", "README.md",
		mcp.WithResourceTitle("Demo server README"),
		mcp.WithResourceDescription("What the demo server offers and how to try it"),
		mcp.WithMIMEType("text/markdown"),
		mcp.WithResourceSize(int64(len(readme.data)))),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{readme.contents(req.Params.URI)}, nil
		})
	s.AddResource(mcp.NewResource("demo://catalog", "catalog",
		mcp.WithResourceTitle("Data platform catalog"),
		mcp.WithResourceDescription("Sources, tables and columns that data_platform_query can read"),
		mcp.WithMIMEType("application/json")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "application/json", Text: catalogJSON(st.tables)}}, nil
		})
	s.AddResourceTemplate(mcp.NewResourceTemplate("file:///{+path}", "file",
		mcp.WithTemplateTitle("Demo file"),
		mcp.WithTemplateDescription("Any file of the demo file tree, e.g. file:///etc/hosts; binary files come back base64-encoded")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			uri := req.Params.URI
			f, err := st.files.lookup(strings.TrimPrefix(uri, "file://"))
			if err != nil {
				return nil, err
			}
			return []mcp.ResourceContents{f.contents(uri)}, nil
		})
}

func (st *state) addPrompts(s *server.MCPServer) {
	s.AddPrompt(mcp.NewPrompt("summarize_file",
		mcp.WithPromptTitle("Summarize a file"),
		mcp.WithPromptDescription("Ask for a summary of a file from the demo file tree"),
		mcp.WithArgument("path", mcp.ArgumentDescription("Absolute path of the file, e.g. /docs/README.md"), mcp.RequiredArgument()),
		mcp.WithArgument("style", mcp.ArgumentDescription("brief (default) or detailed")),
	), st.summarizePrompt)
}

func (st *state) summarizePrompt(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	p := req.Params.Arguments["path"]
	if strings.TrimSpace(p) == "" {
		return nil, fmt.Errorf("argument path is required")
	}
	f, err := st.files.lookup(p)
	if err != nil {
		return nil, err
	}
	p = cleanPath(p)
	if !isText(f) {
		return nil, fmt.Errorf("%s is a binary file (%s) and cannot be summarized as text", p, f.mime)
	}
	var ask string
	switch style := req.Params.Arguments["style"]; style {
	case "", "brief":
		ask = fmt.Sprintf("Summarize %s in two or three sentences.", p)
	case "detailed":
		ask = fmt.Sprintf("Write a detailed summary of %s: its purpose, its sections and anything notable.", p)
	default:
		return nil, fmt.Errorf("unknown style %q: use brief or detailed", style)
	}
	return mcp.NewGetPromptResult("Summarize "+p, []mcp.PromptMessage{
		mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(ask)),
		mcp.NewPromptMessage(mcp.RoleUser, mcp.NewEmbeddedResource(f.contents("file://"+p))),
	}), nil
}

// logoPNG is a 16x16 two-colour PNG (a boxed X), kept as bytes so building
// a server does not pay for image encoding.
const logoPNG = "\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52" +
	"\x00\x00\x00\x10\x00\x00\x00\x10\x01\x03\x00\x00\x00\x25\x3d\x6d" +
	"\x22\x00\x00\x00\x06\x50\x4c\x54\x45\x1e\x1e\x2e\x89\xb4\xfa\x30" +
	"\xa3\x7b\x7b\x00\x00\x00\x33\x49\x44\x41\x54\x78\x9c\x62\x58\xc0" +
	"\xca\x90\xc0\xc6\xa0\xc0\xc2\x60\xc0\xc3\xa0\x21\xc2\xa0\xa2\xc2" +
	"\xa0\xe4\xc2\xa0\xd8\x02\x42\x4a\x2e\x20\xae\x86\x08\x48\x4a\x81" +
	"\x05\xa4\x6c\x01\x2b\x20\x00\x00\xff\xff\x8f\xd4\x05\xf5\xfb\xfa" +
	"\xc8\x7f\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82"

const readmeText = `# mcpterm demo server

A small MCP server that runs inside mcpterm, so there is always something to connect to.
Everything is kept in memory and starts fresh with each server.

## Tools

| tool | what it does |
|---|---|
| file_read | read files from this tree (/docs, /etc, /src, /data) as text or base64 |
| note_update | edit block-structured notes with insert, delete and retain operations |
| list_todos, get_todo, create_todo, update_todo, delete_todo, clear_completed | a todo list |
| data_platform_query | query the demo tables (customers, orders, events, inventory) with joins, filters and aggregates |
| long_task | a slow job that reports progress and honours cancellation |

## Resources

- file:///docs/README.md - this file
- demo://catalog - the tables data_platform_query can read
- file:///{+path} - any file of the tree

## Prompts

- summarize_file(path, style) - ask for a summary of a file

## Try it

    mcpterm call '(file_read "/etc/hosts")'
    mcpterm call '(create_todo "Write the report")'
    mcpterm demo-server --listen 127.0.0.1:8080
`

const changelogText = `# Changelog

## 0.1.0

- First release: file_read, note_update, the todo tools, data_platform_query and long_task.
- Resources: the README, the data catalog and a file:/// template.
- Prompt: summarize_file.
`

const hostsText = `# Static table lookup for hostnames.
127.0.0.1	localhost
::1	localhost ip6-localhost ip6-loopback
10.0.0.10	pg.demo.internal
10.0.0.11	mongo.demo.internal
10.0.0.12	inventory.demo.internal
`

const passwdText = `root:x:0:0:root:/root:/bin/sh
daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin
demo:x:1000:1000:Demo User,,,:/home/demo:/bin/bash
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
`

const helloText = `package main

import "fmt"

// main greets in two languages, to give file_read some UTF-8 to chew on.
func main() {
	fmt.Println("Hello, world")
	fmt.Println("你好，世界")
}
`
