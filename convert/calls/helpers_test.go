package calls

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/convert/toolset/toolsettest"
	"github.com/mcpterm/mcpterm/session/demo"
)

// fixtures is convert/call's fixture tools (fr, bp, nu, li, ...).
func fixtures(t testing.TB) *toolset.Set {
	return toolsettest.Load(t, filepath.Join("..", "call", "testdata", "fixtures.tools.json"))
}

// todo is convert/aql's todo fixture (lt, gt, ct, ut, dt, cc).
func todo(t testing.TB) *toolset.Set {
	return toolsettest.Load(t, filepath.Join("..", "aql", "testdata", "todo.tools.json"))
}

// demoServer is the demo MCP server, spoken to in-process through its
// message handler: package session sits above this one and may not be
// imported here.
type demoServer struct {
	srv *server.MCPServer
	mu  sync.Mutex
	id  int
}

func newDemo(t testing.TB) (*demoServer, *toolset.Set) {
	t.Helper()
	d := &demoServer{srv: demo.New(demo.Options{Seed: 7})}
	d.rpc(t, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"calls-test","version":"0"}}`)
	res := d.rpc(t, "tools/list", `{}`)
	set, err := toolset.Parse([]byte(res.Compact()))
	if err != nil {
		t.Fatal(err)
	}
	return d, set
}

// rpc sends one request and returns its result, failing on an error answer.
func (d *demoServer) rpc(t testing.TB, method, params string) *ojson.Value {
	t.Helper()
	d.mu.Lock()
	d.id++
	id := d.id
	d.mu.Unlock()
	msg := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"` + method + `","params":` + params + `}`
	out, err := json.Marshal(d.srv.HandleMessage(context.Background(), json.RawMessage(msg)))
	if err != nil {
		t.Fatal(err)
	}
	v, err := ojson.Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	if e := v.Get("error"); e != nil {
		t.Fatalf("%s: %s", method, e.Compact())
	}
	return v.Get("result")
}

// run sends every item of p that needs a server as tools/call, in order,
// and leaves the items answered locally without an outcome: the smallest
// runner, for tests.
func (d *demoServer) run(t testing.TB, p *Plan) []Outcome {
	t.Helper()
	outs := make([]Outcome, len(p.Items))
	for i, it := range p.Items {
		if it.IsLocal() {
			continue
		}
		params := ojson.NewObject().Set("name", ojson.NewString(it.Tool)).Set("arguments", it.Arguments)
		outs[i] = Outcome{Result: d.rpc(t, "tools/call", params.Compact())}
	}
	return outs
}
