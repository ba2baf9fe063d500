// Package proxy is a fault-injecting MCP gateway. It passes JSON-RPC
// messages between an MCP client and a server as the bytes they arrived as,
// answers the tools/call requests a fault plan selects as a failing server
// would, and records every tools/call as contract events.
//
// It frames newline-delimited JSON itself rather than through the SDK's
// transports: those decode every message into typed structs, which would
// drop fields the SDK does not know and the batch framing of older
// protocol versions.
package proxy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"syscall"
	"time"
)

// Options configure a proxy.
type Options struct {
	// Plan is the fault plan; nil injects nothing.
	Plan *Plan
	// Seed fixes the share selectors.
	Seed int64
	// Suite is the suite of the run events.
	Suite string
	// RunID, when set, is the run of every call.
	RunID string
	// SessionID is the run of calls without RunID or a traceparent.
	SessionID string
	// IdempotencyArg names the argument that holds an idempotency key.
	IdempotencyArg string
	// Events receives contract JSON Lines (nil: none).
	Events io.Writer
	// Record receives the upstream's answers for replay (nil: none).
	Record io.Writer
	// Log receives the proxy's own messages.
	Log io.Writer
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Grace is how long a server may take to exit after its stdin closed
	// before it is sent SIGTERM, and as long again before SIGKILL (5s when 0).
	Grace time.Duration
}

func (o *Options) grace() time.Duration {
	if o.Grace <= 0 {
		return 5 * time.Second
	}
	return o.Grace
}

// Proxy is one gateway between a client and an upstream.
type Proxy struct {
	opt   Options
	up    Upstream
	out   *outbox // to the client
	tasks chan func()

	runs     map[string]*run
	order    []*run
	agent    *agentInfo
	tools    map[string]string // tool -> side_effect from tools/list
	pending  map[string]pending
	held     []*heldAnswer
	rounds   map[string]*call // calls waiting for the client's next round
	initMsg  []byte           // the client's initialize, re-sent to a restarted server
	reinitID string
	restarts int
	writeErr error
}

// pending is a client request forwarded to the server.
type pending struct {
	method string
	key    json.RawMessage // the params as recorded (only with Options.Record)
	call   *call           // tools/call only
}

// heldAnswer is a server answer out_of_order keeps back.
type heldAnswer struct {
	msg  []byte
	sent bool
}

// New makes a proxy; Serve runs it.
func New(opt Options) *Proxy {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Suite == "" {
		opt.Suite = "proxy"
	}
	if opt.IdempotencyArg == "" {
		opt.IdempotencyArg = "idempotency_key"
	}
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	return &Proxy{
		opt: opt, tasks: make(chan func(), 64), runs: map[string]*run{},
		tools: map[string]string{}, pending: map[string]pending{}, rounds: map[string]*call{},
	}
}

// Serve passes messages between the client (in, out) and up until the
// client's input ends and the server has gone, or the server goes. The run
// events are written last.
func (p *Proxy) Serve(in io.Reader, out io.Writer, up Upstream) error {
	p.up = up
	p.out = newOutbox(out, nil)
	clientDone := make(chan struct{})
	go func() {
		defer close(clientDone)
		br := bufio.NewReaderSize(in, 64<<10)
		for {
			b, err := br.ReadBytes('\n')
			if t := bytes.TrimRight(b, "\r\n"); len(bytes.TrimSpace(t)) > 0 {
				msg := t
				p.tasks <- func() { p.fromClient(msg) }
			}
			if err != nil {
				if err != io.EOF {
					_, _ = fmt.Fprintf(p.opt.Log, "faultlens proxy: reading the client: %v\n", err)
				}
				return
			}
		}
	}()
	msgs := up.Messages()
	for msgs != nil {
		select {
		case task := <-p.tasks:
			task()
		case msg, ok := <-msgs:
			if !ok {
				msgs = nil
				break
			}
			p.fromServer(msg)
		case <-clientDone:
			clientDone = nil
			// Everything the client sent is queued before its EOF reaches
			// the server.
			p.drainTasks()
			go func() {
				_ = up.Close()
				// A server that does not exit on EOF is stopped, then killed.
				time.AfterFunc(p.opt.grace(), func() { up.Signal(syscall.SIGTERM) })
				time.AfterFunc(2*p.opt.grace(), func() { up.Signal(os.Kill) })
			}()
		}
	}
	p.drainTasks()
	p.flushHeld()
	p.out.close()
	err := p.out.wait()
	p.writeRuns()
	if p.writeErr != nil {
		return p.writeErr
	}
	return err
}

// drainTasks runs the tasks already queued without waiting for more.
func (p *Proxy) drainTasks() {
	for {
		select {
		case task := <-p.tasks:
			task()
		default:
			return
		}
	}
}

// later runs f on the router after d.
func (p *Proxy) later(d time.Duration, f func()) {
	if d <= 0 {
		f()
		return
	}
	time.AfterFunc(d, func() { p.tasks <- f })
}

// recordKey is the request's recording key when recording, else nil.
func (p *Proxy) recordKey(params json.RawMessage) json.RawMessage {
	if p.opt.Record == nil {
		return nil
	}
	return requestKey(params)
}

func (p *Proxy) toClient(msg []byte) { p.out.push(msg) }

func (p *Proxy) fromClient(msg []byte) {
	env, ok := parseEnvelope(msg)
	if !ok {
		p.up.Send(msg)
		return
	}
	switch {
	case env.isRequest() && env.Method == "tools/call":
		p.clientCall(&env, msg)
		return
	case env.isRequest():
		if env.Method == "initialize" {
			p.initMsg = msg
			p.learnClient(env.Params)
		}
		p.pending[idKey(env.ID)] = pending{method: env.Method, key: p.recordKey(env.Params)}
	}
	p.up.Send(msg)
}

func (p *Proxy) fromServer(msg []byte) {
	env, ok := parseEnvelope(msg)
	if !ok || !env.isResponse() {
		p.toClient(msg)
		return
	}
	key := idKey(env.ID)
	if p.reinitID != "" && key == idKey(json.RawMessage(`"`+p.reinitID+`"`)) {
		p.reinitID = ""
		p.up.Send([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
		return
	}
	pend, ok := p.pending[key]
	if !ok {
		p.toClient(msg)
		return
	}
	delete(p.pending, key)
	p.record(pend, &env)
	if pend.call != nil {
		p.serverAnswer(pend.call, &env, msg)
		return
	}
	if pend.method == "tools/list" {
		p.learnTools(env.Result)
	}
	p.toClient(msg)
}

// learnClient keeps the client's name for the run events.
func (p *Proxy) learnClient(params json.RawMessage) {
	var v struct {
		ClientInfo *agentInfo `json:"clientInfo"`
	}
	if json.Unmarshal(params, &v) == nil && v.ClientInfo != nil && v.ClientInfo.Name != "" {
		p.agent = v.ClientInfo
	}
}

// learnTools reads the side effect of each tool from its annotations.
func (p *Proxy) learnTools(result json.RawMessage) {
	var v struct {
		Tools []struct {
			Name        string `json:"name"`
			Annotations *struct {
				ReadOnly   *bool `json:"readOnlyHint"`
				Idempotent *bool `json:"idempotentHint"`
			} `json:"annotations"`
		} `json:"tools"`
	}
	if json.Unmarshal(result, &v) != nil {
		return
	}
	for _, t := range v.Tools {
		a := t.Annotations
		switch {
		case a == nil:
			p.tools[t.Name] = ""
		case a.ReadOnly != nil && *a.ReadOnly:
			p.tools[t.Name] = "none"
		case a.Idempotent != nil && *a.Idempotent:
			p.tools[t.Name] = "idempotent"
		default:
			p.tools[t.Name] = "write"
		}
	}
}

// runFor finds or starts the run a call belongs to.
func (p *Proxy) runFor(cp *callParams, session string, now time.Time) *run {
	id := p.opt.RunID
	if id == "" {
		id = cp.traceID()
	}
	if id == "" {
		id = session
	}
	r := p.runs[id]
	if r == nil {
		r = newRun(id, now)
		p.runs[id] = r
		p.order = append(p.order, r)
	}
	return r
}

// emit writes one event line.
func (p *Proxy) emit(v any) {
	if p.opt.Events == nil || p.writeErr != nil {
		return
	}
	if _, err := p.opt.Events.Write(line(v)); err != nil {
		p.writeErr = fmt.Errorf("write events: %w", err)
	}
}

// writeRuns writes the run event of every run that made a call.
func (p *Proxy) writeRuns() {
	sort.SliceStable(p.order, func(i, j int) bool { return p.order[i].started.Before(p.order[j].started) })
	for _, r := range p.order {
		p.emit(r.event(p.opt.Suite, p.agent))
	}
}
