package compare

import (
	"math"
	"sort"
	"strings"

	"github.com/faultlens/faultlens/stats"
)

// decision is one gate applied to one row: how it is decided and, when a
// test decides it, the one-sided test in the gate's bad direction.
type decision struct {
	gate     Gate
	row      int
	order    int    // position in file order, for the report
	kind     string // kindZero, kindTest, kindNone
	increase bool   // the bad direction (unless either)
	either   bool
	margin   bool    // no baseline data: the candidate against the margin
	ref      float64 // the implied baseline rate of a margin test
	p        float64 // raw one-sided p (two-sided for either)
	level    float64 // the Holm level a the row was judged at
	padj     float64
	diffs    []float64 // sorted bootstrap replicates of a latency row
	rels     []float64
	skip     SkipReason // why a gate on this row cannot be judged
}

// MinLatencySamples is the smallest sample, per side, on which a latency
// gate is judged: 100 for a p95 (five values above it), 20 for a p50.
// Below it the percentile bootstrap of a tail quantile reuses a handful of
// order statistics and its false-alarm rate is not what the table in
// docs/compare.md measured; the gate is reported as skipped.
func MinLatencySamples(metric string) int {
	if strings.HasSuffix(metric, ".p95") {
		return 100
	}
	return 20
}

const (
	kindZero = "zero"
	kindTest = "test"
	kindNone = "none"
	// kindObserved: a max_change gate without require_significant decides
	// on the observed change alone, so it takes no place in the family.
	kindObserved = "observed"
)

// plan decides how gate g judges row i.
func plan(g Gate, i int, r *Row, res *Result) *decision {
	d := &decision{gate: g, row: i, p: math.NaN(), increase: g.Direction != "decrease", either: g.Direction == "either"}
	switch {
	case res.Mix == MixConformance && isFaultSensitive(r.Metric):
		d.kind, d.skip = kindNone, SkipConformanceMix
	case r.CandDen == 0:
		d.kind, d.skip = kindNone, SkipNoCandidateData
	case r.Kind == "latency" && min(r.BaseDen, r.CandDen) < MinLatencySamples(r.Metric):
		d.kind, d.skip = kindNone, SkipTooFewSamples
	case g.MustBeZero && (r.Kind == "latency" || r.BaseNum == 0):
		d.kind = kindZero
	case g.MustNotIncrease && r.BaseDen == 0:
		// A baseline known to carry the defect but with no denominator
		// tonight cannot show an increase.
		d.kind, d.skip = kindNone, SkipNoBaselineData
	case g.MustBeZero || g.MustNotIncrease:
		d.kind, d.increase, d.either = kindTest, true, false
	case g.MaxChange != nil && !g.RequireSignificant && r.BaseDen > 0:
		d.kind = kindObserved
	case r.BaseDen == 0 && d.either:
		d.kind, d.skip = kindNone, SkipNoReference
	case r.BaseDen == 0:
		d.kind, d.margin = kindTest, true
		if !d.increase {
			d.ref = 1
		}
	default:
		d.kind = kindTest
	}
	if d.kind != kindTest {
		return d
	}
	switch {
	case d.margin:
		m := *g.MaxChange
		if d.increase {
			d.p = stats.BinomialUpperP(r.CandNum, r.CandDen, m)
		} else {
			d.p = stats.BinomialUpperP(r.CandDen-r.CandNum, r.CandDen, m)
		}
	case r.Kind == "rate" && d.either:
		d.p = math.Min(1, 2*math.Min(stats.NewcombeOneSidedP(r.BaseNum, r.BaseDen, r.CandNum, r.CandDen, true),
			stats.NewcombeOneSidedP(r.BaseNum, r.BaseDen, r.CandNum, r.CandDen, false)))
	case r.Kind == "rate":
		d.p = stats.NewcombeOneSidedP(r.BaseNum, r.BaseDen, r.CandNum, r.CandDen, d.increase)
	default:
		li, ok := res.latency[inputKey(r.Scenario, r.Metric)]
		if !ok {
			d.kind, d.skip = kindNone, SkipNoSamples
			return d
		}
		d.diffs, d.rels = stats.BootstrapQuantileReps(li.a, li.b, li.q, res.iters, li.seed)
		if d.either {
			d.p = stats.BootstrapTwoSidedP(d.diffs)
		} else {
			d.p = stats.BootstrapOneSidedP(d.diffs, d.increase)
		}
	}
	return d
}

// holmGated runs Holm over the tested decisions and gives each the level
// its interval is drawn at: a rejected hypothesis at rank j its own step
// level α/(k−j); every other one the level at which the step-down stopped.
// With the interval the inversion of the test, a bound excludes 0 exactly
// when the decision is significant.
func holmGated(ds []*decision, alpha float64) int {
	var t []*decision
	for _, d := range ds {
		if d.kind == kindTest && !math.IsNaN(d.p) {
			t = append(t, d)
		}
	}
	sort.SliceStable(t, func(i, j int) bool { return t[i].p < t[j].p })
	ps := make([]float64, len(t))
	for i, d := range t {
		ps[i] = d.p
	}
	adj, _ := stats.Holm(ps, alpha)
	k := len(t)
	stop := alpha / float64(k)
	stopped := false
	for j, d := range t {
		d.padj = adj[j]
		if !stopped && adj[j] < alpha {
			d.level = alpha / float64(k-j)
			continue
		}
		if !stopped {
			stopped, stop = true, alpha/float64(k-j)
		}
		d.level = stop
	}
	return k
}

// fillGatedRow rewrites row r with the decision's one-sided test, its
// Holm-adjusted p and the interval drawn at the decision's level.
func fillGatedRow(r *Row, d *decision, alpha float64) {
	r.Family = FamilyGated
	if d.kind != kindTest {
		r.P, r.PAdj, r.Significant = nil, nil, false
		r.Alternative = ""
		r.Verdict = VerdictNoChange
		switch {
		case d.kind == kindObserved:
			r.Verdict = VerdictObserved
		case d.kind == kindZero && r.Kind == "rate" && r.CandNum > 0:
			r.Verdict = VerdictNotZero
		case d.kind == kindZero && r.Kind == "rate":
			r.Verdict = VerdictZero
		case r.BaseDen == 0 || r.CandDen == 0:
			r.Verdict = VerdictNoData
		}
		return
	}
	a := d.level
	r.P, r.PAdj = num(d.p), num(d.padj)
	r.Significant = d.padj < alpha
	r.Alternative = "greater"
	if !d.increase {
		r.Alternative = "less"
	}
	two := 2 * a // the two-sided interval whose one-sided bound is at a
	if d.either {
		r.Alternative, two = "two-sided", a
	}
	r.Level = 1 - two
	switch {
	case d.margin:
		x, n := r.CandNum, r.CandDen
		c := float64(x) / float64(n)
		r.Diff = num(c - d.ref)
		r.Lo = num(stats.BinomialLowerBound(x, n, two/2) - d.ref)
		r.Hi = num(1 - stats.BinomialLowerBound(n-x, n, two/2) - d.ref)
		r.Test = stats.TestBinomialMargin
	case r.Kind == "rate":
		iv := stats.NewcombeDiff(r.BaseNum, r.BaseDen, r.CandNum, r.CandDen, r.Level)
		r.Lo, r.Hi, r.Test = num(iv.Lo), num(iv.Hi), stats.TestNewcombe
	default:
		r.Lo = num(stats.BootstrapBound(d.diffs, two/2, true))
		r.Hi = num(stats.BootstrapBound(d.diffs, two/2, false))
		r.Test = stats.TestBootstrap
	}
	switch {
	case d.margin && r.Significant:
		r.Verdict = VerdictBeyondMargin
	case d.margin:
		r.Verdict = VerdictNoData
	case r.Significant:
		r.Verdict = VerdictSignificant
	default:
		r.Verdict = VerdictNoChange
	}
}

// holmExploratory adjusts the exploratory rows' two-sided p-values within
// their own family and sets their verdicts. A row whose unadjusted
// interval excludes 0 but which Holm does not reject is
// VerdictNotAfterHolm.
func holmExploratory(rows []Row, alpha float64) int {
	var ps []float64
	var idx []int
	for i, r := range rows {
		if r.Family == FamilyExploratory && r.P != nil {
			ps = append(ps, *r.P)
			idx = append(idx, i)
		}
	}
	adj, _ := stats.Holm(ps, alpha)
	for k, i := range idx {
		rows[i].PAdj = num(adj[k])
	}
	for i := range rows {
		r := &rows[i]
		if r.Family != FamilyExploratory {
			continue
		}
		r.Alternative = "two-sided"
		r.Significant = r.PAdj != nil && *r.PAdj < alpha
		excludes := r.Lo != nil && r.Hi != nil && (*r.Lo > 0 || *r.Hi < 0)
		switch {
		case r.Significant:
			r.Verdict = VerdictSignificant
		case r.BaseDen == 0 || r.CandDen == 0:
			// Nothing to compare on one side (e.g. no run with an invalid
			// plan in a fault-free baseline): say so, not "too small".
			r.Verdict = VerdictNoData
		case excludes:
			r.Verdict = VerdictNotAfterHolm
		case r.TooSmall:
			r.Verdict = VerdictTooSmall
		default:
			r.Verdict = VerdictNoChange
		}
	}
	return len(ps)
}
