package proxy

import (
	"encoding/json"
	"fmt"
	"time"
)

// clientCall handles a tools/call from the client: it places the call in
// its run, consults the breaker and the plan, and forwards, delays or
// answers it.
func (p *Proxy) clientCall(env *envelope, msg []byte) {
	now := p.opt.Now()
	var cp callParams
	_ = json.Unmarshal(env.Params, &cp) // a malformed call is the server's to refuse
	if len(cp.InputResponses) > 0 {
		if c, ok := p.rounds[roundKey(cp.Name, cp.RequestState)]; ok {
			// The next round of a multi round-trip call is the same attempt.
			delete(p.rounds, roundKey(cp.Name, cp.RequestState))
			c.id = env.ID
			p.pending[idKey(c.id)] = pending{method: "tools/call", key: p.recordKey(env.Params), call: c}
			p.up.Send(msg)
			return
		}
	}
	c := p.admit(env.ID, &cp, p.opt.SessionID, now)
	if c.status == "fast_fail" {
		p.answer(c, c.errorResult(*c.err))
		return
	}
	if c.sample == nil {
		p.forward(c, msg)
		return
	}
	f := c.sample.Fault
	kind := faultKinds[f.Kind]
	switch kind.act {
	case actAnswer:
		c.start = now
		e := kind.err(f)
		c.status, c.err = "error", &e
		p.later(time.Duration(f.delay())*time.Millisecond, func() { p.answer(c, c.errorResult(e)) })
	case actProtocol:
		c.start = now
		e := kind.err(f)
		c.status, c.err = "error", &e
		p.answer(c, c.protocolError(e))
	case actRestart:
		c.start = now
		e := kind.err(f)
		c.status, c.err = "error", &e
		p.restart(c)
	case actQueue:
		p.later(time.Duration(f.delay())*time.Millisecond, func() { p.forward(c, msg) })
	default: // partial, unknown_outcome, out_of_order act on the server's answer
		p.forward(c, msg)
	}
}

func ptr[T any](v T) *T { return &v }

// admit places a new tools/call in its run and decides its fate: refused
// by an open breaker (status fast_fail) or given the first sample that
// selects it (c.sample), else passed on. It only decides; the caller acts.
func (p *Proxy) admit(id json.RawMessage, cp *callParams, session string, now time.Time) *call {
	r := p.runFor(cp, session, now)
	c := &call{run: r, id: id, tool: cp.Name, digest: argsDigest(cp.Name, cp.Arguments),
		side: p.tools[cp.Name], traceID: cp.traceID(), enq: now}
	c.idemKey = idempotencyKey(cp.Arguments, p.opt.IdempotencyArg)
	var plan Plan
	if p.opt.Plan != nil {
		plan = *p.opt.Plan
	}
	r.place(c, cp, plan.Moves)
	if b := r.breakerFor(plan.Breaker, c.tool); b != nil {
		state, left := b.arrive(plan.Breaker, now)
		c.circuit = state
		if state == circuitOpen && plan.Breaker.Mode == "enforce" {
			c.start = now
			c.status, c.err = "fast_fail", ptr(breakerOpen(left))
			return c
		}
	}
	for i := range plan.Samples {
		s := &plan.Samples[i]
		if !s.matches(c.tool, c.side) {
			continue
		}
		r.perSample[i]++
		if c.sample == nil && s.selects(r.perSample[i], p.opt.Seed, i) {
			c.sample, c.sampleIdx = s, i
			if r.fired == nil {
				r.fired, r.firedTool = s, c.tool
			}
		}
	}
	return c
}

// forward sends the call to the server; its answer finishes it.
func (p *Proxy) forward(c *call, msg []byte) {
	c.start = p.opt.Now()
	env, _ := parseEnvelope(msg)
	p.pending[idKey(c.id)] = pending{method: "tools/call", key: p.recordKey(env.Params), call: c}
	p.up.Send(msg)
}

// serverAnswer finishes a forwarded call with the server's answer, changed
// as the call's fault says.
func (p *Proxy) serverAnswer(c *call, env *envelope, msg []byte) {
	if round := inputRequired(env); round != nil {
		// The server asks the client for input before it answers (multi
		// round-trip requests): the call goes on in the client's next round.
		p.rounds[roundKey(c.tool, round.RequestState)] = c
		p.toClient(msg)
		return
	}
	c.end = p.opt.Now()
	c.judge(env)
	if c.sample == nil {
		p.deliver(c, msg)
		return
	}
	f := c.sample.Fault
	switch faultKinds[f.Kind].act {
	case actPartial:
		if env.Error != nil || c.status != "ok" {
			break // nothing to cut from a failure
		}
		cut, err := c.cutShort(env, f.Keep)
		if err != nil {
			_, _ = fmt.Fprintf(p.opt.Log, "faultlens proxy: partial %s: the result is not a tool result (%v); passed on whole\n", c.callID, err)
			break
		}
		c.status, msg = "partial", cut
	case actUnknown:
		e := faultKinds[f.Kind].err(f)
		c.status, c.err = "error", &e
		p.later(time.Duration(f.delay())*time.Millisecond, func() { p.answer(c, c.errorResult(e)) })
		return
	case actHold:
		h := &heldAnswer{msg: msg}
		p.held = append(p.held, h)
		p.later(time.Duration(f.delay())*time.Millisecond, func() {
			if !h.sent {
				h.sent = true
				p.toClient(h.msg)
			}
		})
		p.finish(c)
		return
	}
	p.deliver(c, msg)
}

// answer sends an answer the proxy made up, at the time the call ends.
func (p *Proxy) answer(c *call, msg []byte) {
	c.end = p.opt.Now()
	p.deliver(c, msg)
}

// deliver sends a call's answer to the client, then any answers held back
// behind it, and records the call.
func (p *Proxy) deliver(c *call, msg []byte) {
	p.toClient(msg)
	p.flushHeld()
	p.finish(c)
}

// flushHeld sends the answers out_of_order held back.
func (p *Proxy) flushHeld() {
	for _, h := range p.held {
		if !h.sent {
			h.sent = true
			p.toClient(h.msg)
		}
	}
	p.held = p.held[:0]
}

// finish records a call and feeds its outcome to the breaker and the
// recovery inference.
func (p *Proxy) finish(c *call) {
	r := c.run
	if p.opt.Plan != nil {
		if b := r.breakerFor(p.opt.Plan.Breaker, c.tool); b != nil && c.status != "fast_fail" {
			b.settle(p.opt.Plan.Breaker, c)
		}
	}
	r.finished(c)
	r.seq++
	p.emit(c.event(r.seq))
}

// restart answers the call as a crashed server's client would see it, and
// every other request the old server still owed, then starts the server
// again and repeats the client's initialize to it.
func (p *Proxy) restart(c *call) {
	e := *c.err
	p.answer(c, c.protocolError(e))
	for key, pend := range p.pending {
		delete(p.pending, key)
		if pend.call != nil {
			pc := pend.call
			pc.status, pc.err = "error", &e
			p.answer(pc, pc.protocolError(e))
			continue
		}
		var id json.RawMessage = []byte(key)
		p.toClient(errorResponse(id, rpcError{Code: -32000, Message: e.Message}))
	}
	if err := p.up.Restart(); err != nil {
		_, _ = fmt.Fprintf(p.opt.Log, "faultlens proxy: restart the server: %v\n", err)
		return
	}
	p.restarts++
	if p.initMsg != nil {
		p.reinitID = fmt.Sprintf("faultlens-reinit-%d", p.restarts)
		msg, err := withID(p.initMsg, p.reinitID)
		if err == nil {
			p.up.Send(msg)
		}
	}
}

// idempotencyKey is the string argument named arg, or "".
func idempotencyKey(args json.RawMessage, arg string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(m[arg], &s) != nil {
		return ""
	}
	return s
}

// roundOf is the part of a tools/call result that asks for another round.
type roundOf struct {
	InputRequests json.RawMessage `json:"inputRequests"`
	RequestState  string          `json:"requestState"`
}

// inputRequired returns the round a result asks for, or nil for a final
// result.
func inputRequired(env *envelope) *roundOf {
	var r roundOf
	if env.Error != nil || json.Unmarshal(env.Result, &r) != nil || isNull(r.InputRequests) || string(r.InputRequests) == "{}" {
		return nil
	}
	return &r
}

// roundKey matches a call's next round to it: by the server's request
// state when it gave one, else by tool.
func roundKey(tool, state string) string {
	return tool + "\x00" + state
}
