package gateway

// The load test of the HTTP gateway, on loopback only and bounded in time:
// huge bodies refused with memory flat, a thousand slow connections
// dropped by the timeouts, fifty clients calling at once with nothing
// lost. The clients run for 10 s (3 s under -short);
// MCPTERM_LOAD_SECONDS=30 runs them for the 30 s.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// heapFigures are the heap in use after a collection and the bytes
// allocated so far, from runtime/metrics, and the process's resident set
// (0 where /proc is missing).
type heapFigures struct{ inUse, allocated, rss uint64 }

func heapNow() heapFigures {
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return heapFigures{inUse: s[0].Value.Uint64(), allocated: s[1].Value.Uint64(), rss: rss()}
}

// rss reads VmRSS from /proc/self/status.
func rss() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

const mb = 1 << 20

// TestLoadHugeBodies: eight 100 MB POSTs at once, four saying their length
// and four chunked, are all refused with 413 while they are still being
// sent; the gateway never holds more than its limit of any of them, so the
// heap is as before and the bytes allocated meanwhile are a small part of
// one body.
func TestLoadHugeBodies(t *testing.T) {
	addr := guarded(t, echoGateway(t), HTTPOptions{})
	before := heapNow()
	start := time.Now()
	var wg sync.WaitGroup
	statuses := make([]int, 8)
	elapsed := make([]time.Duration, 8)
	for i := range statuses {
		wg.Go(func() {
			t0 := time.Now()
			statuses[i] = hugePost(t, addr, i%2 == 0)
			elapsed[i] = time.Since(t0)
		})
	}
	wg.Wait()
	took := time.Since(start)
	after := heapNow()
	for i, s := range statuses {
		if s != http.StatusRequestEntityTooLarge {
			t.Errorf("body %d: status %d, want 413", i, s)
		}
	}
	grew := int64(after.inUse) - int64(before.inUse)
	alloc := after.allocated - before.allocated
	t.Logf("8 × 100 MB refused in %v (slowest %v); heap in use %.1f → %.1f MB, %.1f MB allocated meanwhile; RSS %.1f → %.1f MB",
		took, slices.Max(elapsed), float64(before.inUse)/mb, float64(after.inUse)/mb, float64(alloc)/mb, float64(before.rss)/mb, float64(after.rss)/mb)
	if grew > 16*mb {
		t.Errorf("the heap grew by %.1f MB", float64(grew)/mb)
	}
	// A chunked body is read up to the 4 MB limit, in buffers adding up to
	// about 8 MB; four of them are some 32 MB (more under -race). Holding a
	// single body whole would take 100 MB.
	if alloc > 96*mb {
		t.Errorf("%.1f MB allocated while refusing the bodies", float64(alloc)/mb)
	}
}

// hugePost sends a 100 MB JSON-RPC body on a connection of its own, with
// Content-Length or chunked, and returns the status of the answer that
// comes back while it is still sending.
func hugePost(t *testing.T, addr string, chunked bool) int {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Error(err)
		return 0
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(2 * hangGuard))
	head := "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\n"
	if chunked {
		head += "Transfer-Encoding: chunked\r\n\r\n"
	} else {
		head += "Content-Length: " + strconv.Itoa(100*mb) + "\r\n\r\n"
	}
	go func() {
		// Until the server closes the connection; its errors are expected.
		const size = 64 << 10
		block := []byte(strings.Repeat(" ", size))
		if chunked {
			block = fmt.Appendf(nil, "%x\r\n%s\r\n", size, block)
		}
		if _, err := io.WriteString(conn, head); err != nil {
			return
		}
		for sent := 0; sent < 100*mb; sent += size {
			if _, err := conn.Write(block); err != nil {
				return
			}
		}
		if chunked {
			_, _ = io.WriteString(conn, "0\r\n\r\n")
		}
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Errorf("no answer to a 100 MB body: %v", err)
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestLoadSlowloris: a thousand connections, half sending their headers a
// byte at a time and half their body, are all dropped by the header and
// body timeouts (one second here), while a client's calls go on.
func TestLoadSlowloris(t *testing.T) {
	const n, timeout = 1000, time.Second
	g := echoGateway(t)
	addr := guarded(t, g, HTTPOptions{HeaderTimeout: timeout, BodyTimeout: timeout, IdleTimeout: timeout})
	// A connection per request: while the slow ones open (seconds on a
	// loaded machine) a kept-alive one idles past IdleTimeout, and the
	// server may close it just as the client sends on it (reset by peer).
	fresh := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	c, err := dial(t, addr, nil, transport.WithHTTPBasicClient(fresh))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var dropped, answered408 atomic.Int64
	held := make([]time.Duration, n)
	opened := make(chan struct{}, n)
	for i := range n {
		wg.Go(func() {
			d, status, ok := slowConn(addr, i%2 == 0, opened)
			held[i] = d
			if ok {
				dropped.Add(1)
			}
			if status == http.StatusRequestTimeout {
				answered408.Add(1)
			}
		})
	}
	// While all of them are open, the gateway still serves.
	for range n {
		select {
		case <-opened:
		case <-time.After(2 * hangGuard):
			t.Fatal("the slow connections did not open")
		}
	}
	if r := termCall(t, c, `(echo "through")`); text(r) != `(ok "echo: through")` {
		t.Errorf("a call among the slow connections: %s", text(r))
	}
	wg.Wait()
	slices.Sort(held)
	t.Logf("%d of %d slow connections dropped by the server (%d slow bodies answered 408); held %v median, %v at most",
		dropped.Load(), n, answered408.Load(), held[n/2], held[n-1])
	if dropped.Load() != n {
		t.Errorf("%d of %d slow connections were dropped", dropped.Load(), n)
	}
	if answered408.Load() != n/2 {
		t.Errorf("%d slow bodies were answered 408, want %d", answered408.Load(), n/2)
	}
}

// slowConn opens a connection that trickles its headers (or, with body, a
// body it announced) one byte every 250 ms. It reports how long the
// connection lasted, the status the server answered (0 if none), and
// whether the server ended it (not the hang guard).
func slowConn(addr string, body bool, opened chan<- struct{}) (time.Duration, int, bool) {
	conn, err := net.Dial("tcp", addr)
	opened <- struct{}{}
	if err != nil {
		return 0, 0, false
	}
	defer conn.Close()
	t0 := time.Now()
	_ = conn.SetDeadline(t0.Add(3 * hangGuard))
	head := "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\nX-Slow: "
	if body {
		head = "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"
	}
	if _, err := io.WriteString(conn, head); err != nil {
		return time.Since(t0), 0, true
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := conn.Write([]byte(" ")); err != nil {
					return
				}
			}
		}
	}()
	// The server either answers (408 for a late body) and closes, or just
	// closes; reading to the end sees both.
	r := bufio.NewReader(conn)
	status := 0
	if resp, err := http.ReadResponse(r, nil); err == nil {
		status = resp.StatusCode
		_, _ = io.Copy(io.Discard, resp.Body)
	}
	_, err = io.Copy(io.Discard, r)
	var ne net.Error
	if err != nil && asTimeout(err, &ne) {
		return time.Since(t0), status, false // our own deadline: the server held on
	}
	return time.Since(t0), status, true
}

func asTimeout(err error, ne *net.Error) bool {
	e, ok := err.(net.Error)
	if ok {
		*ne = e
	}
	return ok && e.Timeout()
}

// loadDuration is how long the clients of TestLoadClients call.
func loadDuration(t *testing.T) time.Duration {
	if s := os.Getenv("MCPTERM_LOAD_SECONDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			t.Fatalf("MCPTERM_LOAD_SECONDS=%q: want a number of seconds", s)
		}
		return time.Duration(n) * time.Second
	}
	if testing.Short() {
		return 3 * time.Second
	}
	return 10 * time.Second
}

// TestLoadClients: fifty clients (forty on session-ful 2025-11-25, ten on
// sessionless 2026-07-28) call through the guarded gateway at once for the
// load duration; every call gets its own answer, none is lost.
func TestLoadClients(t *testing.T) {
	const clients = 50
	d := loadDuration(t)
	addr := guarded(t, echoGateway(t), HTTPOptions{})
	cs := make([]*client.Client, clients)
	for i := range cs {
		version := mcp.ProtocolVersion20251125
		if i%5 == 4 {
			version = mcp.LATEST_PROTOCOL_VERSION
		}
		c, err := client.NewStreamableHttpClient("http://" + addr + HTTPPath)
		if err != nil {
			t.Fatal(err)
		}
		connect(t, c, version)
		cs[i] = c
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var sent, ok atomic.Int64
	errs := make(chan error, clients)
	var wg sync.WaitGroup
	for i, c := range cs {
		wg.Go(func() {
			for j := 0; ctx.Err() == nil; j++ {
				word := fmt.Sprintf("c%d-%d", i, j)
				req := mcp.CallToolRequest{}
				req.Params.Name = DefaultTermTool
				req.Params.Arguments = map[string]any{"expr": fmt.Sprintf(`(echo %q)`, word)}
				sent.Add(1)
				// The call's own context outlives the load's: a call sent
				// must be answered.
				cctx, ccancel := context.WithTimeout(context.Background(), 3*hangGuard)
				r, err := c.CallTool(cctx, req)
				ccancel()
				if err != nil {
					errs <- fmt.Errorf("client %d call %d: %v", i, j, err)
					return
				}
				if want := fmt.Sprintf(`(ok "echo: %s")`, word); r.IsError || text(r) != want {
					errs <- fmt.Errorf("client %d call %d: got %s, want %s", i, j, text(r), want)
					return
				}
				ok.Add(1)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	t.Logf("%d clients for %v: %d calls sent, %d answered correctly (%.0f/s)", clients, d, sent.Load(), ok.Load(), float64(ok.Load())/d.Seconds())
	if sent.Load() != ok.Load() || ok.Load() == 0 {
		t.Errorf("%d calls sent, %d answered", sent.Load(), ok.Load())
	}
}
