// Package stats holds the statistics faultlens uses to compare a candidate
// run set against a baseline: intervals and tests for failure rates, rank
// tests and bootstrap intervals for latencies, multiple-comparison control,
// power estimates and the benchstat-style verdict marks.
//
// The anchor is benchstat (golang.org/x/perf/benchmath). Where this package
// departs from it, it does so to say more, not less:
//
//   - Rates get a Newcombe hybrid score interval for the difference, not just
//     a p-value, and an exact test when counts are small.
//   - The Mann-Whitney U test is exact up to 50 values a side even with ties
//     (the permutation distribution of mid-rank sums), where benchmath's
//     go-moremath falls back to a normal approximation above 25 with ties;
//     and a report can say when samples are too small to tell.
//   - Quantile changes (p50, p95) get a seeded, reproducible bootstrap
//     interval whose cost does not grow with the sample size.
//   - Many comparisons in one report are adjusted with Holm's step-down
//     method, and McNemar's test covers paired outcomes (same tasks, two
//     runs).
//
// Every function is pure: same inputs, same outputs, no global state.
// Confidence levels are fractions in (0, 1); any other value, including 0,
// means DefaultConfidence.
package stats

// DefaultConfidence is the confidence level used when a caller passes a
// level outside (0, 1), e.g. 0.
const DefaultConfidence = 0.95

// DefaultAlpha is the significance level used by the verdict helpers when a
// caller passes an alpha outside (0, 1).
const DefaultAlpha = 0.05

// confidenceOr returns conf when it is a usable level, else DefaultConfidence.
func confidenceOr(conf float64) float64 {
	if conf > 0 && conf < 1 {
		return conf
	}
	return DefaultConfidence
}

// alphaOr returns alpha when it is a usable level, else DefaultAlpha.
func alphaOr(alpha float64) float64 {
	if alpha > 0 && alpha < 1 {
		return alpha
	}
	return DefaultAlpha
}
