package stats

import (
	"fmt"
	"math"
)

// NoChange is the verdict mark for a difference that is not significant,
// as in benchstat.
const NoChange = "~"

// Significant reports whether p is at or below alpha. A NaN p-value (no
// test was possible) is never significant. alpha outside (0, 1) means
// DefaultAlpha.
func Significant(p, alpha float64) bool {
	return p <= alphaOr(alpha)
}

// Mark is benchstat's delta column: NoChange when p is not significant at
// alpha, else the signed relative change from base to cand, e.g. "+12.50%".
// It returns "0.00%" when the values are equal and "?" when base is 0.
func Mark(p, alpha, base, cand float64) string {
	if !Significant(p, alpha) {
		return NoChange
	}
	if base == cand {
		return "0.00%"
	}
	if base == 0 {
		return "?"
	}
	return fmt.Sprintf("%+.2f%%", (cand/base-1)*100)
}

// Mark is the verdict for a rate change: NoChange when P is not
// significant at alpha, else the signed change in percentage points, e.g.
// "+4.2pp". Rates are compared absolutely, not relatively: going from 1% to
// 2% failures is "+1.0pp", not "+100%".
func (r RateComparison) Mark(alpha float64) string {
	if !Significant(r.P, alpha) {
		return NoChange
	}
	return fmt.Sprintf("%+.1fpp", r.Diff*100)
}

// Mark is the verdict for a quantile change: NoChange when the interval
// contains 0 (or could not be computed), else the signed relative change,
// e.g. "+8.31%", or the absolute change when the baseline quantile is not
// positive.
func (d QuantileDiff) Mark() string {
	iv := d.Interval
	if math.IsNaN(iv.Lo) || math.IsNaN(iv.Hi) || iv.Contains(0) {
		return NoChange
	}
	if math.IsNaN(d.Rel) {
		return fmt.Sprintf("%+.4g", d.Diff)
	}
	return fmt.Sprintf("%+.2f%%", d.Rel*100)
}
