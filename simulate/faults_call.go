package simulate

// Parameter and network layer faults.

// acquireBadArgs returns the handler of a parameter fault: the target tool
// rejects the arguments with err. Careful fixes the field under a new
// action (recovery fix_args); naive re-sends the same arguments twice and
// then answers without the claim.
func acquireBadArgs(err *errInfo) func(*sim, int) {
	return func(s *sim, claim int) {
		var t *toolInfo
		switch err {
		case errWrongType:
			t = toolSearch
		default:
			s.call(toolSearch, claim, 0, nil)
			t = s.task.fetch
		}
		bad := s.failed(s.newCall(t, claim, 0), err, s.between(20, 120))
		if s.naive {
			s.blindRetries(bad, err, 2)
			return
		}
		fixed := s.switchTo(bad, t, "fix_args", claim, 1)
		if t == toolSearch {
			s.emit(fixed)
			s.call(s.task.fetch, claim, 0, s.task.src)
			return
		}
		s.attach(fixed, claim, s.task.src)
		s.emit(fixed)
	}
}

// acquireTimeout: the visit times out at the gateway (10 s). Careful backs
// off and retries once; naive hammers it five times in a row, overrunning
// its retry budget.
func acquireTimeout(s *sim, claim int) {
	c := s.fetchFailing(toolVisit, claim, errTimeout, 10_000)
	tries := 1
	if s.naive {
		tries = 4
	}
	for n := 1; n <= tries; n++ {
		c = s.retry(c, s.resendWait(c, n))
		if n < tries {
			s.failed(c, errTimeout, 10_000)
		}
	}
	s.attach(c, claim, srcOfficial)
	s.emit(c)
}

// acquireReset: the connection is reset. Careful retries the same action
// after a backoff; naive starts over with the same search and a fresh visit
// (duplicate calls, and no retry of the failed action).
func acquireReset(s *sim, claim int) {
	c := s.fetchFailing(toolVisit, claim, errReset, s.between(100, 900))
	if s.naive {
		s.now = max(s.now, c.end)
		s.emit(s.newCall(toolSearch, claim, 0))
		v := s.newCall(toolVisit, claim, 0)
		s.attach(v, claim, srcOfficial)
		s.emit(v)
		return
	}
	r := s.retry(c, s.resendWait(c, 1))
	s.attach(r, claim, srcOfficial)
	s.emit(r)
}

// acquireIntermittent: search fails once or twice in a row. Both agents
// retry; careful backs off, naive re-sends at once and then repeats the
// query once more for good measure (a duplicate call).
func acquireIntermittent(s *sim, claim int) {
	c := s.failed(s.newCall(toolSearch, claim, 0), errTransient, s.between(50, 400))
	fails := 1 + s.rng.IntN(2)
	for n := 1; n <= fails; n++ {
		c = s.retry(c, s.resendWait(c, n))
		if n < fails {
			s.failed(c, errTransient, s.between(50, 400))
		}
	}
	s.emit(c)
	if s.naive {
		s.emit(s.newCall(toolSearch, claim, 0))
	}
	s.call(s.task.fetch, claim, 0, s.task.src)
}

// acquirePersistent: the documentation host stays down. Careful retries
// once, is refused by the open breaker (fast_fail), switches to the backup
// mirror (a fallback source) and declares the degradation. Naive calls
// through the open breaker and settles on a reprint, declaring nothing.
func acquirePersistent(s *sim, claim int) {
	c := s.fetchFailing(toolVisit, claim, errUnavailable, s.between(3000, 6000))
	r := s.failed(s.retry(c, s.resendWait(c, 1)), errUnavailable, s.between(3000, 6000))
	if s.naive {
		for range 2 {
			r = s.retry(r, s.hastyWait())
			r.circuit = "open"
			s.failed(r, errUnavailable, s.between(3000, 6000))
		}
		s.settleOnReprint(claim)
		return
	}
	r = s.retry(r, s.resendWait(r, 2))
	r.circuit, r.status, r.err = "open", "fast_fail", errCircuitOpen
	r.start, r.end = r.enq, r.enq+s.rng.Int64N(3)
	s.emit(r)
	m := s.switchTo(r, toolVisit, "switch_source", claim, 1)
	s.attach(m, claim, srcMirror)
	s.emit(m)
	s.degr |= degradeTool
}
