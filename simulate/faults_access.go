package simulate

// Permission and strategy layer faults.

var (
	failAuthz  = &failureInfo{"AUTHZ", false, "access denied; not bypassed"}
	failBudget = &failureInfo{"TIMEOUT", true, "retry budget exhausted"}
)

// acquireLogin: the page needs a signed-in user. Careful reads the public
// original instead of bypassing; naive re-sends twice and answers without
// the claim.
func acquireLogin(s *sim, claim int) {
	c := s.fetchFailing(toolVisit, claim, errLogin, s.between(100, 500))
	if s.naive {
		s.blindRetries(c, errLogin, 2)
		return
	}
	v := s.switchTo(c, toolVisit, "switch_source", claim, 1)
	s.attach(v, claim, srcPublic)
	s.emit(v)
}

// acquireTenant: the only claim's resource belongs to another tenant.
// Careful stops at once and reports failed; naive re-sends and then
// answers anyway.
func acquireTenant(s *sim, claim int) {
	c := s.fetchFailing(toolVisit, claim, errTenant, s.between(100, 500))
	if s.naive {
		s.blindRetries(c, errTenant, 2)
		return
	}
	s.stop("evidence_missing", "failed", failAuthz)
}

// acquireRestricted: the last claim is restricted content. Careful stops
// and delivers partial with the gap; naive re-sends and then confirms a
// reprint.
func acquireRestricted(s *sim, claim int) {
	c := s.fetchFailing(toolVisit, claim, errRestricted, s.between(100, 500))
	if s.naive {
		s.blindRetries(c, errRestricted, 2)
		s.settleOnReprint(claim)
		return
	}
	s.stop("evidence_missing", "failed", failAuthz)
}

// acquireDuplicateQuery: the planner repeats the previous claim's query.
// Careful sends a variant, learns it brings nothing new and reformulates
// (fix_args); naive sends the very same query twice more and reuses the
// same page for the new claim (duplicate calls).
func acquireDuplicateQuery(s *sim, claim int) {
	if s.naive {
		s.emit(s.newCall(toolSearch, claim-1, 0))
		s.emit(s.newCall(toolSearch, claim-1, 0))
		v := s.newCall(s.task.fetch, claim-1, 0)
		s.attach(v, claim, s.task.src)
		s.emit(v)
		return
	}
	c := s.failed(s.newCall(toolSearch, claim, 2), errNoNewResults, s.between(200, 800))
	s.emit(s.switchTo(c, toolSearch, "fix_args", claim, 1))
	s.call(s.task.fetch, claim, 0, s.task.src)
}

// acquireReprint: the search leads to a community reprint without a
// version date. Careful keeps it as a candidate and goes back to search
// for the original release notes; naive confirms the reprint.
func acquireReprint(s *sim, claim int) {
	s.call(toolSearch, claim, 0, nil)
	rp := s.newCall(toolVisit, claim, 2)
	s.attach(rp, claim, srcReprint)
	s.emit(rp)
	if s.naive {
		return
	}
	s.emit(s.switchTo(rp, toolSearch, "back_to_search", claim, 1))
	v := s.newCall(toolVisit, claim, 1)
	s.attach(v, claim, srcRelease)
	s.emit(v)
}

// acquireWrongTool: visit is asked to compute an aggregate. Careful
// switches to python; naive re-sends the visit twice and answers without
// the claim.
func acquireWrongTool(s *sim, claim int) {
	s.call(toolSearch, claim, 0, nil)
	c := s.failed(s.newCall(toolVisit, claim, 0), errUnsupported, s.between(100, 400))
	if s.naive {
		s.blindRetries(c, errUnsupported, 2)
		return
	}
	p := s.switchTo(c, toolPython, "switch_tool", claim, 0)
	s.attach(p, claim, srcDataset)
	s.emit(p)
}

// acquireBudgetExhausted: the run has no retry budget left (retry_budget
// 0, 90 s deadline) when the last visit times out after 20 s. Careful stops
// with partial; naive retries four more times, overrunning the retry budget
// and the deadline.
func acquireBudgetExhausted(s *sim, claim int) {
	c := s.fetchFailing(toolVisit, claim, errTimeout, 20_000)
	if !s.naive {
		s.stop("budget_exhausted", "timeout", failBudget)
		return
	}
	for range 3 {
		c = s.failed(s.retry(c, s.hastyWait()), errTimeout, 20_000)
	}
	c = s.retry(c, s.hastyWait())
	s.attach(c, claim, srcOfficial)
	s.emit(c)
}
