package simulate

// toolCall is one tool call attempt being simulated. Calls are built with
// newCall, retry or switchTo, adjusted (fail, attach) and then emitted.
type toolCall struct {
	tool       *toolInfo
	call       int
	action     int
	attempt    int
	recovery   string
	recoveryOf int
	digest     uint64
	idem       bool // carries an idempotency key
	enq        int64
	start      int64
	end        int64
	status     string
	err        *errInfo
	retryAfter int64
	circuit    string // "" = closed (omitted)
	src        *sourceInfo
	evidence   [3]evidenceRef
	nev        int
	done       []string // completed_scope
	missing    []string // missing_scope
}

// evidenceRef is an evidence event a call produces.
type evidenceRef struct {
	id     int
	claim  int
	status string
}

// alloc returns a zeroed toolCall from the run's slab.
func (s *sim) alloc() *toolCall {
	if s.nslab < len(s.slab) {
		c := &s.slab[s.nslab]
		s.nslab++
		*c = toolCall{}
		return c
	}
	return new(toolCall)
}

// newCall prepares attempt 1 of a new action of tool t. The args digest is
// a function of (run, tool, claim, variant): the same query is the same
// digest.
func (s *sim) newCall(t *toolInfo, claim, variant int) *toolCall {
	c := s.alloc()
	s.nAction++
	c.tool, c.action, c.attempt = t, s.nAction, 1
	c.digest = mix(s.digest ^ t.id<<40 ^ uint64(claim)<<32 ^ uint64(variant))
	c.idem = t.side == "write" && !s.naive
	s.place(c, s.now+s.think())
	return c
}

// place numbers c and sets its times: enqueued at enq, a typical queue wait,
// a typical execution time, status ok.
func (s *sim) place(c *toolCall, enq int64) {
	s.nCall++
	c.call = s.nCall
	c.enq = enq
	c.start = enq + s.queue()
	c.end = c.start + scale(s.span(c.tool.execMin, c.tool.execAvg, c.tool.execCap), s.toolExecScale(c.tool))
	c.status = "ok"
}

// retry prepares the next attempt of prev's action, enqueued wait ms after
// prev ended.
func (s *sim) retry(prev *toolCall, wait int64) *toolCall {
	c := s.alloc()
	c.tool, c.action, c.attempt, c.digest, c.idem = prev.tool, prev.action, prev.attempt+1, prev.digest, prev.idem
	c.recovery, c.recoveryOf = "retry", prev.call
	s.place(c, prev.end+wait)
	return c
}

// switchTo prepares a new action that recovers from prev by the given
// strategy move (fix_args, switch_source, ...).
func (s *sim) switchTo(prev *toolCall, t *toolInfo, recovery string, claim, variant int) *toolCall {
	s.now = max(s.now, prev.end)
	c := s.newCall(t, claim, variant)
	c.recovery, c.recoveryOf = recovery, prev.call
	return c
}

// fail makes c fail with err after execMs of execution (its drawn execution
// time when execMs is 0).
func (c *toolCall) fail(err *errInfo, execMs int64) {
	c.status, c.err = "error", err
	if execMs > 0 {
		c.end = c.start + execMs
	}
}

// attach makes c produce evidence for claim from src. A careful agent
// confirms it only when it meets the run's min_grade and keeps it as a
// candidate otherwise; a naive agent confirms anything.
func (s *sim) attach(c *toolCall, claim int, src *sourceInfo) {
	c.src = src
	status := "confirmed"
	if !s.naive && src.grade < s.minGrade {
		status = "candidate"
	}
	s.nEvidence++
	c.evidence[c.nev] = evidenceRef{id: s.nEvidence, claim: claim, status: status}
	c.nev++
}

// emit renders c and its evidence and advances the clock to its end.
func (s *sim) emit(c *toolCall) {
	if c.attempt > 1 {
		s.resends++
	}
	s.renderCall(c)
	for _, ev := range c.evidence[:c.nev] {
		s.emitEvidence(ev.id, ev.claim, c.call, c.src, ev.status, c.end+1)
		cs := &s.cs[ev.claim]
		switch ev.status {
		case "confirmed":
			if !cs.confirmed || c.src.grade > cs.grade {
				cs.grade = c.src.grade
			}
			cs.confirmed = true
			cs.degraded = cs.degraded || degradedPath(c.src)
		case "candidate":
			cs.candidate = true
		}
	}
	s.now = max(s.now, c.end)
}

// renderCall writes the tool_call event of c.
func (s *sim) renderCall(c *toolCall) {
	e, t := &s.e, c.tool
	s.beginEvent("tool_call", c.end)
	e.id("call_id", "/c", c.call)
	e.id("action_id", "/a", c.action)
	if c.attempt > 1 { // absent means 1
		e.num("attempt", int64(c.attempt))
	}
	if c.recovery != "" {
		e.str("recovery", c.recovery)
		e.id("recovery_of", "/c", c.recoveryOf)
	}
	e.str("tool", t.name)
	e.str("tool_version", t.version)
	e.str("tool_schema", t.schema)
	e.key("args_digest")
	e.b = append(e.b, '"')
	e.b = appendHex(e.b, c.digest, 16)
	e.b = append(e.b, '"')
	if t.side != "" {
		e.str("side_effect", t.side)
	}
	if c.idem {
		e.id("idempotency_key", "/k", c.action)
	}
	e.time("enqueued_at", c.enq)
	e.time("started_at", c.start)
	e.time("ended_at", c.end)
	e.str("status", c.status)
	if c.err != nil {
		e.open("error")
		e.str("code", c.err.code)
		e.str("category", c.err.category)
		e.boolean("retryable", c.err.retryable)
		if c.retryAfter > 0 {
			e.num("retry_after_ms", c.retryAfter)
		}
		e.str("side_effect_state", c.err.side)
		e.str("message", c.err.message)
		e.close()
	}
	if c.circuit != "" {
		e.str("circuit", c.circuit)
	}
	if c.src != nil {
		e.open("source")
		e.str("name", c.src.name)
		e.str("grade", c.src.grade.String())
		e.boolean("fallback", c.src.fallback)
		e.close()
	}
	if c.nev > 0 {
		e.openArray("evidence_ids")
		for _, ev := range c.evidence[:c.nev] {
			e.elemID("/e", ev.id)
		}
		e.closeArray()
	}
	if c.status == "partial" {
		e.openArray("completed_scope")
		for _, v := range c.done {
			e.elemStr(v)
		}
		e.closeArray()
		e.openArray("missing_scope")
		for _, v := range c.missing {
			e.elemStr(v)
		}
		e.closeArray()
	}
	s.endEvent()
}
