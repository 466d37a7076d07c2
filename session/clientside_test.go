package session

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// recordingAsker answers sampling with a fixed text and elicitation with
// accept, recording what it was asked.
type recordingAsker struct {
	mu      sync.Mutex
	samples []mcp.CreateMessageRequest
	elicits []mcp.ElicitationRequest
}

func (a *recordingAsker) Sample(_ context.Context, _ string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	a.mu.Lock()
	a.samples = append(a.samples, req)
	a.mu.Unlock()
	return &mcp.CreateMessageResult{
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent("sampled reply")},
		Model:           "test-model", StopReason: "endTurn",
	}, nil
}

func (a *recordingAsker) Elicit(_ context.Context, _ string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	a.mu.Lock()
	a.elicits = append(a.elicits, req)
	a.mu.Unlock()
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}, nil
}

// everythingClientSide is a session on the reference server that offers
// one root and answers with a recordingAsker.
func everythingClientSide(t *testing.T) (*Session, *Roots, *recordingAsker) {
	t.Helper()
	src := everything(t)
	roots, err := NewRoots(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	asker := &recordingAsker{}
	return open(t, src, Options{Roots: roots, Asker: asker}), roots, asker
}

// TestEverythingClientCapabilities: with roots and an Asker, the reference
// server shows its capability-gated tools, and its sampling and roots tools
// reach mcpterm's handlers over a real stdio subprocess.
func TestEverythingClientCapabilities(t *testing.T) {
	s, roots, asker := everythingClientSide(t)
	ctx := ctxT(t, 60*time.Second)
	set, err := s.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range set.Tools {
		names = append(names, tl.Name)
	}
	// Without client capabilities the server shows 13; Inspector shows 16
	// (it declares no URL elicitation).
	if len(set.Tools) < 16 {
		t.Errorf("%d tools, want at least 16: %v", len(set.Tools), names)
	}
	for _, name := range []string{"trigger-sampling-request", "trigger-elicitation-request", "trigger-url-elicitation", "get-roots-list"} {
		if set.Find(name) == nil {
			t.Errorf("no %s among %v", name, names)
		}
	}
	r := s.Call(ctx, CallRequest{Tool: "get-roots-list", Arguments: obj(t, `{}`)})
	if !r.OK() || !strings.Contains(resultText(r), roots.List()[0].URI) {
		t.Errorf("get-roots-list: %v %q", r.Err, resultText(r))
	}
	r = s.Call(ctx, CallRequest{Tool: "trigger-sampling-request", Arguments: obj(t, `{"prompt":"say hi","maxTokens":20}`)})
	if !r.OK() || !strings.Contains(resultText(r), "sampled reply") {
		t.Errorf("sampling: %v %q", r.Err, resultText(r))
	}
	asker.mu.Lock()
	n := len(asker.samples)
	asker.mu.Unlock()
	if n != 1 {
		t.Errorf("asker saw %d sampling requests", n)
	}
}

// TestInProcessClientSide: an in-process server (the demo's route) gets
// the same roots and answers as one over a wire: its requests do not travel
// as JSON-RPC, so they reach the Asker and the roots through the in-process
// session's handlers.
func TestInProcessClientSide(t *testing.T) {
	srv := server.NewMCPServer("asker", "1.0", server.WithElicitation())
	srv.AddTool(mcp.NewTool("ask"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		roots, err := srv.RequestRoots(ctx, mcp.ListRootsRequest{})
		if err != nil {
			return mcp.NewToolResultError("roots: " + err.Error()), nil
		}
		var schema any
		_ = json.Unmarshal([]byte(`{"type":"object","properties":{"n":{"type":"integer","default":7}}}`), &schema)
		res, err := srv.RequestElicitation(ctx, mcp.ElicitationRequest{Params: mcp.ElicitationParams{Message: "n?", RequestedSchema: schema}})
		if err != nil {
			return mcp.NewToolResultError("elicit: " + err.Error()), nil
		}
		return mcp.NewToolResultText(fmt.Sprintf("%d roots, first %s; %s %v", len(roots.Roots), roots.Roots[0].URI, res.Action, res.Content)), nil
	})
	roots, err := NewRoots(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := open(t, Source{Kind: InProcess, Server: srv}, Options{Roots: roots, Asker: Pair{Elicitor: DefaultsElicitor{}}})
	r := s.Call(ctxT(t, 30*time.Second), CallRequest{Tool: "ask", Arguments: obj(t, `{}`)})
	want := fmt.Sprintf("1 roots, first %s; accept map[n:7]", roots.List()[0].URI)
	if !r.OK() || resultText(r) != want {
		t.Fatalf("%v %q, want %q", r.Err, resultText(r), want)
	}
}

// TestDirRootsAt: relative directories start at cwd, each must be one, and
// the error names the first that is not, as typed.
func TestDirRootsAt(t *testing.T) {
	cwd := t.TempDir()
	sub := filepath.Join(cwd, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	roots, err := DirRootsAt(cwd, "sub", cwd)
	if err != nil || len(roots) != 2 || roots[0].URI != "file://"+filepath.ToSlash(sub) || roots[0].Name != "sub" {
		t.Fatalf("%+v %v", roots, err)
	}
	if _, err := DirRootsAt(cwd, "sub", "missing"); err == nil || err.Error() != "missing: not a directory" {
		t.Errorf("err %v", err)
	}
	if _, err := Resolve(Selection{Roots: []string{"missing"}}, Env{Cwd: cwd}, Options{}); err == nil || !strings.Contains(err.Error(), "--root missing: not a directory") {
		t.Errorf("Resolve: %v", err)
	}
	if _, err := Resolve(Selection{Roots: []string{"sub"}, NoRoots: true}, Env{Cwd: cwd}, Options{}); err == nil || !strings.Contains(err.Error(), "--root and --no-roots") {
		t.Errorf("Resolve both: %v", err)
	}
}

// TestDefaultRootsWithoutCwd: with no --root and no current directory to
// offer (deleted under mcpterm), the selection still resolves, offering
// none.
func TestDefaultRootsWithoutCwd(t *testing.T) {
	gone := filepath.Join(t.TempDir(), "gone")
	tg, err := Resolve(Selection{}, Env{Cwd: gone, Home: t.TempDir()}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	if tg.Options.Roots == nil || len(tg.Options.Roots.List()) != 0 {
		t.Errorf("roots %+v, want an empty set", tg.Options.Roots)
	}
}
