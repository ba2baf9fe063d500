package compare

import (
	"math"
	"sort"
)

// Evaluate applies the gates to res. The rows the gates name form the
// pre-registered gated family: each is tested one-sided in its gate's bad
// direction (two-sided for "either"), Holm runs within that family only,
// and its interval is redrawn at the level that agrees with the verdict.
// Every other row stays exploratory, Holm within its own family. It fills
// res.Gates (failed first, then in file order) and res.Failed.
func Evaluate(res *Result, g *Gates) {
	rows := res.Rows
	for i := range rows {
		rows[i].Family = FamilyExploratory
	}
	var ds []*decision
	var out []GateResult
	var order []int
	for gi, gate := range g.Gates {
		matched := false
		for i := range rows {
			r := &rows[i]
			if !gate.matches(r.Metric) || !gated(res, gate, r) {
				continue
			}
			matched = true
			d := plan(gate, i, r, res)
			d.order = gi
			ds = append(ds, d)
		}
		if !matched {
			out = append(out, GateResult{Gate: gate, Metric: gate.Metric, Outcome: OutcomeSkip, SkipReason: SkipNoRow,
				Passed: true, Skipped: true})
			order = append(order, gi)
		}
	}
	res.GatedTests = holmGated(ds, res.Alpha)
	// Each decision is judged on its own copy of the row, filled from its
	// own test: two gates on one row (an observed-change gate beside a
	// significance gate, or a per-scenario gate on the whole-set row) must
	// not judge each other's statistics. The first gate judging a row draws
	// the row's line.
	orig := append([]Row(nil), rows...)
	filled := map[int]bool{}
	for _, d := range ds {
		row := orig[d.row]
		if d.kind != kindNone {
			fillGatedRow(&row, d, res.Alpha)
			if !filled[d.row] {
				rows[d.row], filled[d.row] = row, true
			}
		}
		out = append(out, judge(d, row))
		order = append(order, d.order)
	}
	res.ExploratoryTests = holmExploratory(rows, res.Alpha)
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool {
		a, b := out[idx[i]], out[idx[j]]
		if a.Passed != b.Passed {
			return !a.Passed
		}
		return order[idx[i]] < order[idx[j]]
	})
	sorted := make([]GateResult, len(out))
	for i, k := range idx {
		sorted[i] = out[k]
	}
	res.Gates, res.Failed = sorted, 0
	for _, r := range sorted {
		if !r.Passed {
			res.Failed++
		}
	}
}

// judge applies one decision's gate to its row. It returns numbers and
// enums only: the observed change, its interval, the test and its
// Holm-adjusted p, the method and the finding; GateText writes the line
// a reviewer reads.
func judge(d *decision, r Row) GateResult {
	res := decide(d, r)
	res.Passed, res.Skipped = res.Outcome != OutcomeFail, res.Outcome == OutcomeSkip
	return res
}

func decide(d *decision, r Row) GateResult {
	g := d.gate
	res := GateResult{Gate: g, Metric: r.Metric, Scenario: r.Scenario, Kind: r.Kind, Outcome: OutcomePass,
		BaseNum: r.BaseNum, BaseDen: r.BaseDen, CandNum: r.CandNum, CandDen: r.CandDen}
	switch d.kind {
	case kindNone:
		res.Outcome, res.SkipReason = OutcomeSkip, d.skip
		return res
	case kindZero:
		res.Method, res.Test = MethodZeroTolerance, "zero tolerance"
		count := float64(r.CandNum)
		if r.Kind == "latency" {
			count = val(r.Cand)
		}
		res.Change, res.Finding = num(count), FindingNone
		if count != 0 {
			res.Outcome, res.Finding = OutcomeFail, FindingSome
		}
		return res
	}
	if d.kind == kindObserved {
		r.Test, r.Alternative, r.Lo, r.Hi = "observed change", "", nil, nil
	}
	res.Test, res.Alternative, res.PAdj, res.Level, res.Significant = r.Test, r.Alternative, r.PAdj, r.Level, r.Significant
	if g.MustBeZero || g.MustNotIncrease {
		// The baseline has the defect: the gate is "must not increase".
		res.Method, res.Finding = MethodNotIncrease, FindingNoIncrease
		res.Change, res.Lo, res.Hi = r.Diff, r.Lo, r.Hi
		if r.Significant {
			res.Outcome, res.Finding = OutcomeFail, FindingIncrease
		}
		return res
	}
	var change, lo, hi float64
	res.Method = MethodTest
	switch {
	case d.kind == kindObserved:
		res.Method = MethodObserved
		change = badChange(g, val(r.Base), val(r.Cand))
		lo, hi = math.NaN(), math.NaN()
	case d.margin:
		// No baseline data: the candidate against the margin itself.
		res.Method = MethodMargin
		change, lo, hi = badSide(d, val(r.Diff), val(r.Lo), val(r.Hi))
	case g.Relative:
		change = badChange(g, val(r.Base), val(r.Cand))
		lo, hi = relBounds(d, r)
	default:
		change = badChange(g, val(r.Base), val(r.Cand))
		_, lo, hi = badSide(d, val(r.Diff), val(r.Lo), val(r.Hi))
	}
	res.Change, res.Lo, res.Hi = num(change), num(lo), num(hi)
	if math.IsNaN(change) {
		res.Outcome, res.SkipReason, res.Method = OutcomeSkip, SkipNoValue, ""
		return res
	}
	switch {
	case change <= *g.MaxChange:
		res.Finding = FindingWithin
	case g.RequireSignificant && !r.Significant:
		res.Finding = FindingNotSignificant
	default:
		res.Outcome, res.Finding = OutcomeFail, FindingExceeds
	}
	return res
}

// badSide turns a change and its interval into the gate's bad direction.
func badSide(d *decision, diff, lo, hi float64) (float64, float64, float64) {
	switch {
	case d.either:
		return math.Abs(diff), lo, hi
	case d.increase:
		return diff, lo, hi
	}
	return -diff, -hi, -lo
}

// relBounds is a relative gate's interval: from the bootstrap's relative
// replicates for latency (same ranks as the row's bounds), else the
// absolute bounds over the baseline value.
func relBounds(d *decision, r Row) (float64, float64) {
	base := val(r.Base)
	if d.rels != nil && !math.IsNaN(d.rels[0]) && !math.IsNaN(d.rels[len(d.rels)-1]) {
		two := 1 - r.Level
		if d.either {
			return math.NaN(), math.NaN()
		}
		lo := boundOf(d.rels, two/2, true)
		hi := boundOf(d.rels, two/2, false)
		_, l, h := badSide(d, 0, lo, hi)
		return l, h
	}
	if !(base > 0) {
		return math.NaN(), math.NaN()
	}
	_, l, h := badSide(d, 0, val(r.Lo)/base, val(r.Hi)/base)
	return l, h
}

// badChange is the change from base to cand in the gate's bad direction
// (negative when it moved the good way); NaN when a value is missing.
func badChange(g Gate, base, cand float64) float64 {
	if math.IsNaN(base) || math.IsNaN(cand) {
		return math.NaN()
	}
	d := cand - base
	if g.Relative {
		switch {
		case base != 0:
			d /= math.Abs(base)
		case d == 0:
			d = 0
		default:
			d = math.Copysign(math.Inf(1), d)
		}
	}
	switch g.Direction {
	case "decrease":
		return -d
	case "either":
		return math.Abs(d)
	}
	return d
}

// gated reports whether gate judges row r: the whole-run-set row (or, with
// a conformance mix, the fault-free control runs' row of a fault-sensitive
// metric), and every scenario's row of a per-scenario gate except the
// fault scenarios of a fault-sensitive metric under a conformance mix.
func gated(res *Result, g Gate, r *Row) bool {
	target := gateScenario(res, r.Metric)
	switch {
	case r.Scenario == target:
		return true
	case !g.PerScenario || r.Scenario == "":
		return false
	}
	return target == ""
}
