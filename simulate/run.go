package simulate

// Stage budgets in ms.
const (
	budgetPlanning   = 15_000
	budgetEvidence   = 90_000
	budgetGeneration = 30_000
	budgetReview     = 20_000
	budgetDelivery   = 10_000
)

var (
	failPlannerTimeout = &failureInfo{"TIMEOUT", true, "planner did not answer in time"}
	failPlanInvalid    = &failureInfo{"PARSE", false, "plan failed schema validation"}
	failEvidence       = &failureInfo{"NOT_FOUND", false, "required evidence not confirmed"}
	failStream         = &failureInfo{"TRANSIENT", true, "stream closed before the last chunk"}
)

// simulate renders the whole run of plan p into out.
func (s *sim) simulate(p runPlan, out *runLines) {
	s.reset(p, out)
	s.draw()
	s.emitRun()
	if !s.planning() {
		s.emitTerminal(s.now+s.between(2, 20), "failed", "planning_failed", 0, 0, 0, false, 0)
		s.done()
		return
	}
	s.evidence()
	if s.cancelled {
		s.emitTerminal(s.now+s.between(2, 20), "cancelled", "user_cancelled", 0, 0, 0, false, 0)
		s.done()
		return
	}
	terminal, reason := s.verdict()
	visible := 0
	if terminal == "failed" {
		visible = s.explain()
	} else {
		visible = s.generation(terminal == "partial")
		if s.review {
			s.reviewStage()
		}
		s.delivery(visible)
	}
	chunks := (visible + 399) / 400
	rejected := 0
	if s.streamReject {
		rejected = 1 + s.rng.IntN(2)
		chunks -= rejected
	}
	if s.sealLate {
		// The terminal was committed while delivery was still running; the
		// delivery stage event lands after it.
		s.emitTerminal(s.now-s.between(100, 400), terminal, reason, visible, chunks, rejected, s.gaps, s.degr)
		s.flushDelivery()
	} else {
		s.emitTerminal(s.now+s.between(2, 20), terminal, reason, visible, chunks, rejected, s.gaps, s.degr)
	}
	if s.late.pending {
		l := s.late
		s.nEvidence++
		s.emitEvidence(s.nEvidence, l.claim, l.call, l.src, "confirmed", s.now+s.between(300, 1500))
	}
	s.done()
}

// done hands the rendered buffer back to the run's lines.
func (s *sim) done() { s.out.buf = s.e.b }

// beginStage starts a stage attempt now.
func (s *sim) beginStage(name string, budget int64, attempt int) *stageRun {
	st := &s.st[s.nStage%len(s.st)]
	s.nStage++
	*st = stageRun{id: s.nStage, name: name, attempt: attempt, budget: budget}
	st.enq = s.now + s.think()
	st.start = st.enq + s.rng.Int64N(30)
	s.now = st.start
	return st
}

// endStage ends st a moment after the clock.
func (s *sim) endStage(st *stageRun, outcome string, f *failureInfo, visible int) {
	end := s.now + s.between(2, 12)
	s.emitStage(st, end, outcome, f, visible)
	st.ended = true
	s.now = end
}

// modelCall runs a model call of role inside st taking about exec ms.
func (s *sim) modelCall(role string, st *stageRun, exec int64, outcome string) {
	enq := s.now + s.between(1, 5)
	start := enq + s.queue()
	end := start + scale(exec, s.inj.ExecScale)
	s.emitModel(role, st, enq, start, end, outcome)
	s.now = end
}

// planning runs the planning stage. It reports false when a careful agent
// must stop because no valid plan exists. A naive agent goes on anyway.
func (s *sim) planning() bool {
	st := s.beginStage("planning", budgetPlanning, 1)
	if !s.p.plannerFault {
		s.modelCall("planner", st, s.span(1500, 1500, 8000), "ok")
		s.endStage(st, "ok", nil, 0)
		return true
	}
	s.modelCall("planner", st, 14_000, "timeout")
	s.endStage(st, "timeout", failPlannerTimeout, 0)
	if s.naive {
		return true
	}
	st = s.beginStage("planning", budgetPlanning, 2)
	if s.rng.IntN(4) > 0 {
		s.modelCall("planner", st, s.span(1500, 1500, 8000), "ok")
		s.endStage(st, "ok", nil, 0)
		return true
	}
	s.modelCall("planner", st, s.span(1500, 1500, 8000), "failed")
	s.endStage(st, "failed", failPlanInvalid, 0)
	return false
}

// evidence runs the evidence stage: each claim is gathered by the
// scenario's handler when it is the fault's target, else normally.
func (s *sim) evidence() {
	s.ev = s.beginStage("evidence", budgetEvidence, 1)
	target := 0
	if s.sc.targetLast {
		target = s.claims - 1
	}
	injected := false
	for c := 0; c < s.claims && !s.stopped; c++ {
		if s.cs[c].handled {
			continue
		}
		if c == target && s.sc.acquire != nil {
			s.sc.acquire(s, c)
			continue
		}
		if s.dupQuery && c > 0 {
			s.emit(s.newCall(toolSearch, c-1, 0)) // the previous query again
		}
		if !injected { // the first claim gathered normally carries the injection
			injected = true
			if s.p.inj.invalid {
				s.invalidResend(c)
			}
			if s.p.inj.lost || s.p.inj.mask {
				s.loseEvidence(c)
				continue
			}
		}
		s.gather(c)
	}
	if s.ev.ended {
		return
	}
	if s.naive || s.satisfied() {
		s.endStage(s.ev, "ok", nil, 0)
		return
	}
	outcome, f := s.evOutcome, s.evFailure
	if outcome == "" {
		outcome = "failed"
	}
	if f == nil {
		f = failEvidence
	}
	s.endStage(s.ev, outcome, f, 0)
}

// satisfied applies the evaluator's evidence gate to what the run holds.
func (s *sim) satisfied() bool {
	n := 0
	for _, cs := range s.cs[:s.claims] {
		if cs.confirmed && cs.grade >= s.minGrade {
			n++
		}
	}
	return n >= s.claims
}

// verdict is the terminal the agent claims. A naive agent always claims
// success; a careful one claims what its evidence supports and declares
// the degradations and gaps.
func (s *sim) verdict() (terminal, reason string) {
	if s.naive || s.p.inj.mask {
		return "completed", "ok"
	}
	terminal, reason = s.carefulVerdict()
	if exp := s.sc.ExpectTerminal; s.p.inj.wrongTerminal && exp != "" && terminal == exp {
		terminal = wrongTerminalFor(exp)
		if reason == "ok" {
			reason = "evidence_missing"
		}
	}
	return terminal, reason
}

// carefulVerdict is what a careful agent claims.
func (s *sim) carefulVerdict() (terminal, reason string) {
	for _, cs := range s.cs[:s.claims] {
		if cs.confirmed && cs.degraded {
			s.degr |= degradeEvidence
		}
	}
	if s.satisfied() {
		return "completed", "ok"
	}
	s.gaps = true
	if s.reason == "" {
		s.reason = "evidence_missing"
	}
	for _, cs := range s.cs[:s.claims] {
		if cs.confirmed || cs.candidate {
			s.degr |= degradeEvidence
			return "partial", s.reason
		}
	}
	return "failed", s.reason
}
