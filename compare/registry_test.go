package compare

import (
	"context"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/internal/testdb"
	"github.com/faultlens/faultlens/metrics"
)

// On the bundled samples, compare's counts (the registry's per-run counts
// summed over the runs) equal the report's numerator and denominator (the
// SQL), for every rate both compute, per suite and per scenario.
func TestCompareCountsEqualReport(t *testing.T) {
	ctx := context.Background()
	s := testdb.Session(t, testdb.Samples(t), metrics.Open)
	rep, err := s.Report(ctx, metrics.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var both []metrics.RateDef
	for _, d := range rateDefs {
		if d.Reported {
			both = append(both, d)
		}
	}
	if len(both) != 18 || len(rep.Suites) != 2 {
		t.Errorf("%d rates in both, %d suites; want 18 and 2", len(both), len(rep.Suites))
	}
	check := func(where string, m metrics.Metrics, runs []*metrics.RunFact) {
		rates := map[string]metrics.Rate{}
		for _, nr := range m.Rates() {
			rates[nr.Name] = nr.Rate
		}
		for _, d := range both {
			num, den := tally(d, runs)
			if r := rates[d.Name]; int64(num) != r.Num || int64(den) != r.Den {
				t.Errorf("%s %s: compare counts %d/%d, report %d/%d", where, d.Name, num, den, r.Num, r.Den)
			}
		}
	}
	scenariosChecked, sawCandidate := 0, false
	for _, st := range rep.Suites {
		ev, err := s.Evidence(ctx, st.Suite)
		if err != nil {
			t.Fatal(err)
		}
		runs := pointers(ev.Runs)
		if int64(len(runs)) != st.Runs {
			t.Fatalf("suite %s: %d runs in the evidence, %d in the report", st.Suite, len(runs), st.Runs)
		}
		check(st.Suite, st.Metrics, runs)
		for _, sp := range st.Scenarios {
			check(st.Suite+"/"+sp.Scenario, sp.Metrics, byScenario(runs, sp.Scenario))
			scenariosChecked++
		}
		if st.Suite == "candidate" {
			sawCandidate = true
			// The one figure the testscripts also pin.
			if r := st.Metrics.MaskedSuccess; r.Num != 65 || r.Den != 217 {
				t.Errorf("candidate masked_success = %d/%d, want 65/217", r.Num, r.Den)
			}
		}
	}
	if scenariosChecked != 29 || !sawCandidate {
		t.Errorf("%d scenarios checked, candidate suite seen %v", scenariosChecked, sawCandidate)
	}
}

// Every rate gate of the shipped file names a compared rate and agrees
// with the registry: zero tolerance only on defect counts, and a margin in
// the direction the rate gets worse.
func TestDefaultGatesAgreeWithRegistry(t *testing.T) {
	bad := map[metrics.Better]string{metrics.Higher: "decrease", metrics.Lower: "increase"}
	rates := 0
	for _, g := range DefaultGates().Gates {
		if !isRate(g.Metric) {
			continue
		}
		rates++
		d, ok := metrics.LookupRate(g.Metric)
		switch {
		case !ok || d.CompareRow == 0:
			t.Errorf("gate %s: not a compared rate of metrics/registry.go", g.Metric)
		case g.MustBeZero && !d.Defect:
			t.Errorf("gate %s: must_be_zero on a rate that does not count defects", g.Metric)
		case g.MustNotIncrease && d.Better != metrics.Lower:
			t.Errorf("gate %s: must_not_increase on a rate whose rise is no regression", g.Metric)
		case g.MaxChange != nil && g.Direction != bad[d.Better]:
			t.Errorf("gate %s: direction %s, but the rate gets worse by %q", g.Metric, g.Direction, bad[d.Better])
		}
	}
	if rates != 10 {
		t.Errorf("%d rate gates in the default file, want 10", rates)
	}
}

// A gate on a rate only the report has is refused with the reason.
func TestGateOnReportOnlyRate(t *testing.T) {
	_, err := ParseGates(strings.NewReader("gates:\n  - metric: stage_budget_overrun\n    must_be_zero: true\n"))
	want := "stage_budget_overrun is reported but not compared"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("ParseGates = %v, want an error containing %q", err, want)
	}
}
