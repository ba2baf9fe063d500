package simulate

import (
	"errors"
	"fmt"
	"math"
)

// Injection plants regressions of a known size into a suite, so that the
// comparison gates can be calibrated: how often they fail a healthy
// candidate, and how often they catch each regression. Every per-run
// decision is a function of (Seed, run index) drawn from its own hash, not
// from the run's random stream, so an Injection changes only what it
// names. The zero value injects nothing.
type Injection struct {
	// LostEvidence is the probability that a run's first claim loses its
	// evidence (the fetch fails with a not-found error): a careful agent
	// then answers partial or failed, so success drops by about this much.
	LostEvidence float64
	// MaskedRuns is the number of runs, spread evenly over the suite, that
	// lose their first claim's evidence and claim "completed" anyway (a
	// masked success).
	MaskedRuns int
	// SlowTool and SlowToolScale multiply the execution time of every call
	// of one tool (e.g. "search", 1.5: its exec p95 +50 %).
	SlowTool      string
	SlowToolScale float64
	// ExecScale multiplies the execution time of every tool and model
	// call (end-to-end latency grows by a little less: think time and
	// queues stay); 0 means 1.
	ExecScale float64
	// QueueScale multiplies every queue wait; 0 means 1.
	QueueScale float64
	// InvalidResends is the probability that a run re-sends, once, a
	// search that failed with a non-retryable validation error (an invalid
	// re-send), then fixes the arguments.
	InvalidResends float64
	// NaiveFraction is the share of runs, drawn per run, that the naive
	// agent answers whatever the Policy (e.g. 0.05: a baseline where 5 %
	// of runs come from a naive agent).
	NaiveFraction float64
	// NoTransients removes the benign transient errors of fault-free
	// runs, so a fault-free suite has no re-send at all.
	NoTransients bool
	// WrongTerminal is the probability that a careful run of a fault
	// scenario that expects a terminal claims another one (failed instead
	// of partial or completed, partial instead of failed): its expectation
	// conformance drops.
	WrongTerminal float64
}

func (in Injection) check() error {
	for _, p := range []float64{in.LostEvidence, in.InvalidResends, in.NaiveFraction, in.WrongTerminal} {
		if p < 0 || p > 1 || math.IsNaN(p) {
			return fmt.Errorf("simulate: injection probability %v outside [0, 1]", p)
		}
	}
	if in.MaskedRuns < 0 {
		return errors.New("simulate: MaskedRuns must not be negative")
	}
	for _, f := range []float64{in.SlowToolScale, in.ExecScale, in.QueueScale} {
		if f < 0 || math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("simulate: injection scale %v must be a positive number", f)
		}
	}
	if in.SlowTool != "" && toolByName(in.SlowTool) == nil {
		return fmt.Errorf("simulate: unknown tool %q", in.SlowTool)
	}
	return nil
}

// injected is what the injection decided for the current run.
type injected struct {
	lost, mask, invalid, naive, wrongTerminal bool
}

// decide draws the injection's per-run decisions for run idx of n.
func (in *Injection) decide(seed int64, idx, n int) injected {
	u := func(salt uint64) float64 {
		return float64(mix(uint64(seed)*0x9e3779b97f4a7c15^uint64(idx)<<8^salt)>>11) / (1 << 53)
	}
	var d injected
	d.lost = u(1) < in.LostEvidence
	if in.MaskedRuns > 0 {
		// Runs k·n/m for k = 0..m−1: m distinct runs spread over the suite.
		m := min(in.MaskedRuns, n)
		for k := 0; k < m; k++ {
			if idx == k*n/m {
				d.mask = true
			}
		}
	}
	d.invalid = u(2) < in.InvalidResends
	d.naive = u(3) < in.NaiveFraction
	d.wrongTerminal = u(4) < in.WrongTerminal
	return d
}

// scale multiplies ms by f (f = 0 means 1).
func scale(ms int64, f float64) int64 {
	if f == 0 || f == 1 {
		return ms
	}
	return int64(math.Round(float64(ms) * f))
}

// toolExecScale is the multiplier of tool t's execution time.
func (s *sim) toolExecScale(t *toolInfo) float64 {
	f := s.inj.ExecScale
	if f == 0 {
		f = 1
	}
	if s.inj.SlowTool == t.name && s.inj.SlowToolScale > 0 {
		f *= s.inj.SlowToolScale
	}
	return f
}

// invalidResend plays the injected invalid re-send for claim: a search that
// fails validation, is re-sent unchanged (invalid: the error is not
// retryable) and fails again, then a search with fixed arguments.
func (s *sim) invalidResend(claim int) {
	c := s.failed(s.newCall(toolSearch, claim, 7), errMissingField, s.between(20, 80))
	c = s.failed(s.retry(c, s.backoff(1)), errMissingField, s.between(20, 80))
	s.emit(s.switchTo(c, toolSearch, "fix_args", claim, 8))
}

// loseEvidence gathers claim the normal way except that the fetch finds
// nothing: no evidence for the claim.
func (s *sim) loseEvidence(claim int) {
	s.fetchFailing(s.task.fetch, claim, errNotFound, 0)
}

// wrongTerminalFor is the terminal a careful run claims instead of the
// expected one.
func wrongTerminalFor(expected string) string {
	if expected == "failed" {
		return "partial"
	}
	return "failed"
}

func toolByName(name string) *toolInfo {
	for _, t := range []*toolInfo{toolSearch, toolVisit, toolScholar, toolPython, toolBrowser, toolSend, toolMsgStat, toolSave, toolGetRep} {
		if t.name == name {
			return t
		}
	}
	return nil
}
