package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Bounds on the note store, so a client cannot grow the server without limit.
const (
	maxNotes      = 100
	maxNoteBlocks = 1000
)

type note struct {
	version int
	blocks  []block
}

// inline is a run of text inside a paragraph or heading: a bare string, a
// styled text run, or a link.
type inline struct {
	Kind  string // "" for a bare string, "text" or "link"
	Text  string
	Marks []string
	Href  string
}

func (in inline) MarshalJSON() ([]byte, error) {
	switch in.Kind {
	case "":
		return json.Marshal(in.Text)
	case "link":
		return json.Marshal(struct {
			Type string `json:"type"`
			Href string `json:"href"`
			Text string `json:"text"`
		}{"link", in.Href, in.Text})
	default:
		return json.Marshal(struct {
			Type  string   `json:"type"`
			Text  string   `json:"text"`
			Marks []string `json:"marks,omitempty"`
		}{"text", in.Text, in.Marks})
	}
}

func (in *inline) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '"' {
		*in = inline{}
		return json.Unmarshal(data, &in.Text)
	}
	typ, err := variantType(data)
	if err != nil {
		return fmt.Errorf("inline: %v", err)
	}
	switch typ {
	case "text":
		var v struct {
			Type  string   `json:"type"`
			Text  string   `json:"text"`
			Marks []string `json:"marks"`
		}
		if err := strictUnmarshal(data, &v); err != nil {
			return fmt.Errorf("text inline: %v", err)
		}
		*in = inline{Kind: "text", Text: v.Text, Marks: v.Marks}
	case "link":
		var v struct {
			Type string `json:"type"`
			Href string `json:"href"`
			Text string `json:"text"`
		}
		if err := strictUnmarshal(data, &v); err != nil {
			return fmt.Errorf("link inline: %v", err)
		}
		*in = inline{Kind: "link", Text: v.Text, Href: v.Href}
	default:
		return fmt.Errorf("unknown inline type %q (want text or link)", typ)
	}
	return nil
}

// block is one block of a note: paragraph, heading, code or image.
type block struct {
	Type    string         // paragraph, heading, code, image
	ID      string         // paragraph
	Props   map[string]any // paragraph, image
	Content []inline       // paragraph, heading
	Level   int            // heading
	Lang    string         // code
	Code    string         // code: its content is a plain string
	Src     string         // image
	Alt     string         // image
}

type paragraphJSON struct {
	Type    string         `json:"type"`
	ID      string         `json:"id"`
	Props   map[string]any `json:"props"`
	Content []inline       `json:"content"`
}

type headingJSON struct {
	Type    string   `json:"type"`
	Level   int      `json:"level"`
	Content []inline `json:"content"`
}

type codeJSON struct {
	Type    string `json:"type"`
	Lang    string `json:"lang,omitempty"`
	Content string `json:"content"`
}

type imageJSON struct {
	Type  string         `json:"type"`
	Src   string         `json:"src"`
	Alt   string         `json:"alt"`
	Props map[string]any `json:"props,omitempty"`
}

func (b block) MarshalJSON() ([]byte, error) {
	switch b.Type {
	case "paragraph":
		props := b.Props
		if props == nil {
			props = map[string]any{}
		}
		content := b.Content
		if content == nil {
			content = []inline{}
		}
		return json.Marshal(paragraphJSON{b.Type, b.ID, props, content})
	case "heading":
		content := b.Content
		if content == nil {
			content = []inline{}
		}
		return json.Marshal(headingJSON{b.Type, b.Level, content})
	case "code":
		return json.Marshal(codeJSON{b.Type, b.Lang, b.Code})
	case "image":
		return json.Marshal(imageJSON{b.Type, b.Src, b.Alt, b.Props})
	}
	return nil, fmt.Errorf("block of unknown type %q", b.Type)
}

func (b *block) UnmarshalJSON(data []byte) error {
	typ, err := variantType(data)
	if err != nil {
		return fmt.Errorf("block: %v", err)
	}
	switch typ {
	case "paragraph":
		var v paragraphJSON
		if err := strictUnmarshal(data, &v); err != nil {
			return fmt.Errorf("paragraph: %v", err)
		}
		*b = block{Type: typ, ID: v.ID, Props: v.Props, Content: v.Content}
	case "heading":
		var v headingJSON
		if err := strictUnmarshal(data, &v); err != nil {
			return fmt.Errorf("heading: %v", err)
		}
		if v.Level < 1 || v.Level > 6 {
			return fmt.Errorf("heading: level must be 1-6, got %d", v.Level)
		}
		*b = block{Type: typ, Level: v.Level, Content: v.Content}
	case "code":
		var v codeJSON
		if err := strictUnmarshal(data, &v); err != nil {
			return fmt.Errorf("code: %v", err)
		}
		*b = block{Type: typ, Lang: v.Lang, Code: v.Content}
	case "image":
		var v imageJSON
		if err := strictUnmarshal(data, &v); err != nil {
			return fmt.Errorf("image: %v", err)
		}
		*b = block{Type: typ, Src: v.Src, Alt: v.Alt, Props: v.Props}
	default:
		return fmt.Errorf("unknown block type %q (want paragraph, heading, code or image)", typ)
	}
	return nil
}

// op is one edit: insert blocks at pos, delete len blocks from pos, or retain
// (check) the block at pos.
type op struct {
	Type   string  `json:"type"`
	Pos    int     `json:"pos"`
	Len    int     `json:"len,omitempty"`
	Blocks []block `json:"blocks,omitempty"`
}

func (o *op) UnmarshalJSON(data []byte) error {
	typ, err := variantType(data)
	if err != nil {
		return fmt.Errorf("op: %v", err)
	}
	switch typ {
	case "insert":
		var v struct {
			Type   string  `json:"type"`
			Pos    *int    `json:"pos"`
			Blocks []block `json:"blocks"`
		}
		if err := strictUnmarshal(data, &v); err != nil {
			return fmt.Errorf("insert: %v", err)
		}
		if v.Pos == nil || len(v.Blocks) == 0 {
			return fmt.Errorf("insert needs pos and at least one block")
		}
		*o = op{Type: typ, Pos: *v.Pos, Blocks: v.Blocks}
	case "delete":
		var v struct {
			Type string `json:"type"`
			Pos  *int   `json:"pos"`
			Len  *int   `json:"len"`
		}
		if err := strictUnmarshal(data, &v); err != nil {
			return fmt.Errorf("delete: %v", err)
		}
		if v.Pos == nil || v.Len == nil {
			return fmt.Errorf("delete needs pos and len")
		}
		*o = op{Type: typ, Pos: *v.Pos, Len: *v.Len}
	case "retain":
		var v struct {
			Type string `json:"type"`
			Pos  *int   `json:"pos"`
		}
		if err := strictUnmarshal(data, &v); err != nil {
			return fmt.Errorf("retain: %v", err)
		}
		if v.Pos == nil {
			return fmt.Errorf("retain needs pos")
		}
		*o = op{Type: typ, Pos: *v.Pos}
	default:
		return fmt.Errorf("unknown op type %q (want insert, delete or retain)", typ)
	}
	return nil
}

// variantType reads the "type" discriminator of a tagged-union member.
func variantType(data []byte) (string, error) {
	var head struct {
		Type *string `json:"type"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return "", fmt.Errorf("want an object with a \"type\" member: %v", err)
	}
	if head.Type == nil {
		return "", fmt.Errorf("missing \"type\" member")
	}
	return *head.Type, nil
}

// applyOps applies ops to a copy of blocks; on error the original is untouched
// and the error names the failing op.
func applyOps(name string, blocks []block, ops []op) ([]block, bool, error) {
	out := slices.Clone(blocks)
	changed := false
	for i, o := range ops {
		switch o.Type {
		case "insert":
			if o.Pos < 0 || o.Pos > len(out) {
				return nil, false, fmt.Errorf("ops[%d] (insert): pos %d is outside %s, which has %d blocks (valid: 0-%d)", i, o.Pos, name, len(out), len(out))
			}
			if len(out)+len(o.Blocks) > maxNoteBlocks {
				return nil, false, fmt.Errorf("ops[%d] (insert): %s would exceed %d blocks", i, name, maxNoteBlocks)
			}
			for j, b := range o.Blocks {
				if b.Type != "paragraph" {
					continue
				}
				if b.ID == "" {
					return nil, false, fmt.Errorf("ops[%d].blocks[%d]: paragraph id must not be empty", i, j)
				}
				if at := paragraphIndex(out, b.ID); at >= 0 {
					return nil, false, fmt.Errorf("ops[%d].blocks[%d]: paragraph id %q is already used by block %d", i, j, b.ID, at)
				}
				if at := paragraphIndex(o.Blocks[:j], b.ID); at >= 0 {
					return nil, false, fmt.Errorf("ops[%d].blocks[%d]: paragraph id %q repeats blocks[%d]", i, j, b.ID, at)
				}
			}
			out = slices.Insert(out, o.Pos, o.Blocks...)
			changed = true
		case "delete":
			if o.Len < 1 {
				return nil, false, fmt.Errorf("ops[%d] (delete): len must be at least 1, got %d", i, o.Len)
			}
			if o.Pos < 0 || o.Pos+o.Len > len(out) {
				return nil, false, fmt.Errorf("ops[%d] (delete): blocks %d-%d are outside %s, which has %d blocks", i, o.Pos, o.Pos+o.Len-1, name, len(out))
			}
			out = slices.Delete(out, o.Pos, o.Pos+o.Len)
			changed = true
		case "retain":
			if o.Pos < 0 || o.Pos >= len(out) {
				return nil, false, fmt.Errorf("ops[%d] (retain): %s has no block %d (it has %d blocks)", i, name, o.Pos, len(out))
			}
		default:
			return nil, false, fmt.Errorf("ops[%d]: unknown op type %q", i, o.Type)
		}
	}
	return out, changed, nil
}

func paragraphIndex(blocks []block, id string) int {
	return slices.IndexFunc(blocks, func(b block) bool { return b.Type == "paragraph" && b.ID == id })
}

const noteDefs = `{
    "Block": {
      "oneOf": [
        {
          "type": "object",
          "properties": {
            "type": {"const": "paragraph"},
            "id": {"type": "string", "minLength": 1, "description": "Unique within the note"},
            "props": {"$ref": "#/$defs/Props"},
            "content": {"type": "array", "items": {"$ref": "#/$defs/Inline"}}
          },
          "required": ["type", "id", "content"],
          "additionalProperties": false
        },
        {
          "type": "object",
          "properties": {
            "type": {"const": "heading"},
            "level": {"type": "integer", "enum": [1, 2, 3, 4, 5, 6]},
            "content": {"type": "array", "items": {"$ref": "#/$defs/Inline"}}
          },
          "required": ["type", "level", "content"],
          "additionalProperties": false
        },
        {
          "type": "object",
          "properties": {
            "type": {"const": "code"},
            "lang": {"type": "string", "description": "Language for highlighting, e.g. go"},
            "content": {"type": "string"}
          },
          "required": ["type", "content"],
          "additionalProperties": false
        },
        {
          "type": "object",
          "properties": {
            "type": {"const": "image"},
            "src": {"type": "string", "minLength": 1},
            "alt": {"type": "string"},
            "props": {"$ref": "#/$defs/Props"}
          },
          "required": ["type", "src", "alt"],
          "additionalProperties": false
        }
      ]
    },
    "Inline": {
      "oneOf": [
        {"type": "string"},
        {
          "type": "object",
          "properties": {
            "type": {"const": "text"},
            "text": {"type": "string"},
            "marks": {"type": "array", "items": {"type": "string", "enum": ["bold", "italic", "code", "strike"]}}
          },
          "required": ["type", "text"],
          "additionalProperties": false
        },
        {
          "type": "object",
          "properties": {
            "type": {"const": "link"},
            "href": {"type": "string"},
            "text": {"type": "string"}
          },
          "required": ["type", "href", "text"],
          "additionalProperties": false
        }
      ]
    },
    "Props": {
      "type": "object",
      "propertyNames": {"pattern": "^[A-Za-z_][A-Za-z0-9_-]*$"},
      "additionalProperties": true
    }
  }`

var noteUpdateInput = `{
  "type": "object",
  "properties": {
    "doc": {"type": "string", "minLength": 1, "maxLength": 200, "description": "Note name, e.g. doc.md; a new note is created on first insert"},
    "ops": {
      "type": "array",
      "items": {"$ref": "#/$defs/Op"},
      "minItems": 1,
      "maxItems": 100,
      "description": "Applied in order; pos is a block index in the note as left by the previous ops"
    }
  },
  "required": ["doc", "ops"],
  "additionalProperties": false,
  "$defs": {
    "Op": {
      "oneOf": [
        {
          "type": "object",
          "properties": {
            "type": {"const": "insert"},
            "pos": {"type": "integer", "minimum": 0},
            "blocks": {"type": "array", "items": {"$ref": "#/$defs/Block"}, "minItems": 1}
          },
          "required": ["type", "pos", "blocks"],
          "additionalProperties": false
        },
        {
          "type": "object",
          "properties": {
            "type": {"const": "delete"},
            "pos": {"type": "integer", "minimum": 0},
            "len": {"type": "integer", "minimum": 1}
          },
          "required": ["type", "pos", "len"],
          "additionalProperties": false
        },
        {
          "type": "object",
          "properties": {
            "type": {"const": "retain"},
            "pos": {"type": "integer", "minimum": 0}
          },
          "required": ["type", "pos"],
          "additionalProperties": false
        }
      ]
    },` + noteDefs[1:] + `
}`

var noteUpdateOutput = `{
  "type": "object",
  "properties": {
    "doc": {"type": "string"},
    "version": {"type": "integer", "description": "Increases by one with every change"},
    "blocks": {"type": "array", "items": {"$ref": "#/$defs/Block"}}
  },
  "required": ["doc", "version", "blocks"],
  "additionalProperties": false,
  "$defs": ` + noteDefs + `
}`

type noteUpdateArgs struct {
	Doc string `json:"doc"`
	Ops []op   `json:"ops"`
}

// noteState is note_update's answer.
type noteState struct {
	Doc     string  `json:"doc"`
	Version int     `json:"version"`
	Blocks  []block `json:"blocks"`
}

func (st *state) addNoteTools(s *server.MCPServer) {
	st.add(s, tool("note_update", "Update Note",
		"Edit a block-structured note with a list of operations: insert blocks at a position, delete a range of blocks, or retain (check) a block. Positions are block indexes. All operations apply or none do. Returns the note's new version and blocks.",
		noteUpdateInput, noteUpdateOutput, hints("Update Note", false, true, false)), st.noteUpdate)
}

func (st *state) noteUpdate(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var a noteUpdateArgs
	if err := bind(req, &a); err != nil {
		return toolErr("%v", err)
	}
	if a.Doc == "" || len(a.Ops) == 0 {
		return toolErr("doc and at least one op are required")
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	n := st.notes[a.Doc]
	if n == nil {
		if len(st.notes) >= maxNotes {
			return toolErr("cannot create note %q: the demo keeps at most %d notes", a.Doc, maxNotes)
		}
		n = &note{}
	}
	blocks, changed, err := applyOps(a.Doc, n.blocks, a.Ops)
	if err != nil {
		return toolErr("%v; %s is unchanged", err, a.Doc)
	}
	if changed {
		n.blocks = blocks
		n.version++
		st.notes[a.Doc] = n
	}
	return result(noteState{Doc: a.Doc, Version: n.version, Blocks: slices.Clone(n.blocks)})
}

func (st *state) seedNotes() {
	st.notes["doc.md"] = &note{version: 1, blocks: []block{
		{Type: "heading", Level: 1, Content: []inline{{Text: "Release plan"}}},
		{Type: "paragraph", ID: "intro", Props: map[string]any{}, Content: []inline{
			{Text: "Ship the "}, {Kind: "text", Text: "demo server", Marks: []string{"bold"}}, {Text: " first."},
		}},
		{Type: "code", Lang: "sh", Code: "mcpterm demo-server --listen 127.0.0.1:8080"},
	}}
}
