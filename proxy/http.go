package proxy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"time"
)

// maxBody bounds a client's POST body the proxy reads to look at.
const maxBody = 64 << 20

// HTTP is the proxy in front of a Streamable HTTP MCP server. Requests
// other than tools/call and tools/list go through a reverse proxy as they
// are (GET event streams, DELETE, notifications, answers to server
// requests); those two are forwarded by hand so that their answer, plain
// JSON or inside an event stream, can be looked at and, for tools/call,
// changed as the plan says. Calls are grouped into runs by --run-id, a
// traceparent, else the Mcp-Session-Id header.
type HTTP struct {
	p        *Proxy
	upstream *url.URL
	rp       *httputil.ReverseProxy
	client   *http.Client
	mu       sync.Mutex // guards p's state: requests arrive concurrently
}

// NewHTTP makes the proxy for the server at upstream.
func NewHTTP(opt Options, upstream string) (*HTTP, error) {
	u, err := url.Parse(upstream)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--upstream %q is not an http(s) URL", upstream)
	}
	rp := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(u)
			r.Out.URL.Path = u.Path // the endpoint, whatever path the client used
			r.Out.Host = u.Host
		},
		FlushInterval: -1, // event streams pass at once
	}
	px := New(opt)
	rp.ErrorLog = log.New(px.opt.Log, "faultlens proxy: ", 0)
	return &HTTP{p: px, upstream: u, rp: rp, client: &http.Client{}}, nil
}

// ServeHTTP implements http.Handler.
func (h *HTTP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		h.rp.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		http.Error(w, "faultlens proxy: reading the request: "+err.Error(), http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	env, ok := parseEnvelope(body)
	switch {
	case ok && env.isRequest() && env.Method == "tools/call":
		h.call(w, r, &env, body)
	case ok && env.isRequest() && env.Method == "tools/list":
		h.relay(w, r, body, env.ID, func(resp *envelope, msg []byte) []byte {
			h.mu.Lock()
			h.p.learnTools(resp.Result)
			h.mu.Unlock()
			return msg
		})
	default:
		if ok && env.isRequest() && env.Method == "initialize" {
			h.mu.Lock()
			h.p.learnClient(env.Params)
			h.mu.Unlock()
		}
		h.rp.ServeHTTP(w, r)
	}
}

// call handles a tools/call: injected answers are written here, the rest
// is relayed and its answer judged (and changed) on the way back.
func (h *HTTP) call(w http.ResponseWriter, r *http.Request, env *envelope, body []byte) {
	p := h.p
	var cp callParams
	_ = json.Unmarshal(env.Params, &cp)
	session := r.Header.Get("Mcp-Session-Id")
	if session == "" {
		session = p.opt.SessionID
	}
	h.mu.Lock()
	c := p.admit(env.ID, &cp, session, p.opt.Now())
	h.mu.Unlock()
	if c.status == "fast_fail" {
		h.reply(w, c, c.errorResult(*c.err))
		return
	}
	var f Fault
	act := -1
	if c.sample != nil {
		f = c.sample.Fault
		act = faultKinds[f.Kind].act
	}
	switch act {
	case actAnswer, actProtocol, actRestart:
		c.start = c.enq
		e := faultKinds[f.Kind].err(f)
		c.status, c.err = "error", &e
		if act == actAnswer {
			wait(r, f.delay())
			h.reply(w, c, c.errorResult(e))
			return
		}
		h.reply(w, c, c.protocolError(e)) // an HTTP server restarts out of sight: the call is lost
		return
	case actQueue:
		wait(r, f.delay())
	}
	c.start = p.opt.Now()
	h.relay(w, r, body, c.id, func(resp *envelope, msg []byte) []byte {
		c.end = p.opt.Now()
		c.judge(resp)
		switch act {
		case actPartial:
			if resp.Error == nil && c.status == "ok" {
				if cut, err := c.cutShort(resp, f.Keep); err == nil {
					c.status, msg = "partial", cut
				}
			}
		case actUnknown:
			e := faultKinds[f.Kind].err(f)
			c.status, c.err = "error", &e
			wait(r, f.delay())
			c.end = p.opt.Now()
			msg = c.errorResult(e)
		}
		h.mu.Lock()
		p.finish(c)
		h.mu.Unlock()
		return msg
	})
}

// reply writes an answer the proxy made up and records the call.
func (h *HTTP) reply(w http.ResponseWriter, c *call, msg []byte) {
	c.end = h.p.opt.Now()
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(msg)
	h.mu.Lock()
	h.p.finish(c)
	h.mu.Unlock()
}

func wait(r *http.Request, ms int64) {
	if ms <= 0 {
		return
	}
	select {
	case <-time.After(time.Duration(ms) * time.Millisecond):
	case <-r.Context().Done():
	}
}

// relay forwards a POST to the server and copies its answer back; the
// message answering id, whether the body is JSON or an event stream, goes
// through hook first.
func (h *HTTP) relay(w http.ResponseWriter, r *http.Request, body []byte, id json.RawMessage, hook func(*envelope, []byte) []byte) {
	out, err := http.NewRequestWithContext(r.Context(), http.MethodPost, h.upstream.String(), bytes.NewReader(body))
	if err != nil {
		http.Error(w, "faultlens proxy: "+err.Error(), http.StatusBadGateway)
		return
	}
	for k, v := range r.Header {
		if k != "Content-Length" && k != "Host" && k != "Connection" {
			out.Header[k] = v
		}
	}
	resp, err := h.client.Do(out)
	if err != nil {
		http.Error(w, "faultlens proxy: the server: "+err.Error(), http.StatusBadGateway)
		return
	}
	defer func() { _ = resp.Body.Close() }()
	answers := func(msg []byte) []byte {
		env, ok := parseEnvelope(msg)
		if ok && env.isResponse() && idKey(env.ID) == idKey(id) {
			return hook(&env, msg)
		}
		return msg
	}
	ct := resp.Header.Get("Content-Type")
	if strings.HasPrefix(ct, "text/event-stream") {
		copyHeader(w, resp)
		relayEvents(w, resp.Body, answers)
		return
	}
	msg, err := io.ReadAll(resp.Body)
	if err != nil {
		http.Error(w, "faultlens proxy: reading the server: "+err.Error(), http.StatusBadGateway)
		return
	}
	if strings.HasPrefix(ct, "application/json") {
		if changed := answers(bytes.TrimSpace(msg)); !bytes.Equal(changed, bytes.TrimSpace(msg)) {
			msg = changed
		}
	}
	resp.Header.Del("Content-Length")
	copyHeader(w, resp)
	_, _ = w.Write(msg)
}

func copyHeader(w http.ResponseWriter, resp *http.Response) {
	for k, v := range resp.Header {
		if k != "Content-Length" {
			w.Header()[k] = v
		}
	}
	w.WriteHeader(resp.StatusCode)
}

// relayEvents copies a server-sent event stream, passing the data of each
// event through answers, and flushes after every event.
func relayEvents(w http.ResponseWriter, body io.Reader, answers func([]byte) []byte) {
	fl, _ := w.(http.Flusher)
	br := bufio.NewReaderSize(body, 64<<10)
	var event []string // the lines of the event being read
	flush := func() {
		var data []string
		for _, l := range event {
			if v, ok := strings.CutPrefix(l, "data:"); ok {
				data = append(data, strings.TrimPrefix(v, " "))
			}
		}
		if len(data) > 0 {
			joined := strings.Join(data, "\n")
			if changed := answers([]byte(joined)); string(changed) != joined {
				kept := event[:0]
				for _, l := range event {
					if !strings.HasPrefix(l, "data:") {
						kept = append(kept, l)
					}
				}
				event = append(kept, "data: "+string(changed))
			}
		}
		for _, l := range event {
			_, _ = io.WriteString(w, l+"\n")
		}
		_, _ = io.WriteString(w, "\n")
		if fl != nil {
			fl.Flush()
		}
		event = event[:0]
	}
	for {
		line, err := br.ReadString('\n')
		line = strings.TrimRight(line, "\r\n")
		if line == "" && err == nil {
			flush()
			continue
		}
		if line != "" {
			event = append(event, line)
		}
		if err != nil {
			if len(event) > 0 {
				flush()
			}
			return
		}
	}
}

// Close writes the run events of every run the proxy saw.
func (h *HTTP) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.p.writeRuns()
	return h.p.writeErr
}
