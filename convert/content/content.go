// Package content holds the one rule for a tool result's non-text content
// (images, audio, embedded resources, resource links): such an item is not
// data a model reads as text, so every answer that carries it names it by
// a short reference and the face passes the item itself as an MCP content
// block after the answer's text, where a client can show it. A 4 KB logo
// costs thousands of tokens as base64 in text and none as a block.
//
// The term answers summarise an item in MCP-Term (package call), the AQL
// answers reference it in JSON (package aql); both collect the items in one
// Blocks, which the gateway sends after its text.
package content

import (
	"github.com/mcpterm/mcpterm/convert/ojson"
)

// MaxBlocks bounds how many blocks one answer passes on: an upstream
// sending thousands of images gets them referenced, not all forwarded.
const MaxBlocks = 64

// Reasons a referenced item is not passed on, as its reference says them.
const (
	omittedLimit     = "more than 64 blocks in one answer"
	omittedMalformed = "malformed: not a valid MCP content item"
)

// IsNonText reports whether a content item is one of the non-text kinds:
// image, audio, resource (embedded) or resource_link.
func IsNonText(it *ojson.Value) bool {
	if it == nil || it.Kind != ojson.Object {
		return false
	}
	switch it.Get("type").StringOr("") {
	case "image", "audio", "resource", "resource_link":
		return true
	}
	return false
}

// valid reports whether a non-text item has the fields the MCP schema
// requires of its kind, so a face can always send it as a typed block.
func valid(it *ojson.Value) bool {
	str := func(v *ojson.Value, key string) bool {
		x := v.Get(key)
		return x != nil && x.Kind == ojson.String
	}
	switch it.Get("type").StringOr("") {
	case "image", "audio":
		return str(it, "data") && str(it, "mimeType")
	case "resource":
		r := it.Get("resource")
		return r != nil && r.Kind == ojson.Object && str(r, "uri") && (str(r, "text") != str(r, "blob"))
	case "resource_link":
		return str(it, "uri") && str(it, "name")
	}
	return false
}

// Blocks collects the non-text items one answer passes on, in the order
// their references number them: block n (from 1, the text being block 0)
// is Items[n-1]. The zero value is empty and ready to use.
type Blocks struct {
	Items []*ojson.Value
}

// Add takes a non-text item and returns its reference: the item's kind and
// what identifies it, its size, and "block": the number it is passed as.
// An item past MaxBlocks, or one that is not a valid MCP item, is not
// passed: its reference has no "block" and says why under "omitted".
func (b *Blocks) Add(it *ojson.Value) *ojson.Value {
	ref := Ref(it)
	switch {
	case !valid(it):
		ref.Set("omitted", ojson.NewString(omittedMalformed))
	case len(b.Items) >= MaxBlocks:
		ref.Set("omitted", ojson.NewString(omittedLimit))
	default:
		b.Items = append(b.Items, it)
		ref.Set("block", ojson.NewInt(int64(len(b.Items))))
	}
	return ref
}

// AddResult takes every non-text item of a CallToolResult's content, in
// order, and returns their references.
func (b *Blocks) AddResult(result *ojson.Value) []*ojson.Value {
	if result == nil || result.Kind != ojson.Object {
		return nil
	}
	items := result.Get("content")
	if items == nil || items.Kind != ojson.Array {
		return nil
	}
	var refs []*ojson.Value
	for _, it := range items.Items {
		if IsNonText(it) {
			refs = append(refs, b.Add(it))
		}
	}
	return refs
}

// Ref is the reference to a non-text item without its block number: the
// type, then for an image or audio its mimeType and decoded bytes; for an
// embedded resource its uri, mimeType and bytes (of the blob, decoded, or
// of the text); for a link its uri, name and mimeType. Fields the item
// lacks are left out; nothing of the data itself is copied.
func Ref(it *ojson.Value) *ojson.Value {
	ref := ojson.NewObject().Set("type", ojson.NewString(it.Get("type").StringOr("")))
	copyStr := func(from *ojson.Value, key string) {
		if v := from.Get(key); v != nil && v.Kind == ojson.String {
			ref.Set(key, ojson.NewString(v.Str))
		}
	}
	switch it.Get("type").StringOr("") {
	case "image", "audio":
		copyStr(it, "mimeType")
		if d := it.Get("data"); d != nil && d.Kind == ojson.String {
			ref.Set("bytes", ojson.NewInt(int64(Base64Size(d.Str))))
		}
	case "resource":
		r := it.Get("resource")
		if r == nil || r.Kind != ojson.Object {
			break
		}
		copyStr(r, "uri")
		copyStr(r, "mimeType")
		if t := r.Get("text"); t != nil && t.Kind == ojson.String {
			ref.Set("bytes", ojson.NewInt(int64(len(t.Str))))
		} else if bl := r.Get("blob"); bl != nil && bl.Kind == ojson.String {
			ref.Set("bytes", ojson.NewInt(int64(Base64Size(bl.Str))))
		}
	case "resource_link":
		copyStr(it, "uri")
		copyStr(it, "name")
		copyStr(it, "mimeType")
	}
	return ref
}

// Base64Size is the decoded size of base64 text, computed without
// decoding: a summary says how big the data is without copying it.
func Base64Size(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '=', ' ', '\n', '\r', '\t':
		default:
			n++
		}
	}
	return n * 3 / 4
}
