//go:build unix

package session

import (
	"bufio"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// serveEverything runs the reference server on a free loopback port with
// the given transport (sse or streamableHttp) and returns its base URL once
// it says it listens. The whole process group is killed when the test ends.
func serveEverything(t *testing.T, mode, ready string) string {
	t.Helper()
	src := everything(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	cmd := exec.Command(src.Command, src.Args[0], mode)
	cmd.Env = append(cmd.Environ(), "PORT="+port)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = 5 * time.Second
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	up := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		said := false
		for sc.Scan() {
			if !said && strings.Contains(sc.Text(), ready) {
				said = true
				up <- true
			}
		}
		if !said {
			up <- false
		}
	}()
	select {
	case ok := <-up:
		if !ok {
			t.Fatalf("server-everything %s exited before listening", mode)
		}
	case <-time.After(time.Minute):
		t.Fatalf("server-everything %s not listening after a minute", mode)
	}
	return "http://127.0.0.1:" + port
}

// TestEverythingRootsEveryTransport: the reference server's roots/list, a
// server-to-client request, is answered over stdio, streamable HTTP and the
// old HTTP+SSE transport, and the server sees the session's roots.
func TestEverythingRootsEveryTransport(t *testing.T) {
	roots, err := NewRoots(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	want := roots.List()[0].URI
	for _, tc := range []struct {
		name string
		src  func(t *testing.T) Source
	}{
		{"stdio", func(t *testing.T) Source { return everything(t) }},
		{"streamable", func(t *testing.T) Source {
			return Source{Kind: HTTP, URL: serveEverything(t, "streamableHttp", "listening on port") + "/mcp"}
		}},
		{"sse", func(t *testing.T) Source {
			return Source{Kind: SSE, URL: serveEverything(t, "sse", "running on port") + "/sse"}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t, tc.src(t), Options{Roots: roots})
			r := s.Call(ctxT(t, 60*time.Second), CallRequest{Tool: "get-roots-list"})
			if r.Err != nil || r.IsError || r.Result == nil {
				t.Fatalf("get-roots-list: err %v, result %+v", r.Err, r.Result)
			}
			var text strings.Builder
			for _, c := range r.Result.Content {
				text.WriteString(mcp.GetTextFromContent(c))
			}
			if !strings.Contains(text.String(), want) {
				t.Errorf("the server's roots do not include %s:\n%s", want, text.String())
			}
		})
	}
}
