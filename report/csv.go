package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/textsafe"
)

// CSV writes one row per metric per suite (scenario empty) and per
// scenario: suite, scenario, metric, num, den, rate.
func CSV(w io.Writer, rep *metrics.Report) error {
	records := [][]string{{"suite", "scenario", "metric", "num", "den", "rate"}}
	add := func(r ...string) { records = append(records, r) }
	row := func(suite, scenario string, m metrics.Metrics, amp *float64, runs int64) {
		s, sc := textsafe.CSVCell(suite), textsafe.CSVCell(scenario)
		add(s, sc, "runs", strconv.FormatInt(runs, 10), "", "")
		rates := m.Rates()
		for _, nr := range rates {
			add(s, sc, nr.Name, strconv.FormatInt(nr.Rate.Num, 10), strconv.FormatInt(nr.Rate.Den, 10), rate(nr.Rate.Rate))
		}
		for _, nr := range rates {
			for _, reason := range nr.Def.Reasons {
				add(s, sc, nr.Name+"."+reason, strconv.FormatInt(nr.Rate.ByReason[reason], 10), "", "")
			}
		}
		add(s, sc, "retry_amplification", "", "", rate(amp))
	}
	for _, st := range rep.Suites {
		row(st.Suite, "", st.Metrics, st.RetryAmplification, st.Runs)
		for _, p := range st.Scenarios {
			row(st.Suite, p.Scenario, p.Metrics, p.RetryAmplification, p.Runs)
		}
	}
	add("", "", "rejected_lines", fmt.Sprint(rep.Rejected.Lines), "", "")
	// WriteAll flushes and returns the first write error of any record.
	return csv.NewWriter(w).WriteAll(records)
}

func rate(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'g', -1, 64)
}
