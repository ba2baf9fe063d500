package stats

import (
	"fmt"
	"math"
)

// Test names reported in RateComparison.Test.
const (
	// RateFisher is Fisher's exact test, used when any expected cell count
	// is below MinExpectedForZ.
	RateFisher = "fisher-exact"
	// RateZ is the pooled two-proportion z test (Pearson's
	// chi-square without continuity correction), used for large counts.
	RateZ = "two-proportion-z"
	// RateNone means no test could be run because a sample was empty.
	RateNone = "none"
)

// MinExpectedForZ is the smallest expected cell count (Cochran's rule) at
// which CompareRates trusts the normal approximation instead of Fisher's
// exact test.
const MinExpectedForZ = 5

// RateComparison compares a candidate rate x2/n2 with a baseline rate x1/n1.
type RateComparison struct {
	// X1, N1 are the baseline successes (e.g. failures) and trials.
	X1, N1 int
	// X2, N2 are the candidate successes and trials.
	X2, N2 int
	// P1 is the baseline rate X1/N1 (NaN when N1 = 0).
	P1 float64
	// P2 is the candidate rate X2/N2 (NaN when N2 = 0).
	P2 float64
	// Diff is P2 − P1, the candidate's change in absolute rate.
	Diff float64
	// Interval is Newcombe's hybrid score interval for Diff.
	Interval Interval
	// P is the two-sided p-value of Test (NaN when Test is RateNone).
	P float64
	// Test names the test that produced P: RateFisher,
	// RateZ or RateNone.
	Test string
}

// CompareRates compares candidate rate x2/n2 against baseline rate x1/n1.
// The interval is always Newcombe's (method 10); the p-value is from
// Fisher's exact test when any expected count is below MinExpectedForZ,
// else from the pooled two-proportion z test. conf outside (0, 1) means
// DefaultConfidence. It panics on an impossible count (x < 0 or x > n).
func CompareRates(x1, n1, x2, n2 int, conf float64) RateComparison {
	checkCount(x1, n1)
	checkCount(x2, n2)
	r := RateComparison{
		X1: x1, N1: n1, X2: x2, N2: n2,
		P1: ratio(x1, n1), P2: ratio(x2, n2),
		Interval: NewcombeDiff(x1, n1, x2, n2, conf),
		P:        math.NaN(),
		Test:     RateNone,
	}
	r.Diff = r.P2 - r.P1
	if n1 == 0 || n2 == 0 {
		return r
	}
	if minExpected(x1, n1, x2, n2) < MinExpectedForZ {
		r.P, r.Test = FisherExact(x1, n1-x1, x2, n2-x2), RateFisher
	} else {
		r.P, r.Test = TwoProportionZ(x1, n1, x2, n2), RateZ
	}
	return r
}

// String renders the comparison compactly for logs and test failures.
func (r RateComparison) String() string {
	return fmt.Sprintf("%d/%d → %d/%d: Δ=%+.4f [%+.4f, %+.4f] p=%.4g (%s)",
		r.X1, r.N1, r.X2, r.N2, r.Diff, r.Interval.Lo, r.Interval.Hi, r.P, r.Test)
}

// TwoProportionZ returns the two-sided p-value of the pooled two-proportion
// z test of x1/n1 against x2/n2. It equals Pearson's chi-square test on the
// 2×2 table without continuity correction (R's prop.test(correct=FALSE)).
// It returns 1 when the pooled rate is 0 or 1 (no variation to test).
func TwoProportionZ(x1, n1, x2, n2 int) float64 {
	checkCount(x1, n1)
	checkCount(x2, n2)
	if n1 == 0 || n2 == 0 {
		return math.NaN()
	}
	pooled := float64(x1+x2) / float64(n1+n2)
	se := math.Sqrt(pooled * (1 - pooled) * (1/float64(n1) + 1/float64(n2)))
	if se == 0 {
		return 1
	}
	z := (ratio(x2, n2) - ratio(x1, n1)) / se
	return normalTwoSidedP(z)
}

// minExpected is the smallest expected cell count of the 2×2 table under
// the null hypothesis of equal rates.
func minExpected(x1, n1, x2, n2 int) float64 {
	n := float64(n1 + n2)
	succ, fail := float64(x1+x2), float64(n1+n2-x1-x2)
	small := math.Min(float64(n1), float64(n2))
	return small * math.Min(succ, fail) / n
}

// ratio is x/n, or NaN when n = 0.
func ratio(x, n int) float64 {
	if n == 0 {
		return math.NaN()
	}
	return float64(x) / float64(n)
}
