package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestCallAQLImage: `mcpterm call` with AQL input against server-everything
// prints its tiny image as a reference, never as base64, and says the same
// size the MCP-Term answer does.
func TestCallAQLImage(t *testing.T) {
	sel := everythingSel(t)
	blob := regexp.MustCompile(`[A-Za-z0-9+/=]{80,}`)
	code, out, errOut := sessCLI(t, nil, "", append([]string{"call", `{"operation":"get_tiny_image"}`}, sel...)...)
	if code != exitOK || blob.MatchString(out) {
		t.Fatalf("exit %d, base64 printed? %.400s %s", code, out, errOut)
	}
	r := decodeAQL(t, out)
	ref := regexp.MustCompile(`\{"type":"image","mimeType":"image/png","bytes":(\d+),"block":1\}`).FindStringSubmatch(compactJSON(t, r.Data))
	if !r.Success || ref == nil {
		t.Fatalf("no image reference: %s", out)
	}
	code, out, _ = sessCLI(t, nil, "", append([]string{"call", `(get-tiny-image)`}, sel...)...)
	if code != exitOK || !strings.Contains(out, `(image :mime "image/png" :bytes `+ref[1]+`)`) {
		t.Errorf("the term answer's summary differs: %s", out)
	}
	// --output sexpr writes the same reference as MCP-Term data.
	code, out, _ = sessCLI(t, nil, "", append([]string{"call", "--output", "sexpr", `{"operation":"get_tiny_image"}`}, sel...)...)
	if code != exitOK || blob.MatchString(out) || !strings.Contains(out, `(:type "image" :mimeType "image/png" :bytes `+ref[1]+` :block 1)`) {
		t.Errorf("sexpr: %s", out)
	}
}
