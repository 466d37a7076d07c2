package session

import (
	"context"
	"log/slog"
	"strings"
)

// transportLog takes mcp-go's streamable HTTP transport log, which would
// otherwise go to the process's stderr through slog's default logger,
// unredacted and in the middle of whatever the face prints: its warnings
// and errors become notices on the session's event stream, where every
// face shows notices (cleaned); its routine lines ("listening to server
// forever") are dropped.
type transportLog struct{ events *eventLog }

func (h transportLog) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }

func (h transportLog) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString("transport: ")
	b.WriteString(r.Message)
	r.Attrs(func(a slog.Attr) bool {
		b.WriteString(" " + a.String())
		return b.Len() < 2048
	})
	level := "warning"
	if r.Level >= slog.LevelError {
		level = "error"
	}
	if h.events != nil {
		h.events.publish(Event{Kind: EventNotice, Level: level, Text: b.String()})
	}
	return nil
}

func (h transportLog) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h transportLog) WithGroup(string) slog.Handler      { return h }
