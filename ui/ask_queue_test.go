package ui

import (
	"context"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestAskQueueMixesKinds: a sampling request and an elicitation share one
// queue, so the second waits behind the first whatever its kind, and opens
// once the first is answered.
func TestAskQueueMixesKinds(t *testing.T) {
	h := readyHarness(t, 120, 40)
	sample, _ := newAsk(t, "srv", samplingParams())
	elicit := askFor(t, context.Background(), mcp.ElicitationParams{Message: "your name?", RequestedSchema: everyKind})
	h.send(askMsg{req: sample})
	h.send(askMsg{req: elicit})
	if _, ok := h.m.modal.(*samplingDialog); !ok || len(h.m.asks.waiting) != 1 {
		t.Fatalf("modal %T, %d waiting", h.m.modal, len(h.m.asks.waiting))
	}
	h.key("esc") // declines the sampling request
	if a := replyOf(t, sample); a.err == nil {
		t.Fatalf("sampling reply %+v, want a decline", a)
	}
	if _, ok := h.m.modal.(*elicitDialog); !ok {
		t.Fatalf("modal %T after the sampling dialog, want the elicitation", h.m.modal)
	}
	h.key("ctrl+d")
	if a := replyOf(t, elicit); a.elicit == nil || a.elicit.Action != mcp.ElicitationResponseActionDecline {
		t.Fatalf("elicitation reply %+v", a)
	}
	if h.m.modal != nil || len(h.m.asks.waiting) != 0 {
		t.Fatalf("modal %T, %d waiting after both", h.m.modal, len(h.m.asks.waiting))
	}
}
