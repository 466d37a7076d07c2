package hostile

import (
	"encoding/json"
	"io"
	"strings"
	"sync"
	"time"
)

// BigResultBytes is the size of bounds/big-result's text (its tool's
// description and its call's answer).
const BigResultBytes = 10 << 20

// serveBounds runs the bounds/… scenarios: servers that never stop
// reporting progress, nest their schemas thousands of levels deep, answer
// with lines that cannot be read, or send 10 MB at once.
//
//   - progress-forever: tools/call never answers but sends progress every
//     200 ms until cancelled (or stdin ends).
//   - deep-schema-10000: tools/list holds a tool nested 10,000 levels deep,
//     so the answer is past encoding/json's limit, next to a normal tool.
//   - deep-schema-4900: tools/list holds a tool 4,900 levels deep (past
//     ojson's 512, under encoding/json's 10,000) among normal tools, which
//     must stay callable.
//   - huge-unparseable: tools/call is answered by a 4 MB line that breaks
//     off mid-JSON (its id readable at the start).
//   - big-result: the one tool's description is 10 MB of prose, and a call
//     answers with the same 10 MB.
//   - big-result-nocut: the same with 10 MB of "y", a text with no place
//     where a token count can be cut exactly (the worst case of counting).
func serveBounds(scenario string, in io.Reader, out, errOut io.Writer) error {
	normal := []map[string]any{Tool("echo", "Echoes q."), Tool("ping_me", "Answers pong.")}
	echo := func(s *Server, m Msg) {
		var p struct {
			Name      string         `json:"name"`
			Arguments map[string]any `json:"arguments"`
		}
		_ = json.Unmarshal(m.Params, &p)
		q, _ := p.Arguments["q"].(string)
		s.Result(m.ID, Text(p.Name+": "+q))
	}
	switch scenario {
	case "bounds/progress-forever":
		var stop sync.Once
		done := make(chan struct{})
		return Run(Script{
			Tools: normal,
			Call: func(s *Server, m Msg) {
				var p struct {
					Meta struct {
						ProgressToken any `json:"progressToken"`
					} `json:"_meta"`
				}
				_ = json.Unmarshal(m.Params, &p)
				go func() {
					t := time.NewTicker(200 * time.Millisecond)
					defer t.Stop()
					for i := 1; ; i++ {
						select {
						case <-done:
							return
						case <-t.C:
						}
						s.Notify("notifications/progress", map[string]any{"progressToken": p.Meta.ProgressToken, "progress": i, "message": "still working"})
					}
				}()
			},
			Other: func(s *Server, m Msg) bool {
				if m.Method == "notifications/cancelled" {
					stop.Do(func() { close(done) })
					return true
				}
				return false
			},
		}, in, out)
	case "bounds/deep-schema-10000", "bounds/deep-schema-4900":
		depth := 10_000
		if strings.HasSuffix(scenario, "4900") {
			depth = 4900
		}
		return Run(Script{Tools: normal, Call: echo, Raw: func(s *Server, line []byte) bool {
			var m Msg
			if json.Unmarshal(line, &m) != nil || m.Method != "tools/list" {
				return false
			}
			// Written by hand: encoding/json would refuse to marshal it.
			var b strings.Builder
			b.WriteString(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"tools":[`)
			for _, t := range normal {
				tb, _ := json.Marshal(t)
				b.Write(tb)
				b.WriteByte(',')
			}
			b.WriteString(DeepTool("abyss", depth))
			b.WriteString(`]}}`)
			s.SendRaw([]byte(b.String()))
			return true
		}}, in, out)
	case "bounds/huge-unparseable":
		return Run(Script{Tools: normal, Call: func(s *Server, m Msg) {
			s.SendRaw([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"content":[{"type":"text","text":"` + strings.Repeat("z", 4<<20)))
		}}, in, out)
	case "bounds/big-result", "bounds/big-result-nocut":
		text := Prose(BigResultBytes)
		if strings.HasSuffix(scenario, "nocut") {
			text = strings.Repeat("y", BigResultBytes)
		}
		return Run(Script{
			Tools: []map[string]any{Tool("dump", text)},
			Call:  func(s *Server, m Msg) { s.Result(m.ID, Text(text)) },
		}, in, out)
	}
	return unknown(scenario)
}

// DeepTool is a tool definition whose JSON nests depth levels (the tool
// object is level 1): its inputSchema nests object properties "a".
func DeepTool(name string, depth int) string {
	n := max((depth-2)/2, 1)
	var b strings.Builder
	b.WriteString(`{"name":"` + name + `","description":"nested very deep","inputSchema":`)
	for range n {
		b.WriteString(`{"type":"object","properties":{"a":`)
	}
	b.WriteString(`{"type":"string"}`)
	for range n {
		b.WriteString(`}}`)
	}
	b.WriteString(`}`)
	return b.String()
}

// Prose is about n bytes of sentences, the kind of text a log or a listing
// holds: words that repeat, spaces and newlines to cut at.
func Prose(n int) string {
	words := strings.Fields("the quick brown fox jumps over the lazy dog while the server keeps writing lines of its log about requests answered and files read")
	var b strings.Builder
	b.Grow(n + 16)
	for i := 0; b.Len() < n; i++ {
		b.WriteString(words[i%len(words)])
		if i%17 == 16 {
			b.WriteString(".\n")
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}
