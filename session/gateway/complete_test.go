package gateway

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/mcpterm/mcpterm/session"
)

// compsubStep is one step of testdata/compsub.mjs.
type compsubStep struct {
	Op        string `json:"op"`
	Ref       any    `json:"ref,omitempty"`
	Argument  any    `json:"argument,omitempty"`
	Context   any    `json:"context,omitempty"`
	URI       string `json:"uri,omitempty"`
	Name      string `json:"name,omitempty"`
	Arguments any    `json:"arguments,omitempty"`
}

type compsubOutcome struct {
	Capabilities struct {
		Completions *struct{} `json:"completions"`
		Resources   *struct {
			Subscribe bool `json:"subscribe"`
		} `json:"resources"`
	} `json:"capabilities"`
	Error string `json:"error"`
	Steps []struct {
		Op     string          `json:"op"`
		Result json.RawMessage `json:"result"`
		Error  string          `json:"error"`
	} `json:"steps"`
	Updated []string `json:"updated"`
}

// runCompsub runs the SDK client of testdata/compsub.mjs against url.
func runCompsub(t *testing.T, url string, steps []compsubStep) compsubOutcome {
	t.Helper()
	var out compsubOutcome
	runSDKScript(t, "compsub.mjs", map[string]any{"url": url, "steps": steps}, &out)
	if out.Error != "" {
		t.Fatalf("compsub.mjs: %s", out.Error)
	}
	return out
}

// TestSDKCompletionsAndSubscriptionsThroughGateway has the official
// TypeScript SDK client ask server-everything, through the gateway over
// streamable HTTP, for completions of its completable prompt and resource
// template, subscribe to a resource, have the server's
// toggle-subscriber-updates tool send an update, and unsubscribe.
func TestSDKCompletionsAndSubscriptionsThroughGateway(t *testing.T) {
	u := everythingUpstream(t)
	sdk(t)
	g, url := u.gatewayHTTP(t, ModeTerm)
	const uri = "demo://resource/static/document/architecture.md"
	tool, args := viaGateway(t, g.st.Load(), ModeTerm, e2eCall{Tool: "toggle-subscriber-updates", Args: `{}`})
	out := runCompsub(t, url, []compsubStep{
		{Op: "complete", Ref: map[string]string{"type": "ref/prompt", "name": "completable-prompt"}, Argument: map[string]string{"name": "department", "value": "S"}},
		{Op: "complete", Ref: map[string]string{"type": "ref/prompt", "name": "completable-prompt"}, Argument: map[string]string{"name": "name", "value": ""},
			Context: map[string]any{"arguments": map[string]string{"department": "Sales"}}},
		{Op: "complete", Ref: map[string]string{"type": "ref/resource", "uri": "demo://resource/dynamic/text/{resourceId}"}, Argument: map[string]string{"name": "resourceId", "value": "3"}},
		{Op: "subscribe", URI: uri},
		{Op: "callTool", Name: tool, Arguments: args},
		{Op: "awaitUpdated", URI: uri},
		{Op: "unsubscribe", URI: uri},
		{Op: "callTool", Name: tool, Arguments: args}, // toggled off again
	})
	if out.Capabilities.Completions == nil || out.Capabilities.Resources == nil || !out.Capabilities.Resources.Subscribe {
		t.Fatalf("the gateway declares %+v", out.Capabilities)
	}
	for i, s := range out.Steps {
		if s.Error != "" {
			t.Fatalf("step %d %s: %s", i, s.Op, s.Error)
		}
	}
	values := func(i int) []string {
		var r struct {
			Completion struct {
				Values []string `json:"values"`
			} `json:"completion"`
		}
		if err := json.Unmarshal(out.Steps[i].Result, &r); err != nil {
			t.Fatal(err)
		}
		return r.Completion.Values
	}
	if v := values(0); !slices.Equal(v, []string{"Sales", "Support"}) {
		t.Errorf("departments %v", v)
	}
	if v := values(1); !slices.Equal(v, []string{"David", "Eve", "Frank"}) {
		t.Errorf("names %v", v)
	}
	if v := values(2); !slices.Equal(v, []string{"3"}) {
		t.Errorf("resourceId %v", v)
	}
	if !slices.Contains(out.Updated, uri) {
		t.Errorf("updates %v", out.Updated)
	}
	// The client went away and had unsubscribed: the upstream has nothing left.
	if got := g.up.(*session.Session).SubscribedResources(); len(got) != 0 {
		t.Errorf("the upstream is still subscribed to %v", got)
	}
}
