package compare

import (
	"fmt"
	"math"
	"sort"
)

// Evaluate applies the gates to the whole-run-set rows of res, filling
// res.Gates (failed first, then in file order) and res.Failed.
func Evaluate(res *Result, g *Gates) {
	var out []GateResult
	for _, gate := range g.Gates {
		matched := false
		for _, r := range res.Rows {
			if r.Scenario != "" || !gate.matches(r.Metric) {
				continue
			}
			matched = true
			out = append(out, judge(gate, r, res.Alpha))
		}
		if !matched {
			out = append(out, GateResult{Gate: gate, Metric: gate.Metric, Passed: true, Skipped: true,
				Reason: "no data on both sides"})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return !out[i].Passed && out[j].Passed })
	res.Gates, res.Failed = out, 0
	for _, r := range out {
		if !r.Passed {
			res.Failed++
		}
	}
}

// judge applies one gate to one row.
func judge(g Gate, r Row, alpha float64) GateResult {
	res := GateResult{Gate: g, Metric: r.Metric, Passed: true}
	if g.MustBeZero {
		count := float64(r.CandNum)
		if r.Kind == "latency" {
			count = val(r.Cand)
		}
		res.Change = num(count)
		if count != 0 {
			res.Passed = false
			res.Reason = fmt.Sprintf("candidate has %s, must be 0", countText(r))
		} else {
			res.Reason = "candidate has none"
		}
		return res
	}
	change := badChange(g, val(r.Base), val(r.Cand))
	res.Change = num(change)
	limit := *g.MaxChange
	unit := func(v float64) string {
		switch {
		case g.Relative:
			return fmt.Sprintf("%.1f%%", v*100)
		case r.Kind == "rate":
			return fmt.Sprintf("%.1fpp", v*100)
		}
		return fmt.Sprintf("%.4gms", v)
	}
	switch {
	case math.IsNaN(change):
		res.Skipped = true
		res.Reason = "no value on one side"
	case change <= limit:
		res.Reason = fmt.Sprintf("%s %s within %s", g.Direction, unit(math.Max(change, 0)), unit(limit))
	case g.RequireSignificant && !r.Significant:
		res.Reason = fmt.Sprintf("%s %s exceeds %s but is not significant (p_adj %s)", g.Direction, unit(change), unit(limit), pText(r.PAdj))
	default:
		res.Passed = false
		res.Reason = fmt.Sprintf("%s %s exceeds %s", g.Direction, unit(change), unit(limit))
		if g.RequireSignificant {
			res.Reason += fmt.Sprintf(" (significant, p_adj %s)", pText(r.PAdj))
		}
	}
	return res
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

func countText(r Row) string {
	if r.Kind == "latency" {
		return fmt.Sprintf("%.4gms", val(r.Cand))
	}
	return fmt.Sprintf("%d of %d", r.CandNum, r.CandDen)
}

func pText(p *float64) string {
	if p == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.3g", *p)
}
