package simulate

// The answer side of a run: generation, review and delivery.

// pendingStage is a finished stage whose event is written later (a naive
// agent that commits its terminal before delivery ends).
type pendingStage struct {
	st      *stageRun
	end     int64
	outcome string
	f       *failureInfo
	visible int
}

// generation writes the answer; a partial answer is shorter.
func (s *sim) generation(partial bool) int {
	st := s.beginStage("generation", budgetGeneration, 1)
	s.modelCall("answer", st, s.span(4000, 4000, 20_000), "ok")
	visible := 1200 + s.rng.IntN(3600)
	if partial {
		visible /= 2
	}
	s.endStage(st, "ok", nil, visible)
	return visible
}

// reviewStage runs a reviewer model over the answer.
func (s *sim) reviewStage() {
	st := s.beginStage("review", budgetReview, 1)
	s.modelCall("reviewer", st, s.span(2000, 1500, 8000), "ok")
	s.endStage(st, "ok", nil, 0)
}

// delivery streams the answer and, for tasks that write, performs the
// write.
func (s *sim) delivery(visible int) {
	st := s.beginStage("delivery", budgetDelivery, 1)
	if s.task.write != nil {
		if s.sc.deliver != nil {
			s.sc.deliver(s)
		} else {
			s.write()
		}
	}
	s.now += s.span(300, 600, 3000)
	outcome, f := "ok", (*failureInfo)(nil)
	if s.streamReject {
		outcome, f = "interrupted", failStream
	}
	if s.sealLate {
		end := s.now + s.between(2, 12)
		s.pending = pendingStage{st, end, outcome, f, visible}
		s.now = end
		return
	}
	s.endStage(st, outcome, f, visible)
}

// flushDelivery writes the delivery stage event held back by delivery.
func (s *sim) flushDelivery() {
	p := s.pending
	s.emitStage(p.st, p.end, p.outcome, p.f, p.visible)
}

// write performs the task's write. Careful writes carry an idempotency key;
// a naive agent that meets a transient error re-sends without one.
func (s *sim) write() {
	w := s.newCall(s.task.write, 0, 0)
	if (s.naive && s.writeRetry) || s.benign() {
		w.fail(errTransient, s.between(100, 600))
		s.emit(w)
		w = s.retry(w, s.resendWait(w, 1))
	}
	s.emit(w)
}

// explain delivers a short explanation instead of an answer when a careful
// agent has nothing it may claim.
func (s *sim) explain() int {
	st := s.beginStage("delivery", budgetDelivery, 1)
	visible := 120 + s.rng.IntN(100)
	s.now += s.span(100, 100, 500)
	s.endStage(st, "ok", nil, visible)
	return visible
}
