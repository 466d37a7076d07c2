package tokens

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// bigResult is a tool result of about n bytes as the workbench counts it:
// compact JSON holding one text block of prose.
func bigResult(n int) string {
	var b strings.Builder
	b.WriteString(`{"content":[{"type":"text","text":"`)
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "line %d of the log: the quick brown fox jumps over the lazy dog, status=ok id=%x\\n", i, i*7919)
	}
	b.WriteString(`"}]}`)
	return b.String()
}

// TestCountChunksExact: chunked counting of a big text cuts only where
// the count is exact, so it agrees with encoding the whole text at once.
func TestCountChunksExact(t *testing.T) {
	enc := testEncoder(t, O200kBase)
	for _, text := range []string{
		bigResult(400 << 10),
		strings.Repeat(`{"name":"t","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}},`, 4000),
		strings.Repeat("word ", 70_000) + strings.Repeat("x", 300<<10/2) + " tail",
	} {
		c := testCounter(t, O200kBase)
		got, err := c.Count(text)
		if err != nil {
			t.Fatal(err)
		}
		if want := enc.count(text); got != want {
			t.Errorf("%d bytes: chunked %d, whole %d", len(text), got, want)
		}
		e, err := c.Estimate(text)
		if err != nil || e.N != got || e.Approx || e.Sampled || e.String() != Thousands(got)+" tok" {
			t.Errorf("estimate %+v %v", e, err)
		}
	}
}

// TestEstimateNoCut: a 10 MB stretch with no place to cut is counted
// approximately and says so; Count refuses it with the approximate figure.
func TestEstimateNoCut(t *testing.T) {
	c := testCounter(t, O200kBase)
	text := `{"text":"` + strings.Repeat("y", 1<<20) + `"}`
	e, err := c.Estimate(text)
	if err != nil || !e.Approx || e.Sampled {
		t.Fatalf("estimate %+v %v", e, err)
	}
	// The forced cuts cost a token or so each.
	chunk := c.enc.count(strings.Repeat("y", forcedBytes))
	if want := chunk * (1 << 20) / forcedBytes; e.N < want || e.N > want+300 {
		t.Errorf("estimate %d, want about %d", e.N, want)
	}
	if !strings.HasPrefix(e.String(), "≈") {
		t.Errorf("label %q", e.String())
	}
	var inexact *InexactError
	if _, err := c.Count(text); !errors.As(err, &inexact) {
		t.Errorf("Count: %v", err)
	}
}

// TestEstimateSampled: over MaxText the count is sampled, close to the
// truth for uniform text, and labelled so.
func TestEstimateSampled(t *testing.T) {
	c := testCounter(t, O200kBase)
	big := strings.Repeat(" ", MaxText+1)
	e, err := c.Estimate(big)
	if err != nil || !e.Sampled || !strings.HasSuffix(e.String(), " tok (sampled)") {
		t.Fatalf("estimate %+v %v", e, err)
	}
	if _, err := c.Count(big); err == nil {
		t.Error("Count over MaxText should refuse")
	}
	// The sample of a uniform text is close to its exact count.
	text := bigResult(3 << 20)
	exact, _ := c.countChunks(text, false)
	s := c.sample(text)
	if d := float64(s.N-exact) / float64(exact); d < -0.02 || d > 0.02 {
		t.Errorf("sampled %d, exact %d (%.1f%% off)", s.N, exact, 100*d)
	}
}

// BenchmarkCountBigResult: counting a 10 MB result. Run with -benchmem:
// allocations per op stay a small multiple of the text, and the peak
// (B/op is the total; the chunks are garbage at once) is bounded by the
// chunk size, not the text — the root test TestHostileBoundsBigResult
// asserts the peak RSS of the whole process.
func BenchmarkCountBigResult(b *testing.B) {
	for _, tc := range []struct {
		name string
		text string
	}{
		{"prose-10MB", bigResult(10 << 20)},
		{"nocut-10MB", `{"text":"` + strings.Repeat("y", 10<<20) + `"}`},
		{"sampled-40MB", bigResult(40 << 20)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			c := testCounter(b, O200kBase, CacheBytes(0))
			b.SetBytes(int64(len(tc.text)))
			b.ReportAllocs()
			// peak-heap-MB is the most the live heap grew over its size
			// before counting (the text and the loaded encoding), sampled
			// every millisecond: an informative figure, not an assertion.
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			base, peak := ms.HeapAlloc, ms.HeapAlloc
			stop, done := make(chan struct{}), make(chan struct{})
			go func() {
				defer close(done)
				tick := time.NewTicker(time.Millisecond)
				defer tick.Stop()
				for {
					select {
					case <-stop:
						return
					case <-tick.C:
						var m runtime.MemStats
						runtime.ReadMemStats(&m)
						peak = max(peak, m.HeapAlloc)
					}
				}
			}()
			for b.Loop() {
				if _, err := c.Estimate(tc.text); err != nil {
					b.Fatal(err)
				}
			}
			close(stop)
			<-done
			b.ReportMetric(float64(peak-base)/(1<<20), "peak-heap-MB")
		})
	}
}
