package metrics

import (
	"reflect"
	"testing"
)

// Grouping: suites, scenarios, runs without a run event, runs spread over
// files; and the evidence grade breakdown.

func TestScenarioBreakdown(t *testing.T) {
	inSuite := func(evs []ev, suite, scenario string) []ev {
		out := append([]ev{}, evs...)
		out[0] = out[0].with("suite", suite)
		if scenario != "" {
			out[0] = out[0].with("scenario", scenario)
		}
		return out
	}
	noAnswer := func(run string) []ev {
		return replace(goodRun(run), "terminal", "run_id", run, termEv(run, "completed", 1000).with("visible_chars", 0))
	}
	badRetry := append(goodRun("t2"),
		callEv("t2", "c2", "a2", "visit", "error", 300, 400).with("error", errOf("NOT_FOUND")),
		callEv("t2", "c3", "a2", "visit", "error", 450, 480).with("attempt", 2))
	s := load(t, jsonl(cat(
		inSuite(goodRun("b1"), "nightly", ""),
		inSuite(goodRun("b2"), "nightly", "baseline"),
		inSuite(noAnswer("t1"), "nightly", "timeout"),
		inSuite(badRetry, "nightly", "timeout"),
		inSuite(noAnswer("c1"), "cand", "timeout"),
	)...))
	rep := report(t, s)
	if len(rep.Suites) != 2 || rep.Suites[0].Suite != "cand" || rep.Suites[1].Suite != "nightly" {
		t.Fatalf("suites = %+v, want cand, nightly", rep.Suites)
	}
	n := suiteOf(t, rep, "nightly")
	if n.Runs != 4 {
		t.Errorf("nightly runs = %d, want 4", n.Runs)
	}
	wantRate(t, "nightly success", n.Metrics.Success, 3, 4)
	wantRate(t, "nightly masked_success", n.Metrics.MaskedSuccess, 1, 4)
	wantRate(t, "nightly invalid_retry", n.Metrics.InvalidRetry, 1, 1)
	wantFloat(t, "nightly retry_amplification", n.RetryAmplification, f(6.0/5))
	if len(n.Scenarios) != 2 {
		t.Fatalf("nightly scenarios = %+v, want baseline, timeout", n.Scenarios)
	}
	base, tout := n.Scenarios[0], n.Scenarios[1]
	if base.Scenario != "baseline" || base.Runs != 2 || tout.Scenario != "timeout" || tout.Runs != 2 {
		t.Errorf("scenarios = %s/%d, %s/%d, want baseline/2, timeout/2", base.Scenario, base.Runs, tout.Scenario, tout.Runs)
	}
	wantRate(t, "baseline success", base.Metrics.Success, 2, 2)
	wantRate(t, "timeout success", tout.Metrics.Success, 1, 2)
	wantRate(t, "timeout masked_success", tout.Metrics.MaskedSuccess, 1, 2)
	wantRate(t, "baseline invalid_retry", base.Metrics.InvalidRetry, 0, 0)
	wantReasons(t, base.Metrics.InvalidRetry.ByReason, nil)
	wantRate(t, "timeout invalid_retry", tout.Metrics.InvalidRetry, 1, 1)
	wantReasons(t, tout.Metrics.InvalidRetry.ByReason, map[string]int64{"category": 1})
	wantFloat(t, "baseline retry_amplification", base.RetryAmplification, f(1))
	wantFloat(t, "timeout retry_amplification", tout.RetryAmplification, f(4.0/3))
	c := suiteOf(t, rep, "cand")
	if c.Runs != 1 || len(c.Scenarios) != 1 || c.Scenarios[0].Scenario != "timeout" || c.Scenarios[0].Runs != 1 {
		t.Errorf("cand = %d runs, scenarios %+v; want 1 run in timeout", c.Runs, c.Scenarios)
	}
	wantRate(t, "cand success", c.Metrics.Success, 0, 1)
}

func TestRunWithoutRunEvent(t *testing.T) {
	orphan := goodRun("orphan")[1:] // every event but the run event
	s := load(t, jsonl(cat(goodRun("r"), orphan)...))
	rep := report(t, s)
	if len(rep.Suites) != 2 {
		t.Fatalf("suites = %d, want 2 (s, unknown)", len(rep.Suites))
	}
	u := suiteOf(t, rep, "unknown")
	if u.Runs != 1 || len(u.Scenarios) != 1 || u.Scenarios[0].Scenario != "unknown" {
		t.Errorf("unknown suite = %d runs, scenarios %+v; want 1 run in scenario unknown", u.Runs, u.Scenarios)
	}
	wantRate(t, "plan_validity", u.Metrics.PlanValidity, 1, 1)
	wantRate(t, "evidence_satisfaction", u.Metrics.EvidenceSatisfaction, 0, 1) // no task: unknown
	wantRate(t, "answer_deliverable", u.Metrics.AnswerDeliverable, 1, 1)
	wantRate(t, "terminal_committed", u.Metrics.TerminalCommitted, 1, 1)
	wantRate(t, "success", u.Metrics.Success, 0, 1)
	if u.Metrics.Success.Unknown == nil || *u.Metrics.Success.Unknown != 1 {
		t.Errorf("success.unknown = %v, want 1", u.Metrics.Success.Unknown)
	}
	// No gate is false, one is unknown: an unverified claim, not a masked one.
	wantRate(t, "masked_success", u.Metrics.MaskedSuccess, 0, 1)
	wantRate(t, "unverified_completion", u.Metrics.UnverifiedCompletion, 1, 1)
	wantRate(t, "deadline_overrun", u.Metrics.DeadlineOverrun, 0, 0)
	for _, row := range u.Latency {
		if row.Scope == "run" {
			t.Errorf("unknown suite has an end-to-end latency without started_at: %+v", row)
		}
	}
	if len(u.Latency) != 3 { // planning, generation, search
		t.Errorf("unknown suite latency rows = %d, want 3", len(u.Latency))
	}
	if st := suiteOf(t, rep, "s"); st.Runs != 1 {
		t.Errorf("suite s runs = %d, want 1", st.Runs)
	}
}

// A run spread over two files, each in reverse order, is one run.
func TestRunSplitOverFiles(t *testing.T) {
	evs := goodRun("r")
	evs = append(evs, callEv("r", "c2", "a1", "search", "ok", 300, 400).with("attempt", 2))
	var a, b []ev
	for i := len(evs) - 1; i >= 0; i-- {
		if i%2 == 0 {
			a = append(a, evs[i])
		} else {
			b = append(b, evs[i])
		}
	}
	s := load(t, jsonl(a...), jsonl(b...))
	st := suiteOf(t, report(t, s), "s")
	if st.Runs != 1 {
		t.Fatalf("runs = %d, want 1", st.Runs)
	}
	m := st.Metrics
	wantRate(t, "success", m.Success, 1, 1)
	wantRate(t, "terminal_committed", m.TerminalCommitted, 1, 1)
	wantRate(t, "seal_violation", m.SealViolation, 0, 1)
	wantRate(t, "evidence_satisfaction", m.EvidenceSatisfaction, 1, 1)
	wantRate(t, "invalid_retry", m.InvalidRetry, 0, 1)
	wantFloat(t, "retry_amplification", st.RetryAmplification, f(2))
	last := st.Latency[len(st.Latency)-1]
	if last.Scope != "run" {
		t.Fatalf("last latency row = %+v, want the run scope", last)
	}
	wantQuantiles(t, "end_to_end", last.WallMs, qs(1000, 1000, 1000, 1000, 1000))
}

func TestEvidenceGrade(t *testing.T) {
	call := func(id string, fallback any) ev {
		c := callEv("r", id, "a"+id, "search", "ok", 100, 200)
		if fallback != nil {
			c = c.with("source", ev{"name": "src", "fallback": fallback})
		}
		return c
	}
	e := func(id, grade, status, path, callID string) ev {
		x := evidenceEv("r", id, "claim-"+id, grade, status)
		if path != "" {
			x = x.with("path", path)
		}
		if callID != "" {
			x = x.with("call_id", callID)
		}
		return x
	}
	s := load(t, jsonl(runEv("r"), runEv("q").with("suite", "empty"),
		call("c1", nil), call("c2", true), call("c3", false),
		e("e1", "primary", "confirmed", "", "c1"),
		e("e2", "secondary", "confirmed", "", ""),
		e("e3", "reprint", "confirmed", "degraded", ""),
		e("e4", "primary", "confirmed", "direct", "c2"), // fallback origin
		e("e5", "cache", "candidate", "degraded", ""),
		e("e6", "primary", "unsupported", "", "c2"),
		e("e7", "cache", "confirmed", "direct", "c3"),
		e("e8", "secondary", "confirmed", "degraded", "c2"),
	))
	rep := report(t, s)
	got := suiteOf(t, rep, "s").EvidenceGrade
	want := []GradeRow{{Path: "degraded", Count: 3, MeanGrade: f(2)}, {Path: "direct", Count: 3, MeanGrade: f(5.0 / 3)}}
	if len(got) != len(want) {
		t.Fatalf("evidence_grade = %+v, want %d rows", got, len(want))
	}
	for i := range want {
		if got[i].Path != want[i].Path || got[i].Count != want[i].Count {
			t.Errorf("row %d = %s/%d, want %s/%d", i, got[i].Path, got[i].Count, want[i].Path, want[i].Count)
		}
		wantFloat(t, want[i].Path+" mean_grade", got[i].MeanGrade, want[i].MeanGrade)
	}
	if e := suiteOf(t, rep, "empty").EvidenceGrade; !reflect.DeepEqual(e, []GradeRow{}) {
		t.Errorf("empty suite evidence_grade = %+v, want []", e)
	}
}
