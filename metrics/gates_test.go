package metrics

import "testing"

// gateCase is one run whose other gates pass, so that success equals the
// gate under test (false beats unknown, unknown beats true).
type gateCase struct {
	name string
	evs  []ev
	want string // the gate: "true", "false" or "null" (unknown)
}

// checkGates loads every case as its own suite and asserts, per case, the
// gate in run_facts, the gate's rate, success (count and unknown) and the
// three-valued result; more, when not nil, asserts more of the case's
// metrics.
func checkGates(t *testing.T, cases []gateCase, col string, rate func(Metrics) Rate, more func(*testing.T, gateCase, Metrics)) {
	t.Helper()
	evs := make([][]ev, len(cases))
	for i, tc := range cases {
		evs[i] = tc.evs
	}
	s, rep := loadCases(t, evs)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			run := caseRun(i, "r")
			wantFact(t, s, run, col, tc.want)
			wantFact(t, s, run, "success", tc.want)
			m := suiteOf(t, rep, caseSuite(i)).Metrics
			wantRate(t, col, rate(m), b2i(tc.want == "true"), 1)
			wantRate(t, "success", m.Success, b2i(tc.want == "true"), 1)
			if m.Success.Unknown == nil || *m.Success.Unknown != b2i(tc.want == "null") {
				t.Errorf("success.unknown = %v, want %d", m.Success.Unknown, b2i(tc.want == "null"))
			}
			if more != nil {
				more(t, tc, m)
			}
		})
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func TestPlanValid(t *testing.T) {
	good := goodRun("r")
	planning := func(stages ...ev) []ev { return replace(good, "stage", "stage_id", "p", stages...) }
	cases := []gateCase{
		{"planning ok", good, "true"},
		{"plan_valid false beats outcome ok", planning(stageEv("r", "p", "planning", "ok", 0, 100).with("plan_valid", false)), "false"},
		{"plan_valid absent defaults to outcome failed", planning(stageEv("r", "p", "planning", "failed", 0, 100)), "false"},
		{"plan_valid absent defaults to outcome timeout", planning(stageEv("r", "p", "planning", "timeout", 0, 100)), "false"},
		{"plan_valid true beats outcome failed", planning(stageEv("r", "p", "planning", "failed", 0, 100).with("plan_valid", true)), "true"},
		{"second attempt valid", planning(
			stageEv("r", "p1", "planning", "failed", 0, 50),
			stageEv("r", "p2", "planning", "ok", 50, 100).with("attempt", 2)), "true"},
		{"no attempt valid", planning(
			stageEv("r", "p1", "planning", "failed", 0, 50),
			stageEv("r", "p2", "planning", "ok", 50, 100).with("attempt", 2, "plan_valid", false)), "false"},
		{"no planning stage", planning(), "null"},
	}
	// plan_valid false runs are the zero-call denominator, true ones the
	// "given plan" denominator; unknown is in neither.
	checkGates(t, cases, "plan_valid", func(m Metrics) Rate { return m.PlanValidity }, func(t *testing.T, tc gateCase, m Metrics) {
		wantRate(t, "zero_call_violation", m.ZeroCallViolation, b2i(tc.want == "false"), b2i(tc.want == "false"))
		wantRate(t, "evidence_satisfaction_given_plan", m.EvidenceSatisfactionGivenPlan, b2i(tc.want == "true"), b2i(tc.want == "true"))
	})
}

func TestEvidenceSatisfied(t *testing.T) {
	good := goodRun("r")
	// task replaces the run event's task (nil: no task); evs replace the
	// run's evidence.
	withTask := func(task any, evs ...ev) []ev {
		out := replace(good, "run", "run_id", "r", runEv("r").with("task", task))
		return replace(out, "evidence", "evidence_id", "e1", evs...)
	}
	conf := func(id, claim, grade string) ev { return evidenceEv("r", id, claim, grade, "confirmed") }
	cases := []gateCase{
		{"no task", withTask(nil, conf("e1", "x", "primary")), "null"},
		{"task without requirement needs 0", withTask(ev{"kind": "chat"}), "true"},
		{"evidence_required 0 beats requires_current_evidence", withTask(ev{"requires_current_evidence": true, "evidence_required": 0}), "true"},
		{"requires_current_evidence false needs 0", withTask(ev{"requires_current_evidence": false}), "true"},
		{"requires_current_evidence needs 1, none", withTask(ev{"requires_current_evidence": true}), "false"},
		{"requires_current_evidence needs 1, one secondary", withTask(ev{"requires_current_evidence": true}, conf("e1", "x", "secondary")), "true"},
		{"evidence_required 1 beats requires_current_evidence false", withTask(ev{"requires_current_evidence": false, "evidence_required": 1}), "false"},
		{"two evidences of one claim count once", withTask(ev{"evidence_required": 2}, conf("e1", "x", "primary"), conf("e2", "x", "primary")), "false"},
		{"two distinct claims", withTask(ev{"evidence_required": 2}, conf("e1", "x", "primary"), conf("e2", "y", "secondary")), "true"},
		{"three claims for two needed", withTask(ev{"evidence_required": 2}, conf("e1", "x", "primary"), conf("e2", "y", "primary"), conf("e3", "z", "primary")), "true"},
		{"candidate not counted", withTask(ev{"evidence_required": 2}, conf("e1", "x", "primary"), evidenceEv("r", "e2", "y", "primary", "candidate")), "false"},
		{"unsupported not counted", withTask(ev{"evidence_required": 1}, evidenceEv("r", "e1", "x", "primary", "unsupported")), "false"},
		{"reprint below default secondary", withTask(ev{"evidence_required": 1}, conf("e1", "x", "reprint")), "false"},
		{"cache below default secondary", withTask(ev{"evidence_required": 1}, conf("e1", "x", "cache")), "false"},
		{"min_grade reprint accepts reprint", withTask(ev{"evidence_required": 1, "min_grade": "reprint"}, conf("e1", "x", "reprint")), "true"},
		{"min_grade reprint rejects cache", withTask(ev{"evidence_required": 1, "min_grade": "reprint"}, conf("e1", "x", "cache")), "false"},
		{"min_grade primary rejects secondary", withTask(ev{"evidence_required": 1, "min_grade": "primary"}, conf("e1", "x", "secondary")), "false"},
		{"min_grade primary accepts primary", withTask(ev{"evidence_required": 1, "min_grade": "primary"}, conf("e1", "x", "primary")), "true"},
		{"min_grade cache accepts cache", withTask(ev{"evidence_required": 1, "min_grade": "cache"}, conf("e1", "x", "cache")), "true"},
		{"low grade of a claim does not hide a high one", withTask(ev{"evidence_required": 1}, conf("e1", "x", "cache"), conf("e2", "x", "primary")), "true"},
	}
	checkGates(t, cases, "evidence_satisfied", func(m Metrics) Rate { return m.EvidenceSatisfaction }, nil)
}

func TestAnswerDeliverable(t *testing.T) {
	good := goodRun("r")
	terminal := func(terms ...ev) []ev { return replace(good, "terminal", "run_id", "r", terms...) }
	generation := func(stages ...ev) []ev { return replace(good, "stage", "stage_id", "g", stages...) }
	term := termEv("r", "completed", 1000)
	cases := []gateCase{
		{"visible answer", good, "true"},
		{"no terminal", terminal(), "false"},
		{"visible_chars 0", terminal(term.with("visible_chars", 0)), "false"},
		{"visible_chars absent", terminal(term.with("visible_chars", nil)), "false"},
		{"chunks_rejected 1", terminal(term.with("chunks_committed", 4, "chunks_rejected", 1)), "false"},
		{"chunks_rejected 0", terminal(term.with("chunks_committed", 5, "chunks_rejected", 0)), "true"},
		{"latest generation failed", generation(
			stageEv("r", "g1", "generation", "ok", 600, 700),
			stageEv("r", "g2", "generation", "failed", 700, 900)), "false"},
		{"latest generation ok after a failed one", generation(
			stageEv("r", "g1", "generation", "failed", 600, 700),
			stageEv("r", "g2", "generation", "ok", 700, 900)), "true"},
		// latest by ended_at, not by started_at nor by line order
		{"latest ended generation interrupted", generation(
			stageEv("r", "g2", "generation", "ok", 650, 800),
			stageEv("r", "g1", "generation", "interrupted", 600, 950)), "false"},
		{"failed review does not count", append(good[:len(good)-1:len(good)-1],
			stageEv("r", "rv", "review", "failed", 900, 950), good[len(good)-1]), "true"},
		{"no generation stage", generation(), "true"},
	}
	checkGates(t, cases, "answer_deliverable", func(m Metrics) Rate { return m.AnswerDeliverable }, nil)
}

// With two terminals the gate reads the claimed (first) one, not a mix of
// fields of both.
func TestAnswerDeliverableReadsClaimedTerminal(t *testing.T) {
	cases := []struct {
		name   string
		first  ev
		second ev
		want   string
	}{
		{"claimed has no visible_chars, later one has",
			termEv("r", "completed", 1000).with("visible_chars", nil), termEv("r", "completed", 1100), "false"},
		{"claimed has no chunks_rejected, later one has",
			termEv("r", "completed", 1000), termEv("r", "completed", 1100).with("chunks_rejected", 2), "true"},
		{"claimed rejected chunks, later one clean",
			termEv("r", "completed", 1000).with("chunks_rejected", 1), termEv("r", "completed", 1100).with("chunks_rejected", 0), "false"},
		{"same ts: seq orders",
			termEv("r", "completed", 1000).with("seq", 9), termEv("r", "completed", 1000).with("seq", 8, "visible_chars", nil), "false"},
	}
	evs := make([][]ev, len(cases))
	for i, tc := range cases {
		evs[i] = replace(goodRun("r"), "terminal", "run_id", "r", tc.second, tc.first)
	}
	s, rep := loadCases(t, evs)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			run := caseRun(i, "r")
			wantFact(t, s, run, "answer_deliverable", tc.want)
			wantFact(t, s, run, "terminal_committed", "false")
			wantFact(t, s, run, "success", "false")
			m := suiteOf(t, rep, caseSuite(i)).Metrics
			wantRate(t, "answer_deliverable", m.AnswerDeliverable, b2i(tc.want == "true"), 1)
		})
	}
}

func TestTerminalCommitted(t *testing.T) {
	good := goodRun("r")
	terminal := func(terms ...ev) []ev { return replace(good, "terminal", "run_id", "r", terms...) }
	term := termEv("r", "completed", 1000)
	cases := []gateCase{
		{"one terminal, last event", good, "true"},
		{"no terminal", terminal(), "false"},
		{"two terminals", terminal(term, termEv("r", "failed", 1100)), "false"},
		{"two terminals at the same ts", terminal(term, term.with("seq", 7)), "false"},
		{"tool call after the terminal", append(terminal(term), callEv("r", "c9", "a9", "search", "ok", 1000, 1200)), "false"},
		{"model call after the terminal", append(terminal(term), modelEv("r", "m9", "answer", 1001)), "false"},
		{"event at the terminal's ts", append(terminal(term), callEv("r", "c9", "a9", "search", "ok", 900, 1000)), "true"},
		{"terminal first in the file", append([]ev{term}, good[:len(good)-1]...), "true"},
	}
	checkGates(t, cases, "terminal_committed", func(m Metrics) Rate { return m.TerminalCommitted }, nil)
}

// Success is the four gates ANDed in three-valued logic: any false gives
// false, else any unknown gives unknown.
func TestSuccessThreeValued(t *testing.T) {
	noPlan := func(evs []ev) []ev { return replace(evs, "stage", "stage_id", "p") }
	badPlan := func(evs []ev, run string) []ev {
		return replace(evs, "stage", "stage_id", "p", stageEv(run, "p", "planning", "failed", 0, 100))
	}
	noTask := func(evs []ev, run string) []ev {
		return replace(evs, "run", "run_id", run, runEv(run))
	}
	noAnswer := func(evs []ev, run string) []ev {
		return replace(evs, "terminal", "run_id", run, termEv(run, "completed", 1000).with("visible_chars", 0))
	}
	twoTerms := func(evs []ev, run string) []ev {
		return append(evs, termEv(run, "completed", 1100))
	}
	cases := []struct {
		run  string
		evs  []ev
		want string
	}{
		{"all", goodRun("all"), "true"},
		{"plan?", noPlan(goodRun("plan?")), "null"},
		{"evid?", noTask(goodRun("evid?"), "evid?"), "null"},
		{"plan?evid?", noTask(noPlan(goodRun("plan?evid?")), "plan?evid?"), "null"},
		{"plan?deliv-", noAnswer(noPlan(goodRun("plan?deliv-")), "plan?deliv-"), "false"},
		{"evid?commit-", twoTerms(noTask(goodRun("evid?commit-"), "evid?commit-"), "evid?commit-"), "false"},
		{"plan-evid?", noTask(badPlan(goodRun("plan-evid?"), "plan-evid?"), "plan-evid?"), "false"},
		{"plan-", badPlan(goodRun("plan-"), "plan-"), "false"},
	}
	var all []ev
	for _, tc := range cases {
		all = append(all, tc.evs...)
	}
	s := load(t, jsonl(all...))
	for _, tc := range cases {
		wantFact(t, s, tc.run, "success", tc.want)
	}
	m := suiteOf(t, report(t, s), "s").Metrics
	wantRate(t, "success", m.Success, 1, 8)
	if m.Success.Unknown == nil || *m.Success.Unknown != 3 {
		t.Errorf("success.unknown = %v, want 3", m.Success.Unknown)
	}
	wantRate(t, "plan_validity", m.PlanValidity, 3, 8)
	wantRate(t, "evidence_satisfaction", m.EvidenceSatisfaction, 4, 8)
	wantRate(t, "evidence_satisfaction_given_plan", m.EvidenceSatisfactionGivenPlan, 1, 3)
	wantRate(t, "answer_deliverable", m.AnswerDeliverable, 7, 8)
	wantRate(t, "terminal_committed", m.TerminalCommitted, 7, 8)
	wantFloat(t, "success.rate", m.Success.Rate, f(1.0/8))
}
