package compare

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/faultlens/faultlens/internal/golden"
	"github.com/faultlens/faultlens/metrics"
)

// fixture builds two small run sets by hand: the candidate loses success
// in scenario "flaky" and shows masked successes.
func fixture() (*metrics.Evidence, *metrics.Evidence) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	mk := func(prefix string, n int, fail func(i int) bool) *metrics.Evidence {
		ev := &metrics.Evidence{}
		for i := 0; i < n; i++ {
			ok := !fail(i)
			claimed := "completed"
			at := t0.Add(time.Duration(i) * time.Minute)
			sc := []string{"steady", "flaky"}[i%2]
			yes, masked := true, !ok
			e2e := float64(1000 + 10*i)
			if prefix == "c" {
				e2e *= 1.5
			}
			id := fmt.Sprintf("%s%03d", prefix, i)
			ev.Runs = append(ev.Runs, metrics.RunFact{RunID: id, Suite: prefix, Scenario: sc, StartedAt: &at,
				PlanValid: &yes, EvidenceSatisfied: &ok, AnswerDeliverable: &yes, TerminalCommitted: &yes, Success: &ok,
				Claimed: &claimed, MaskedSuccess: &masked, SealViolation: new(bool), ToolCalls: 2, Resends: 1,
				InvalidResends: int64(i % 7 / 6), EndToEndMs: &e2e})
			ev.Latency = append(ev.Latency, metrics.LatencySample{RunID: id, Scope: "run", Name: "end_to_end", WallMs: &e2e})
		}
		return ev
	}
	base := mk("b", 40, func(int) bool { return false })
	cand := mk("c", 40, func(i int) bool { return i%2 == 1 && i%4 != 1 })
	return base, cand
}

func goldenResult() *Result {
	b, c := fixture()
	res := Compare(b, c, Side{Name: "nightly", Source: "saved", Suite: "b"}, Side{Name: "tonight", Source: "suite", Suite: "c"},
		Options{Iters: 500, Seed: 7})
	Evaluate(res, DefaultGates())
	return res
}

// TestGolden compares the Markdown and JUnit exports with testdata/*.golden
// (go test ./compare -update rewrites them).
func TestGolden(t *testing.T) {
	res := goldenResult()
	for _, format := range []string{"markdown", "junit", "text"} {
		var buf bytes.Buffer
		if err := Write(&buf, res, format); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", format+".golden"), buf.Bytes())
	}
}

// TestCompareFixture checks the engine's judgements on the fixture.
func TestCompareFixture(t *testing.T) {
	res := goldenResult()
	row := func(metric, sc string) Row {
		for _, r := range res.Rows {
			if r.Metric == metric && r.Scenario == sc {
				return r
			}
		}
		t.Fatalf("no row %s/%s", metric, sc)
		return Row{}
	}
	s := row("success", "")
	if s.BaseNum != 40 || s.CandNum != 30 || !s.Significant || s.Verdict != VerdictSignificant || VerdictText(s) != "-25.0pp" {
		t.Errorf("success row = %+v", s)
	}
	if fl := row("success", "flaky"); fl.CandNum != 10 || fl.CandDen != 20 || !fl.Significant {
		t.Errorf("flaky success = %+v, want 10/20 significant", fl)
	}
	// 20 runs a side cannot show less than about 25 points: said so.
	if st := row("success", "steady"); st.Verdict != VerdictTooSmall || !st.TooSmall || st.Diff == nil || *st.Diff != 0 {
		t.Errorf("steady success = %+v, want too small", st)
	}
	// The end-to-end p95 gate is skipped: 40 runs a side are too few.
	if res.Failed != 2 || res.Gates[0].Metric != "masked_success" {
		t.Errorf("gates = %+v", res.Gates)
	}
	if len(res.Paired) != 3 || res.Paired[0].OnlyBase != 10 || res.Paired[0].OnlyCand != 0 {
		t.Errorf("paired = %+v", res.Paired)
	}
	if n := row("success", "").Noise; n == nil || *n != 0 {
		t.Errorf("A/A noise of success = %v, want 0", n)
	}
	var buf bytes.Buffer
	if err := Write(&buf, res, "html"); err != nil || !strings.Contains(buf.String(), "<svg") {
		t.Errorf("html: %v", err)
	}
}
