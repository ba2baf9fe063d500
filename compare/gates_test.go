package compare

import (
	"strings"
	"testing"
)

func f(v float64) *float64 { return &v }

// TestJudge checks each kind of gate on hand-built rows, with exact outcomes.
func TestJudge(t *testing.T) {
	rate := func(bn, bd, cn, cd int, sig bool) Row {
		return Row{Metric: "m", Kind: "rate", BaseNum: bn, BaseDen: bd, CandNum: cn, CandDen: cd,
			Base: f(float64(bn) / float64(bd)), Cand: f(float64(cn) / float64(cd)), Significant: sig, PAdj: f(0.01)}
	}
	lat := func(b, c float64, sig bool) Row {
		return Row{Metric: "latency.run.end_to_end.wall.p95", Kind: "latency", Base: f(b), Cand: f(c), Significant: sig, PAdj: f(0.2)}
	}
	zero := Gate{Metric: "m", MustBeZero: true}
	dec5 := Gate{Metric: "m", Direction: "decrease", MaxChange: f(0.05)}
	dec5sig := Gate{Metric: "m", Direction: "decrease", MaxChange: f(0.05), RequireSignificant: true}
	rel25 := Gate{Metric: "latency.*.*.wall.p95", Direction: "increase", MaxChange: f(0.25), Relative: true, RequireSignificant: true}
	either := Gate{Metric: "m", Direction: "either", MaxChange: f(0.1)}
	cases := []struct {
		name   string
		gate   Gate
		row    Row
		passed bool
		reason string
	}{
		{"zero holds", zero, rate(3, 10, 0, 10, false), true, "candidate has none"},
		{"zero broken by one", zero, rate(0, 10, 1, 10, false), false, "candidate has 1 of 10, must be 0"},
		{"decrease within", dec5, rate(90, 100, 86, 100, false), true, "decrease 4.0pp within 5.0pp"},
		{"decrease beyond", dec5, rate(90, 100, 80, 100, false), false, "decrease 10.0pp exceeds 5.0pp"},
		{"increase is fine for decrease gate", dec5, rate(50, 100, 90, 100, false), true, "decrease 0.0pp within 5.0pp"},
		{"beyond but not significant", dec5sig, rate(90, 100, 80, 100, false), true, "decrease 10.0pp exceeds 5.0pp but is not significant (p_adj 0.01)"},
		{"beyond and significant", dec5sig, rate(90, 100, 80, 100, true), false, "decrease 10.0pp exceeds 5.0pp (significant, p_adj 0.01)"},
		{"relative latency within", rel25, lat(100, 120, true), true, "increase 20.0% within 25.0%"},
		{"relative latency beyond", rel25, lat(100, 130, true), false, "increase 30.0% exceeds 25.0% (significant, p_adj 0.2)"},
		{"either direction", either, rate(50, 100, 35, 100, false), false, "either 15.0pp exceeds 10.0pp"},
	}
	for _, c := range cases {
		got := judge(c.gate, c.row, 0.05)
		if got.Passed != c.passed || got.Reason != c.reason {
			t.Errorf("%s: passed=%v reason=%q, want %v %q", c.name, got.Passed, got.Reason, c.passed, c.reason)
		}
	}
}

// TestEvaluateOrdersFailuresFirst checks glob expansion, skipped gates and
// the failed-first order.
func TestEvaluateOrdersFailuresFirst(t *testing.T) {
	res := &Result{Alpha: 0.05, Rows: []Row{
		{Metric: "success", Kind: "rate", Base: f(1), Cand: f(0.5), Significant: true, CandDen: 10},
		{Metric: "masked_success", Kind: "rate", Base: f(0), Cand: f(0.2), CandNum: 2, CandDen: 10},
		{Metric: "masked_success", Scenario: "s1", Kind: "rate", CandNum: 0},
		{Metric: "latency.stage.planning.wall.p95", Kind: "latency", Base: f(10), Cand: f(10)},
		{Metric: "latency.stage.review.wall.p95", Kind: "latency", Base: f(10), Cand: f(11)},
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
		"gates:\n  - metric: nope\n    must_be_zero: true":                         `unknown metric "nope"`,
		"gates:\n  - metric: success\n":                                            "needs must_be_zero",
		"gates:\n  - metric: success\n    max_change: 0.1\n":                       "direction",
		"gates:\n  - metric: success\n    must_be_zero: true\n    max_change: 1\n": "exclude each other",
		"gates:\n  - metric: success\n    max_change: 0.1\n    direction: up\n":    `direction "up"`,
		"gates:\n  - metric: success\n    bogus: 1\n":                              "field bogus not found",
		"alpha: 2\ngates:\n  - metric: success\n    must_be_zero: true\n":          "alpha",
	}
	for in, want := range cases {
		_, err := ParseGates(strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseGates(%q) = %v, want error containing %q", in, err, want)
		}
	}
	if DefaultGates() == nil || len(DefaultGates().Gates) != 10 {
		t.Error("default gates do not parse to 10 gates")
	}
}
