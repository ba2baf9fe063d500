package stats

import "math"

// McNemar test names reported in McNemarResult.Test.
const (
	// McNemarExact is the exact binomial test on the discordant pairs.
	McNemarExact = "mcnemar-exact"
	// McNemarCorrected is the chi-square test with continuity
	// correction (R's mcnemar.test default).
	McNemarCorrected = "mcnemar-chisq-cc"
)

// McNemarExactBelow is the number of discordant pairs below which McNemar
// uses the exact binomial test; 25 is the customary cut-off.
const McNemarExactBelow = 25

// McNemarResult is the outcome of McNemar's test for paired binary outcomes.
type McNemarResult struct {
	// B counts pairs where only the baseline succeeded (e.g. failed); C
	// counts pairs where only the candidate did.
	B, C int
	// Statistic is the continuity-corrected chi-square (|B−C|−1)²/(B+C),
	// reported whichever test produced P (0 when B+C = 0).
	Statistic float64
	// P is the two-sided p-value.
	P float64
	// Test is McNemarExact or McNemarCorrected.
	Test string
}

// McNemar tests whether paired binary outcomes changed, e.g. the same tasks
// run by baseline and candidate. Only the discordant pairs matter: b is the
// number of pairs where the event happened for the baseline only and c the
// number where it happened for the candidate only. Below McNemarExactBelow
// discordant pairs it uses the exact two-sided binomial test (b out of b+c
// at ½); above, the chi-square test with continuity correction. It panics
// on a negative count.
func McNemar(b, c int) McNemarResult {
	if b < 0 || c < 0 {
		panic("stats: negative count in McNemar test")
	}
	stat, p := McNemarChiSquare(b, c, true)
	r := McNemarResult{B: b, C: c, Statistic: stat, P: p, Test: McNemarCorrected}
	if b+c < McNemarExactBelow {
		r.P, r.Test = binomialHalfTwoSided(min(b, c), b+c), McNemarExact
	}
	return r
}

// McNemarChiSquare returns McNemar's chi-square statistic on the discordant
// counts b and c, with or without the continuity correction, and its
// p-value on one degree of freedom. Without correction it is
// (b−c)²/(b+c), as in Agresti's textbooks; with it, (|b−c|−1)²/(b+c), as
// in R's mcnemar.test. It returns (0, 1) when b+c = 0.
func McNemarChiSquare(b, c int, correct bool) (stat, p float64) {
	n := float64(b + c)
	if n == 0 {
		return 0, 1
	}
	d := math.Abs(float64(b - c))
	if correct {
		d = math.Max(0, d-1)
	}
	stat = d * d / n
	return stat, chiSquare1P(stat)
}

// binomialHalfTwoSided is the two-sided exact p-value for k successes out
// of n at probability ½, where k ≤ n/2: twice the lower tail, capped at 1
// (the distribution is symmetric, so this equals R's binom.test).
func binomialHalfTwoSided(k, n int) float64 {
	if n == 0 {
		return 1
	}
	tail := 0.0
	for i := 0; i <= k; i++ {
		tail += math.Exp(logChoose(n, i) - float64(n)*math.Ln2)
	}
	return math.Min(1, 2*tail)
}
