package compare

import (
	"fmt"
	"strings"
	"testing"
)

// rateRow is an overall rate row with the given counts.
func rateRow(metric string, bn, bd, cn, cd int) Row {
	r := Row{Metric: metric, Kind: "rate", BaseNum: bn, BaseDen: bd, CandNum: cn, CandDen: cd}
	if bd > 0 {
		r.Base = f(float64(bn) / float64(bd))
	}
	if cd > 0 {
		r.Cand = f(float64(cn) / float64(cd))
	}
	if bd > 0 && cd > 0 {
		r.Diff = f(val(r.Cand) - val(r.Base))
	}
	return r
}

func gatesOf(t *testing.T, y string) *Gates {
	t.Helper()
	g, err := ParseGates(strings.NewReader(y))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestJudgeRules checks every rule on hand-built counts, one gate at a time
// (a gated family of one: Holm level = α), with the exact line a reviewer
// reads.
func TestJudgeRules(t *testing.T) {
	zero := "gates:\n  - metric: masked_success\n    must_be_zero: true\n"
	noinc := "gates:\n  - metric: masked_success\n    must_not_increase: true\n"
	retry := "gates:\n  - metric: invalid_retry\n    direction: increase\n    max_change: 0.05\n    require_significant: true\n"
	succ := "gates:\n  - metric: success\n    direction: decrease\n    max_change: 0.05\n    require_significant: true\n"
	cases := []struct {
		name, gates string
		row         Row
		passed      bool
		reason      string
	}{
		{"zero on a clean baseline, one occurrence", zero, rateRow("masked_success", 0, 300, 1, 300), false,
			"candidate has 1 of 300, must be 0 (baseline has none)"},
		{"zero on a clean baseline, none", zero, rateRow("masked_success", 0, 300, 0, 300), true, "candidate has none"},
		{"zero on a defective baseline becomes must-not-increase (same rate)", zero, rateRow("masked_success", 15, 300, 15, 300), true,
			"15/300 → 15/300: +0.0pp [-3.0, +3.0] (90.0% interval), p_adj 1 (newcombe-inverted, one-sided); not a significant increase (baseline has 15 of 300, so must not increase)"},
		{"zero on a defective baseline, a real increase", zero, rateRow("masked_success", 5, 300, 20, 300), false,
			"5/300 → 20/300: +5.0pp [+2.4, +7.9] (90.0% interval), p_adj 0.00162 (newcombe-inverted, one-sided); significant increase (baseline has 5 of 300, so must not increase)"},
		{"must_not_increase on a clean baseline tests too", noinc, rateRow("masked_success", 0, 300, 1, 300), true,
			"0/300 → 1/300: +0.3pp [-0.6, +1.5] (90.0% interval), p_adj 0.183 (newcombe-inverted, one-sided); not a significant increase (must not increase)"},
		{"no baseline re-sends: against the margin", retry, rateRow("invalid_retry", 0, 0, 25, 100), false,
			"no baseline data, candidate 25/100 against the margin: increase 25.0pp from 0 [18.0pp, 33.1pp] (90.0% interval) vs threshold 5.0pp, p_adj <0.0001 (binomial-vs-margin, one-sided); exceeds the margin"},
		{"no baseline re-sends: just over the margin", retry, rateRow("invalid_retry", 0, 0, 6, 100), true,
			"no baseline data, candidate 6/100 against the margin: increase 6.0pp from 0 [2.6pp, 11.5pp] (90.0% interval) vs threshold 5.0pp, p_adj 0.384 (binomial-vs-margin, one-sided); beyond the margin but not significantly"},
		{"success drop of 10 points", succ, rateRow("success", 270, 300, 240, 300), false,
			"decrease 10.0pp [5.2pp, 14.8pp] (90.0% interval) vs threshold 5.0pp, p_adj 0.000337 (newcombe-inverted, less); exceeds and is significant"},
		{"success drop within the threshold", succ, rateRow("success", 270, 300, 261, 300), true,
			"decrease 3.0pp [-1.3pp, 7.3pp] (90.0% interval) vs threshold 5.0pp, p_adj 0.125 (newcombe-inverted, less); within"},
		{"success up", succ, rateRow("success", 240, 300, 270, 300), true,
			"decrease -10.0pp [-14.8pp, -5.2pp] (90.0% interval) vs threshold 5.0pp, p_adj 1 (newcombe-inverted, less); within"},
		{"no candidate data", retry, rateRow("invalid_retry", 3, 40, 0, 0), true, "no data on the candidate side"},
	}
	for _, c := range cases {
		res := &Result{Alpha: 0.05, Confidence: 0.95, Rows: []Row{c.row}}
		Evaluate(res, gatesOf(t, c.gates))
		got := res.Gates[0]
		if got.Passed != c.passed || GateText(got) != c.reason {
			t.Errorf("%s:\n got %v %q\nwant %v %q", c.name, got.Passed, GateText(got), c.passed, c.reason)
		}
	}
}

// TestGatedIntervalAgreesWithVerdict checks, over a grid of counts and a
// family of three gates, that a gated row is significant exactly when its
// interval's bound on the gate's bad side excludes 0.
func TestGatedIntervalAgreesWithVerdict(t *testing.T) {
	g := gatesOf(t, succSig+"  - metric: masked_success\n    must_not_increase: true\n  - metric: duplicate_call\n    direction: increase\n    max_change: 0\n    require_significant: true\n")
	n, checked := 0, 0
	for _, b := range []int{150, 200, 250, 280, 300} {
		for _, c := range []int{150, 200, 230, 260, 290, 300} {
			for _, m := range []int{0, 1, 3, 9, 20} {
				res := &Result{Alpha: 0.05, Confidence: 0.95, Rows: []Row{
					rateRow("success", b, 300, c, 300), rateRow("masked_success", 2, 300, m, 300), rateRow("duplicate_call", 10, 500, 10+m, 400)}}
				Evaluate(res, g)
				for _, r := range res.Rows {
					excl := (r.Alternative == "less" && *r.Hi < 0) || (r.Alternative == "greater" && *r.Lo > 0)
					if excl != r.Significant {
						t.Errorf("%s b=%d c=%d m=%d: significant %v, interval [%v, %v] @%v", r.Metric, b, c, m, r.Significant, *r.Lo, *r.Hi, r.Level)
					}
					if r.Significant {
						n++
					}
					checked++
				}
			}
		}
	}
	if checked != 450 || n == 0 || n == checked {
		t.Errorf("checked %d rows, %d significant: the grid should hold both outcomes", checked, n)
	}
}

const succSig = "gates:\n  - metric: success\n    direction: decrease\n    max_change: 0.05\n    require_significant: true\n"

// TestGatedFamilyIsSeparate checks that exploratory rows do not dilute the
// gated family: one gated row among many exploratory ones is judged at α.
func TestGatedFamilyIsSeparate(t *testing.T) {
	rows := []Row{rateRow("success", 270, 300, 252, 300)}
	for i := 0; i < 50; i++ {
		r := rateRow("duplicate_call", 10, 300, 10, 300)
		r.Scenario = fmt.Sprintf("s%02d", i)
		r.P = f(0.5)
		rows = append(rows, r)
	}
	res := &Result{Alpha: 0.05, Confidence: 0.95, Rows: rows}
	Evaluate(res, gatesOf(t, succSig))
	if res.GatedTests != 1 || res.ExploratoryTests != 50 || res.Failed != 1 {
		t.Fatalf("gated %d, exploratory %d, failed %d; want 1, 50, 1", res.GatedTests, res.ExploratoryTests, res.Failed)
	}
	if r := res.Rows[0]; r.Family != FamilyGated || !r.Significant || r.Level != 0.9 {
		t.Errorf("gated row = %+v", r)
	}
	if r := res.Rows[1]; r.Family != FamilyExploratory || *r.PAdj != 1 {
		t.Errorf("exploratory row = %+v", r)
	}
}

// TestPerScenarioGate checks that a per-scenario gate judges each
// scenario's row in the gated family and names the scenario.
func TestPerScenarioGate(t *testing.T) {
	a, b := rateRow("success", 180, 200, 178, 200), rateRow("success", 90, 100, 89, 100)
	b.Scenario = "steady"
	c := rateRow("success", 90, 100, 60, 100)
	c.Scenario = "timeout"
	res := &Result{Alpha: 0.05, Confidence: 0.95, Rows: []Row{a, b, c}}
	Evaluate(res, gatesOf(t, succSig+"    per_scenario: true\n"))
	if res.GatedTests != 3 || res.Failed != 1 || res.Gates[0].Scenario != "timeout" || gateLabel(res.Gates[0]) != "timeout / success" {
		t.Errorf("gates = %+v", res.Gates)
	}
}

// TestTwoGatesOneRow: two gates on one metric are judged each by its own
// test. An observed-change gate with a wide threshold first, then a
// significance gate: the significant 10-point drop must fail the second
// (it passed when the second read the first gate's row).
func TestTwoGatesOneRow(t *testing.T) {
	g := gatesOf(t, `gates:
  - metric: success
    direction: decrease
    max_change: 0.5
  - metric: success
    direction: decrease
    max_change: 0.05
    require_significant: true
`)
	res := &Result{Alpha: 0.05, Rows: []Row{rateRow("success", 270, 300, 240, 300)}}
	Evaluate(res, g)
	if len(res.Gates) != 2 || res.Failed != 1 || res.Gates[0].Passed || res.Gates[0].Gate.MaxChange == nil ||
		*res.Gates[0].Gate.MaxChange != 0.05 || !res.Gates[1].Passed {
		for _, r := range res.Gates {
			t.Logf("%+v", r)
		}
		t.Fatalf("%d failed, want the significance gate alone", res.Failed)
	}
	if res.Rows[0].Test != "observed change" && res.Rows[0].Verdict != VerdictObserved {
		t.Errorf("the row's line is the first gate's: %+v", res.Rows[0])
	}
}

// TestGateEnums checks that deciding yields codes, not sentences: the
// outcome, method, finding and skip reason of each rule on hand-built
// counts, and the verdict of the gated row.
func TestGateEnums(t *testing.T) {
	zero := "gates:\n  - metric: masked_success\n    must_be_zero: true\n"
	succ := "gates:\n  - metric: success\n    direction: decrease\n    max_change: 0.05\n    require_significant: true\n"
	retry := "gates:\n  - metric: invalid_retry\n    direction: increase\n    max_change: 0.05\n    require_significant: true\n"
	cases := []struct {
		name, gates string
		row         Row
		outcome     Outcome
		method      Method
		finding     Finding
		skip        SkipReason
		verdict     Verdict
	}{
		{"zero, one occurrence", zero, rateRow("masked_success", 0, 300, 1, 300), OutcomeFail, MethodZeroTolerance, FindingSome, "", VerdictNotZero},
		{"zero, none", zero, rateRow("masked_success", 0, 300, 0, 300), OutcomePass, MethodZeroTolerance, FindingNone, "", VerdictZero},
		{"zero on a defective baseline", zero, rateRow("masked_success", 5, 300, 20, 300), OutcomeFail, MethodNotIncrease, FindingIncrease, "", VerdictSignificant},
		{"success drop", succ, rateRow("success", 270, 300, 240, 300), OutcomeFail, MethodTest, FindingExceeds, "", VerdictSignificant},
		{"success within", succ, rateRow("success", 270, 300, 261, 300), OutcomePass, MethodTest, FindingWithin, "", VerdictNoChange},
		{"margin exceeded", retry, rateRow("invalid_retry", 0, 0, 25, 100), OutcomeFail, MethodMargin, FindingExceeds, "", VerdictBeyondMargin},
		{"margin not significantly", retry, rateRow("invalid_retry", 0, 0, 6, 100), OutcomePass, MethodMargin, FindingNotSignificant, "", VerdictNoData},
		{"no candidate data", retry, rateRow("invalid_retry", 3, 40, 0, 0), OutcomeSkip, "", "", SkipNoCandidateData, VerdictNoData},
	}
	for _, c := range cases {
		res := &Result{Alpha: 0.05, Confidence: 0.95, Rows: []Row{c.row}}
		Evaluate(res, gatesOf(t, c.gates))
		g := res.Gates[0]
		if g.Outcome != c.outcome || g.Method != c.method || g.Finding != c.finding || g.SkipReason != c.skip ||
			res.Rows[0].Verdict != c.verdict || g.Passed != (c.outcome != OutcomeFail) || g.Skipped != (c.outcome == OutcomeSkip) {
			t.Errorf("%s: got %s %s %s %q row %s, want %s %s %s %q row %s", c.name, g.Outcome, g.Method, g.Finding, g.SkipReason,
				res.Rows[0].Verdict, c.outcome, c.method, c.finding, c.skip, c.verdict)
		}
	}
	// A gate naming a metric no row has is skipped with its own code.
	res := &Result{Alpha: 0.05, Rows: []Row{rateRow("success", 1, 2, 1, 2)}}
	Evaluate(res, gatesOf(t, zero))
	if g := res.Gates[0]; g.Outcome != OutcomeSkip || g.SkipReason != SkipNoRow || GateText(g) != "no data on both sides" {
		t.Errorf("no row: %+v", g)
	}
}
