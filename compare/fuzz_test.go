package compare

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzParseGates feeds arbitrary bytes to the gates parser: it must return
// a gates file or an error, never panic, and a file it accepts must
// evaluate on a small result without panicking, every gate judged once per
// matching row or reported as skipped.
func FuzzParseGates(f *testing.F) {
	f.Add(DefaultGatesYAML)
	f.Add([]byte("gates:\n  - metric: success\n    must_not_increase: true\n    per_scenario: true\n"))
	f.Add([]byte("alpha: 0.01\ngates:\n  - metric: latency.tool.*.exec.p95\n    direction: either\n    max_change: 0\n    relative: true\n"))
	f.Add([]byte("gates:\n  - metric: invalid_retry\n    direction: decrease\n    max_change: 1\n    require_significant: true\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ParseGates(bytes.NewReader(data))
		if err != nil {
			if strings.TrimSpace(err.Error()) == "" {
				t.Fatal("empty error message")
			}
			return
		}
		res := &Result{Alpha: 0.05, Confidence: 0.95, Rows: []Row{
			rateRow("success", 90, 100, 80, 100), rateRow("invalid_retry", 0, 0, 3, 20),
			rateRow("masked_success", 2, 100, 5, 100), rateRow("expectation_conformance", 10, 10, 0, 0),
		}}
		res.Rows[1].Scenario = "s1"
		if g.Alpha > 0 {
			res.Alpha = g.Alpha
		}
		Evaluate(res, g)
		if len(res.Gates) < len(g.Gates) {
			t.Fatalf("%d gates gave %d results", len(g.Gates), len(res.Gates))
		}
		for _, r := range res.Gates {
			if r.Outcome == "" || GateText(r) == "" {
				t.Fatalf("gate %+v has no reason", r)
			}
		}
	})
}
