package stats

import "math"

// normalCDF is the standard normal distribution function Φ(x).
func normalCDF(x float64) float64 {
	return 0.5 * math.Erfc(-x/math.Sqrt2)
}

// normalQuantile is Φ⁻¹(p), the standard normal quantile function.
func normalQuantile(p float64) float64 {
	return math.Sqrt2 * math.Erfinv(2*p-1)
}

// zTwoSided is the critical value z such that a two-sided normal interval
// at confidence conf covers ±z, e.g. 1.959964 for 0.95.
func zTwoSided(conf float64) float64 {
	return normalQuantile(1 - (1-conf)/2)
}

// normalTwoSidedP is the two-sided p-value 2·(1−Φ(|z|)).
func normalTwoSidedP(z float64) float64 {
	return math.Erfc(math.Abs(z) / math.Sqrt2)
}

// chiSquare1P is the upper tail P(χ²₁ ≥ x) of a chi-square distribution
// with one degree of freedom.
func chiSquare1P(x float64) float64 {
	if x <= 0 {
		return 1
	}
	return math.Erfc(math.Sqrt(x / 2))
}

// logChoose is log C(n, k) computed with log-gamma, accurate for large n.
func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}
