package session

import (
	"context"
	"runtime"
	"testing"

	"github.com/mcpterm/mcpterm/session/demo"
	"github.com/mcpterm/mcpterm/session/internal/testserver"
)

// Connect to the demo server and list its tools, as `mcpterm tools` does.
func BenchmarkConnectListTools(b *testing.B) {
	b.Run("inprocess", func(b *testing.B) {
		srv := demo.New(demo.Options{Seed: 1})
		benchConnect(b, Source{Kind: InProcess, Server: srv})
	})
	b.Run("stdio", func(b *testing.B) {
		benchConnect(b, stdioSource(b, "demo"))
	})
}

func benchConnect(b *testing.B, src Source) {
	ctx := context.Background()
	for b.Loop() {
		s, err := Open(ctx, src, Options{})
		if err != nil {
			b.Fatal(err)
		}
		set, err := s.Tools(ctx)
		if err != nil || len(set.Tools) < 10 {
			b.Fatalf("tools: %v", err)
		}
		s.Close()
	}
}

// 100 calls of a cheap read-only demo tool, one after another and all at once.
func BenchmarkCalls100(b *testing.B) {
	for _, route := range []string{"inprocess", "stdio"} {
		for _, conc := range []int{1, 100} {
			name := route + "/sequential"
			if conc > 1 {
				name = route + "/concurrent"
			}
			b.Run(name, func(b *testing.B) {
				src := Source{Kind: InProcess, Server: demo.New(demo.Options{Seed: 1})}
				if route == "stdio" {
					src = stdioSource(b, "demo")
				}
				s := open(b, src, Options{})
				reqs := make([]CallRequest, 100)
				for i := range reqs {
					reqs[i] = CallRequest{Tool: "file_read", Arguments: obj(b, `{"path":"/docs/README.md","limit":64}`)}
				}
				ctx := context.Background()
				if _, err := s.Tools(ctx); err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					res := s.Batch(ctx, reqs, BatchOptions{Concurrency: conc})
					if res.Failed() != 0 {
						b.Fatalf("%d calls failed: %v", res.Failed(), res.Results[0].Err)
					}
				}
			})
		}
	}
}

// Memory held by a session that has listed 1,000 tools: heap growth from
// before Open to after Tools, with the server's own share measured apart.
func BenchmarkSessionMemory1000Tools(b *testing.B) {
	ctx := context.Background()
	var perSession float64
	for b.Loop() {
		srv := testserver.New(&testserver.Recorder{}, 1000, 0)
		base := heapInUse()
		s, err := Open(ctx, Source{Kind: InProcess, Server: srv}, Options{})
		if err != nil {
			b.Fatal(err)
		}
		set, err := s.Tools(ctx)
		if err != nil || len(set.Tools) < 1000 {
			b.Fatalf("tools: %v", err)
		}
		perSession = float64(heapInUse() - base)
		runtime.KeepAlive(set)
		s.Close()
		runtime.KeepAlive(srv)
	}
	b.ReportMetric(perSession, "heap-B/session")
}

func heapInUse() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
