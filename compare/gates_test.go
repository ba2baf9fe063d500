package compare

import (
	"strings"
	"testing"
)

func f(v float64) *float64 { return &v }

// TestEvaluateOrdersFailuresFirst checks glob expansion, skipped gates and
// the failed-first order.
func TestEvaluateOrdersFailuresFirst(t *testing.T) {
	res := &Result{Alpha: 0.05, Rows: []Row{
		{Metric: "success", Kind: "rate", Base: f(1), Cand: f(0.5), BaseNum: 10, BaseDen: 10, CandNum: 5, CandDen: 10},
		{Metric: "masked_success", Kind: "rate", Base: f(0), Cand: f(0.2), CandNum: 2, CandDen: 10},
		{Metric: "masked_success", Scenario: "s1", Kind: "rate", CandNum: 0},
		{Metric: "latency.stage.planning.wall.p95", Kind: "latency", Base: f(10), Cand: f(10), BaseDen: 100, CandDen: 100},
		{Metric: "latency.stage.review.wall.p95", Kind: "latency", Base: f(10), Cand: f(11), BaseDen: 100, CandDen: 100},
	}}
	g, err := ParseGates(strings.NewReader(`
gates:
  - metric: latency.stage.*.wall.p95
    direction: increase
    max_change: 0.5
    relative: true
  - metric: seal_violation
    must_be_zero: true
  - metric: success
    direction: decrease
    max_change: 0.05
  - metric: masked_success
    must_be_zero: true
`))
	if err != nil {
		t.Fatal(err)
	}
	Evaluate(res, g)
	var got []string
	for _, r := range res.Gates {
		got = append(got, gateMark(r)+" "+r.Metric)
	}
	want := "FAIL success|FAIL masked_success|pass latency.stage.planning.wall.p95|pass latency.stage.review.wall.p95|skip seal_violation"
	if strings.Join(got, "|") != want || res.Failed != 2 {
		t.Errorf("gates = %s (failed %d), want %s (2)", strings.Join(got, "|"), res.Failed, want)
	}
}

// TestParseGatesErrors checks that bad files are rejected with a message
// naming the problem.
func TestParseGatesErrors(t *testing.T) {
	cases := map[string]string{
		"":          "empty",
		"gates: []": "no gates",
		"gates:\n  - metric: nope\n    must_be_zero: true":                                   `unknown metric "nope"`,
		"gates:\n  - metric: success\n":                                                      "needs must_be_zero",
		"gates:\n  - metric: success\n    max_change: 0.1\n":                                 "direction",
		"gates:\n  - metric: success\n    must_be_zero: true\n    max_change: 1\n":           "exclude each other",
		"gates:\n  - metric: success\n    max_change: 0.1\n    direction: up\n":              `direction "up"`,
		"gates:\n  - metric: success\n    bogus: 1\n":                                        "field bogus not found",
		"alpha: 2\ngates:\n  - metric: success\n    must_be_zero: true\n":                    "alpha",
		"gates:\n  - metric: success\n    must_not_increase: true\n    must_be_zero: true\n": "exclude each other",
		"gates:\n  - metric: latency.run.end_to_end.wall.p95\n    must_not_increase: true\n": "rates only",
	}
	for in, want := range cases {
		_, err := ParseGates(strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseGates(%q) = %v, want error containing %q", in, err, want)
		}
	}
	if DefaultGates() == nil || len(DefaultGates().Gates) != 14 {
		t.Error("default gates do not parse to 14 gates")
	}
}
