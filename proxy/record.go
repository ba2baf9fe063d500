package proxy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// recorded is one line of a recording: a request's method and params
// (without _meta, canonical JSON) and the server's answer to it.
type recorded struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *rpcError       `json:"error,omitempty"`
}

// requestKey is the request's params without _meta as canonical JSON: the
// same request made again has the same key, whatever its id, progress token
// or trace context.
func requestKey(params json.RawMessage) json.RawMessage {
	if len(params) == 0 {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(params, &m) != nil {
		return params
	}
	delete(m, "_meta")
	b, _ := json.Marshal(m)
	return b
}

// record writes the server's answer to a forwarded request.
func (p *Proxy) record(pend pending, env *envelope) {
	if p.opt.Record == nil || p.writeErr != nil {
		return
	}
	rec := recorded{Method: pend.method, Params: pend.key, Result: env.Result, Error: env.Error}
	if _, err := p.opt.Record.Write(line(rec)); err != nil {
		p.writeErr = fmt.Errorf("write the recording: %w", err)
	}
}

// Replay is an upstream that answers from a recording: each request gets
// the first unused answer recorded for the same method and params, else the
// first unused one of the same method (a client whose initialize differs in
// its version still starts); once all are used, the last one again; a
// method never recorded gets a JSON-RPC error.
type Replay struct {
	answers map[string][]*recorded // method + params -> answers in order
	byMeth  map[string][]*recorded
	used    map[*recorded]bool
	out     *outbox
	msgs    chan []byte
}

// LoadReplay reads a recording written with Options.Record.
func LoadReplay(path string) (*Replay, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	defer func() { _ = f.Close() }() // read only
	r := &Replay{answers: map[string][]*recorded{}, byMeth: map[string][]*recorded{}, used: map[*recorded]bool{}, msgs: make(chan []byte, 16)}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		rec := new(recorded)
		if err := json.Unmarshal(sc.Bytes(), rec); err != nil || rec.Method == "" {
			return nil, fmt.Errorf("replay %s:%d: not a recorded answer", path, n)
		}
		k := rec.Method + "\x00" + string(rec.Params)
		r.answers[k] = append(r.answers[k], rec)
		r.byMeth[rec.Method] = append(r.byMeth[rec.Method], rec)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("replay %s: %w", path, err)
	}
	r.out = newOutbox(chanWriter(r.msgs), func() error { close(r.msgs); return nil })
	return r, nil
}

// chanWriter delivers each written line as one message.
type chanWriter chan []byte

func (w chanWriter) Write(b []byte) (int, error) {
	w <- bytes.TrimSuffix(append([]byte(nil), b...), []byte("\n"))
	return len(b), nil
}

// Send implements Upstream: requests are answered, notifications and the
// client's answers to server requests have nobody to go to.
func (r *Replay) Send(msg []byte) {
	env, ok := parseEnvelope(msg)
	if !ok || !env.isRequest() {
		return
	}
	same := r.answers[env.Method+"\x00"+string(requestKey(env.Params))]
	rec := r.take(same)
	if rec == nil {
		rec = r.take(r.byMeth[env.Method])
	}
	if rec == nil && len(same) > 0 {
		rec = same[len(same)-1]
	}
	if all := r.byMeth[env.Method]; rec == nil && len(all) > 0 {
		rec = all[len(all)-1]
	}
	switch {
	case rec == nil:
		r.out.push(errorResponse(env.ID, rpcError{Code: -32601, Message: "faultlens proxy --replay: no recorded answer to " + env.Method}))
	case rec.Error != nil:
		r.out.push(errorResponse(env.ID, *rec.Error))
	default:
		r.out.push(response(env.ID, rec.Result))
	}
}

func (r *Replay) take(list []*recorded) *recorded {
	for _, rec := range list {
		if !r.used[rec] {
			r.used[rec] = true
			return rec
		}
	}
	return nil
}

// Messages implements Upstream.
func (r *Replay) Messages() <-chan []byte { return r.msgs }

// Restart implements Upstream: a recording has no process to restart.
func (r *Replay) Restart() error { return nil }

// Close implements Upstream.
func (r *Replay) Close() error {
	r.out.close()
	return r.out.wait()
}

// Signal implements Upstream: nothing to signal.
func (r *Replay) Signal(os.Signal) {}

var _ io.Writer = chanWriter(nil)
