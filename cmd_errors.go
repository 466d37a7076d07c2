package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
)

// JSON errors. A command whose output is JSON (--output json, or --format
// json for tools and tokens) says its errors as JSON too, on stderr, so
// stdout stays the data alone: every line the command would have written
// to stderr is kept while it runs, and when it ends they are written as
// one JSON object a line:
//
//	{"note": {"message": "warning: ..."}}                 a warning or note, in order
//	{"error": {"kind": "usage", "message": "...", "exit": 2}}   last, when the exit code is not 0
//
// kind is "tool" (exit 1), "usage" (2), "connection" (3: the server could
// not be reached or kept, or answered something that is not MCP), "timeout"
// (4: a call, or connecting) or "interrupted" (128+N after signal N: 130
// Ctrl-C, 143 SIGTERM, 129 SIGHUP);
// message is the error's lines without the "mcpterm CMD: " prefix (a call's
// source line and caret included), or a sentence naming what failed when the
// command printed its failure on stdout (a call's (err ...) result). A
// warning stays a note when the command fails.

// errorSink stands in for stderr during one run of such a command. Until
// the command says whether its output is JSON (jsonErrors), what it writes
// is held; then it passes through (text) or is kept for finish (JSON). A
// command that ends before it says, because its flags could not be read,
// is decided by the arguments (flagValueIn).
type errorSink struct {
	mu      sync.Mutex
	w       io.Writer
	prefix  string // "mcpterm CMD: "
	decided bool
	json    bool
	held    bytes.Buffer
}

func newErrorSink(w io.Writer, cmd string) *errorSink {
	return &errorSink{w: w, prefix: "mcpterm " + cmd + ": "}
}

func (s *errorSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.decided && !s.json {
		return s.w.Write(p)
	}
	return s.held.Write(p)
}

// decide says whether the command's output is JSON; only the first call
// counts.
func (s *errorSink) decide(json bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.decided {
		return
	}
	s.decided, s.json = true, json
	if !json {
		s.w.Write(s.held.Bytes())
		s.held.Reset()
	}
}

// finish writes what was kept, as JSON objects when the output is JSON.
func (s *errorSink) finish(code int, jsonByArgs bool) {
	s.decide(jsonByArgs)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.json {
		return
	}
	var notes, errs []string
	for _, line := range strings.Split(strings.TrimRight(s.held.String(), "\n"), "\n") {
		if line == "" {
			continue
		}
		msg := strings.TrimPrefix(line, s.prefix)
		if strings.HasPrefix(msg, "warning: ") || strings.HasPrefix(msg, "note: ") || code == exitOK {
			notes = append(notes, msg)
		} else {
			errs = append(errs, msg)
		}
	}
	enc := json.NewEncoder(s.w)
	for _, n := range notes {
		enc.Encode(map[string]any{"note": map[string]string{"message": n}})
	}
	if code == exitOK {
		return
	}
	msg := strings.Join(errs, "\n")
	if msg == "" {
		msg = fmt.Sprintf("%s (exit %d): what failed is in the output on stdout", failureWords[code], code)
	}
	enc.Encode(jsonError{Error: jsonErrorBody{Kind: errorKind(code), Message: msg, Exit: code}})
}

// jsonError is the stable shape of an error under --output json.
type jsonError struct {
	Error jsonErrorBody `json:"error"`
}

type jsonErrorBody struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Exit    int    `json:"exit"`
}

// errorKind names an exit code's failure for JSON errors.
func errorKind(code int) string {
	switch code {
	case exitToolError:
		return "tool"
	case exitUsage:
		return "usage"
	case exitConnect:
		return "connection"
	case exitTimeout:
		return "timeout"
	}
	if code > 128 {
		return "interrupted"
	}
	return "failed"
}

var failureWords = map[int]string{
	exitToolError: "a tool reported an error",
	exitUsage:     "the request was refused",
	exitConnect:   "the server could not be reached or kept",
	exitTimeout:   "a request timed out",
}

// jsonErrors tells the run's error sink, if it has one, whether the
// command's output is JSON. Commands call it as soon as they know.
func (c *cli) jsonErrors(on bool) {
	if c.errs != nil {
		c.errs.decide(on)
	}
}
