package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// maxSSEAnswers bounds the server-to-client requests answered at once over
// the old HTTP+SSE transport; more are refused with an error answer.
const maxSSEAnswers = 16

// sseAnswerTimeout bounds the POST that carries one answer.
const sseAnswerTimeout = 30 * time.Second

// sseBidir is mcp-go's HTTP+SSE client transport made bidirectional. mcp-go
// reads a server's request on the event stream as an answer to one of its
// own requests (by id), and drops it, so roots/list, sampling and
// elicitation over SSE were never answered and the server waited. Here the
// bounded HTTP transport below hands such events to sseRequests instead
// (boundedTransport.onRequest), which answers them with the handler mcp-go's
// client registers, POSTing the answer to the stream's endpoint as the
// transport does its own messages.
type sseBidir struct {
	*transport.SSE
	req *sseRequests
}

func (t *sseBidir) SetRequestHandler(h transport.RequestHandler) {
	t.req.mu.Lock()
	t.req.handler = h
	t.req.mu.Unlock()
}

func (t *sseBidir) SetProtocolVersion(v string) {
	t.req.mu.Lock()
	t.req.version = v
	t.req.mu.Unlock()
	t.SSE.SetProtocolVersion(v)
}

func (t *sseBidir) Close() error {
	t.req.stop()
	return t.SSE.Close()
}

// sseRequests answers the server's requests of one SSE connection.
type sseRequests struct {
	hc       *http.Client
	endpoint func() string // where answers go: the stream's endpoint event
	slots    chan struct{}
	ctx      context.Context
	stop     context.CancelFunc

	mu      sync.Mutex
	handler transport.RequestHandler
	version string
}

func newSSERequests(hc *http.Client) *sseRequests {
	r := &sseRequests{hc: hc, slots: make(chan struct{}, maxSSEAnswers)}
	r.ctx, r.stop = context.WithCancel(context.Background())
	return r
}

// deliver takes data, an SSE event's data, if it is a request from the
// server, and answers it in the background; false leaves the event to the
// transport.
func (r *sseRequests) deliver(data []byte) bool {
	var req struct {
		ID     *mcp.RequestId  `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(data, &req) != nil || req.ID == nil || req.ID.IsNil() || req.Method == "" {
		return false
	}
	jreq := transport.JSONRPCRequest{JSONRPC: mcp.JSONRPC_VERSION, ID: *req.ID, Method: req.Method}
	if len(req.Params) > 0 {
		jreq.Params = req.Params
	}
	select {
	case r.slots <- struct{}{}:
	default:
		go r.send(transport.NewJSONRPCErrorResponse(jreq.ID, mcp.INTERNAL_ERROR,
			fmt.Sprintf("mcpterm: more than %d requests from the server at once", maxSSEAnswers), nil))
		return true
	}
	go func() {
		defer func() { <-r.slots }()
		r.mu.Lock()
		h := r.handler
		r.mu.Unlock()
		var resp *transport.JSONRPCResponse
		if h == nil {
			resp = transport.NewJSONRPCErrorResponse(jreq.ID, mcp.METHOD_NOT_FOUND, "mcpterm does not handle "+jreq.Method, nil)
		} else {
			// A backstop only, as on stdio: the session's ask handler
			// bounds a request that waits for a person.
			ctx, cancel := context.WithTimeout(r.ctx, stdioAnswerBackstop)
			var err error
			resp, err = h(ctx, jreq)
			cancel()
			switch {
			case err != nil:
				resp = transport.NewJSONRPCErrorResponse(jreq.ID, mcp.INTERNAL_ERROR, err.Error(), nil)
			case resp == nil:
				return
			}
		}
		r.send(resp)
	}()
	return true
}

// send POSTs an answer to the stream's endpoint.
func (r *sseRequests) send(resp *transport.JSONRPCResponse) {
	b, err := json.Marshal(resp)
	ep := r.endpoint()
	if err != nil || ep == "" {
		return
	}
	ctx, cancel := context.WithTimeout(r.ctx, sseAnswerTimeout)
	defer cancel()
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, ep, bytes.NewReader(b))
	if err != nil {
		return
	}
	hreq.Header.Set("Content-Type", "application/json")
	r.mu.Lock()
	if r.version != "" {
		hreq.Header.Set(transport.HeaderKeyProtocolVersion, r.version)
	}
	r.mu.Unlock()
	res, err := r.hc.Do(hreq)
	if err == nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
		res.Body.Close()
	}
}

// newSSETransport is the HTTP+SSE transport to url over hc, whose bounded
// transport bt hands it the server's requests.
func newSSETransport(url string, hc *http.Client, bt *boundedTransport) (transport.Interface, error) {
	req := newSSERequests(hc)
	tr, err := transport.NewSSE(url, transport.WithHTTPClient(hc))
	if err != nil {
		return nil, err
	}
	req.endpoint = func() string {
		if ep := tr.GetEndpoint(); ep != nil {
			return ep.String()
		}
		return ""
	}
	bt.onRequest = req.deliver
	return &sseBidir{SSE: tr, req: req}, nil
}
