package stats

import (
	"math"
	"testing"
)

func TestCompareRatesLargeCounts(t *testing.T) {
	// Newcombe 1998b Table II example (a) with the candidate worse:
	// baseline 56/70, candidate 48/80.
	r := CompareRates(56, 70, 48, 80, 0.95)
	if r.Test != RateZ {
		t.Errorf("test = %q, want %q", r.Test, RateZ)
	}
	if !near(r.P1, 0.8, 1e-15) || !near(r.P2, 0.6, 1e-15) || !near(r.Diff, -0.2, 1e-15) {
		t.Errorf("rates: %v", r)
	}
	// Newcombe 1998b Table II (a): 0.0524 to 0.3339 for p1 − p2, so
	// −0.3339 to −0.0524 for candidate − baseline.
	if !near(r.Interval.Lo, -0.3339, 5e-5) || !near(r.Interval.Hi, -0.0524, 5e-5) {
		t.Errorf("interval: %v", r)
	}
	// R 4.2.2: prop.test(c(56, 48), c(70, 80), correct = FALSE)$p.value.
	if !near(r.P, 0.0080450813682, 1e-12) {
		t.Errorf("P = %.12g, want 0.0080450813682", r.P)
	}
	if got := r.Mark(0.05); got != "-20.0pp" {
		t.Errorf("Mark = %q, want -20.0pp", got)
	}
}

func TestCompareRatesSmallCountsUseFisher(t *testing.T) {
	// Lady tasting tea laid out as rates: 1/4 vs 3/4. Two-sided Fisher
	// p = 0.4857 (R ?fisher.test TeaTasting).
	r := CompareRates(1, 4, 3, 4, 0)
	if r.Test != RateFisher || !near(r.P, 0.4857142857, 1e-9) {
		t.Errorf("got %v, want Fisher p = 0.4857", r)
	}
	if r.Interval.Confidence != DefaultConfidence || r.Mark(0.05) != NoChange {
		t.Errorf("defaults/mark wrong: %v", r)
	}
	// Rare failures at large n still go to Fisher: expected failures
	// 500·3/1000 = 1.5 < 5.
	r = CompareRates(0, 500, 3, 500, 0.95)
	if r.Test != RateFisher {
		t.Errorf("rare events: test %q, want Fisher", r.Test)
	}
}

func TestCompareRatesEmpty(t *testing.T) {
	r := CompareRates(0, 0, 3, 10, 0.95)
	if r.Test != RateNone || !math.IsNaN(r.P) || !math.IsNaN(r.Diff) || r.Mark(0.05) != NoChange {
		t.Errorf("empty baseline: %v", r)
	}
}

func TestTwoProportionZ(t *testing.T) {
	// R 4.2.2: prop.test(c(40, 60), c(500, 500), correct = FALSE)$p.value.
	if p := TwoProportionZ(40, 500, 60, 500); !near(p, 0.0350149810197, 1e-12) {
		t.Errorf("p = %.12g", p)
	}
	if p := TwoProportionZ(0, 50, 0, 70); p != 1 {
		t.Errorf("no events: p = %v, want 1", p)
	}
}
