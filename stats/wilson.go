package stats

import (
	"fmt"
	"math"
)

// Interval is a two-sided confidence interval [Lo, Hi] at level Confidence.
type Interval struct {
	// Lo is the lower confidence limit.
	Lo float64
	// Hi is the upper confidence limit.
	Hi float64
	// Confidence is the nominal coverage, e.g. 0.95.
	Confidence float64
}

// Contains reports whether v lies inside the closed interval.
func (iv Interval) Contains(v float64) bool {
	return iv.Lo <= v && v <= iv.Hi
}

// Wilson returns the Wilson score interval for a proportion with x successes
// out of n trials (Wilson 1927; method 3 in Newcombe 1998, Statistics in
// Medicine 17:857–872). Unlike the Wald interval it stays inside [0, 1] and
// is sensible at x = 0 and x = n. For n = 0 it returns [0, 1].
// It panics if x < 0 or x > n.
func Wilson(x, n int, conf float64) Interval {
	checkCount(x, n)
	conf = confidenceOr(conf)
	if n == 0 {
		return Interval{Lo: 0, Hi: 1, Confidence: conf}
	}
	z := zTwoSided(conf)
	nf, p := float64(n), float64(x)/float64(n)
	z2 := z * z
	centre := (2*nf*p + z2) / (2 * (nf + z2))
	half := z * math.Sqrt(z2+4*nf*p*(1-p)) / (2 * (nf + z2))
	lo, hi := centre-half, centre+half
	// At the boundaries the limits are exactly 0 or 1; rounding could
	// otherwise leave 1e-17 and break "x = 0 ⇒ Lo = 0".
	if x == 0 {
		lo = 0
	}
	if x == n {
		hi = 1
	}
	return Interval{Lo: lo, Hi: hi, Confidence: conf}
}

// checkCount panics on an impossible count: these come from our own
// aggregation, so a bad one is a bug, not bad input.
func checkCount(x, n int) {
	if x < 0 || n < 0 || x > n {
		panic(fmt.Sprintf("stats: impossible count %d of %d", x, n))
	}
}
