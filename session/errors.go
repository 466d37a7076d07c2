package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

var (
	// ErrTimeout: the server did not answer in time (for calls: no answer and
	// no progress for the call's timeout).
	ErrTimeout = errors.New("timed out")
	// ErrOffline: the operation needs a live server but the session is a
	// saved tool list.
	ErrOffline = errors.New("offline: this needs a live server, and --tools gives only a tool list")
	// ErrClosed: the session was closed.
	ErrClosed = errors.New("session closed")
	// ErrInvalidSource: the Source cannot be used as given (no command, a
	// URL that is not http(s), ...).
	ErrInvalidSource = errors.New("invalid server source")
	// ErrSkipped marks batch calls not run because an earlier one failed
	// and the batch stops on error.
	ErrSkipped = errors.New("skipped: an earlier call in the batch failed")
	// errMaxTime is the cause that ends a call at its overall deadline; it
	// is an ErrTimeout, so it classifies (and exits) as a timeout.
	errMaxTime = fmt.Errorf("over the overall deadline: %w", ErrTimeout)
)

// ConnectionError means the server could not be reached or went away.
type ConnectionError struct {
	Op  string // what was being done: "connect", "tools/call", ...
	Err error
}

func (e *ConnectionError) Error() string {
	if e.Op == "" {
		return "connection: " + e.Err.Error()
	}
	return e.Op + ": " + e.Err.Error()
}
func (e *ConnectionError) Unwrap() error { return e.Err }

// RPCError is a JSON-RPC error response, kept whole (mcp-go folds unknown
// codes into a bare message).
type RPCError struct {
	Method  string
	Code    int
	Message string
	Data    json.RawMessage
}

func (e *RPCError) Error() string {
	return fmt.Sprintf("%s: server error %d: %s", e.Method, e.Code, e.Message)
}

// TimeoutError says what timed out and after how long.
type TimeoutError struct {
	Op    string
	After string
	// Overall marks the call's overall deadline (Options.MaxCallTime, the
	// command line's --max-time), which progress cannot extend; Why then
	// says what kept the call going ("progress kept arriving").
	Overall bool
	Why     string
}

func (e *TimeoutError) Error() string {
	if e.Overall {
		msg := e.Op + ": gave up after the --max-time of " + e.After
		if e.Why != "" {
			msg += " (" + e.Why + ")"
		}
		return msg
	}
	return e.Op + ": " + ErrTimeout.Error() + " after " + e.After
}
func (e *TimeoutError) Unwrap() error { return ErrTimeout }

// ErrorClass buckets errors the way the command line's exit codes do.
type ErrorClass int

const (
	ClassNone       ErrorClass = iota
	ClassTool                  // the server answered with an error (a JSON-RPC error, isError, a broken outputSchema)
	ClassUsage                 // the request was refused as invalid (unknown tool, bad params), offline
	ClassConnection            // could not reach or keep the server
	ClassTimeout               // no answer in time
	ClassCancelled             // the caller gave up
	// ClassProtocol: the server answered something that is not MCP (a
	// result that is not a CallToolResult, a list that cannot be read).
	// The command line counts it with the connection failures (exit 3):
	// the server cannot be relied on, and no tool said anything.
	ClassProtocol
)

// Classify tells which kind of failure err is.
func Classify(err error) ErrorClass {
	var rpc *RPCError
	var schema *SchemaError
	switch {
	case err == nil:
		return ClassNone
	case errors.Is(err, ErrTimeout):
		return ClassTimeout
	case errors.Is(err, context.Canceled):
		return ClassCancelled
	case errors.Is(err, ErrOffline), errors.Is(err, ErrInvalidSource), errors.Is(err, ErrNoTaskList):
		return ClassUsage
	case errors.As(err, &rpc):
		if rpc.Code == mcp.INVALID_PARAMS || rpc.Code == mcp.METHOD_NOT_FOUND {
			return ClassUsage
		}
		return ClassTool
	case errors.As(err, &schema), errors.Is(err, ErrSkipped):
		return ClassTool
	}
	var perr *ProtocolError
	if errors.As(err, &perr) {
		return ClassProtocol
	}
	return ClassConnection
}

// ProtocolError: the server answered, but not with something MCP allows.
type ProtocolError struct {
	Op  string
	Err error
}

func (e *ProtocolError) Error() string { return e.Op + ": bad answer from server: " + e.Err.Error() }
func (e *ProtocolError) Unwrap() error { return e.Err }

// classify turns what mcp-go returned into one of the session's error types,
// using the raw outcome captured by the tap when there is one.
func (s *Session) classify(ctx context.Context, err error, capt *capture, op string) error {
	if err == nil {
		return nil
	}
	if capt != nil {
		if _, rpcErr, done := capt.result(); done && rpcErr != nil {
			_, method := capt.requestID()
			if method == "" {
				method = op
			}
			if rpcErr.Code == codeUnreadableAnswer {
				// Made up by the stdio transport for an answer it dropped.
				if strings.HasPrefix(op, method) {
					method = op // "tools/call NAME"
				}
				return &ProtocolError{Op: method, Err: errors.New(strings.TrimPrefix(rpcErr.Message, "mcpterm: the server answered with "))}
			}
			e := &RPCError{Method: method, Code: rpcErr.Code, Message: rpcErr.Message}
			if rpcErr.Data != nil {
				e.Data, _ = json.Marshal(rpcErr.Data)
			}
			return e
		}
	}
	switch {
	case errors.As(err, new(*RPCError)), errors.As(err, new(*TimeoutError)), errors.As(err, new(*ConnectionError)),
		errors.As(err, new(*ProtocolError)), errors.Is(err, ErrOffline), errors.Is(err, ErrClosed):
		return err
	}
	if ctx != nil && errors.Is(context.Cause(ctx), ErrTimeout) {
		return &TimeoutError{Op: op, After: s.timeoutFor(op).String()}
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s: %w", op, err)
	}
	if capt != nil {
		if _, _, done := capt.result(); done {
			// The server answered but mcp-go could not read the answer.
			return &ProtocolError{Op: op, Err: err}
		}
	}
	return &ConnectionError{Op: op, Err: err}
}

func (s *Session) timeoutFor(op string) fmt.Stringer {
	if op == "connect" {
		return s.opts.ConnectTimeout
	}
	return s.opts.CallTimeout
}
