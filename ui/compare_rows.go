package ui

import (
	"strings"

	"github.com/faultlens/faultlens/compare"
	"github.com/faultlens/faultlens/metrics"
)

// This file is the compare view's only adapter to compare.Result: which
// rows are gated, their verdicts and reasons, and which runs make a row.
// compare.Result is gaining its own gated/exploratory split; when it lands
// only gatedRows needs to read it instead of deriving it from Gates.

// cmpRow is one whole-run-set row of the compare view.
type cmpRow struct {
	compare.Row
	gated   bool   // a gate judged this metric
	verdict string // FAIL, pass or skip for a gated row; "" for an exploratory one
	reason  string // the gate's one-line reason (the failing one first)
}

// gatedRows are the whole-run-set rows: gated ones first (failed before
// passed), then the exploratory ones, each group in the engine's order.
func gatedRows(res *compare.Result) []cmpRow {
	rank := map[string]int{"skip": 1, "pass": 2, "FAIL": 3}
	verdict, reason := map[string]string{}, map[string]string{}
	for _, g := range res.Gates {
		v := "pass"
		switch {
		case !g.Passed:
			v = "FAIL"
		case g.Skipped:
			v = "skip"
		}
		if rank[v] > rank[verdict[g.Metric]] {
			verdict[g.Metric], reason[g.Metric] = v, g.Reason
		}
	}
	var fail, pass, expl []cmpRow
	for _, r := range res.Rows {
		if r.Scenario != "" {
			continue
		}
		c := cmpRow{Row: r, verdict: verdict[r.Metric], reason: reason[r.Metric]}
		c.gated = c.verdict != ""
		switch {
		case c.verdict == "FAIL":
			fail = append(fail, c)
		case c.gated:
			pass = append(pass, c)
		default:
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
