package compare

import (
	"fmt"
	"sort"
	"strings"

	"github.com/faultlens/faultlens/metrics"
)

// charts gathers what the HTML export draws from the evidence and rows.
func charts(base, cand *metrics.Evidence, rows []Row) Charts {
	var ch Charts
	overall := map[string]Row{}
	for _, r := range rows {
		if r.Scenario == "" {
			overall[r.Metric] = r
		}
	}
	for _, d := range metrics.RatesIn(metrics.GroupFunnel) {
		if r, ok := overall[d.Name]; ok {
			ch.Funnel = append(ch.Funnel, Bar{Label: d.Name, Base: val(r.Base), Cand: val(r.Cand)})
		}
	}
	for _, r := range rows {
		if r.Scenario == "" && r.Kind == "latency" && len(r.Metric) > 4 && r.Metric[len(r.Metric)-3:] == "p50" &&
			(strings.Contains(r.Metric, ".queue.") || strings.Contains(r.Metric, ".exec.")) && strings.Contains(r.Metric, "latency.stage.") {
			ch.Latency = append(ch.Latency, Bar{Label: r.Metric[len("latency.stage.") : len(r.Metric)-4], Base: val(r.Base), Cand: val(r.Cand)})
		}
	}
	ch.Recovery = recoveryBars(base.Recovery, cand.Recovery)
	for _, d := range metrics.RatesIn(metrics.GroupEvidence) {
		if r, ok := overall[d.Name]; ok {
			ch.Grade = append(ch.Grade, Bar{Label: strings.TrimSuffix(d.Name, "_evidence_grade"), Base: val(r.Base), Cand: val(r.Cand),
				Note: fmt.Sprintf("%d vs %d confirmed", r.BaseDen, r.CandDen)})
		}
	}
	return ch
}

// recoveryBars is the share of chains recovered (first try, after retry or
// after switch) per error class, chains without an error left out.
func recoveryBars(b, c []metrics.RecoverySample) []Bar {
	type tally struct{ ok, n [2]int }
	by := map[string]*tally{}
	for side, rs := range [][]metrics.RecoverySample{b, c} {
		for _, r := range rs {
			if r.Category == "none" {
				continue
			}
			t := by[r.Category]
			if t == nil {
				t = &tally{}
				by[r.Category] = t
			}
			t.n[side]++
			if r.Outcome == "first_try" || r.Outcome == "after_retry" || r.Outcome == "after_switch" {
				t.ok[side]++
			}
		}
	}
	cats := make([]string, 0, len(by))
	for k := range by {
		cats = append(cats, k)
	}
	sort.Strings(cats)
	var out []Bar
	for _, k := range cats {
		t := by[k]
		out = append(out, Bar{Label: k, Base: share(t.ok[0], t.n[0]), Cand: share(t.ok[1], t.n[1]),
			Note: fmt.Sprintf("%d/%d vs %d/%d recovered", t.ok[0], t.n[0], t.ok[1], t.n[1])})
	}
	return out
}

func share(a, n int) float64 {
	if n == 0 {
		return nan
	}
	return float64(a) / float64(n)
}
