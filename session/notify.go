package session

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"

	"github.com/mark3labs/mcp-go/mcp"
)

// onNotification turns server notifications into events and list refreshes.
// It runs on the transport's reader, so it must never block.
func (s *Session) onNotification(gen int, n mcp.JSONRPCNotification) {
	s.mu.Lock()
	stale := gen != s.gen
	s.mu.Unlock()
	if stale {
		return // from a connection Reconnect has replaced
	}
	p := n.Params.AdditionalFields
	switch n.Method {
	case string(mcp.MethodNotificationMessage):
		e := Event{Kind: EventLog, Level: str(p["level"]), Source: str(p["logger"])}
		if d, ok := p["data"].(string); ok {
			e.Text = d
		} else {
			e.Text = compactJSON(p["data"])
		}
		s.events.publish(e)
	case string(mcp.MethodNotificationProgress):
		e := Event{Kind: EventProgress, Token: tokenText(p["progressToken"]), Text: str(p["message"])}
		e.Progress, _ = num(p["progress"])
		e.Total, _ = num(p["total"])
		s.events.publish(e)
		s.pmu.Lock()
		watch := s.progress[e.Token]
		s.pmu.Unlock()
		if watch != nil {
			watch(e)
		}
	case string(mcp.MethodNotificationToolsListChanged):
		s.listChanged(listTools)
	case string(mcp.MethodNotificationResourcesListChanged):
		s.listChanged(listResources)
	case string(mcp.MethodNotificationPromptsListChanged):
		s.listChanged(listPrompts)
	case mcp.MethodNotificationResourceUpdated:
		s.resourceUpdated(n.Method, p)
	case mcp.MethodNotificationTasksStatus:
		s.onTaskStatus(p)
	default:
		text := ""
		if len(p) > 0 {
			text = compactJSON(p)
		}
		s.events.publish(Event{Kind: EventOther, Source: n.Method, Text: text})
	}
}

// str reads a string whether it came off the wire or straight from an
// in-process server, which may hand over a named string type such as
// mcp.LoggingLevel.
func str(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.String {
		return rv.String()
	}
	return ""
}

// num reads a number whether it came off the wire (float64, json.Number) or
// straight from an in-process server (any Go number).
func num(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case int32:
		return float64(x), true
	case float32:
		return float64(x), true
	case uint64:
		return float64(x), true
	}
	return 0, false
}

// tokenText renders a progress token the way Call registers it.
func tokenText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case json.Number:
		return x.String()
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return clipText(string(b), maxEventText)
}
