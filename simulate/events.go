package simulate

// Rendering of the six event types. Each emit* renders one line into the
// run's buffer; beginEvent and endEvent keep ts monotone and count seq.

// beginEvent opens an event emitted at ts; an event never precedes the one
// emitted before it in the same run.
func (s *sim) beginEvent(typ string, ts int64) {
	ts = max(ts, s.lastTS)
	s.lastTS, s.curTS = ts, ts
	s.seq++
	s.e.begin(typ, ts, s.seq)
}

func (s *sim) endEvent() {
	s.e.end()
	s.out.ts = append(s.out.ts, s.curTS)
	s.out.ends = append(s.out.ends, len(s.e.b))
}

// emitRun writes the run event.
func (s *sim) emitRun() {
	p, sc, e := &s.p, s.sc, &s.e
	s.beginEvent("run", p.start)
	e.num("schema_version", 1)
	e.str("suite", s.suite)
	e.str("scenario", sc.Name)
	if sc.Class != "" {
		e.open("fault")
		e.str("class", sc.Class)
		e.str("kind", sc.Kind)
		e.str("target_tool", sc.TargetTool)
		e.open("expect")
		e.str("action", sc.ExpectAction)
		e.str("terminal", sc.ExpectTerminal)
		e.close()
		e.close()
	}
	e.open("agent")
	if s.naive {
		e.str("name", "naive-agent")
		e.str("version", "0.9.0")
	} else {
		e.str("name", "careful-agent")
		e.str("version", "1.4.2")
	}
	e.close()
	e.key("client_message_id")
	e.b = append(e.b, `"msg-`...)
	e.b = appendHex(e.b, mix(uint64(s.seed)^uint64(p.msgIdx)<<8), 12)
	e.b = append(e.b, '"')
	if p.causeIdx >= 0 {
		e.open("caused_by")
		e.key("run_id")
		e.b = append(e.b, '"')
		e.b = appendEscaped(e.b, runID(s.suite, s.seed, p.causeIdx))
		e.b = append(e.b, '"')
		e.str("cause", p.cause)
		e.close()
	}
	e.open("task")
	e.str("kind", s.task.name)
	e.boolean("requires_current_evidence", s.task.current)
	e.num("evidence_required", int64(s.claims))
	e.str("min_grade", s.minGrade.String())
	e.close()
	e.num("deadline_ms", s.deadline)
	e.num("retry_budget", int64(s.budget))
	e.time("started_at", p.start)
	s.endEvent()
}

// stageRun is one stage attempt in progress.
type stageRun struct {
	id      int
	name    string
	attempt int
	enq     int64
	start   int64
	budget  int64
	ended   bool
}

// failureInfo is a stage's failure object.
type failureInfo struct {
	category  string
	retryable bool
	reason    string
}

// emitStage writes a finished stage attempt. planValid is written on
// planning stages only; visible when positive.
func (s *sim) emitStage(st *stageRun, end int64, outcome string, f *failureInfo, visible int) {
	e := &s.e
	s.beginEvent("stage", end)
	e.local("stage_id", "s", st.id)
	e.str("stage", st.name)
	if st.attempt > 1 { // absent means 1
		e.num("attempt", int64(st.attempt))
	}
	e.time("enqueued_at", st.enq)
	e.time("started_at", st.start)
	e.time("ended_at", end)
	e.str("outcome", outcome)
	if st.name == "planning" {
		e.boolean("plan_valid", outcome == "ok")
	}
	if f != nil {
		e.open("failure")
		e.str("category", f.category)
		e.boolean("retryable", f.retryable)
		e.str("reason", f.reason)
		e.close()
	}
	if visible > 0 {
		e.num("visible_chars", int64(visible))
	}
	e.num("budget_ms", st.budget)
	s.endEvent()
}

// emitModel writes a model call.
func (s *sim) emitModel(role string, st *stageRun, enq, start, end int64, outcome string) {
	e := &s.e
	s.nModel++
	s.beginEvent("model_call", end)
	e.id("call_id", "/m", s.nModel)
	e.str("role", role)
	e.local("stage_id", "s", st.id)
	e.time("enqueued_at", enq)
	e.time("started_at", start)
	e.time("ended_at", end)
	e.str("outcome", outcome)
	s.endEvent()
}

// emitEvidence writes one evidence event.
func (s *sim) emitEvidence(id, claim, call int, src *sourceInfo, status string, ts int64) {
	e := &s.e
	s.beginEvent("evidence", ts)
	e.id("evidence_id", "/e", id)
	e.str("claim", s.task.claims[claim])
	e.id("call_id", "/c", call)
	e.str("grade", src.grade.String())
	if degradedPath(src) {
		e.str("path", "degraded")
	} else {
		e.str("path", "direct")
	}
	e.str("status", status)
	s.endEvent()
}

// degradedPath says whether evidence from src came by a degraded path: a
// fallback source, or a copy (reprint, cache) instead of the original.
func degradedPath(src *sourceInfo) bool {
	return src.fallback || src.grade <= gradeReprint
}

// emitTerminal writes a terminal event at ts.
func (s *sim) emitTerminal(ts int64, terminal, reason string, visible, committed, rejected int, gaps bool, d degradation) {
	e := &s.e
	s.beginEvent("terminal", ts)
	e.str("terminal", terminal)
	e.str("reason", reason)
	e.num("visible_chars", int64(visible))
	e.num("chunks_committed", int64(committed))
	e.num("chunks_rejected", int64(rejected))
	e.boolean("disclosed_gaps", gaps)
	if d != 0 {
		e.openArray("degradations")
		for i, name := range degradationNames {
			if d&(1<<i) != 0 {
				e.elemStr(name)
			}
		}
		e.closeArray()
	}
	s.endEvent()
}

// appendHex appends the low n hex digits of v.
func appendHex(b []byte, v uint64, n int) []byte {
	const digits = "0123456789abcdef"
	for i := n - 1; i >= 0; i-- {
		b = append(b, digits[(v>>(uint(i)*4))&0xf])
	}
	return b
}
