package compare

import (
	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/stats"
)

// paired pairs the runs of each scenario occurring on both sides by order
// of occurrence (the i-th baseline run with the i-th candidate run) and
// runs McNemar's test on success, per scenario and over all pairs.
func paired(b, c []*metrics.RunFact) []PairedRow {
	var out []PairedRow
	total := PairedRow{}
	for _, sc := range scenarios(b, c) {
		x := inOrder(byScenario(b, sc))
		y := inOrder(byScenario(c, sc))
		n := min(len(x), len(y))
		if n == 0 {
			continue
		}
		row := PairedRow{Scenario: sc, Pairs: n}
		for i := 0; i < n; i++ {
			bs, cs := is(x[i].Success), is(y[i].Success)
			if bs && !cs {
				row.OnlyBase++
			}
			if cs && !bs {
				row.OnlyCand++
			}
		}
		m := stats.McNemar(row.OnlyBase, row.OnlyCand)
		row.P, row.Test = m.P, m.Test
		out = append(out, row)
		total.Pairs += row.Pairs
		total.OnlyBase += row.OnlyBase
		total.OnlyCand += row.OnlyCand
	}
	if len(out) == 0 {
		return nil
	}
	m := stats.McNemar(total.OnlyBase, total.OnlyCand)
	total.P, total.Test = m.P, m.Test
	return append([]PairedRow{total}, out...)
}

// inOrder returns the runs sorted by run order.
func inOrder(rs []*metrics.RunFact) []*metrics.RunFact {
	a, b := halves(rs)
	return append(a, b...)
}
