package ui

import (
	"strings"

	"github.com/faultlens/faultlens/compare"
	"github.com/faultlens/faultlens/metrics"
)

// This file is the compare view's only adapter to compare.Result: which
// rows are gated, their verdicts and reasons, and which runs make a row.

// cmpRow is one row of the compare view.
type cmpRow struct {
	compare.Row
	gated   bool   // a gate judged this metric
	verdict string // FAIL, pass or skip for a gated row; "" for an exploratory one
	reason  string // the gate's one-line reason (the failing one first)
}

// gatedRows are the rows the view lists: the gated ones first (failed,
// then passed or skipped), then the exploratory whole-run-set rows, each
// group in the engine's order. A gate is matched to its row by metric and
// scenario, so a per-scenario gate shows on its scenario's row and a gate
// skipped on the fault-free control runs does not mark the overall row.
// Exploratory per-scenario rows are left to the exports.
func gatedRows(res *compare.Result) []cmpRow {
	rank := map[string]int{"skip": 1, "pass": 2, "FAIL": 3}
	type key struct{ metric, scenario string }
	verdict, reason := map[key]string{}, map[key]string{}
	for _, g := range res.Gates {
		v := "pass"
		switch {
		case !g.Passed:
			v = "FAIL"
		case g.Skipped:
			v = "skip"
		}
		k := key{g.Metric, g.Scenario}
		if rank[v] > rank[verdict[k]] {
			verdict[k], reason[k] = v, compare.GateText(g)
		}
	}
	var fail, pass, expl []cmpRow
	for _, r := range res.Rows {
		k := key{r.Metric, r.Scenario}
		c := cmpRow{Row: r, verdict: verdict[k], reason: reason[k]}
		c.gated = c.verdict != "" || r.Family == compare.FamilyGated
		switch {
		case c.verdict == "FAIL":
			fail = append(fail, c)
		case c.gated:
			pass = append(pass, c)
		case r.Scenario == "":
			expl = append(expl, c)
		}
	}
	return append(append(fail, pass...), expl...)
}

// rateDrill maps each rate to the runs filter that lists the runs counted
// in its numerator (or, for a rate where higher is better, those missing
// from it).
var rateDrill = map[string]metrics.RunFilter{
	"success":                 {Quick: "failed"},
	"masked_success":          {Quick: "masked"},
	"seal_violation":          {Quick: "seal"},
	"undisclosed_degradation": {Quick: "undisclosed"},
	"plan_validity":           {GateFalse: "plan"},
	"evidence_satisfaction":   {GateFalse: "evidence"},
	"answer_deliverable":      {GateFalse: "deliverable"},
	"terminal_committed":      {GateFalse: "committed"},
	"zero_call_violation":     {Quick: "zero_call"},
	"invalid_retry":           {Quick: "invalid_retry"},
	"unknown_outcome_resend":  {Quick: "unknown_outcome"},
	"breaker_violation":       {Quick: "breaker"},
	"duplicate_call":          {Quick: "duplicate"},
}

// drill is the runs filter behind row r of the candidate suite: the runs a
// rate counts, or for a latency quantile the runs with a span of that
// stage or tool above the baseline's value. ok is false when no filter
// narrows the row (the candidate's runs are then listed whole).
func drill(r compare.Row, candSuite string) (f metrics.RunFilter, ok bool) {
	if r.Kind == "latency" {
		p := strings.Split(r.Metric, ".")
		clocks := map[string]bool{"queue": true, "exec": true, "wall": true}
		if len(p) >= 5 && p[0] == "latency" && p[1] != "" && clocks[p[len(p)-2]] && r.Base != nil {
			f.Slow = metrics.SlowSpan{Scope: p[1], Name: strings.Join(p[2:len(p)-2], "."), Clock: p[len(p)-2], OverMs: *r.Base}
			ok = true
		}
	} else if d, found := rateDrill[r.Metric]; found {
		f, ok = d, true
	}
	f.Suite = candSuite
	if r.Scenario != "" {
		f.Scenario, ok = r.Scenario, true
	}
	return f, ok
}
