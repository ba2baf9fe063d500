package stats

import (
	"math"
	"slices"
)

// Quantile returns the q-quantile of xs by linear interpolation between
// order statistics: R's type 7, NumPy's default, and DuckDB's
// quantile_cont. With n values sorted ascending it is x[h] interpolated at
// h = (n−1)·q (0-based). NaNs are ignored; it returns NaN for no values or
// q outside [0, 1]. xs is not modified.
func Quantile(xs []float64, q float64) float64 {
	return quantileSorted(sortedClean(xs), q)
}

// quantileSorted is Quantile for an ascending, NaN-free slice.
func quantileSorted(xs []float64, q float64) float64 {
	if len(xs) == 0 || !(q >= 0 && q <= 1) {
		return math.NaN()
	}
	h := float64(len(xs)-1) * q
	j := int(h)
	if j >= len(xs)-1 {
		return xs[len(xs)-1]
	}
	return xs[j] + (h-float64(j))*(xs[j+1]-xs[j])
}

// sortedClean returns a sorted copy of xs without NaNs.
func sortedClean(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	return out
}
