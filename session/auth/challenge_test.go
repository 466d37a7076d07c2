package auth

import "testing"

func TestParseChallenges(t *testing.T) {
	cs := ParseChallenges(`Basic realm="x", Bearer error="insufficient_scope", scope="a b", resource_metadata="https://h/.well-known/oauth-protected-resource/mcp", error_description="say \"more\""`)
	if len(cs) != 2 || cs[1].Scheme != "Bearer" {
		t.Fatalf("%+v", cs)
	}
	p := cs[1].Params
	if p["error"] != "insufficient_scope" || p["scope"] != "a b" || p["resource_metadata"] != "https://h/.well-known/oauth-protected-resource/mcp" || p["error_description"] != `say "more"` {
		t.Errorf("%+v", p)
	}
	// Unquoted values, a token68, odd spacing.
	cs = ParseChallenges(`Negotiate abc123==, Bearer  resource_metadata = https://h/x ,scope=read`)
	if len(cs) != 2 || cs[1].Params["resource_metadata"] != "https://h/x" || cs[1].Params["scope"] != "read" {
		t.Errorf("%+v", cs)
	}
}

func FuzzParseChallenges(f *testing.F) {
	f.Add(`Bearer realm="x", scope="a b"`)
	f.Add(`Bearer error="insufficient_scope", scope="mcp:basic mcp:write", resource_metadata="http://localhost/.well-known/oauth-protected-resource/mcp"`)
	f.Add(`Basic abc==, Bearer`)
	f.Add(`Bearer x="unterminated`)
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range ParseChallenges(s) {
			if len(c.Params) > maxChallengeParams {
				t.Fatalf("%d params", len(c.Params))
			}
		}
	})
}
