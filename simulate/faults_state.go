package simulate

// State layer faults.

var (
	failCancelled = &failureInfo{"INTERNAL", false, "cancelled by the user"}
	failRestart   = &failureInfo{"TRANSIENT", true, "worker restarted"}
)

// acquireConcurrent: the two claims are visited in parallel; the first
// visit outlives the agent's 8 s client timeout and its answer arrives
// later. Careful retries after a backoff and ignores the late answer;
// naive retries too but records the late answer as evidence after its
// terminal.
func acquireConcurrent(s *sim, claim int) {
	s.call(toolSearch, claim, 0, nil)
	s.call(toolSearch, claim+1, 0, nil)
	a := s.newCall(toolVisit, claim, 0)
	b := s.newCall(toolVisit, claim+1, 0)
	b.start = min(b.start, a.start+100)
	b.end = b.start + s.span(400, 1400, 7500)
	a.fail(errClientTimeout, 8000)
	s.attach(b, claim+1, srcOfficial)
	if b.end <= a.end {
		s.emit(b)
		s.emit(a)
	} else {
		s.emit(a)
		s.emit(b)
	}
	s.cs[claim+1].handled = true
	r := s.retry(a, s.resendWait(a, 1))
	s.attach(r, claim, srcOfficial)
	s.emit(r)
	if s.naive {
		s.late = lateEvidence{pending: true, call: a.call, claim: claim, src: srcOfficial}
	}
}

// acquireCancel: the user cancels while a visit runs. Careful stops at once
// and commits cancelled; naive commits cancelled too but carries on,
// finishes the answer and commits a second terminal, completed.
func acquireCancel(s *sim, claim int) {
	s.call(toolSearch, claim, 0, nil)
	c := s.newCall(toolVisit, claim, 0)
	c.fail(errCancelled, 0)
	c.end = c.start + (c.end-c.start)/2 + 30
	s.emit(c)
	if !s.naive {
		s.stopped, s.cancelled = true, true
		s.endStage(s.ev, "cancelled", failCancelled, 0)
		return
	}
	s.emitTerminal(c.end+s.between(5, 30), "cancelled", "user_cancelled", 0, 0, 0, false, 0)
	r := s.retry(c, s.hastyWait())
	s.attach(r, claim, srcOfficial)
	s.emit(r)
}

// acquireRestart: the worker restarts during the last claim's visit; the
// evidence stage attempt is interrupted and a second attempt starts after
// the restart. Careful resumes from its checkpoint and retries only the
// interrupted call; naive starts the evidence over (duplicate calls for
// every claim, no retry of the interrupted action).
func acquireRestart(s *sim, claim int) {
	s.call(toolSearch, claim, 0, nil)
	c := s.newCall(toolVisit, claim, 0)
	c.fail(errInterrupted, (c.end-c.start)/2+1)
	s.emit(c)
	s.endStage(s.ev, "interrupted", failRestart, 0)
	s.now += s.between(5000, 20_000)
	s.ev = s.beginStage("evidence", budgetEvidence, 2)
	if !s.naive {
		r := s.retry(c, s.now-c.end)
		s.attach(r, claim, srcOfficial)
		s.emit(r)
		return
	}
	for k := 0; k <= claim; k++ {
		s.gather(k)
	}
}

// deliverStaleOverwrite: the report write finds a newer version. Careful
// reads the current report (query_status) and writes a rebased version
// under a new action; naive re-sends the same write, overwriting the newer
// version.
func deliverStaleOverwrite(s *sim) {
	w := s.failed(s.newCall(toolSave, 0, 0), errStaleVersion, s.between(80, 300))
	if s.naive {
		s.emit(s.retry(w, s.hastyWait()))
		return
	}
	s.emit(s.switchTo(w, toolGetRep, "query_status", 0, 0))
	s.emit(s.newCall(toolSave, 0, 1))
}

// deliverUnknownWrite: the message send times out after the request left,
// so its outcome is unknown. Careful queries the message status (it was
// delivered) and does not re-send; naive re-sends at once without a key,
// delivering the message twice.
func deliverUnknownWrite(s *sim) {
	w := s.failed(s.newCall(toolSend, 0, 0), errUnknownWrite, 5000)
	if s.naive {
		s.emit(s.retry(w, s.hastyWait()))
		return
	}
	s.emit(s.switchTo(w, toolMsgStat, "query_status", 0, 0))
}
