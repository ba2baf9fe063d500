package simulate

// Service and resource layer faults.

// acquireRateLimit: search answers RATE_LIMIT with retry_after_ms. Careful
// waits at least that long; naive re-sends within the window three times.
func acquireRateLimit(s *sim, claim int) {
	c := s.newCall(toolSearch, claim, 0)
	c.retryAfter = s.between(2000, 8000)
	s.failed(c, errRateLimit, s.between(40, 150))
	if s.naive {
		for range 2 {
			r := s.retry(c, s.hastyWait())
			r.retryAfter = max(c.retryAfter-(r.start-c.end), 400)
			c = s.failed(r, errRateLimit, s.between(40, 150))
		}
		c = s.retry(c, c.retryAfter/3)
	} else {
		c = s.retry(c, s.resendWait(c, 1))
	}
	s.emit(c)
	s.call(s.task.fetch, claim, 0, s.task.src)
}

// acquireQueueBacklog: the python job waits about 347 s in the queue and
// then runs about 13 s (the seeds' diagnosis case). Careful waits it out;
// naive gives up after 60 s of queueing and re-sends, queueing again.
func acquireQueueBacklog(s *sim, claim int) {
	s.call(toolSearch, claim, 0, nil)
	c := s.newCall(toolPython, claim, 0)
	if s.naive {
		c.start = c.enq + 60_000 // never left the queue
		c.end = c.start
		c.status, c.err = "error", errClientTimeout
		s.emit(c)
		c = s.retry(c, s.hastyWait())
	}
	c.start = c.enq + 347_000 + s.rng.Int64N(1000)
	c.end = c.start + 13_000 + s.rng.Int64N(1000)
	s.attach(c, claim, srcDataset)
	s.emit(c)
}

// acquirePartialReturn: one scholar call should cover two claims and
// returns only the first (status partial with completed and missing
// scope). Careful delivers partial and declares the tool degradation and
// the gap; naive claims completed.
func acquirePartialReturn(s *sim, claim int) {
	s.call(toolSearch, claim, 0, nil)
	c := s.newCall(toolScholar, claim, 0)
	c.status = "partial"
	c.done, c.missing = s.task.claims[claim:claim+1], s.task.claims[claim+1:claim+2]
	s.attach(c, claim, srcScholar)
	s.emit(c)
	s.cs[claim+1].handled = true
	s.stopped = true
	if !s.naive {
		s.degr |= degradeTool
		s.reason, s.evOutcome = "evidence_missing", "failed"
	}
}

// acquireBackupDown: the primary host and its authorised backup are both
// down. Careful retries once (half-open probe), switches to the backup,
// then keeps a reprint as a candidate only and stops with partial. Naive
// calls through the open breaker and confirms the reprint.
func acquireBackupDown(s *sim, claim int) {
	c := s.fetchFailing(toolVisit, claim, errUnavailable, s.between(2000, 5000))
	if s.naive {
		r := s.failed(s.retry(c, s.hastyWait()), errUnavailable, s.between(2000, 5000))
		r = s.retry(r, s.hastyWait())
		r.circuit = "open"
		s.failed(r, errUnavailable, s.between(2000, 5000))
		s.settleOnReprint(claim)
		return
	}
	r := s.retry(c, s.resendWait(c, 1))
	r.circuit = "half_open"
	s.failed(r, errUnavailable, s.between(2000, 5000))
	b := s.switchTo(r, toolVisit, "switch_source", claim, 1)
	b.src = srcBackup
	s.failed(b, errUnavailable, s.between(1000, 3000))
	rp := s.switchTo(b, toolVisit, "switch_source", claim, 2)
	s.attach(rp, claim, srcReprint)
	s.emit(rp)
	s.degr |= degradeTool
	s.stop("tool_unavailable", "failed", &failureInfo{"UNAVAILABLE", true, "primary and backup source unavailable"})
}

// acquireNotFound: the page is gone. Careful goes back to search for its
// new location; naive re-sends the 404 twice and settles on a reprint.
func acquireNotFound(s *sim, claim int) {
	c := s.fetchFailing(toolVisit, claim, errNotFound, s.between(100, 400))
	if s.naive {
		s.blindRetries(c, errNotFound, 2)
		s.settleOnReprint(claim)
		return
	}
	s.emit(s.switchTo(c, toolSearch, "back_to_search", claim, 1))
	v := s.newCall(toolVisit, claim, 1)
	s.attach(v, claim, srcRelease)
	s.emit(v)
}

// acquireRedirectLoop: the page redirects in a loop. Careful reads the
// release notes instead; naive re-sends twice and settles on a reprint.
func acquireRedirectLoop(s *sim, claim int) {
	c := s.fetchFailing(toolVisit, claim, errRedirectLoop, s.between(300, 1500))
	if s.naive {
		s.blindRetries(c, errRedirectLoop, 2)
		s.settleOnReprint(claim)
		return
	}
	v := s.switchTo(c, toolVisit, "switch_source", claim, 1)
	s.attach(v, claim, srcRelease)
	s.emit(v)
}

// acquireEmptyPage: the page needs scripts to show text. Careful renders it
// with the browser tool; naive re-sends the visit twice and answers without
// the claim.
func acquireEmptyPage(s *sim, claim int) {
	c := s.fetchFailing(toolVisit, claim, errEmptyPage, s.between(300, 1500))
	if s.naive {
		s.blindRetries(c, errEmptyPage, 2)
		return
	}
	b := s.switchTo(c, toolBrowser, "switch_tool", claim, 0)
	s.attach(b, claim, srcOfficial)
	s.emit(b)
}

// acquireVersionChange: the page changed since the search snapshot.
// Careful searches again for the current version; naive re-sends and then
// confirms the cached copy.
func acquireVersionChange(s *sim, claim int) {
	c := s.fetchFailing(toolVisit, claim, errVersionChange, s.between(300, 1500))
	if s.naive {
		s.blindRetries(c, errVersionChange, 1)
		v := s.newCall(toolVisit, claim, 3)
		s.attach(v, claim, srcCache)
		s.emit(v)
		return
	}
	s.emit(s.switchTo(c, toolSearch, "back_to_search", claim, 1))
	v := s.newCall(toolVisit, claim, 1)
	s.attach(v, claim, srcOfficial)
	s.emit(v)
}
