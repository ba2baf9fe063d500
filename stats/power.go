package stats

import "math"

// DefaultPower is the power used when a caller passes a power outside
// (0, 1).
const DefaultPower = 0.8

// MinDetectableRateDiff returns roughly the smallest absolute change in a
// rate, starting from base, that a two-sided test at level alpha detects
// with the given power when the baseline has n1 trials and the candidate
// n2. It returns +Inf when no change within [0, 1] is large enough.
//
// It inverts the normal-approximation power of the two-proportion test
// without continuity correction (Fleiss, Statistical Methods for Rates and
// Proportions, §4.2; R's power.prop.test with strict = FALSE, which it
// reproduces for n1 = n2):
//
//	power = Φ((|d| − z₁₋α/₂·√(p̄q̄(1/n1+1/n2))) / √(p1q1/n1 + p2q2/n2))
//
// with p1 = base, p2 = base ± d and p̄ the pooled rate. The change is taken
// towards ½ (up when base ≤ ½), where the variance grows, so the answer
// errs on the large side. Like any normal approximation it is rough for
// tiny n or rates near 0 and 1. alpha and power outside (0, 1) mean
// DefaultAlpha and DefaultPower.
func MinDetectableRateDiff(n1, n2 int, base, alpha, power float64) float64 {
	alpha, power = alphaOr(alpha), powerOr(power)
	if n1 <= 0 || n2 <= 0 || !(base >= 0 && base <= 1) {
		return math.Inf(1)
	}
	up := base <= 0.5
	room := 1 - base
	if !up {
		room = base
	}
	za := zTwoSided(1 - alpha)
	nf1, nf2 := float64(n1), float64(n2)
	powerAt := func(d float64) float64 {
		p2 := base + d
		if !up {
			p2 = base - d
		}
		pooled := (nf1*base + nf2*p2) / (nf1 + nf2)
		null := math.Sqrt(pooled * (1 - pooled) * (1/nf1 + 1/nf2))
		alt := math.Sqrt(base*(1-base)/nf1 + p2*(1-p2)/nf2)
		return normalCDF((d - za*null) / alt)
	}
	if powerAt(room) < power {
		return math.Inf(1)
	}
	return bisect(powerAt, power, 0, room)
}

// ShiftMDE is a rough minimum detectable shift for the Mann-Whitney test.
type ShiftMDE struct {
	// ProbGreater is the smallest detectable P(B > A), the probability
	// that a random candidate value exceeds a random baseline value (½
	// means no shift). It is +Inf when nothing is detectable.
	ProbGreater float64
	// SD is the same effect as a location shift of normal data, in units
	// of the common standard deviation: SD = √2·Φ⁻¹(ProbGreater).
	SD float64
}

// Absolute converts the shift to the data's units given the pooled
// standard deviation.
func (m ShiftMDE) Absolute(pooledSD float64) float64 { return m.SD * pooledSD }

// RelativeTo expresses the shift as a fraction of the baseline median,
// e.g. 0.12 for "a 12% slower median", given the pooled standard deviation.
func (m ShiftMDE) RelativeTo(pooledSD, median float64) float64 {
	return m.SD * pooledSD / median
}

// MinDetectableShift returns roughly the smallest shift a two-sided
// Mann-Whitney test at level alpha detects with the given power for sample
// sizes n1 and n2. It inverts Noether's (1987, JASA 82:645–647) sample-size
// formula N = (z₁₋α/₂ + z_power)² / (12·c(1−c)·(P − ½)²) with c = n1/N, so
//
//	P − ½ = (z₁₋α/₂ + z_power) / √(12·n1·n2/N),
//
// and converts P to a normal location shift. The formula uses the null
// variance of U, so it is optimistic for large effects, and the SD
// conversion assumes roughly normal data; latencies are usually skewed, so
// read SD as an order of magnitude. alpha and power outside (0, 1) mean
// DefaultAlpha and DefaultPower.
func MinDetectableShift(n1, n2 int, alpha, power float64) ShiftMDE {
	alpha, power = alphaOr(alpha), powerOr(power)
	inf := ShiftMDE{ProbGreater: math.Inf(1), SD: math.Inf(1)}
	if n1 <= 0 || n2 <= 0 {
		return inf
	}
	nf1, nf2 := float64(n1), float64(n2)
	excess := (zTwoSided(1-alpha) + normalQuantile(power)) / math.Sqrt(12*nf1*nf2/(nf1+nf2))
	if excess >= 0.5 {
		return inf
	}
	p := 0.5 + excess
	return ShiftMDE{ProbGreater: p, SD: math.Sqrt2 * normalQuantile(p)}
}

// MinMannWhitneyP is the smallest two-sided p-value a Mann-Whitney test can
// return for sample sizes n1 and n2 (no ties): the two most extreme
// orderings out of C(n1+n2, n1), so 2/C(n1+n2, n1), capped at 1. It is the
// quantity behind benchstat's "need >= N samples" warning, generalised to
// unequal sizes.
func MinMannWhitneyP(n1, n2 int) float64 {
	if n1 <= 0 || n2 <= 0 {
		return 1
	}
	return math.Min(1, 2*math.Exp(-logChoose(n1+n2, n1)))
}

// TooSmallToTell reports whether samples of n1 and n2 values cannot reach
// significance at alpha however different they are, so a "~" verdict
// means "not enough data" rather than "no change". alpha outside (0, 1)
// means DefaultAlpha.
func TooSmallToTell(n1, n2 int, alpha float64) bool {
	return MinMannWhitneyP(n1, n2) > alphaOr(alpha)
}

// PooledSD is the pooled standard deviation of two samples,
// √(((n1−1)s1² + (n2−1)s2²)/(n1+n2−2)), ignoring NaNs; NaN when fewer
// than three values in all.
func PooledSD(a, b []float64) float64 {
	ssA, nA := sumSquares(a)
	ssB, nB := sumSquares(b)
	if nA == 0 || nB == 0 || nA+nB < 3 {
		return math.NaN()
	}
	return math.Sqrt((ssA + ssB) / float64(nA+nB-2))
}

// sumSquares returns Σ(x−x̄)² over the non-NaN values and their count.
func sumSquares(xs []float64) (float64, int) {
	mean, n := 0.0, 0
	ss := 0.0
	for _, x := range xs {
		if math.IsNaN(x) {
			continue
		}
		n++
		d := x - mean // Welford's update: stable for large values
		mean += d / float64(n)
		ss += d * (x - mean)
	}
	return ss, n
}

// powerOr returns power when it is usable, else DefaultPower.
func powerOr(power float64) float64 {
	if power > 0 && power < 1 {
		return power
	}
	return DefaultPower
}

// bisect finds x in [lo, hi] with f(x) = target for f increasing.
func bisect(f func(float64) float64, target, lo, hi float64) float64 {
	for range 100 {
		mid := (lo + hi) / 2
		if f(mid) < target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}
