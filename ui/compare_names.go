package ui

import (
	"fmt"
	"strings"

	"github.com/faultlens/faultlens/compare"
)

// metricLegend explains the abbreviations of metricName.
const metricLegend = "lat = latency, x = exec, q = queue, w = wall"

// clockAbbrev is the one-letter name of each latency clock.
var clockAbbrev = map[string]string{"exec": "x", "queue": "q", "wall": "w"}

// metricName is a metric key, abbreviated by metricLegend when the screen
// is narrow; the parts that tell two rows apart (stage or tool, quantile)
// are always kept whole, and a part that is not a clock is never shortened.
func metricName(m string, abbrev bool) string {
	if !abbrev || !strings.HasPrefix(m, "latency.") {
		return m
	}
	p := strings.Split(m, ".")
	p[0] = "lat"
	if len(p) >= 5 {
		if a, ok := clockAbbrev[p[len(p)-2]]; ok {
			p[len(p)-2] = a
		}
	}
	return strings.Join(p, ".")
}

// rowName is a row's metric name, with the scenario of a per-scenario gate.
func rowName(r cmpRow, abbrev bool) string {
	if r.Scenario != "" {
		return metricName(r.Metric, abbrev) + " @" + r.Scenario
	}
	return metricName(r.Metric, abbrev)
}

// wrapName breaks name into lines of at most w cells, after a '.' or
// before a ' ' where it can and mid-part where a part alone is too wide.
// Joined, the lines are name again: nothing is cut.
func wrapName(name string, w int) []string {
	r := []rune(name)
	w = max(1, w)
	var out []string
	for len(r) > w {
		cut := w
		for i := w; i > 0; i-- {
			if r[i-1] == '.' || r[i] == ' ' {
				cut = i
				break
			}
		}
		out = append(out, string(r[:cut]))
		r = r[cut:]
	}
	return append(out, string(r))
}

// cmpDiff is the change alone, without its interval (narrow screens).
func cmpDiff(r compare.Row) string {
	if r.Diff == nil {
		return "–"
	}
	if r.Kind == "rate" {
		return fmt.Sprintf("%+.1fpp", *r.Diff*100)
	}
	return signedMs(*r.Diff)
}
