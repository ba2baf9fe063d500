package stats

import "math"

// Mann-Whitney methods reported in MannWhitneyResult.Method.
const (
	// MannWhitneyExact is the exact permutation distribution of the rank sum
	// (mid-ranks when there are ties), conditional on the tie pattern.
	MannWhitneyExact = "exact"
	// MannWhitneyNormal is the normal approximation with tie and continuity
	// corrections, as in R's wilcox.test(correct = TRUE).
	MannWhitneyNormal = "normal"
	// MannWhitneyNone means a sample was empty and no test was run.
	MannWhitneyNone = "none"
)

// MannWhitneyResult is the outcome of a two-sided Mann-Whitney U test.
type MannWhitneyResult struct {
	// N1, N2 are the sample sizes after dropping NaNs.
	N1, N2 int
	// U is the number of pairs (a, b) with a > b, counting ties as ½; it
	// equals R's wilcox.test statistic W for wilcox.test(a, b).
	U float64
	// ProbGreater is U/(N1·N2), an estimate of P(A > B) + ½P(A = B): 0.5
	// means no shift, below 0.5 means b tends to be larger.
	ProbGreater float64
	// P is the two-sided p-value (NaN when Method is MannWhitneyNone).
	P float64
	// Method is MannWhitneyExact, MannWhitneyNormal or MannWhitneyNone.
	Method string
	// Ties reports whether any value occurs more than once in the pooled
	// sample.
	Ties bool
}

// MannWhitney runs a two-sided Mann-Whitney U (Wilcoxon rank-sum) test of
// whether samples a and b come from the same distribution, the test behind
// benchstat's comparisons (benchmath.AssumeNothing).
//
// This is an own implementation rather than a call into benchmath, because
// benchmath imports github.com/aclements/go-moremath, which this module's
// go.mod does not require. It follows the same test and improves on
// go-moremath in one respect: the p-value is exact (the permutation
// distribution of the mid-rank sum, conditional on the ties) whenever that
// is cheap — m²·N² ≤ 2.5e7 for the smaller size m and pooled size N, e.g.
// 50 against 50 or 5 against 995, with or without ties — where go-moremath
// is exact only up to 50 a side without ties and 25 with them. Larger
// samples use the normal approximation with tie and continuity corrections,
// which matches R's wilcox.test. NaN values are ignored; inputs are not
// modified.
func MannWhitney(a, b []float64) MannWhitneyResult {
	xs, ys := sortedClean(a), sortedClean(b)
	r := MannWhitneyResult{N1: len(xs), N2: len(ys), P: math.NaN(), Method: MannWhitneyNone}
	if r.N1 == 0 || r.N2 == 0 {
		r.ProbGreater = math.NaN()
		return r
	}
	rk := rankPooled(xs, ys)
	r.U = rk.sumX/2 - float64(r.N1*(r.N1+1))/2
	r.ProbGreater = r.U / (float64(r.N1) * float64(r.N2))
	r.Ties = rk.ties
	if exactFeasible(r.N1, r.N2) {
		r.P, r.Method = exactRankSumP(rk, r.N1, r.N2), MannWhitneyExact
	} else {
		r.P, r.Method = normalRankSumP(rk, r.N1, r.N2), MannWhitneyNormal
	}
	return r
}

// rankedSample is the pooled ranking of two samples, in half-rank units so
// that mid-ranks stay integers.
type rankedSample struct {
	// groups lists each distinct value's tie group in ascending order.
	groups []tieGroup
	// sumX is twice the rank sum of the first sample.
	sumX float64
	// ties reports whether any group has more than one member.
	ties bool
}

// tieGroup is a run of equal values in the pooled sorted sample.
type tieGroup struct {
	size   int // number of pooled values in the group
	fromX  int // how many of them come from the first sample
	score2 int // twice the mid-rank shared by the group
}

// rankPooled merges two sorted samples and assigns mid-ranks.
func rankPooled(xs, ys []float64) rankedSample {
	var rk rankedSample
	i, j, rank := 0, 0, 1 // rank is the 1-based rank of the next value
	for i < len(xs) || j < len(ys) {
		v := math.Inf(1)
		if i < len(xs) {
			v = xs[i]
		}
		if j < len(ys) && ys[j] < v {
			v = ys[j]
		}
		g := tieGroup{}
		for ; i < len(xs) && xs[i] == v; i++ {
			g.fromX++
		}
		n := g.fromX
		for ; j < len(ys) && ys[j] == v; j++ {
			n++
		}
		g.size = n
		g.score2 = 2*rank + n - 1 // first + last rank
		rk.sumX += float64(g.fromX * g.score2)
		rk.ties = rk.ties || n > 1
		rk.groups = append(rk.groups, g)
		rank += n
	}
	return rk
}

// normalRankSumP is the two-sided p-value from the normal approximation to
// the rank-sum distribution, with the tie correction to the variance and a
// continuity correction of ½ (R's wilcox.test, correct = TRUE).
func normalRankSumP(rk rankedSample, n1, n2 int) float64 {
	nf1, nf2 := float64(n1), float64(n2)
	n := nf1 + nf2
	tie := 0.0
	for _, g := range rk.groups {
		t := float64(g.size)
		tie += t*t*t - t
	}
	sigma := math.Sqrt(nf1 * nf2 / 12 * ((n + 1) - tie/(n*(n-1))))
	if sigma == 0 {
		return 1 // every value equal: nothing to test
	}
	u := rk.sumX/2 - nf1*(nf1+1)/2
	dev := u - nf1*nf2/2
	dev -= math.Copysign(math.Min(0.5, math.Abs(dev)), dev)
	return math.Min(1, normalTwoSidedP(dev/sigma))
}
