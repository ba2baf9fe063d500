package metrics

import (
	"strings"
	"testing"
)

// fillRates fills the parts the registry defines and refuses any other
// <rate>__<part> column, naming it.
func TestFillRates(t *testing.T) {
	var m Metrics
	initMetrics(&m)
	row := map[string]any{"suite": "s", "scenario": nil, "runs": int64(9),
		"success__num": int64(3), "success__den": int64(4), "success__unknown": int64(1),
		"invalid_retry__num": int64(2), "invalid_retry__den": int64(8), "invalid_retry__category": int64(2)}
	if err := fillRates(&m, row); err != nil {
		t.Fatal(err)
	}
	wantRate(t, "success", m.Success, 3, 4)
	if m.Success.Rate == nil || *m.Success.Rate != 0.75 || m.Success.Unknown == nil || *m.Success.Unknown != 1 {
		t.Errorf("success = %+v, want rate 0.75 and 1 unknown", m.Success)
	}
	wantRate(t, "invalid_retry", m.InvalidRetry, 2, 8)
	if got := m.InvalidRetry.ByReason; got["category"] != 2 || got["not_retryable"] != 0 || len(got) != 5 {
		t.Errorf("invalid_retry.by_reason = %v", got)
	}
	if m.DuplicateCall.Den != 0 || m.DuplicateCall.Rate != nil {
		t.Errorf("duplicate_call = %+v, want 0/0 with no rate", m.DuplicateCall)
	}

	for col, want := range map[string]string{
		"brand_new_rate__num":          `column brand_new_rate__num: "brand_new_rate" is not a reported rate`,
		"degraded_evidence_grade__den": `column degraded_evidence_grade__den: "degraded_evidence_grade" is not a reported rate`,
		"success__median":              `column success__median: rate success defines no part "median"`,
		"missing_terminal__unknown":    `column missing_terminal__unknown: rate missing_terminal defines no part "unknown"`,
		"invalid_retry__timeout":       `column invalid_retry__timeout: rate invalid_retry defines no part "timeout"`,
	} {
		var m Metrics
		initMetrics(&m)
		err := fillRates(&m, map[string]any{"suite": "s", col: int64(1)})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("fillRates(%s) = %v, want an error with %q", col, err, want)
		}
	}
}

// initMetrics leaves every reported rate 0/0, with an unknown count where
// the rate can be unknown and every reason listed.
func TestInitMetrics(t *testing.T) {
	var m Metrics
	m.Success.Num = 5
	initMetrics(&m)
	for _, nr := range m.Rates() {
		d, _ := LookupRate(nr.Name)
		r := nr.Rate
		if r.Num != 0 || r.Den != 0 || r.Rate != nil || (r.Unknown != nil) != d.Unknown || len(r.ByReason) != len(d.Reasons) {
			t.Errorf("%s after initMetrics = %+v", nr.Name, r)
		}
	}
	if n := len(m.Rates()); n != 21 {
		t.Errorf("%d reported rates, want 21", n)
	}
}

// BenchmarkFillRates fills the Metrics of one suite from one row of each
// rate statement's columns (54 rate columns in all), as Report does per
// suite and per scenario.
func BenchmarkFillRates(b *testing.B) {
	row := map[string]any{"suite": "s", "scenario": nil, "runs": int64(9)}
	for i, d := range ReportedRates() {
		row[d.Name+"__num"], row[d.Name+"__den"] = int64(i), int64(100)
		if d.Unknown {
			row[d.Name+"__unknown"] = int64(1)
		}
		for _, r := range d.Reasons {
			row[d.Name+"__"+r] = int64(2)
		}
	}
	for b.Loop() {
		var m Metrics
		initMetrics(&m)
		if err := fillRates(&m, row); err != nil {
			b.Fatal(err)
		}
	}
}
