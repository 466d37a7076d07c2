package gateway

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestCheckSampling: a client's sampling answer goes back only with a
// known role and content type, a model name, and within the size bound.
func TestCheckSampling(t *testing.T) {
	big := strings.Repeat("x", maxAnswerBytes)
	for _, c := range []struct {
		name, answer, want string
	}{
		{"text", `{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m","stopReason":"endTurn"}`, ""},
		{"blocks", `{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"image","data":"AA==","mimeType":"image/png"}],"model":"m"}`, ""},
		{"role", `{"role":"system","content":{"type":"text","text":"hi"},"model":"m"}`, `role "system"`},
		{"no content", `{"role":"assistant","model":"m"}`, "no content"},
		{"odd content", `{"role":"assistant","content":{"type":"video","text":"hi"},"model":"m"}`, `content of type "video"`},
		{"too big", `{"role":"assistant","content":{"type":"text","text":"` + big + `"},"model":"m"}`, "over the gateway's limit"},
	} {
		var res mcp.CreateMessageResult
		if err := json.Unmarshal([]byte(c.answer), &res); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		err := checkSampling(&res)
		if (err == nil) != (c.want == "") || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	if checkSampling(nil) == nil {
		t.Error("no result passed")
	}
}

// TestCheckElicitation: an elicitation answer goes back only with a known
// action, and content only for an accepted form, flat and bounded.
func TestCheckElicitation(t *testing.T) {
	many := map[string]any{}
	for i := range maxElicitFields + 1 {
		many[strings.Repeat("k", i+1)] = true
	}
	manyJSON, _ := json.Marshal(map[string]any{"action": "accept", "content": many})
	for _, c := range []struct {
		name, answer string
		url          bool
		want         string
	}{
		{"accept", `{"action":"accept","content":{"name":"Ada","n":3,"ok":true,"tags":["a","b"]}}`, false, ""},
		{"decline", `{"action":"decline"}`, false, ""},
		{"cancel", `{"action":"cancel","content":{}}`, false, ""},
		{"url accept", `{"action":"accept"}`, true, ""},
		{"action", `{"action":"maybe"}`, false, `action "maybe"`},
		{"nested", `{"action":"accept","content":{"a":{"b":1}}}`, false, `field "a"`},
		{"array of objects", `{"action":"accept","content":{"a":[{"b":1}]}}`, false, `field "a": an array`},
		{"not an object", `{"action":"accept","content":[1,2]}`, false, "not an object"},
		{"declined with content", `{"action":"decline","content":{"a":"b"}}`, false, "only an accepted form"},
		{"url with content", `{"action":"accept","content":{"a":"b"}}`, true, "in URL mode"},
		{"too many fields", string(manyJSON), false, "fields, over the gateway's limit"},
	} {
		var res mcp.ElicitationResult
		if err := json.Unmarshal([]byte(c.answer), &res); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		err := checkElicitation(&res, c.url)
		if (err == nil) != (c.want == "") || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// FuzzCheckAnswers: whatever a client answers, the checks return, and
// what they pass re-encodes within the bound.
func FuzzCheckAnswers(f *testing.F) {
	f.Add([]byte(`{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}`))
	f.Add([]byte(`{"action":"accept","content":{"name":"Ada","tags":["a"]}}`))
	f.Add([]byte(`{"role":"user","content":[{"type":"tool_use"}],"model":""}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var s mcp.CreateMessageResult
		if json.Unmarshal(b, &s) == nil {
			if checkSampling(&s) == nil {
				if out, err := json.Marshal(&s); err != nil || len(out) > maxAnswerBytes {
					t.Fatalf("passed a sampling answer that does not re-encode within the bound: %v", err)
				}
			}
		}
		var e mcp.ElicitationResult
		if json.Unmarshal(b, &e) == nil {
			_ = checkElicitation(&e, false)
			_ = checkElicitation(&e, true)
		}
	})
}
