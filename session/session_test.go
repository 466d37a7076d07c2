package session

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpterm/mcpterm/session/internal/testserver"
)

func TestExploreInProcess(t *testing.T) {
	testExplore(t, inProcess(&testserver.Recorder{}))
}

func TestExploreStdio(t *testing.T) {
	testExplore(t, stdioSource(t, "mcpgo"))
}

func testExplore(t *testing.T, src Source) {
	s := open(t, src, Options{})
	ctx := ctxT(t, 10*time.Second)
	info := s.Info()
	if info.Name != "testserver" || info.Version != "1.2.3" {
		t.Errorf("server info = %q %q", info.Name, info.Version)
	}
	if info.Instructions != "A test server. Try echo." {
		t.Errorf("instructions = %q", info.Instructions)
	}
	if info.Capabilities.Tools == nil || info.Capabilities.Prompts == nil || info.Capabilities.Resources == nil {
		t.Errorf("capabilities missing: %+v", info.Capabilities)
	}
	if info.Raw == nil {
		t.Error("no raw initialize/discover result")
	}

	set, err := s.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	echo := set.Find("echo")
	if echo == nil {
		t.Fatalf("no echo tool in %d tools", len(set.Tools))
	}
	// Raw JSON as the server sent it: property order and unknown keys kept.
	if got := echo.InputSchema.Get("properties").Keys(); !slices.Equal(got, []string{"zeta", "alpha"}) {
		t.Errorf("echo properties in order %v, want [zeta alpha]", got)
	}
	if echo.InputSchema.Get("x-order").StringOr("") != "zeta-first" {
		t.Errorf("unknown schema key dropped: %s", echo.InputSchema.Compact())
	}
	if !echo.Annotations.ReadOnly() {
		t.Error("echo should be read-only")
	}
	if set.Find("add").OutputSchema == nil {
		t.Error("add lost its outputSchema")
	}
	if set.Server != "testserver" {
		t.Errorf("set.Server = %q", set.Server)
	}

	rs, err := s.Resources(ctx)
	if err != nil || len(rs) != 1 || rs[0].URI != "mem://hello" {
		t.Fatalf("resources = %+v, %v", rs, err)
	}
	ts, err := s.ResourceTemplates(ctx)
	if err != nil || len(ts) != 1 || ts[0].URITemplate == nil || ts[0].URITemplate.Raw() != "mem://items/{id}" {
		t.Fatalf("templates = %+v, %v", ts, err)
	}
	rc, err := s.ReadResource(ctx, "mem://hello")
	if err != nil {
		t.Fatal(err)
	}
	if txt, ok := rc.Result.Contents[0].(mcp.TextResourceContents); !ok || txt.Text != "hello, world" {
		t.Errorf("read = %#v", rc.Result.Contents)
	}
	if rc.Raw.Get("contents").Items[0].Get("text").StringOr("") != "hello, world" {
		t.Errorf("raw read = %s", rc.Raw.Compact())
	}
	rc, err = s.ReadResource(ctx, "mem://items/42")
	if err != nil || !strings.Contains(rc.Raw.Compact(), "item at mem://items/42") {
		t.Errorf("template read = %v, %v", rc, err)
	}

	ps, err := s.Prompts(ctx)
	if err != nil || len(ps) != 1 || ps[0].Name != "greet" {
		t.Fatalf("prompts = %+v, %v", ps, err)
	}
	pm, err := s.GetPrompt(ctx, "greet", map[string]string{"name": "Ada"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pm.Raw.Compact(), "Say hello to Ada.") {
		t.Errorf("prompt = %s", pm.Raw.Compact())
	}
	if err := s.Ping(ctx); err != nil {
		t.Errorf("ping: %v", err)
	}
}

func TestProtocolVersions(t *testing.T) {
	for _, v := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", ""} {
		t.Run("inprocess-"+v, func(t *testing.T) {
			s := open(t, inProcess(&testserver.Recorder{}), Options{ProtocolVersion: v})
			want := v
			if want == "" {
				want = mcp.LATEST_PROTOCOL_VERSION
			}
			info := s.Info()
			if info.ProtocolVersion != want {
				t.Errorf("negotiated %q, want %q", info.ProtocolVersion, want)
			}
			if info.Modern != (want >= "2026-07-28") {
				t.Errorf("Modern = %v for %s", info.Modern, want)
			}
			set, err := s.Tools(ctxT(t, 5*time.Second))
			if err != nil || set.Find("echo") == nil {
				t.Fatalf("tools on %s: %v", want, err)
			}
			r := s.Call(ctxT(t, 5*time.Second), CallRequest{Tool: "add", Arguments: obj(t, `{"a":2,"b":3}`)})
			if !r.OK() || resultText(r) != "5" {
				t.Errorf("add on %s: %+v %v", want, r, r.Err)
			}
		})
	}
	t.Run("stdio-legacy-server", func(t *testing.T) {
		// A server that predates 2026-07-28 answers server/discover with
		// "method not found"; mcpterm falls back to initialize.
		s := open(t, stdioSource(t, testserver.CountCalls), Options{})
		if got := s.Info().ProtocolVersion; got != "2025-11-25" {
			t.Errorf("negotiated %q, want 2025-11-25", got)
		}
	})
	t.Run("stdio-server-ignoring-discover", func(t *testing.T) {
		// Some servers drop unknown requests without answering; the probe
		// gives up after DiscoverTimeout and the handshake follows.
		start := time.Now()
		s := open(t, stdioSource(t, testserver.NoDiscover), Options{DiscoverTimeout: 200 * time.Millisecond})
		if got := s.Info().ProtocolVersion; got != "2025-11-25" {
			t.Errorf("negotiated %q", got)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("connecting took %v", d)
		}
	})
	t.Run("stdio-old-server", func(t *testing.T) {
		s := open(t, stdioSource(t, testserver.OldVersion), Options{})
		if got := s.Info().ProtocolVersion; got != "2024-11-05" {
			t.Errorf("negotiated %q, want 2024-11-05", got)
		}
		if r := s.Call(ctxT(t, 5*time.Second), CallRequest{Tool: "work"}); !r.OK() {
			t.Errorf("call on 2024-11-05: %v", r.Err)
		}
	})
	t.Run("stdio-modern-server", func(t *testing.T) {
		s := open(t, stdioSource(t, testserver.Modern), Options{})
		info := s.Info()
		if info.ProtocolVersion != "2026-07-28" || !info.Modern || info.Name != "fault-modern" {
			t.Errorf("info = %+v", info)
		}
		set, err := s.Tools(ctxT(t, 5*time.Second))
		if err != nil || set.Find("work") == nil {
			t.Fatalf("tools: %v", err)
		}
	})
}

func TestCallOutcomes(t *testing.T) {
	s := open(t, inProcess(&testserver.Recorder{}), Options{})
	ctx := ctxT(t, 10*time.Second)

	r := s.Call(ctx, CallRequest{Tool: "echo", Arguments: obj(t, `{"zeta":"z","alpha":"a"}`)})
	if !r.OK() || !strings.Contains(resultText(r), `"zeta":"z"`) || r.Duration <= 0 || r.Result == nil {
		t.Errorf("echo: %+v err=%v", r, r.Err)
	}
	if tc, ok := r.Result.Content[0].(mcp.TextContent); !ok || tc.Text == "" {
		t.Errorf("typed content = %#v", r.Result.Content)
	}

	r = s.Call(ctx, CallRequest{Tool: "add", Arguments: obj(t, `{"a":1.5,"b":2}`)})
	if !r.OK() || r.Raw.Get("structuredContent").Get("sum").Num.String() != "3.5" {
		t.Errorf("add: %v raw=%v schema=%v", r.Err, r.Raw, r.SchemaErr)
	}

	r = s.Call(ctx, CallRequest{Tool: "bad_output"})
	var se *SchemaError
	if !errors.As(r.SchemaErr, &se) || !strings.Contains(se.Msg, "/sum") || r.OK() {
		t.Errorf("bad_output: schema error = %v", r.SchemaErr)
	}

	r = s.Call(ctx, CallRequest{Tool: "fail"})
	if !r.IsError || r.Err != nil || !strings.Contains(resultText(r), "as asked") || r.OK() {
		t.Errorf("fail: isError=%v err=%v", r.IsError, r.Err)
	}

	r = s.Call(ctx, CallRequest{Tool: "no_such_tool"})
	var rpc *RPCError
	if !errors.As(r.Err, &rpc) {
		t.Fatalf("unknown tool: err = %v", r.Err)
	}
	if Classify(r.Err) != ClassUsage && Classify(r.Err) != ClassTool {
		t.Errorf("unknown tool classified %v", Classify(r.Err))
	}

	r = s.Call(ctx, CallRequest{Tool: "echo", Arguments: obj(t, `[1]`)})
	if r.Err == nil || !strings.Contains(r.Err.Error(), "must be an object") {
		t.Errorf("array arguments: %v", r.Err)
	}
}

func TestCallProgressResetsTimeout(t *testing.T) {
	rec := &testserver.Recorder{}
	s := open(t, inProcess(rec), Options{})
	ctx := ctxT(t, 10*time.Second)
	var mu sync.Mutex
	var seen []float64
	// 6 steps of 100 ms take 600 ms, past the 450 ms timeout, but every
	// step's progress notification restarts the clock.
	r := s.Call(ctx, CallRequest{Tool: "slow", Arguments: obj(t, `{"steps":6,"ms":100}`), Timeout: 450 * time.Millisecond,
		OnProgress: func(e Event) { mu.Lock(); seen = append(seen, e.Progress); mu.Unlock() }})
	if !r.OK() {
		t.Fatalf("slow call failed: %v", r.Err)
	}
	mu.Lock()
	if r.Progress < 5 || len(seen) < 5 || seen[0] != 1 {
		t.Errorf("progress count %d at the result, seen %v", r.Progress, seen)
	}
	mu.Unlock()
	if r.Duration < 500*time.Millisecond {
		t.Errorf("duration %v: the call cannot have done its steps", r.Duration)
	}
	// The last notification may trail the result (notifications and
	// responses travel separately); the event stream gets all six.
	waitFor(t, 5*time.Second, "six progress events", func() bool {
		n := 0
		for _, e := range s.Events() {
			if e.Kind == EventProgress && e.Total == 6 {
				n++
			}
		}
		return n == 6
	})
}

func TestCallTimeoutAndCancel(t *testing.T) {
	for _, src := range []struct {
		name string
		src  func(rec *testserver.Recorder) Source
	}{
		{"inprocess", inProcess},
	} {
		t.Run(src.name, func(t *testing.T) {
			rec := &testserver.Recorder{}
			s := open(t, src.src(rec), Options{})
			r := s.Call(ctxT(t, 10*time.Second), CallRequest{Tool: "hang", Timeout: 100 * time.Millisecond})
			var te *TimeoutError
			if !errors.As(r.Err, &te) || Classify(r.Err) != ClassTimeout || !r.Cancelled {
				t.Fatalf("hang: err = %v (class %v)", r.Err, Classify(r.Err))
			}
			// The server was told: its handler saw the cancellation.
			waitFor(t, 5*time.Second, "server-side cancellation", func() bool { return slices.Contains(rec.Cancelled(), "hang") })
			waitFor(t, 5*time.Second, "notifications/cancelled in the tap", func() bool { return hasCancelNotification(s) })

			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(50*time.Millisecond, cancel)
			r = s.Call(ctx, CallRequest{Tool: "slow", Arguments: obj(t, `{"steps":100,"ms":20}`)})
			if !errors.Is(r.Err, context.Canceled) || Classify(r.Err) != ClassCancelled {
				t.Fatalf("cancelled call: %v", r.Err)
			}
			waitFor(t, 5*time.Second, "slow cancelled", func() bool { return slices.Contains(rec.Cancelled(), "slow") })
			// Still usable afterwards.
			if r := s.Call(ctxT(t, 5*time.Second), CallRequest{Tool: "add", Arguments: obj(t, `{"a":1,"b":1}`)}); !r.OK() {
				t.Errorf("after cancel: %v", r.Err)
			}
		})
	}
}

func hasCancelNotification(s *Session) bool {
	for _, m := range s.Tap().Messages() {
		if m.Dir == Sent && m.Method == "notifications/cancelled" {
			return true
		}
	}
	return false
}

func TestBatch(t *testing.T) {
	rec := &testserver.Recorder{}
	s := open(t, inProcess(rec), Options{})
	reqs := []CallRequest{
		{ID: "1", Tool: "add", Arguments: obj(t, `{"a":1,"b":2}`)},
		{ID: "2", Tool: "fail"},
		{ID: "x", Tool: "slow", Arguments: obj(t, `{"steps":2,"ms":30}`)},
		{ID: "4", Tool: "echo", Arguments: obj(t, `{"zeta":"last"}`)},
	}
	for _, conc := range []int{1, 3} {
		b := s.Batch(ctxT(t, 10*time.Second), reqs, BatchOptions{Concurrency: conc})
		if len(b.Results) != 4 {
			t.Fatalf("%d results", len(b.Results))
		}
		if resultText(b.ByID("1")) != "3" || !b.ByID("2").IsError || !b.ByID("x").OK() || !strings.Contains(resultText(b.ByID("4")), "last") {
			t.Errorf("concurrency %d: results %v %v %v %v", conc, b.ByID("1").Err, b.ByID("2").IsError, b.ByID("x").Err, resultText(b.ByID("4")))
		}
		if b.Failed() != 1 {
			t.Errorf("failed = %d", b.Failed())
		}
		for i, r := range b.Results {
			if r.ID != reqs[i].ID || r.Duration <= 0 {
				t.Errorf("result %d: id %q duration %v", i, r.ID, r.Duration)
			}
		}
	}
	// Concurrency really overlaps: three 200 ms calls take well under 600 ms.
	slow := []CallRequest{}
	for _, id := range []string{"a", "b", "c"} {
		slow = append(slow, CallRequest{ID: id, Tool: "slow", Arguments: obj(t, `{"steps":1,"ms":200}`)})
	}
	b := s.Batch(ctxT(t, 10*time.Second), slow, BatchOptions{Concurrency: 3})
	if b.Failed() != 0 || b.Duration >= 550*time.Millisecond {
		t.Errorf("concurrent batch: %d failed in %v", b.Failed(), b.Duration)
	}

	b = s.Batch(ctxT(t, 10*time.Second), reqs, BatchOptions{StopOnError: true})
	if !b.ByID("1").OK() || !b.ByID("2").IsError || !errors.Is(b.ByID("x").Err, ErrSkipped) || !errors.Is(b.ByID("4").Err, ErrSkipped) {
		t.Errorf("stop on error: %v %v %v", b.ByID("2").Err, b.ByID("x").Err, b.ByID("4").Err)
	}
}

func TestListChangedRefreshes(t *testing.T) {
	for _, v := range []string{"2025-11-25", ""} {
		t.Run("v"+v, func(t *testing.T) {
			s := open(t, inProcess(&testserver.Recorder{}), Options{ProtocolVersion: v})
			ctx := ctxT(t, 10*time.Second)
			set, err := s.Tools(ctx)
			if err != nil {
				t.Fatal(err)
			}
			before := len(set.Tools)
			events := s.Subscribe(ctx)
			if r := s.Call(ctx, CallRequest{Tool: "grow", Arguments: obj(t, `{"name":"sprout"}`)}); !r.OK() {
				t.Fatal(r.Err)
			}
			for {
				select {
				case e := <-events:
					if e.Kind != EventListChanged || e.Source != "tools" {
						continue
					}
				case <-ctx.Done():
					t.Fatal("no list_changed event")
				}
				break
			}
			set, err = s.Tools(ctx)
			if err != nil || len(set.Tools) != before+1 || set.Find("sprout") == nil {
				t.Fatalf("after list_changed: %d tools (was %d), %v", len(set.Tools), before, err)
			}
		})
	}
}

func TestLogEvents(t *testing.T) {
	s := open(t, inProcess(&testserver.Recorder{}), Options{ProtocolVersion: "2025-11-25"})
	ctx := ctxT(t, 5*time.Second)
	if r := s.Call(ctx, CallRequest{Tool: "log", Arguments: obj(t, `{"msg":"\u001b[2Jwatch out"}`)}); !r.OK() {
		t.Fatal(r.Err)
	}
	waitFor(t, 5*time.Second, "log event", func() bool {
		for _, e := range s.Events() {
			if e.Kind == EventLog && e.Level == "warning" && e.Source == "test" && e.Text == "\x1b[2Jwatch out" {
				return true
			}
		}
		return false
	})
}

func TestOnCallSeesEveryOutcome(t *testing.T) {
	var got []*CallResult
	s := open(t, inProcess(&testserver.Recorder{}), Options{OnCall: func(r *CallResult) { got = append(got, r) }})
	ctx := ctxT(t, 5*time.Second)
	s.Call(ctx, CallRequest{Tool: "add", Arguments: obj(t, `{"a":1,"b":1}`)})
	s.Call(ctx, CallRequest{Tool: "hang", Timeout: 30 * time.Millisecond})
	s.Call(ctx, CallRequest{Tool: "nope"})
	if len(got) != 3 || !got[0].OK() || Classify(got[1].Err) != ClassTimeout || got[2].Err == nil {
		t.Fatalf("OnCall saw %d calls", len(got))
	}
	if got[0].Seq != 1 || got[2].Seq != 3 {
		t.Errorf("seq %d %d", got[0].Seq, got[2].Seq)
	}
}

func TestOffline(t *testing.T) {
	path := t.TempDir() + "/tools.json"
	writeFile(t, path, `{"tools":[{"name":"b","inputSchema":{"type":"object","properties":{"y":{},"x":{}}}},{"name":"a"}]}`)
	s := open(t, Source{Kind: Offline, ToolsFile: path}, Options{})
	set, err := s.Tools(context.Background())
	if err != nil || len(set.Tools) != 2 || set.Tools[0].Name != "b" {
		t.Fatalf("offline tools: %v", err)
	}
	if !s.IsOffline() {
		t.Error("IsOffline false")
	}
	r := s.Call(context.Background(), CallRequest{Tool: "a"})
	if !errors.Is(r.Err, ErrOffline) || Classify(r.Err) != ClassUsage {
		t.Errorf("offline call: %v", r.Err)
	}
	if _, err := s.Resources(context.Background()); !errors.Is(err, ErrOffline) {
		t.Errorf("offline resources: %v", err)
	}
	if err := s.Reconnect(context.Background()); !errors.Is(err, ErrOffline) {
		t.Errorf("offline reconnect: %v", err)
	}
	if _, err := Open(context.Background(), Source{Kind: Offline, ToolsFile: path + ".missing"}, Options{}); err == nil {
		t.Error("missing tools file opened")
	}
}
