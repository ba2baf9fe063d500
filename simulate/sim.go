package simulate

import (
	"math/rand/v2"
)

// sim simulates one run at a time; it is reused for every run of a suite.
// Its clock, now, is the instant the agent is ready for its next step, in
// Unix ms. Events are rendered as they happen, so emission order is time
// order and seq follows ts.
type sim struct {
	suite string
	seed  int64
	inj   Injection
	pcg   *rand.PCG
	rng   *rand.Rand
	e     encoder
	out   *runLines

	p        runPlan
	sc       *scenario
	naive    bool
	task     *taskKind
	claims   int
	minGrade grade
	budget   int   // retry_budget
	deadline int64 // deadline_ms
	review   bool  // the run has a review stage
	digest   uint64

	now, lastTS, curTS int64
	seq                int
	nCall, nAction     int
	nEvidence, nStage  int
	nModel, resends    int

	cs        [3]claimState
	ev        *stageRun // the current evidence stage attempt
	evOutcome string    // careful: outcome of an unsatisfied evidence stage
	evFailure *failureInfo
	degr      degradation
	gaps      bool
	reason    string // careful: terminal reason when not ok
	stopped   bool   // no further evidence is gathered
	cancelled bool
	late      lateEvidence
	pending   pendingStage // delivery stage held back by sealLate

	// naive defects drawn per run
	dupQuery, sealLate, streamReject, writeRetry bool

	slab  [40]toolCall
	nslab int
	st    [12]stageRun // ring of stage attempts; a run has fewer
}

// claimState is what the run holds for one claim.
type claimState struct {
	handled   bool // a fault handler already gathered it
	confirmed bool
	grade     grade // best confirmed grade
	degraded  bool  // some confirmed evidence came by a degraded path
	candidate bool
}

// lateEvidence is an evidence event a naive agent records after its
// terminal (a late concurrent return).
type lateEvidence struct {
	pending bool
	call    int
	claim   int
	src     *sourceInfo
}

func newSim(o Options) *sim {
	s := &sim{suite: o.Suite, seed: o.Seed, inj: o.Inject, pcg: rand.NewPCG(0, 0)}
	s.rng = rand.New(s.pcg)
	return s
}

// reset prepares s for the run of plan p, rendering into out.
func (s *sim) reset(p runPlan, out *runLines) {
	*s = sim{suite: s.suite, seed: s.seed, inj: s.inj, pcg: s.pcg, rng: s.rng, e: s.e, out: out, p: p, sc: p.sc, naive: p.naive}
	s.pcg.Seed(mix(uint64(s.seed)^0x7f4a7c15), uint64(p.idx))
	s.e.b = out.buf[:0]
	s.e.offMin = p.offMin
	s.e.runID = appendEscaped(s.e.runID[:0], p.id)
	s.digest = mix(uint64(s.seed)<<20 ^ uint64(p.idx))
	s.now = p.start
}

// draw fixes the run's task and limits.
func (s *sim) draw() {
	sc := s.sc
	s.task = sc.task
	if s.task == nil {
		s.task = s.drawTask()
	}
	s.claims = sc.claims
	if s.claims == 0 {
		s.claims = 1 + s.rng.IntN(3)
	}
	s.minGrade = gradeSecondary
	if !sc.secondary && s.rng.IntN(10) < 3 {
		s.minGrade = gradePrimary
	}
	s.budget, s.deadline = 3, 180_000
	switch {
	case sc.tight:
		s.budget, s.deadline = 0, 90_000
	case sc.slowQueue:
		s.deadline = 600_000
	}
	s.review = s.rng.IntN(10) < 4
	if s.naive {
		s.dupQuery = s.rng.IntN(100) < 15
		s.sealLate = s.rng.IntN(100) < 8
		s.streamReject = s.rng.IntN(100) < 5
		s.writeRetry = s.rng.IntN(100) < 25
	}
}

// drawTask picks a task compatible with the scenario: its target tool must
// be the task's fetch tool, and runs that must stop make no write.
func (s *sim) drawTask() *taskKind {
	for {
		t := baselineTasks[s.rng.IntN(len(baselineTasks))]
		if s.sc.TargetTool == "visit" && t.fetch != toolVisit {
			continue
		}
		if s.sc.ExpectAction == "stop" && t.write != nil {
			continue
		}
		return t
	}
}

// think is the agent's own time between two steps.
func (s *sim) think() int64 { return 5 + s.rng.Int64N(40) }

// queue is a typical queue wait: mostly a few ms, sometimes more.
func (s *sim) queue() int64 {
	var q int64
	switch r := s.rng.IntN(100); {
	case r < 80:
		q = s.rng.Int64N(20)
	case r < 98:
		q = 20 + s.rng.Int64N(300)
	default:
		q = 300 + s.rng.Int64N(2500)
	}
	return scale(q, s.inj.QueueScale)
}

// span draws a duration of at least lo, exponential above it with the given
// mean, at most hi.
func (s *sim) span(lo, mean, hi int64) int64 {
	return lo + min(int64(s.rng.ExpFloat64()*float64(mean)), hi-lo)
}

// between draws uniformly in [lo, hi).
func (s *sim) between(lo, hi int64) int64 { return lo + s.rng.Int64N(hi-lo) }

// backoff is a careful wait before re-send n (1-based): exponential from 1 s,
// capped at 8 s, plus jitter.
func (s *sim) backoff(n int) int64 {
	return min(int64(1000)<<(n-1), 8000) + s.rng.Int64N(500)
}

// hastyWait is how long a naive agent waits before re-sending.
func (s *sim) hastyWait() int64 { return 20 + s.rng.Int64N(250) }

// mix is SplitMix64's finaliser, used to derive seeds and digests.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
