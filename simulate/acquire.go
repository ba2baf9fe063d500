package simulate

// Building blocks of evidence gathering shared by the normal path and the
// fault handlers.

// gather collects evidence for claim c the normal way: a search, then the
// task's fetch tool on the official source.
func (s *sim) gather(c int) {
	s.call(toolSearch, c, 0, nil)
	s.call(s.task.fetch, c, 0, s.task.src)
}

// call runs one action of tool t until it succeeds, producing evidence for
// claim from src when src is not nil. In fault-free runs it now and then
// meets a benign transient error first and re-sends.
func (s *sim) call(t *toolInfo, claim, variant int, src *sourceInfo) *toolCall {
	c := s.newCall(t, claim, variant)
	if s.benign() {
		c.fail(errTransient, s.between(50, 600))
		s.emit(c)
		c = s.retry(c, s.resendWait(c, 1))
	}
	if src != nil {
		s.attach(c, claim, src)
	}
	s.emit(c)
	return c
}

// benign says whether the environment throws a transient error at the next
// call of a fault-free run (about 4% of calls, within the retry budget).
func (s *sim) benign() bool {
	return s.sc.Class == "" && !s.inj.NoTransients && s.resends < s.budget-1 && s.rng.IntN(100) < 4
}

// resendWait is how long the agent waits before re-send n of prev: a
// careful agent backs off exponentially and honours retry_after_ms; a naive
// one re-sends at once.
func (s *sim) resendWait(prev *toolCall, n int) int64 {
	if s.naive {
		return s.hastyWait()
	}
	w := s.backoff(n)
	if prev.retryAfter > 0 {
		w = max(w, prev.retryAfter+s.between(100, 900))
	}
	return w
}

// failed emits a call that fails with err after execMs (drawn when 0).
func (s *sim) failed(c *toolCall, err *errInfo, execMs int64) *toolCall {
	c.fail(err, execMs)
	s.emit(c)
	return c
}

// blindRetries re-sends prev n times, each failing again with err: what a
// naive agent does with errors that re-sending cannot fix.
func (s *sim) blindRetries(prev *toolCall, err *errInfo, n int) *toolCall {
	for range n {
		prev = s.failed(s.retry(prev, s.hastyWait()), err, s.between(30, 300))
	}
	return prev
}

// fetchFailing searches for claim and then makes the fetch tool t fail
// with err, returning the failed call.
func (s *sim) fetchFailing(t *toolInfo, claim int, err *errInfo, execMs int64) *toolCall {
	s.call(toolSearch, claim, 0, nil)
	return s.failed(s.newCall(t, claim, 0), err, execMs)
}

// settleOnReprint is a naive agent's way out: it takes the community
// reprint and confirms it as if it were the original.
func (s *sim) settleOnReprint(claim int) {
	c := s.newCall(toolVisit, claim, 2)
	s.attach(c, claim, srcReprint)
	s.emit(c)
}

// stop ends evidence gathering for a careful agent with the given terminal
// reason and evidence stage outcome.
func (s *sim) stop(reason, outcome string, f *failureInfo) {
	s.stopped = true
	s.reason, s.evOutcome, s.evFailure = reason, outcome, f
}
