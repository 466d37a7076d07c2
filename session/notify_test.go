package session

import (
	"context"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// An in-process server hands its notifications over as Go values, not
// JSON: a log level typed mcp.LoggingLevel still reads as its level.
func TestInProcessLogLevelIsRead(t *testing.T) {
	srv := server.NewMCPServer("logs", "1", server.WithLogging())
	srv.AddTool(mcp.NewTool("warn"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		n := mcp.NewLoggingMessageNotification(mcp.LoggingLevelWarning, "core", "disk almost full")
		_ = server.ServerFromContext(ctx).SendNotificationToClient(ctx, "notifications/message",
			map[string]any{"level": n.Params.Level, "logger": n.Params.Logger, "data": n.Params.Data})
		return mcp.NewToolResultText("warned"), nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := Open(ctx, Source{Kind: InProcess, Name: "logs", Server: srv}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	events := s.Subscribe(ctx)
	if r := s.Call(ctx, CallRequest{Tool: "warn"}); r.Err != nil {
		t.Fatal(r.Err)
	}
	for {
		select {
		case e := <-events:
			if e.Kind != EventLog {
				continue
			}
			if e.Level != "warning" || e.Source != "core" || e.Text != "disk almost full" {
				t.Fatalf("log event %+v", e)
			}
			return
		case <-ctx.Done():
			t.Fatal("no log event")
		}
	}
}
