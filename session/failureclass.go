package session

import "github.com/mcpterm/mcpterm/convert/calls"

// FailureClass is the ErrorClass of a failure as a calls.Outcome carries
// it, so a face that holds only outcomes (the command line's exit codes)
// buckets them as Classify buckets the errors they came from:
// FailureClass(FailureOf(err)) == Classify(err), except that a bare
// context.DeadlineExceeded, which FailureOf calls a timeout, is one here
// too. Refusals and unconfirmed calls are usage errors: nothing was sent.
// An answer that is not MCP (FailBadAnswer) is ClassProtocol, never a tool
// error: the tool did not say it failed, the server broke the protocol.
func FailureClass(f *calls.Failure) ErrorClass {
	if f == nil {
		return ClassNone
	}
	switch f.Kind {
	case calls.FailRPC:
		return Classify(&RPCError{Code: int(f.Code), Message: f.Message})
	case calls.FailTimeout:
		return ClassTimeout
	case calls.FailCancelled:
		return ClassCancelled
	case calls.FailConnection:
		return ClassConnection
	case calls.FailUsage, calls.FailRefused, calls.FailConfirm:
		return ClassUsage
	case calls.FailBadAnswer:
		return ClassProtocol
	}
	return ClassTool
}
