package stats

import (
	"math"
	"slices"
)

// Holm applies the Holm–Bonferroni step-down procedure (Holm 1979,
// Scandinavian Journal of Statistics 6:65–70) to a family of p-values. It
// controls the family-wise error rate at alpha, like Bonferroni, but is
// uniformly more powerful.
//
// adjusted[i] is the Holm-adjusted p-value of p[i] (R's p.adjust(p,
// "holm")): with the m p-values sorted ascending, the j-th (1-based) becomes
// max over i ≤ j of (m−i+1)·p₍ᵢ₎, capped at 1, so adjusted values keep the
// order of the raw ones. rejected[i] reports adjusted[i] ≤ alpha, which is
// exactly the step-down rule. NaN p-values are left out of the family (as R
// does): their adjusted value is NaN and they are never rejected. alpha
// outside (0, 1) means DefaultAlpha.
func Holm(p []float64, alpha float64) (adjusted []float64, rejected []bool) {
	alpha = alphaOr(alpha)
	adjusted = make([]float64, len(p))
	rejected = make([]bool, len(p))
	order := make([]int, 0, len(p))
	for i, v := range p {
		if math.IsNaN(v) {
			adjusted[i] = math.NaN()
			continue
		}
		order = append(order, i)
	}
	// Stable so that equal p-values keep their input order.
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case p[a] < p[b]:
			return -1
		case p[a] > p[b]:
			return 1
		}
		return 0
	})
	m := len(order)
	running := 0.0
	for j, i := range order {
		running = math.Max(running, math.Min(1, float64(m-j)*p[i]))
		adjusted[i] = running
		rejected[i] = running <= alpha
	}
	return adjusted, rejected
}
