package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/metrics"
)

// everyRate is a one-suite report in which each reported rate has its own
// numerator (101, 102, …) over 997, filled by JSON name as the registry
// lists them.
func everyRate(t *testing.T) *metrics.Report {
	t.Helper()
	js := map[string]any{}
	for i, d := range metrics.ReportedRates() {
		r := map[string]any{"num": 101 + i, "den": 997, "rate": float64(101+i) / 997}
		if d.Unknown {
			r["unknown"] = 1
		}
		if d.Reasons != nil {
			by := map[string]int{}
			for _, reason := range d.Reasons {
				by[reason] = 1
			}
			r["by_reason"] = by
		}
		js[d.Name] = r
	}
	b, err := json.Marshal(js)
	if err != nil {
		t.Fatal(err)
	}
	var m metrics.Metrics
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return &metrics.Report{ReportVersion: metrics.ReportVersion, Rejected: metrics.Rejected{ByReason: map[string]int64{}},
		Suites: []metrics.Suite{{Suite: "s", Runs: 997, Metrics: m}}}
}

// Every format shows every reported rate: the machine formats by name, the
// human ones by label, each with its numerator. A rate added to the
// registry in a group the text or HTML report does not lay out fails here.
func TestEveryRateIsRendered(t *testing.T) {
	rep := everyRate(t)
	rates := metrics.ReportedRates()
	if len(rates) != 21 {
		t.Fatalf("%d reported rates, want 21", len(rates))
	}
	for _, format := range Formats {
		var b bytes.Buffer
		if err := Write(&b, rep, format, Options{}); err != nil {
			t.Fatal(err)
		}
		out := strings.ToLower(b.String())
		for i, d := range rates {
			name := d.Name
			if format == "text" || format == "html" {
				name = d.Label
			}
			if !strings.Contains(out, strings.ToLower(name)) {
				t.Errorf("%s report does not show rate %s (as %q)", format, d.Name, name)
			}
			if n := fmt.Sprint(101 + i); !strings.Contains(out, n) {
				t.Errorf("%s report does not show the numerator of %s (%s)", format, d.Name, n)
			}
		}
	}
}
