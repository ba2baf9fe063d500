package simulate

import (
	"strings"
	"testing"
)

func isNaive(r *runFacts) bool { return strings.HasPrefix(r.agent, "naive") }

// defects lists the defects a run shows, by the evaluator's definitions.
func defects(r *runFacts) []string {
	var out []string
	add := func(cond bool, name string) {
		if cond {
			out = append(out, name)
		}
	}
	add(r.masked, "masked_success")
	add(r.undisclosed, "undisclosed_degradation")
	for why := range r.invalid {
		out = append(out, "invalid_retry:"+why)
	}
	add(r.duplicates > 0, "duplicate_call")
	add(r.breakerViolations > 0, "breaker_violation")
	add(r.zeroCall, "zero_call_violation")
	add(r.terminals > 1, "seal_violation:second_terminal")
	add(r.terminals == 1 && r.seal, "seal_violation:event_after_terminal")
	add(r.retryOverrun, "retry_budget_overrun")
	add(r.deadlineOverrun, "deadline_overrun")
	return out
}

func TestCarefulRunsShowNoDefect(t *testing.T) {
	for file, data := range sampleData(t) {
		for _, r := range parseRuns(t, data) {
			if isNaive(r) {
				continue
			}
			if d := defects(r); len(d) > 0 {
				t.Errorf("%s: careful run %s (%s) shows %v", file, r.id, r.scenario, d)
			}
			if r.scenario != BaselineScenario && r.planValid == 1 && !r.conform {
				t.Errorf("%s: careful run %s does not meet the expectation of %s", file, r.id, r.scenario)
			}
			if r.terminals != 1 || !r.committed {
				t.Errorf("%s: careful run %s has %d terminals or events after its terminal", file, r.id, r.terminals)
			}
		}
	}
}

func TestCarefulBaselineSucceeds(t *testing.T) {
	runs := parseRuns(t, sampleData(t)["baseline.jsonl"])
	if len(runs) != 200 {
		t.Fatalf("baseline has %d runs", len(runs))
	}
	succeeded, resends := 0, 0
	for _, r := range runs {
		last := r.events[len(r.events)-1]
		if r.terminals != 1 || last.str("type") != "terminal" {
			t.Fatalf("run %s: want exactly one terminal, written last", r.id)
		}
		if r.success {
			succeeded++
		}
		resends += r.resends
	}
	if succeeded < 196 {
		t.Fatalf("only %d of 200 fault-free careful runs succeed", succeeded)
	}
	if resends == 0 {
		t.Fatal("no benign retries: fault-free suites should vary")
	}
}

func TestCarefulStopsAfterFailedPlan(t *testing.T) {
	data, _ := generate(t, Options{Runs: 1500, Seed: 11, Faults: true, Policy: Careful})
	stopped := 0
	for _, r := range parseRuns(t, data) {
		if r.planValid != -1 {
			continue
		}
		stopped++
		if r.zeroCall || len(r.byType("tool_call")) > 0 {
			t.Errorf("run %s called tools or answered after a failed plan", r.id)
		}
		if r.terminals != 1 || r.claimed.str("terminal") != "failed" || r.claimed.str("reason") != "planning_failed" {
			t.Errorf("run %s: want one terminal failed/planning_failed", r.id)
		}
	}
	if stopped == 0 {
		t.Fatal("no careful run failed planning; the case is untested")
	}
}

func TestNaiveShowsEveryDefect(t *testing.T) {
	want := []string{
		"masked_success", "undisclosed_degradation",
		"invalid_retry:not_retryable", "invalid_retry:category", "invalid_retry:write_without_key",
		"invalid_retry:unknown_outcome_resend", "invalid_retry:before_retry_after",
		"duplicate_call", "breaker_violation", "zero_call_violation",
		"seal_violation:second_terminal", "seal_violation:event_after_terminal",
		"retry_budget_overrun", "deadline_overrun",
	}
	seen := map[string]int{}
	conform, faulted := 0, 0
	for _, r := range parseRuns(t, sampleData(t)["candidate.jsonl"]) {
		if !isNaive(r) {
			continue
		}
		for _, d := range defects(r) {
			seen[d]++
		}
		if r.scenario != BaselineScenario {
			faulted++
			if r.conform {
				conform++
			}
		}
	}
	for _, d := range want {
		if seen[d] == 0 {
			t.Errorf("no naive run in the candidate sample shows %s", d)
		}
	}
	if conform*2 > faulted {
		t.Errorf("naive runs meet %d of %d expectations; want a minority", conform, faulted)
	}
}

func TestQueueBacklogSeparatesQueueFromExecution(t *testing.T) {
	found := false
	for _, r := range parseRuns(t, sampleData(t)["candidate.jsonl"]) {
		if r.scenario != "service.queue_backlog" || isNaive(r) {
			continue
		}
		for _, c := range r.byType("tool_call") {
			queue := c.time("started_at").Sub(c.time("enqueued_at")).Seconds()
			exec := c.time("ended_at").Sub(c.time("started_at")).Seconds()
			if c.str("tool") == "python" && queue >= 347 && queue < 348 && exec >= 13 && exec < 14 && c.str("status") == "ok" {
				found = true
			}
		}
	}
	if !found {
		t.Fatal("no careful queue_backlog run queues 347 s and executes 13 s")
	}
}
