package gateway

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/session"
)

// TestConcurrentClients: several clients call at once (single calls and
// concurrent batches, each logging upstream) while the upstream's tool list
// changes under them; every call gets its own answer.
func TestConcurrentClients(t *testing.T) {
	upSrv := listsServer()
	up := openSession(t, session.Source{Kind: session.InProcess, Name: "lists", Server: upSrv}, session.Options{})
	said := &remarks{}
	g := newGateway(t, up, Options{Mode: ModeTerm, Notef: said.notef})
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	calling := make(chan struct{}, 4) // one per client, at its first answer
	for i := range 4 {
		c, _ := inProcessClient(t, g)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 10 {
				a, b := fmt.Sprintf("c%d-%d-a", i, j), fmt.Sprintf("c%d-%d-b", i, j)
				r := termCall(t, c, fmt.Sprintf(`(batch :concurrency 2 (1 (shout %q)) (2 (shout %q)))`, a, b))
				if j == 0 {
					calling <- struct{}{}
				}
				want := fmt.Sprintf(`(results (1 (ok "shouted %s")) (2 (ok "shouted %s")))`, a, b)
				if r.IsError || text(r) != want {
					errs <- fmt.Errorf("got %s, want %s", text(r), want)
					return
				}
				if r := termCall(t, c, fmt.Sprintf(`(shout %q)`, a)); text(r) != fmt.Sprintf(`(ok "shouted %s")`, a) {
					errs <- fmt.Errorf("single call: %s", text(r))
					return
				}
			}
		}()
	}
	// The list changes while every client is calling.
	for range 4 {
		select {
		case <-calling:
		case <-time.After(hangGuard):
			t.Fatal("the clients did not start calling")
		}
	}
	upSrv.AddTool(mcp.NewTool("extra", mcp.WithDescription("Added while clients call.")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("here"), nil
		})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// Once the gateway has rebuilt its tools, the new one is callable.
	said.await(t, "upstream tools changed")
	c, _ := inProcessClient(t, g)
	if r := termCall(t, c, `(extra)`); r.IsError || text(r) != `(ok "here")` {
		t.Errorf("the new tool: %s", text(r))
	}
}

// TestConcurrentFailuresReconnectOnce: calls that fail together when the
// upstream dies lead to one reconnect, not one each.
func TestConcurrentFailuresReconnectOnce(t *testing.T) {
	up := openSession(t, faultSource(t, dieOnce), session.Options{})
	g := newGateway(t, up, Options{Mode: ModeAQLSingle})
	c, _ := inProcessClient(t, g)
	round := func() (failed int) {
		var wg sync.WaitGroup
		var mu sync.Mutex
		for i := range 5 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := callTool(t, c, "mcp_aql", fmt.Sprintf(`{"operation":"echo","params":{"text":"%d"}}`, i))
				if r.IsError {
					mu.Lock()
					failed++
					mu.Unlock()
				} else if text(r) != fmt.Sprintf(`{"success":true,"data":"echo: %d"}`, i) {
					t.Errorf("call %d: %s", i, text(r))
				}
			}()
		}
		wg.Wait()
		return failed
	}
	if n := round(); n == 0 {
		t.Fatal("no call failed when the upstream died")
	}
	if n := round(); n != 0 {
		t.Fatalf("%d calls failed after the upstream was back", n)
	}
	if gen := up.Info().Generation; gen != 2 {
		t.Errorf("connection generation %d: want exactly one reconnect", gen)
	}
}
