package aql

import (
	"strings"
	"unicode/utf8"

	"github.com/mcpterm/mcpterm/convert/content"
	"github.com/mcpterm/mcpterm/convert/ojson"
)

// maxUpstreamError bounds the upstream error text copied into details.
const maxUpstreamError = 4000

// Executor runs one tools/call upstream and returns the CallToolResult as
// JSON ({"content": [...], "structuredContent"?, "isError"?}), or an error
// when the call itself failed (transport, JSON-RPC error, timeout). The
// adapter stays pure by leaving all I/O to it.
type Executor func(call ToolCall) (*ojson.Value, error)

// Finish turns a prepared step and its upstream outcome into the AQL
// OperationResult. When the step carried a projection that was applied,
// full is the same response without it, so a caller can show what the
// projection saved; otherwise full is nil. Non-text content is referenced
// as FinishBlocks does, numbered from 1.
func Finish(st Step, result *ojson.Value, callErr error) (resp, full *ojson.Value) {
	return FinishBlocks(st, result, callErr, &content.Blocks{})
}

// FinishBlocks is Finish for an answer that passes the result's non-text
// content (images, audio, resources, links) as MCP content blocks after
// its text: each such item is added to b and stands in the response only
// as its reference (content.Blocks.Add), never as base64 in the JSON. The
// reference takes the item's place when data is the content array; when
// data is structuredContent the references are listed in _meta.blocks,
// and in error.details.blocks for an isError result. b numbers the blocks
// across the operations of a batch.
func FinishBlocks(st Step, result *ojson.Value, callErr error, b *content.Blocks) (resp, full *ojson.Value) {
	if st.Local != nil {
		return st.Local, nil
	}
	tool := ""
	if st.Call != nil {
		tool = st.Call.Name
	}
	if callErr != nil {
		msg := clip(callErr.Error(), maxUpstreamError)
		return errorf(CodeInternal, details("tool", tool, "upstream_error", msg), "Internal error: '%s'", brief(msg)).Response(), nil
	}
	data, isErr, text, refs := resultData(result, b)
	if isErr {
		if text == "" {
			text = "the tool reported an error without a message"
		}
		text = clip(text, maxUpstreamError)
		d := details("tool", tool, "upstream_error", text)
		if refs != nil {
			d.Set("blocks", refs)
		}
		return errorf(CodeInternal, d, "Internal error: '%s'", brief(text)).Response(), nil
	}
	// withMeta adds the references that have no place in data.
	withMeta := func(resp, meta *ojson.Value) *ojson.Value {
		if refs != nil {
			if meta == nil {
				meta = ojson.NewObject()
			}
			meta.Set("blocks", refs)
		}
		if meta != nil {
			resp.Set("_meta", meta)
		}
		return resp
	}
	resp = Success(data)
	if len(st.Fields) == 0 {
		return withMeta(resp, nil), nil
	}
	meta := ojson.NewObject().Set("fields", strArray(st.Fields))
	if data.Kind != ojson.Object && data.Kind != ojson.Array {
		reason := "the result is text, not JSON"
		if data.Kind != ojson.String {
			reason = "the result is a " + data.Kind.String() + ", not an object or array"
		}
		meta.Set("projected", ojson.NewBool(false)).Set("reason", ojson.NewString(reason))
		return withMeta(resp, meta), nil
	}
	meta.Set("projected", ojson.NewBool(true))
	return withMeta(Success(Project(data, st.Fields)), meta), withMeta(resp, nil)
}

// resultData reads a CallToolResult: structuredContent when present; else
// the text content, parsed when it is a JSON object or array (so fields can
// project it); else the content array with each non-text item replaced by
// its reference. The non-text items go to b; refs are their references
// when data does not hold them (structuredContent, or an error), else nil.
func resultData(res *ojson.Value, b *content.Blocks) (data *ojson.Value, isError bool, text string, refs *ojson.Value) {
	if res == nil || res.Kind != ojson.Object {
		return nil, true, "the server returned no CallToolResult object", nil
	}
	isError = res.Get("isError") != nil && res.Get("isError").Kind == ojson.Bool && res.Get("isError").Bool
	items := res.Get("content")
	var texts []string
	allText := true
	if items != nil && items.Kind == ojson.Array {
		for _, it := range items.Items {
			if it.Get("type").StringOr("") == "text" && it.Get("text") != nil && it.Get("text").Kind == ojson.String {
				texts = append(texts, it.Get("text").Str)
			} else {
				allText = false
			}
		}
	}
	text = strings.Join(texts, "\n")
	sc := res.Get("structuredContent")
	if isError || (sc != nil && sc.Kind != ojson.Null) {
		if rs := b.AddResult(res); len(rs) > 0 {
			refs = ojson.NewArray(rs...)
		}
		if isError {
			return nil, true, text, refs
		}
		return sc, false, text, refs
	}
	if items == nil || items.Kind != ojson.Array || len(items.Items) == 0 {
		return ojson.NewNull(), false, "", nil
	}
	if !allText {
		arr := ojson.NewArray()
		for _, it := range items.Items {
			if content.IsNonText(it) {
				it = b.Add(it)
			}
			arr.Items = append(arr.Items, it)
		}
		return arr, false, text, nil
	}
	if len(texts) == 1 {
		return textData(texts[0]), false, text, nil
	}
	arr := ojson.NewArray()
	for _, t := range texts {
		arr.Items = append(arr.Items, textData(t))
	}
	return arr, false, text, nil
}

// textData is a text block as data: parsed when it is a JSON object or
// array, the string otherwise.
func textData(t string) *ojson.Value {
	trim := strings.TrimSpace(t)
	if strings.HasPrefix(trim, "{") || strings.HasPrefix(trim, "[") {
		if v, err := ojson.Parse([]byte(trim)); err == nil {
			return v
		}
	}
	return ojson.NewString(t)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// pathNode is a trie of dot paths; all marks a path that ends here, which
// keeps the whole subtree.
type pathNode struct {
	all      bool
	children map[string]*pathNode
}

// Project keeps only the given dot paths of a JSON value (spec feature
// "field selection", done client-side). Arrays are transparent: a path
// applies to each element, so "items.id" keeps the id of every item. Paths
// that do not exist are skipped without error, and kept members stay in the
// order the server wrote them.
func Project(v *ojson.Value, paths []string) *ojson.Value {
	root := &pathNode{children: map[string]*pathNode{}}
	for _, p := range paths {
		n := root
		for _, seg := range strings.Split(p, ".") {
			if seg == "" {
				continue
			}
			c := n.children[seg]
			if c == nil {
				c = &pathNode{children: map[string]*pathNode{}}
				n.children[seg] = c
			}
			n = c
		}
		if n != root {
			n.all = true
		}
	}
	out := project(v, root)
	if out == nil {
		return ojson.NewObject()
	}
	return out
}

func project(v *ojson.Value, n *pathNode) *ojson.Value {
	if n.all {
		return v
	}
	switch v.Kind {
	case ojson.Array:
		arr := ojson.NewArray()
		for _, it := range v.Items {
			if r := project(it, n); r != nil {
				arr.Items = append(arr.Items, r)
			}
		}
		return arr
	case ojson.Object:
		o := ojson.NewObject()
		for _, m := range v.Members {
			if c := n.children[m.Key]; c != nil {
				if r := project(m.Value, c); r != nil {
					o.Members = append(o.Members, ojson.Member{Key: m.Key, Value: r})
				}
			}
		}
		return o
	}
	return nil
}

// RunRequest prepares one request, runs its call through exec if it needs
// one, and returns the OperationResult.
func (a *Adapter) RunRequest(via string, r *Request, exec Executor) *ojson.Value {
	return a.runRequest(via, r, exec, &content.Blocks{})
}

// runRequest is RunRequest numbering the non-text content after the blocks
// b already holds (FinishBlocks).
func (a *Adapter) runRequest(via string, r *Request, exec Executor, b *content.Blocks) *ojson.Value {
	st := a.Prepare(via, r)
	if st.Local != nil {
		return st.Local
	}
	res, err := exec(*st.Call)
	resp, _ := FinishBlocks(st, res, err, b)
	return resp
}

// Run answers a whole AQL document. A batch runs in array order, each
// operation on its own: a failure does not stop the rest (operations.md
// 7.3), and the batch itself succeeds with per-operation results and a
// summary.
func (a *Adapter) Run(via string, in *Input, exec Executor) *ojson.Value {
	if !in.IsBatch() {
		return a.RunRequest(via, in.Request, exec)
	}
	ops := make([]string, len(in.Batch))
	resps := make([]*ojson.Value, len(in.Batch))
	var b content.Blocks // one numbering for the whole batch's answer
	for i, r := range in.Batch {
		ops[i], resps[i] = r.Operation, a.runRequest(via, r, exec, &b)
	}
	return BatchResponse(ops, resps)
}

// BatchResponse is the spec's answer to a batch: every operation's own
// response by index, and a summary. The batch itself succeeds; a failed
// operation fails on its own (operations.md 7.3). ops[i] names the
// operation resps[i] answers; a nil response stands as null.
func BatchResponse(ops []string, resps []*ojson.Value) *ojson.Value {
	results := ojson.NewArray()
	ok := 0
	for i, res := range resps {
		if IsSuccess(res) {
			ok++
		}
		if res == nil {
			res = ojson.NewNull()
		}
		op := ""
		if i < len(ops) {
			op = ops[i]
		}
		results.Items = append(results.Items, ojson.NewObject().
			Set("index", ojson.NewInt(int64(i))).
			Set("operation", ojson.NewString(op)).
			Set("result", res))
	}
	return ojson.NewObject().
		Set("success", ojson.NewBool(true)).
		Set("data", ojson.NewNull()).
		Set("results", results).
		Set("summary", ojson.NewObject().
			Set("total", ojson.NewInt(int64(len(resps)))).
			Set("succeeded", ojson.NewInt(int64(ok))).
			Set("failed", ojson.NewInt(int64(len(resps)-ok))))
}
