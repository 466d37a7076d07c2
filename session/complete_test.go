package session

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// completer is an in-process server's completion handlers: cities for the
// prompt "trip" (narrowed by the argument "country" in the context), and
// whatever lie or hang the test asks for.
type completer struct {
	mu      sync.Mutex
	seen    []mcp.CompleteContext
	lie     bool          // send 500 values, repeats, a huge one, invalid UTF-8
	hang    chan struct{} // block until closed (or the request ends)
	entered chan struct{}
}

func (c *completer) CompletePromptArgument(ctx context.Context, prompt string, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	c.mu.Lock()
	c.seen = append(c.seen, cc)
	c.mu.Unlock()
	if c.hang != nil {
		close(c.entered)
		select {
		case <-c.hang:
		case <-ctx.Done():
		}
		return nil, errors.New("gave up")
	}
	if c.lie {
		var vs []string
		for i := range 500 {
			vs = append(vs, fmt.Sprintf("v%d", i%250))
		}
		vs = append([]string{"", strings.Repeat("x", 100_000), "bad\xffbyte"}, vs...)
		return &mcp.Completion{Values: vs, Total: 3}, nil
	}
	if prompt != "trip" || arg.Name != "city" {
		return &mcp.Completion{Values: []string{}}, nil
	}
	all := map[string][]string{"FR": {"Paris", "Lyon", "Lille"}, "DE": {"Berlin", "Bonn"}}[cc.Arguments["country"]]
	var out []string
	for _, v := range all {
		if strings.HasPrefix(v, arg.Value) {
			out = append(out, v)
		}
	}
	return &mcp.Completion{Values: out, Total: len(out)}, nil
}

func (c *completer) CompleteResourceArgument(_ context.Context, uri string, arg mcp.CompleteArgument, _ mcp.CompleteContext) (*mcp.Completion, error) {
	if uri != "notes://{id}" || arg.Name != "id" {
		return nil, fmt.Errorf("no template %s", uri)
	}
	return &mcp.Completion{Values: []string{arg.Value + "1", arg.Value + "2"}, HasMore: true}, nil
}

func completingServer(c *completer, completions bool) Source {
	opts := []server.ServerOption{server.WithPromptCapabilities(false), server.WithResourceCapabilities(false, false)}
	if completions {
		opts = append(opts, server.WithCompletions(), server.WithPromptCompletionProvider(c), server.WithResourceCompletionProvider(c))
	}
	srv := server.NewMCPServer("completing", "1", opts...)
	srv.AddPrompt(mcp.NewPrompt("trip", mcp.WithArgument("country"), mcp.WithArgument("city")),
		func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{}, nil
		})
	return Source{Kind: InProcess, Name: "completing", Server: srv}
}

func TestCompletePromptAndTemplate(t *testing.T) {
	c := &completer{}
	s := open(t, completingServer(c, true), Options{})
	ctx := ctxT(t, 20*time.Second)
	if !s.CanComplete() {
		t.Fatal("the server declares completions")
	}
	got, err := s.Complete(ctx, CompleteRef{Prompt: "trip"}, "city", "L", map[string]string{"country": "FR", "city": "ignored", "empty": ""})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Values, []string{"Lyon", "Lille"}) || got.Total != 2 || got.HasMore {
		t.Errorf("prompt completion %+v", got)
	}
	// The context carries the other filled arguments only.
	if cc := c.seen[len(c.seen)-1].Arguments; len(cc) != 1 || cc["country"] != "FR" {
		t.Errorf("context sent %v", cc)
	}
	got, err = s.Complete(ctx, CompleteRef{URI: "notes://{id}"}, "id", "4", nil)
	if err != nil || !slices.Equal(got.Values, []string{"41", "42"}) || !got.HasMore {
		t.Errorf("template completion %+v %v", got, err)
	}
	// A server's error is an RPC error naming the method.
	_, err = s.Complete(ctx, CompleteRef{URI: "other://{x}"}, "x", "", nil)
	var rpc *RPCError
	if !errors.As(err, &rpc) || rpc.Method != "completion/complete" || !strings.Contains(rpc.Message, "no template") {
		t.Errorf("error %v", err)
	}
	if _, err := s.Complete(ctx, CompleteRef{}, "x", "", nil); err == nil {
		t.Error("no ref accepted")
	}
	if _, err := s.Complete(ctx, CompleteRef{Prompt: "trip"}, "city", strings.Repeat("a", 5000), nil); err == nil {
		t.Error("a 5000-byte value sent")
	}
}

func TestCompleteWithoutCapabilitySendsNothing(t *testing.T) {
	s := open(t, completingServer(&completer{}, false), Options{})
	before := len(s.Tap().Messages())
	_, err := s.Complete(ctxT(t, 10*time.Second), CompleteRef{Prompt: "trip"}, "city", "", nil)
	if !errors.Is(err, ErrNoCompletions) || s.CanComplete() {
		t.Fatalf("err %v", err)
	}
	if n := len(s.Tap().Messages()); n != before {
		t.Errorf("%d messages sent", n-before)
	}
}

func TestCompleteBoundsALyingServer(t *testing.T) {
	s := open(t, completingServer(&completer{lie: true}, true), Options{})
	got, err := s.Complete(ctxT(t, 20*time.Second), CompleteRef{Prompt: "trip"}, "city", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Values) != MaxCompletionValues || !got.HasMore {
		t.Errorf("%d values, hasMore %v", len(got.Values), got.HasMore)
	}
	if got.Total != len(got.Values) {
		t.Errorf("total %d believed", got.Total)
	}
	seen := map[string]bool{}
	for _, v := range got.Values {
		if v == "" || seen[v] || len(v) > maxCompletionValue+len("…") || strings.ContainsRune(v, 0xff) {
			t.Fatalf("value %.40q kept", v)
		}
		seen[v] = true
	}
	if got.Values[1] != "bad\uFFFDbyte" {
		t.Errorf("invalid UTF-8 became %q", got.Values[1])
	}
}

func TestCompleteHangingServerTimesOut(t *testing.T) {
	c := &completer{hang: make(chan struct{}), entered: make(chan struct{})}
	t.Cleanup(func() { close(c.hang) })
	s := open(t, completingServer(c, true), Options{CallTimeout: 300 * time.Millisecond})
	_, err := s.Complete(ctxT(t, 20*time.Second), CompleteRef{Prompt: "trip"}, "city", "", nil)
	var te *TimeoutError
	if !errors.As(err, &te) || te.Op != "completion/complete" {
		t.Fatalf("err %v", err)
	}
}

// TestCompleteEverything asks server-everything, the MCP project's
// reference server, for its completable prompt's arguments (the second
// narrowed by the first) and its resource template's variable.
func TestCompleteEverything(t *testing.T) {
	s := open(t, everything(t), Options{})
	ctx := ctxT(t, 60*time.Second)
	got, err := s.Complete(ctx, CompleteRef{Prompt: "completable-prompt"}, "department", "S", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Values, []string{"Sales", "Support"}) {
		t.Errorf("departments %v", got.Values)
	}
	got, err = s.Complete(ctx, CompleteRef{Prompt: "completable-prompt"}, "name", "", map[string]string{"department": "Engineering"})
	if err != nil || !slices.Equal(got.Values, []string{"Alice", "Bob", "Charlie"}) {
		t.Errorf("names %v %v", got, err)
	}
	got, err = s.Complete(ctx, CompleteRef{URI: "demo://resource/dynamic/text/{resourceId}"}, "resourceId", "7", nil)
	if err != nil || !slices.Equal(got.Values, []string{"7"}) {
		t.Errorf("resourceId %v %v", got, err)
	}
}
