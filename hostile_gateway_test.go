package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// servingGateway is `mcpterm serve --listen 127.0.0.1:0 ARGS` running as
// its own process, with the address it reported.
type servingGateway struct {
	cmd    *exec.Cmd
	addr   string
	stderr *syncBuffer
	done   chan struct{} // closed when stderr has ended
	// peakFile is where the process writes its peak RSS (peakRSS).
	peakFile string
}

// startGateway starts mcpterm serve on an ephemeral loopback port and
// waits for the line that names the address.
func startGateway(t *testing.T, args ...string) *servingGateway {
	t.Helper()
	cmd, peak := mcptermCommand(t, append([]string{"serve", "--listen", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(cmd.Env, "XDG_STATE_HOME="+t.TempDir(), "NO_COLOR=1")
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	g := &servingGateway{cmd: cmd, peakFile: peak, stderr: &syncBuffer{}, done: make(chan struct{})}
	addr := make(chan string, 1)
	go func() {
		defer close(g.done)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(g.stderr, line)
			if rest, ok := strings.CutPrefix(line, "mcpterm serve: serving MCP over streamable HTTP at http://"); ok {
				addr <- strings.TrimSuffix(rest, "/mcp")
			}
		}
	}()
	select {
	case g.addr = <-addr:
	case <-g.done:
		t.Fatalf("serve ended before listening\n%s", g.stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not listen\n%s", g.stderr.String())
	}
	return g
}

// stop ends the gateway with SIGTERM and reports how it ended.
func (g *servingGateway) stop(t *testing.T) procResult {
	t.Helper()
	_ = g.cmd.Process.Signal(syscall.SIGTERM)
	<-g.done
	exited := make(chan error, 1)
	go func() { exited <- g.cmd.Wait() }()
	var err error
	select {
	case err = <-exited:
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not stop on SIGTERM\n%s", g.stderr.String())
	}
	r := procResult{Stderr: g.stderr.String()}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		r.Code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	r.MaxRSS = peakRSS(g.cmd, g.peakFile)
	return r
}

// unsafeRune finds what must never reach a terminal from server text: ESC,
// other C0 controls but \n and \t, DEL, C1 controls, bidi controls.
func unsafeRune(s string) (rune, bool) {
	for _, r := range s {
		switch {
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return r, true
		}
	}
	return 0, false
}

// TestHostileGatewayEscapeName: an upstream whose name and instructions
// hold escapes (an OSC 8 link, a bidi override, BEL, a C1 CSI, an OSC 52
// clipboard write) gets none of them into what the gateway says about
// itself — its name, title, instructions, the term and AQL descriptions —
// nor into the operator's stderr.
func TestHostileGatewayEscapeName(t *testing.T) {
	t.Parallel() // each runs its own processes
	for _, mode := range []string{"term", "aql-single"} {
		t.Run(mode, func(t *testing.T) {
			g := startGateway(t, append([]string{"--mode", mode, "--"}, hostileServer(t, "gateway/escape-name")...)...)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			c, err := client.NewStreamableHttpClient("http://" + g.addr + "/mcp")
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Start(ctx); err != nil {
				t.Fatal(err)
			}
			req := mcp.InitializeRequest{}
			req.Params.ProtocolVersion = mcp.ProtocolVersion20251125
			req.Params.ClientInfo = mcp.Implementation{Name: "hostile-test", Version: "0"}
			init, err := c.Initialize(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
			if err != nil || len(tools.Tools) != 1 {
				t.Fatalf("tools: %v %+v", err, tools)
			}
			texts := map[string]string{"serverInfo.name": init.ServerInfo.Name, "serverInfo.title": init.ServerInfo.Title,
				"instructions": init.Instructions, "description": tools.Tools[0].Description}
			for what, s := range texts {
				if r, bad := unsafeRune(s); bad {
					t.Errorf("%s holds %U: %q", what, r, s)
				}
			}
			// The name is still there, its escapes shown visibly.
			t.Logf("description: %.120q", tools.Tools[0].Description)
			if d := tools.Tools[0].Description; !strings.Contains(d, `evilclick\u202eeman␇`) {
				t.Errorf("description lost the name: %q", d)
			}
			if !strings.HasSuffix(init.ServerInfo.Title, "via mcpterm ("+mode+")") {
				t.Errorf("title %q", init.ServerInfo.Title)
			}
			c.Close()
			res := g.stop(t)
			if res.Code != exitOK {
				t.Errorf("exit %d\n%s", res.Code, res.Stderr)
			}
			if r, bad := unsafeRune(res.Stderr); bad {
				t.Errorf("stderr holds %U: %q", r, res.Stderr)
			}
		})
	}
}

// TestHostileGatewayHugeBodies: the gateway as its own process refuses
// 100 MB bodies (announced or chunked) with 413 and keeps serving, and its
// peak resident memory stays far below what holding them would take (the
// issue measured 887 MB after one such POST, 3.3 GB after four).
func TestHostileGatewayHugeBodies(t *testing.T) {
	t.Parallel() // each runs its own processes
	g := startGateway(t, append([]string{"--"}, hostileServer(t, "gateway/plain")...)...)
	for _, chunked := range []bool{false, true, false, true} {
		if status := postHuge(t, g.addr, chunked); status != http.StatusRequestEntityTooLarge {
			t.Errorf("100 MB body (chunked %v): status %d", chunked, status)
		}
	}
	// Still serving: a small request is answered.
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}`
	resp, err := http.Post("http://"+g.addr+"/mcp", "application/json", strings.NewReader(init))
	if err != nil {
		t.Fatal(err)
	}
	var answer struct {
		Result struct {
			ServerInfo struct{ Name string } `json:"serverInfo"`
		} `json:"result"`
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err := json.Unmarshal(body, &answer); err != nil || answer.Result.ServerInfo.Name != "plain" {
		t.Errorf("initialize after the bodies: %d %s", resp.StatusCode, body)
	}
	r := g.stop(t)
	if r.Code != exitOK {
		t.Errorf("exit %d\n%s", r.Code, r.Stderr)
	}
	// About 45 MB (100 MB under -race, which instruments the process); one
	// body held whole would be 100 MB more, the four of them 400 MB.
	t.Logf("peak RSS %.1f MB", float64(r.MaxRSS)/(1<<20))
	if r.MaxRSS > 250<<20 {
		t.Errorf("peak RSS %.1f MB", float64(r.MaxRSS)/(1<<20))
	}
}

// postHuge sends 100 MB on a connection of its own and returns the status
// answered while it is still sending.
func postHuge(t *testing.T, addr string, chunked bool) int {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	head := "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\n"
	const size, total = 64 << 10, 100 << 20
	block := []byte(strings.Repeat(" ", size))
	if chunked {
		head += "Transfer-Encoding: chunked\r\n\r\n"
		block = fmt.Appendf(nil, "%x\r\n%s\r\n", size, block)
	} else {
		head += "Content-Length: " + strconv.Itoa(total) + "\r\n\r\n"
	}
	go func() {
		// Until the gateway closes the connection.
		if _, err := io.WriteString(conn, head); err != nil {
			return
		}
		for sent := 0; sent < total; sent += size {
			if _, err := conn.Write(block); err != nil {
				return
			}
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
