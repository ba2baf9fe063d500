package stats

import "math"

// NewcombeDiff returns Newcombe's hybrid score interval for the difference
// p2 − p1 of two independent proportions, p1 = x1/n1 (baseline) and
// p2 = x2/n2 (candidate). This is method 10 of Newcombe 1998 (Statistics in
// Medicine 17:873–890): it combines the two Wilson intervals and, unlike the
// Wald interval, keeps good coverage for small n and rates near 0 or 1.
// It panics on an impossible count; with n1 or n2 = 0 it returns [−1, 1].
func NewcombeDiff(x1, n1, x2, n2 int, conf float64) Interval {
	conf = confidenceOr(conf)
	w1 := Wilson(x1, n1, conf)
	w2 := Wilson(x2, n2, conf)
	if n1 == 0 || n2 == 0 {
		return Interval{Lo: -1, Hi: 1, Confidence: conf}
	}
	p1 := float64(x1) / float64(n1)
	p2 := float64(x2) / float64(n2)
	d := p2 - p1
	lo := d - math.Hypot(p2-w2.Lo, w1.Hi-p1)
	hi := d + math.Hypot(w2.Hi-p2, p1-w1.Lo)
	return Interval{Lo: math.Max(lo, -1), Hi: math.Min(hi, 1), Confidence: conf}
}
