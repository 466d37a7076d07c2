package gateway

import (
	"encoding/json"
	"testing"
)

// TestProgressCallbacksOverStdio: over stdio, every progress notification
// of a call reaches the official TypeScript SDK's onprogress callback, both
// from the demo server directly and through the gateway. The SDK runs its
// progress handlers a microtask after the read that carried them and drops
// the handler once the answer is settled, so progress that shares a read
// with the answer never reaches the callback, however well the server
// orders the two on the wire (before the fix, 20 of 60 calls lost some
// through the gateway); the stdio server holds an answer until the client
// has read the progress before it (wire's drain).
func TestProgressCallbacksOverStdio(t *testing.T) {
	sdk(t)
	u := demoUpstream(t)
	const calls = 60
	steps := []scriptStep{{Op: "listTools"}}
	direct := e2eCall{Tool: "long_task", Args: `{"steps":3,"delay_ms":1}`, Progress: true}
	for range calls {
		steps = append(steps, scriptStep{Op: "callTool", Name: direct.Tool, Arguments: json.RawMessage(direct.Args), Progress: true})
	}
	g, _ := u.gatewayHTTP(t, ModeTerm)
	tool, args := viaGateway(t, g.st.Load(), ModeTerm, direct)
	via := []scriptStep{{Op: "listTools"}}
	for range calls {
		via = append(via, scriptStep{Op: "callTool", Name: tool, Arguments: args, Progress: true})
	}
	out := runClient(t, clientScript{Sessions: []scriptSession{
		{Name: "direct", Transport: u.stdio(), Steps: steps},
		{Name: "gateway", Transport: u.gatewayStdio(t, ModeTerm), Steps: via},
	}})
	for _, s := range out.Sessions {
		lost := 0
		for i, st := range s.Steps[1:] {
			if st.Error != "" {
				t.Fatalf("%s call %d: %s", s.Name, i, st.Error)
			}
			var o callOutcome
			if err := json.Unmarshal(st.Result, &o); err != nil {
				t.Fatal(err)
			}
			if len(o.Wire.Before) != 3 || len(o.Wire.After) != 0 {
				t.Errorf("%s call %d: %d progress notifications before the answer and %d after, want 3 and 0", s.Name, i, len(o.Wire.Before), len(o.Wire.After))
			}
			checkCallbacks(t, s.Name, o)
			if len(o.Progress) != len(o.Wire.Before) {
				lost++
			}
		}
		if lost > 0 {
			t.Errorf("%s: in %d of %d calls onprogress missed progress that arrived before the answer", s.Name, lost, calls)
		}
	}
}
