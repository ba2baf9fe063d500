package stats

import (
	"math"
	"slices"
)

// One-sided tests whose p-value is the inversion of the interval printed
// beside it: for every level a, "p < a" holds exactly when the interval at
// confidence 1−2a excludes 0 on the tested side. A gate's verdict and its
// interval therefore never disagree.

// Test names of the one-sided tests.
const (
	// TestNewcombe is the inverted Newcombe hybrid score interval.
	TestNewcombe = "newcombe-inverted"
	// TestBootstrap is the percentile bootstrap of a quantile.
	TestBootstrap = "bootstrap-quantile"
	// TestBinomialMargin is the exact binomial test of a rate against a
	// fixed margin (Clopper–Pearson inverted).
	TestBinomialMargin = "binomial-vs-margin"
)

// minLevel is the smallest p-value NewcombeOneSidedP reports.
const minLevel = 1e-12

// NewcombeOneSidedP is the one-sided p-value of "the candidate rate x2/n2
// is above (increase) or below (!increase) the baseline x1/n1": the level a
// at which the one-sided Newcombe bound (the two-sided interval at 1−2a)
// touches 0, found by bisection, floored at 1e-12. It is NaN when a side
// is empty.
func NewcombeOneSidedP(x1, n1, x2, n2 int, increase bool) float64 {
	checkCount(x1, n1)
	checkCount(x2, n2)
	if n1 == 0 || n2 == 0 {
		return math.NaN()
	}
	d := float64(x2)/float64(n2) - float64(x1)/float64(n1)
	if !increase {
		d = -d
	}
	if d <= 0 {
		// The point estimate is on the good side: every bound at a < ½
		// includes 0; report the mirror image of the other side's p.
		if d == 0 {
			return 1
		}
		return 1 - NewcombeOneSidedP(x1, n1, x2, n2, !increase)
	}
	excludes := func(a float64) bool {
		iv := NewcombeDiff(x1, n1, x2, n2, 1-2*a)
		if increase {
			return iv.Lo > 0
		}
		return iv.Hi < 0
	}
	// excludes(½) holds for d > 0. Levels below minLevel are never used
	// (and 1−2a would round to 1), so p is floored there.
	lo, hi := minLevel, 0.5
	if excludes(minLevel) {
		return minLevel
	}
	for range 200 {
		mid := (lo + hi) / 2
		if mid == lo || mid == hi {
			break
		}
		if excludes(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// BinomialUpperP is P(X ≥ x) for X ~ Binomial(n, p0): the one-sided exact
// p-value of "the rate x/n is above p0".
func BinomialUpperP(x, n int, p0 float64) float64 {
	checkCount(x, n)
	switch {
	case x == 0:
		return 1
	case p0 <= 0:
		return 0
	case p0 >= 1:
		return 1
	}
	lp, lq := math.Log(p0), math.Log1p(-p0)
	s := 0.0
	for k := x; k <= n; k++ {
		s += math.Exp(logChoose(n, k) + float64(k)*lp + float64(n-k)*lq)
	}
	return math.Min(1, s)
}

// BinomialLowerBound is the one-sided Clopper–Pearson lower confidence
// bound at level 1−a for the rate x/n: the rate p0 at which
// BinomialUpperP(x, n, p0) = a. BinomialUpperP(x, n, m) < a exactly when
// the bound is above m.
func BinomialLowerBound(x, n int, a float64) float64 {
	checkCount(x, n)
	if x == 0 {
		return 0
	}
	lo, hi := 0.0, float64(x)/float64(n)
	for range 100 {
		mid := (lo + hi) / 2
		if BinomialUpperP(x, n, mid) < a {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// BootstrapQuantileReps returns iters bootstrap replicates of the change
// Quantile(b, q) − Quantile(a, q) and of its relative change b/a − 1, each
// sorted ascending, resampling a and b independently (seeded as
// BootstrapQuantileDiff). Both are nil when a sample is empty.
func BootstrapQuantileReps(a, b []float64, q float64, iters int, seed uint64) (diffs, rels []float64) {
	if iters <= 0 {
		iters = DefaultBootstrapIters
	}
	iters = min(iters, MaxBootstrapIters)
	xs, ys := sortedClean(a), sortedClean(b)
	if len(xs) == 0 || len(ys) == 0 {
		return nil, nil
	}
	s := newSampler(seed)
	diffs = make([]float64, iters)
	rels = make([]float64, iters)
	for i := range diffs {
		qa := s.resampledQuantile(xs, q)
		qb := s.resampledQuantile(ys, q)
		diffs[i] = qb - qa
		rels[i] = relChange(qa, qb)
	}
	slices.Sort(diffs)
	slices.Sort(rels)
	return diffs, rels
}

// BootstrapOneSidedP is the one-sided bootstrap p-value of "the change is
// positive" (increase) or "negative" (!increase) from sorted replicates:
// (c+1)/(B+1), c the number of replicates on or past 0 on the other side.
func BootstrapOneSidedP(sorted []float64, increase bool) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	c := 0
	if increase {
		c = countAtMost(sorted, 0)
	} else {
		c = len(sorted) - countBelow(sorted, 0)
	}
	return float64(c+1) / float64(len(sorted)+1)
}

// BootstrapBound is the one-sided bound at level a from sorted replicates,
// chosen so that it lies strictly beyond 0 exactly when
// BootstrapOneSidedP < a: the lower bound for increase, the upper bound
// otherwise. It is ∓Inf when B is too small to reach level a.
func BootstrapBound(sorted []float64, a float64, increase bool) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	// p < a ⇔ c+1 < a(n+1) ⇔ c ≤ m with m = ⌈a(n+1)⌉ − 2.
	m := int(math.Ceil(a*float64(n+1))) - 2
	if m < 0 {
		if increase {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	m = min(m, n-1)
	if increase {
		return sorted[m]
	}
	return sorted[n-1-m]
}

// BootstrapTwoSidedP is twice the smaller one-sided bootstrap p-value,
// capped at 1. When every replicate lies on one side of 0 the resamples
// cannot resolve p below 2/(B+1); the tail is then read from the normal
// approximation of the replicates (2Φ(−|mean|/sd)), if that is smaller, so
// that a large exploratory family can still reject a clear change.
func BootstrapTwoSidedP(sorted []float64) float64 {
	up, down := BootstrapOneSidedP(sorted, true), BootstrapOneSidedP(sorted, false)
	p := math.Min(1, 2*math.Min(up, down))
	floor := 2 / float64(len(sorted)+1)
	if p <= floor {
		var sum, ss float64
		for _, v := range sorted {
			sum += v
		}
		mean := sum / float64(len(sorted))
		for _, v := range sorted {
			ss += (v - mean) * (v - mean)
		}
		if sd := math.Sqrt(ss / float64(len(sorted)-1)); sd > 0 {
			p = math.Min(p, 2*normalCDF(-math.Abs(mean)/sd))
		} else if mean != 0 {
			p = 0
		}
	}
	return p
}

func countAtMost(sorted []float64, v float64) int {
	i, _ := slices.BinarySearchFunc(sorted, v, func(e, t float64) int {
		if e <= t {
			return -1
		}
		return 1
	})
	return i
}

func countBelow(sorted []float64, v float64) int {
	i, _ := slices.BinarySearchFunc(sorted, v, func(e, t float64) int {
		if e < t {
			return -1
		}
		return 1
	})
	return i
}
