package stats

import "math"

// fisherRelTol is the relative tolerance used to decide that a table is "as
// or less probable" than the observed one. R's fisher.test uses 1 + 1e-7 so
// that tables tied in exact arithmetic are not split by rounding.
const fisherRelTol = 1e-7

// FisherExact returns the two-sided p-value of Fisher's exact test for the
// 2×2 table
//
//	a b
//	c d
//
// conditioning on the margins. The two-sided p-value is the total
// probability of all tables with the same margins that are no more probable
// than the observed one (the rule R's fisher.test uses). It is exact for any
// counts; the cost is linear in the smallest margin. It panics on a
// negative count and returns 1 for an empty table.
func FisherExact(a, b, c, d int) float64 {
	if a < 0 || b < 0 || c < 0 || d < 0 {
		panic("stats: negative count in 2x2 table")
	}
	row1, col1, n := a+b, a+c, a+b+c+d
	if n == 0 {
		return 1
	}
	// a follows a hypergeometric distribution on [lo, hi].
	lo := max(0, col1-(n-row1))
	hi := min(row1, col1)
	logDenom := logChoose(n, col1)
	logP := func(k int) float64 {
		return logChoose(row1, k) + logChoose(n-row1, col1-k) - logDenom
	}
	obs := logP(a)
	// Compare in log space: log(p·(1+tol)) = log p + log1p(tol).
	limit := obs + math.Log1p(fisherRelTol)
	p := 0.0
	for k := lo; k <= hi; k++ {
		if lk := logP(k); lk <= limit {
			p += math.Exp(lk)
		}
	}
	return math.Min(p, 1)
}
