//go:build unix

package call

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user+system CPU time. On a shared, loaded
// machine wall-clock ns/op mostly measures waiting for a core; CPU time per
// operation (GC included) is what the code itself costs.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, start time.Duration) {
	if d := cpuTime() - start; d > 0 && b.N > 0 {
		b.ReportMetric(float64(d.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

func BenchmarkParseValidate4KBCPU(b *testing.B) {
	r := benchResolver(b)
	src := call4KB()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		if _, err := r.Parse(src); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}

func BenchmarkRead4KBCPU(b *testing.B) {
	r := benchResolver(b)
	src := call4KB()
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		if _, err := r.Read(src); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}
