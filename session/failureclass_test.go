package session

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/calls"
)

// An outcome's failure is bucketed as the error it came from.
func TestFailureClassAgreesWithClassify(t *testing.T) {
	for _, err := range []error{
		&RPCError{Method: "tools/call", Code: mcp.INVALID_PARAMS, Message: "bad"},
		&RPCError{Method: "tools/call", Code: mcp.METHOD_NOT_FOUND, Message: "no"},
		&RPCError{Method: "tools/call", Code: -32000, Message: "boom"},
		&TimeoutError{Op: "tools/call x", After: "1s"},
		&ConnectionError{Op: "tools/call x", Err: errors.New("EOF")},
		&ProtocolError{Op: "tools/call x", Err: errors.New("not MCP")},
		fmt.Errorf("tools/call x: %w", context.Canceled),
		ErrSkipped, ErrOffline, ErrClosed, ErrInvalidSource,
		errors.New("something else"),
	} {
		if got, want := FailureClass(FailureOf(err)), Classify(err); got != want {
			t.Errorf("%v: FailureClass %d, Classify %d", err, got, want)
		}
	}
	if FailureClass(FailureOf(context.DeadlineExceeded)) != ClassTimeout {
		t.Error("a deadline is a timeout")
	}
	for _, k := range []calls.FailureKind{calls.FailRefused, calls.FailConfirm, calls.FailUsage} {
		if FailureClass(&calls.Failure{Kind: k}) != ClassUsage {
			t.Errorf("%s is not a usage error", k)
		}
	}
	if Classify(&ProtocolError{Op: "tools/call x", Err: errors.New("not MCP")}) != ClassProtocol ||
		FailureClass(&calls.Failure{Kind: calls.FailBadAnswer}) != ClassProtocol {
		t.Error("an answer that is not MCP is a protocol failure, not a tool error")
	}
	if FailureClass(nil) != ClassNone || FailureClass(&calls.Failure{Kind: calls.FailSkipped}) != ClassTool {
		t.Error("nil or skipped")
	}
}
