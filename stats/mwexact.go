package stats

import "math"

// exactBudget bounds the work of the exact rank-sum distribution. The cost
// grows like m²·N² (m the smaller sample, N the pooled size); 2.5e7 admits
// 50 against 50, 10 against 490 or 5 against 995, each well under 20ms.
const exactBudget = 2.5e7

// exactFeasible reports whether MannWhitney computes an exact p-value for
// sample sizes n1 and n2.
func exactFeasible(n1, n2 int) bool {
	m, n := float64(min(n1, n2)), float64(n1+n2)
	return m*m*n*n <= exactBudget
}

// exactRankSumP is the exact two-sided p-value of the rank-sum statistic:
// the share of all C(N, m) ways to split the pooled values into samples of
// the observed sizes whose rank sum lies at least as far from its mean as
// the observed one. With ties the mid-ranks are the scores, so this is the
// exact conditional (permutation) test given the tie pattern.
//
// The distribution is built by dynamic programming over tie groups: ways[k][s]
// counts the ways to draw k values of the smaller sample with score sum s
// (in half-rank units). Counts are float64: they reach C(N, m), which is far
// below the float64 range for every size exactFeasible admits.
func exactRankSumP(rk rankedSample, n1, n2 int) float64 {
	m, obs := n1, int(rk.sumX)
	if n2 < n1 {
		// Work with the smaller sample: its score sum is total − sumX.
		m = n2
		obs = (n1+n2)*(n1+n2+1) - obs
	}
	ways, lo, hi := rankSumCounts(rk.groups, m)
	mean := m * (n1 + n2 + 1) // twice the expected rank sum
	dev := abs(obs - mean)
	var tail, total float64
	for s := lo; s <= hi; s++ {
		w := ways[s-lo]
		total += w
		if abs(s-mean) >= dev {
			tail += w
		}
	}
	return math.Min(1, tail/total)
}

// rankSumCounts returns the counts of score sums for draws of exactly m
// values from the pooled groups, indexed from lo to hi.
func rankSumCounts(groups []tieGroup, m int) (counts []float64, lo, hi int) {
	n := 0
	for _, g := range groups {
		n += g.size
	}
	// ways[k] holds counts for k values drawn, used over [low[k], high[k]].
	// Mid-ranks never sum above the top k ranks, so twice that sum,
	// k(2n−k+1), bounds the index.
	ways := make([][]float64, m+1)
	low := make([]int, m+1)
	high := make([]int, m+1)
	for k := range ways {
		ways[k] = make([]float64, k*(2*n-k+1)+1)
		low[k], high[k] = math.MaxInt, -1
	}
	ways[0][0], low[0], high[0] = 1, 0, 0
	seen := 0
	for _, g := range groups {
		seen += g.size
		// Descending k so each ways[k−a] is still the previous group's.
		for k := min(m, seen); k >= 1; k-- {
			choose := 1.0
			for a := 1; a <= min(g.size, k); a++ {
				choose = choose * float64(g.size-a+1) / float64(a)
				src := k - a
				if high[src] < 0 {
					continue
				}
				shift := a * g.score2
				from, to := ways[src], ways[k]
				for s := low[src]; s <= high[src]; s++ {
					if from[s] != 0 {
						to[s+shift] += choose * from[s]
					}
				}
				low[k] = min(low[k], low[src]+shift)
				high[k] = max(high[k], high[src]+shift)
			}
		}
	}
	return ways[m][low[m] : high[m]+1], low[m], high[m]
}

// abs is |x| for ints.
func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
