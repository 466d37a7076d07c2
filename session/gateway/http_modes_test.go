package gateway

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
)

// offLoopbackHost is an address of this machine off loopback to bind, the
// way --listen 0.0.0.0:PORT or a LAN address does: the first IPv4 address
// of an interface that is up, else 0.0.0.0 (every interface).
func offLoopbackHost(t testing.TB) string {
	t.Helper()
	ifaces, err := net.Interfaces()
	if err != nil {
		t.Fatal(err)
	}
	for _, ifc := range ifaces {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, _ := ifc.Addrs()
		for _, a := range addrs {
			if ip, ok := a.(*net.IPNet); ok && ip.IP.To4() != nil && !ip.IP.IsLoopback() {
				return ip.IP.String()
			}
		}
	}
	return "0.0.0.0"
}

// dialable is the address a client uses to reach a listener at addr: a
// listener on every interface is reached on loopback.
func dialable(addr string) string {
	host, port, _ := net.SplitHostPort(addr)
	if net.ParseIP(host).IsUnspecified() {
		return net.JoinHostPort("127.0.0.1", port)
	}
	return addr
}

// initBody is an initialize request at a session-ful revision, padded with
// spaces to size bytes when size is larger.
func initBody(size int) string {
	b := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","clientInfo":{"name":"http-modes","version":"0"},"capabilities":{}}}`
	return b + strings.Repeat(" ", max(0, size-len(b)))
}

// postInit POSTs initBody(size) to addr with plain net/http and extra
// headers (name, value pairs), and returns the status.
func postInit(t *testing.T, addr string, size int, headers ...string) int {
	t.Helper()
	req, err := http.NewRequestWithContext(ctxT(t, hangGuard), http.MethodPost, "http://"+addr+HTTPPath, strings.NewReader(initBody(size)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST initialize: %v", err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// slowPeer opens a connection to addr and writes only the start of a
// request, as a client that stalls does.
func slowPeer(t *testing.T, addr, start string) (net.Conn, *bufio.Reader) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	// Only a guard against a hang: the gateway's own timeouts are far
	// shorter, and reaching this deadline fails the test.
	_ = conn.SetDeadline(time.Now().Add(hangGuard))
	if _, err := io.WriteString(conn, start); err != nil {
		t.Fatal(err)
	}
	return conn, bufio.NewReader(conn)
}

// awaitClosed reads what is left on the connection until the gateway
// closes it; running into the connection's own deadline means it never did.
func awaitClosed(t *testing.T, what string, r io.Reader) {
	t.Helper()
	_, err := io.Copy(io.Discard, r)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Errorf("%s: the gateway did not close the connection", what)
	}
}

// readMCPCall is a call of a read-only demo tool as a client of mode m
// writes it: the tool and its JSON arguments.
func readMCPCall(t *testing.T, g *Gateway, m Mode) (string, string) {
	t.Helper()
	tool, args := viaGateway(t, g.st.Load(), m, e2eCall{Tool: "file_read", Args: `{"path":"/docs/README.md","limit":80}`})
	b, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return tool, string(b)
}

// TestHTTPGuardEveryMode holds every mode the gateway serves (looping over
// them, so a new mode is covered when it is added) to the same HTTP guard,
// over real listeners and real clients:
//   - off loopback with a token: no token and a wrong one get 401, the
//     right one initializes and a read-only call answers; without a token
//     the gateway refuses to serve there unless InsecureNoAuth says so;
//   - a cross-site Origin gets 403 (with the token too), the gateway's own
//     loopback origins are served;
//   - a body over the bound gets 413 from its Content-Length alone, before
//     the rest of it is sent, and the connection is closed; one at the
//     bound is served;
//   - a client that stalls sending headers or a body is cut off (the
//     connection closed; 408 for the body).
func TestHTTPGuardEveryMode(t *testing.T) {
	const maxBody = 8 << 10
	bounds := HTTPOptions{MaxBody: maxBody, HeaderTimeout: 200 * time.Millisecond, BodyTimeout: 200 * time.Millisecond}
	remoteHost := offLoopbackHost(t)
	for _, mode := range confirmModes() {
		t.Run(string(mode), func(t *testing.T) {
			remote := bounds
			remote.Token = testToken
			g := newGateway(t, demoSession(t), Options{Mode: mode, Policy: allowAll(t)})
			remoteAddr := dialable(guardedOn(t, g, remoteHost, remote))
			local := newGateway(t, demoSession(t), Options{Mode: mode, Policy: allowAll(t)})
			localAddr := guarded(t, local, bounds)
			bearer := "Bearer " + testToken

			t.Run("token", func(t *testing.T) {
				if st := postInit(t, remoteAddr, 0); st != http.StatusUnauthorized {
					t.Errorf("no token: %d", st)
				}
				if st := postInit(t, remoteAddr, 0, "Authorization", bearer+"x"); st != http.StatusUnauthorized {
					t.Errorf("a wrong token: %d", st)
				}
				if _, err := dial(t, remoteAddr, nil); !errors.Is(err, transport.ErrAuthorizationRequired) {
					t.Errorf("an MCP client without the token: %v", err)
				}
				c, err := dial(t, remoteAddr, map[string]string{"Authorization": bearer})
				if err != nil {
					t.Fatalf("with the token: %v", err)
				}
				tool, args := readMCPCall(t, g, mode)
				if r := callTool(t, c, tool, args); r.IsError || !strings.Contains(text(r), "mcpterm demo server") {
					t.Errorf("%s %s: %s", tool, args, text(r))
				}
			})

			t.Run("no token", func(t *testing.T) {
				// Off loopback without a token the gateway does not serve at
				// all, unless told anyone may call its tools.
				ln, err := net.Listen("tcp", net.JoinHostPort(remoteHost, "0"))
				if err != nil {
					t.Fatal(err)
				}
				defer ln.Close()
				if err := g.ServeStreamableWith(ctxT(t, hangGuard), ln, bounds, nil); !errors.Is(err, ErrNeedsToken) {
					t.Errorf("off loopback without a token: %v", err)
				}
				open := newGateway(t, demoSession(t), Options{Mode: mode, Policy: allowAll(t)})
				insecure := bounds
				insecure.InsecureNoAuth = true
				if st := postInit(t, dialable(guardedOn(t, open, remoteHost, insecure)), 0); st != http.StatusOK {
					t.Errorf("InsecureNoAuth: %d", st)
				}
			})

			t.Run("origin", func(t *testing.T) {
				_, port, _ := net.SplitHostPort(localAddr)
				for _, o := range []string{"http://evil.example", "http://localhost:1", "null"} {
					if st := postInit(t, localAddr, 0, "Origin", o); st != http.StatusForbidden {
						t.Errorf("Origin %s: %d", o, st)
					}
				}
				if st := postInit(t, remoteAddr, 0, "Origin", "http://evil.example", "Authorization", bearer); st != http.StatusForbidden {
					t.Errorf("Origin http://evil.example with the token: %d", st)
				}
				for _, o := range []string{"http://127.0.0.1:" + port, "http://localhost:" + port} {
					if st := postInit(t, localAddr, 0, "Origin", o); st != http.StatusOK {
						t.Errorf("Origin %s: %d", o, st)
					}
				}
				if st := postInit(t, localAddr, 0); st != http.StatusOK {
					t.Errorf("no Origin: %d", st)
				}
			})

			t.Run("body", func(t *testing.T) {
				for _, tc := range []struct{ name, addr, auth string }{{"local", localAddr, ""}, {"remote", remoteAddr, bearer}} {
					// 100 MB announced, 1 KB sent: the answer can only come from
					// the Content-Length.
					head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n", HTTPPath, tc.addr, 100<<20)
					if tc.auth != "" {
						head += "Authorization: " + tc.auth + "\r\n"
					}
					_, r := slowPeer(t, tc.addr, head+"\r\n"+strings.Repeat(" ", 1<<10))
					resp, err := http.ReadResponse(r, nil)
					if err != nil {
						t.Fatalf("%s: %v", tc.name, err)
					}
					if resp.StatusCode != http.StatusRequestEntityTooLarge || !resp.Close {
						t.Errorf("%s: a 100 MB body: %d, close %v", tc.name, resp.StatusCode, resp.Close)
					}
					awaitClosed(t, tc.name+": after 413", r)
					var hs []string
					if tc.auth != "" {
						hs = []string{"Authorization", tc.auth}
					}
					if st := postInit(t, tc.addr, maxBody, hs...); st != http.StatusOK {
						t.Errorf("%s: a body at the bound: %d", tc.name, st)
					}
					if st := postInit(t, tc.addr, maxBody+1, hs...); st != http.StatusRequestEntityTooLarge {
						t.Errorf("%s: a body one byte over: %d", tc.name, st)
					}
				}
			})

			t.Run("timeouts", func(t *testing.T) {
				for _, tc := range []struct{ name, addr, auth string }{{"local", localAddr, ""}, {"remote", remoteAddr, bearer}} {
					// Headers that never end: net/http closes the connection
					// after the header timeout, token or not.
					_, r := slowPeer(t, tc.addr, fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: appl", HTTPPath, tc.addr))
					awaitClosed(t, tc.name+": stalled headers", r)

					head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n", HTTPPath, tc.addr)
					if tc.auth != "" {
						head += "Authorization: " + tc.auth + "\r\n"
					}
					_, r = slowPeer(t, tc.addr, head+"\r\n"+`{"jsonrpc":`)
					resp, err := http.ReadResponse(r, nil)
					if err != nil {
						t.Fatalf("%s: a stalled body: %v", tc.name, err)
					}
					if resp.StatusCode != http.StatusRequestTimeout || !resp.Close {
						t.Errorf("%s: a stalled body: %d, close %v", tc.name, resp.StatusCode, resp.Close)
					}
					awaitClosed(t, tc.name+": after 408", r)
				}
			})
		})
	}
}
