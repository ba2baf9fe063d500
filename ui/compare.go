package ui

import (
	"fmt"
	"sort"
	"strings"

	"github.com/faultlens/faultlens/compare"
)

// compareBody shows the compare engine's judgement of candidate against
// baseline, as "faultlens compare" computes it: the failed gates first,
// then every whole-run-set metric with both values, the delta and its
// interval, the significance mark after Holm, and the gate verdict.
func (m Model) compareBody() string {
	b, c := m.pair()
	if b == nil || c == nil {
		return "compare needs two suites (--baseline B --candidate C)"
	}
	st := m.styles
	switch {
	case m.cmp.err != nil:
		return st.Error.Render("compare: " + safe(m.cmp.err.Error()))
	case m.cmp.res == nil:
		return m.spin.View() + " comparing " + safe(b.Suite) + " with " + safe(c.Suite) + "…"
	}
	res := m.cmp.res
	var out strings.Builder
	outcome := st.Good.Render("all gates passed")
	if res.Failed > 0 {
		outcome = st.Bad.Render(fmt.Sprintf("%d of %d gates FAILED", res.Failed, len(res.Gates)))
	}
	fmt.Fprintf(&out, "%s vs %s (%d vs %d runs): %s  Holm α=%g\n", st.Title.Render(safe(res.Baseline.Name)),
		st.Title.Render(safe(res.Candidate.Name)), res.Baseline.Runs, res.Candidate.Runs, outcome, res.Alpha)
	for _, g := range res.Gates {
		if !g.Passed {
			out.WriteString(st.Bad.Render("FAIL "+safe(g.Metric)+": "+safe(g.Reason)) + "\n")
		}
	}
	fmt.Fprintf(&out, "delta = candidate − baseline [%.0f%% interval]; sig: ~ no significant change\n", res.Confidence*100)
	out.WriteString(st.Header.Render(fmt.Sprintf("%-28s %-4s %8s %8s %-9s %s", "metric", "gate",
		lpad(pad(safe(res.Baseline.Name), 8), 8), lpad(pad(safe(res.Candidate.Name), 8), 8), "sig", "delta [interval]")) + "\n")
	verdicts := gateVerdicts(res.Gates)
	for _, r := range compareRows(res, verdicts) {
		gate := verdicts[r.Metric]
		line := fmt.Sprintf("%-28s %-4s %8s %8s %-9s %s", pad(safe(r.Metric), 28), gate,
			cmpCell(r, r.Base), cmpCell(r, r.Cand), pad(sigMark(r), 9), cmpDelta(r))
		switch {
		case gate == "FAIL":
			line = st.Bad.Render(line)
		case r.Significant:
			line = st.Warn.Render(line)
		}
		out.WriteString(line + "\n")
	}
	return strings.TrimRight(out.String(), "\n")
}

// gateVerdicts maps each gated metric to its worst outcome: FAIL, pass or
// skip.
func gateVerdicts(gs []compare.GateResult) map[string]string {
	rank := map[string]int{"": 0, "skip": 1, "pass": 2, "FAIL": 3}
	out := map[string]string{}
	for _, g := range gs {
		v := "pass"
		switch {
		case !g.Passed:
			v = "FAIL"
		case g.Skipped:
			v = "skip"
		}
		if rank[v] > rank[out[g.Metric]] {
			out[g.Metric] = v
		}
	}
	return out
}

// compareRows are the whole-run-set rows, those failing a gate first.
func compareRows(res *compare.Result, verdicts map[string]string) []compare.Row {
	var rows []compare.Row
	for _, r := range res.Rows {
		if r.Scenario == "" {
			rows = append(rows, r)
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		return verdicts[rows[i].Metric] == "FAIL" && verdicts[rows[j].Metric] != "FAIL"
	})
	return rows
}

// cmpCell is a rate as a percentage or a latency in ms.
func cmpCell(r compare.Row, v *float64) string {
	switch {
	case v == nil:
		return "–"
	case r.Kind == "rate":
		return fmt.Sprintf("%.1f%%", *v*100)
	}
	return ms(v)
}

// cmpDelta is the change with its interval: points for rates, ms for
// latency.
func cmpDelta(r compare.Row) string {
	if r.Diff == nil {
		return "–"
	}
	if r.Kind == "rate" {
		return fmt.Sprintf("%+.1fpp [%+.1f, %+.1f]", *r.Diff*100, val(r.Lo)*100, val(r.Hi)*100)
	}
	return fmt.Sprintf("%s [%s, %s]", signedMs(*r.Diff), signedMs(val(r.Lo)), signedMs(val(r.Hi)))
}

// sigMark is "~" without a significant change, else the change itself.
func sigMark(r compare.Row) string {
	if r.Verdict == "too small" {
		return "too small"
	}
	return r.Verdict
}

func signedMs(v float64) string {
	if v < 0 {
		return "-" + msf(-v)
	}
	return "+" + msf(v)
}
