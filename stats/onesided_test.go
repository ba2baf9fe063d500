package stats

import (
	"math"
	"testing"
)

// TestBinomialUpperP checks exact tails against values computed by hand
// (R: pbinom(x-1, n, p, lower.tail = FALSE)).
func TestBinomialUpperP(t *testing.T) {
	cases := []struct {
		x, n int
		p0   float64
		want float64
	}{
		{6, 100, 0.05, 0.38400},
		{0, 10, 0.3, 1},
		{10, 10, 0.5, 1.0 / 1024},
		{1, 1, 0.25, 0.25},
		{3, 5, 0.5, 0.5},
	}
	for _, c := range cases {
		if got := BinomialUpperP(c.x, c.n, c.p0); math.Abs(got-c.want) > 5e-6 {
			t.Errorf("BinomialUpperP(%d, %d, %g) = %.6f, want %.6f", c.x, c.n, c.p0, got, c.want)
		}
	}
}

// TestBinomialLowerBoundInvertsTheTest checks that the bound is above a
// margin exactly when the test against that margin rejects.
func TestBinomialLowerBoundInvertsTheTest(t *testing.T) {
	for _, x := range []int{1, 5, 25, 60} {
		for _, a := range []float64{0.05, 0.01, 0.005} {
			lb := BinomialLowerBound(x, 100, a)
			if p := BinomialUpperP(x, 100, lb); math.Abs(p-a) > 1e-9 {
				t.Errorf("x=%d a=%g: tail at the bound = %g", x, a, p)
			}
			for _, m := range []float64{0.01, 0.05, 0.1, 0.3} {
				if (lb > m) != (BinomialUpperP(x, 100, m) < a) {
					t.Errorf("x=%d a=%g m=%g: bound %g disagrees with the test", x, a, m, lb)
				}
			}
		}
	}
	// Clopper–Pearson one-sided 95% lower bound of 25/100 = qbeta(0.05, 25,
	// 76), checked with an exact-integer binomial tail in Python: 0.180157.
	if lb := BinomialLowerBound(25, 100, 0.05); math.Abs(lb-0.180157) > 5e-6 {
		t.Errorf("lower bound of 25/100 = %.5f, want 0.180157", lb)
	}
}

// TestNewcombeOneSidedPInverts checks that at level p the Newcombe bound
// sits on 0, and both directions mirror.
func TestNewcombeOneSidedPInverts(t *testing.T) {
	p := NewcombeOneSidedP(270, 300, 240, 300, false)
	if iv := NewcombeDiff(270, 300, 240, 300, 1-2*p); math.Abs(iv.Hi) > 1e-9 {
		t.Errorf("upper bound at p=%g is %g, want 0", p, iv.Hi)
	}
	if q := NewcombeOneSidedP(270, 300, 240, 300, true); math.Abs(p+q-1) > 1e-12 {
		t.Errorf("p(less)+p(greater) = %g", p+q)
	}
	if got := NewcombeOneSidedP(5, 10, 5, 10, true); got != 1 {
		t.Errorf("no change: p = %g, want 1", got)
	}
	if got := NewcombeOneSidedP(0, 1000, 1000, 1000, true); got != minLevel {
		t.Errorf("extreme change: p = %g, want the floor", got)
	}
	if !math.IsNaN(NewcombeOneSidedP(0, 0, 1, 2, true)) {
		t.Error("empty side should give NaN")
	}
}

// TestBootstrapBoundAgreesWithP checks the exact agreement of the
// one-sided bootstrap p-value and bound on hand-made replicates.
func TestBootstrapBoundAgreesWithP(t *testing.T) {
	reps := []float64{-3, -1, 0, 0.5, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 15, 16, 17, 18, 19}
	// 3 replicates ≤ 0: p = 4/21.
	if p := BootstrapOneSidedP(reps, true); math.Abs(p-4.0/21) > 1e-15 {
		t.Errorf("p(greater) = %g, want 4/21", p)
	}
	// 18 replicates ≥ 0: p = 19/21.
	if p := BootstrapOneSidedP(reps, false); math.Abs(p-19.0/21) > 1e-15 {
		t.Errorf("p(less) = %g, want 19/21", p)
	}
	for a := 0.01; a < 0.5; a += 0.01 {
		for _, inc := range []bool{true, false} {
			b := BootstrapBound(reps, a, inc)
			excl := (inc && b > 0) || (!inc && b < 0)
			if excl != (BootstrapOneSidedP(reps, inc) < a) {
				t.Errorf("a=%g inc=%v: bound %g disagrees with p %g", a, inc, b, BootstrapOneSidedP(reps, inc))
			}
		}
	}
	if b := BootstrapBound(reps, 0.01, true); !math.IsInf(b, -1) {
		t.Errorf("20 replicates cannot reach 1%%: bound %g, want -Inf", b)
	}
}
