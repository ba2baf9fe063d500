package metrics

import "testing"

// Run-level defects (masked success, undisclosed degradation, zero-call,
// seal) and call-level ones (duplicates, breaker), plus the budgets.

func TestMaskedSuccess(t *testing.T) {
	runs := [][]ev{
		goodRun("ok"), // completed and successful
		replace(goodRun("nochars"), "terminal", "run_id", "nochars", termEv("nochars", "completed", 1000).with("visible_chars", 0)),
		replace(goodRun("unknown"), "stage", "stage_id", "p"), // success unknown: unverified, not masked
		replace(goodRun("failed"), "terminal", "run_id", "failed", termEv("failed", "failed", 1000).with("visible_chars", 0)),
		replace(goodRun("noterm"), "terminal", "run_id", "noterm"),
		replace(goodRun("partial"), "terminal", "run_id", "partial", termEv("partial", "partial", 1000)),
		// the claimed terminal is the first: failed, then completed
		replace(goodRun("late"), "terminal", "run_id", "late", termEv("late", "failed", 1000), termEv("late", "completed", 1100)),
	}
	s := load(t, jsonl(cat(runs...)...))
	for run, want := range map[string]string{"ok": "false", "nochars": "true", "unknown": "false",
		"failed": "false", "noterm": "null", "partial": "false", "late": "false"} {
		wantFact(t, s, run, "masked_success", want)
	}
	wantFact(t, s, "late", "claimed", "failed")
	m := suiteOf(t, report(t, s), "s").Metrics
	wantRate(t, "masked_success", m.MaskedSuccess, 1, 3)
	wantRate(t, "claimed_completed", m.ClaimedCompleted, 3, 7)
}

func TestUndisclosedDegradation(t *testing.T) {
	// run builds a completed run whose only evidence is e; fallback sets the
	// origin call's source.fallback (nil: no source object).
	run := func(id string, e ev, fallback any, term ev) []ev {
		call := callEv(id, "c1", "a1", "search", "ok", 100, 200)
		if fallback != nil {
			call = call.with("source", ev{"name": "mirror", "grade": "secondary", "fallback": fallback})
		}
		return []ev{runEv(id), call, e.with("run_id", id, "call_id", "c1"), term.with("run_id", id)}
	}
	degraded := evidenceEv("", "e1", "x", "primary", "confirmed").with("path", "degraded")
	direct := evidenceEv("", "e1", "x", "primary", "confirmed")
	done := termEv("", "completed", 1000)
	cases := []struct {
		run  string
		evs  []ev
		want string
	}{
		{"path", run("path", degraded, nil, done), "true"},
		{"fallback", run("fallback", direct, true, done), "true"},
		{"fallback_false", run("fallback_false", direct, false, done), "false"},
		{"direct", run("direct", direct.with("path", "direct"), nil, done), "false"},
		{"declared", run("declared", degraded, nil, done.with("degradations", []string{"evidence"})), "false"},
		{"declared_fallback", run("declared_fallback", direct, true, done.with("degradations", []string{"tool"})), "false"},
		{"gaps", run("gaps", degraded, nil, done.with("disclosed_gaps", true)), "false"},
		{"gaps_false", run("gaps_false", degraded, nil, done.with("disclosed_gaps", false)), "true"},
		{"empty_list", run("empty_list", degraded, nil, done.with("degradations", []string{})), "true"},
		{"candidate", run("candidate", degraded.with("status", "candidate"), nil, done), "false"},
		{"partial", run("partial", degraded, nil, termEv("", "partial", 1000)), "false"},
		// the claimed (first) terminal must declare it; a later one does not count
		{"declared_late", append(run("declared_late", degraded, nil, done),
			termEv("declared_late", "completed", 1100).with("degradations", []string{"evidence"}, "disclosed_gaps", true)), "true"},
	}
	var all []ev
	for _, tc := range cases {
		all = append(all, tc.evs...)
	}
	s := load(t, jsonl(all...))
	for _, tc := range cases {
		wantFact(t, s, tc.run, "undisclosed_degradation", tc.want)
	}
	m := suiteOf(t, report(t, s), "s").Metrics
	wantRate(t, "undisclosed_degradation", m.UndisclosedDegradation, 5, 11)
}

func TestZeroCallViolation(t *testing.T) {
	run := func(id, planning string, extra ...ev) []ev {
		evs := []ev{runEv(id)}
		if planning != "" {
			evs = append(evs, stageEv(id, "p", "planning", planning, 0, 100))
		}
		evs = append(evs, extra...)
		return append(evs, termEv(id, "failed", 1000).with("reason", "planning_failed"))
	}
	cases := []struct {
		run  string
		evs  []ev
		want string
	}{
		{"tool", run("tool", "failed", callEv("tool", "c1", "a1", "search", "ok", 200, 300)), "true"},
		{"answer", run("answer", "failed", modelEv("answer", "m1", "answer", 200)), "true"},
		{"reviewer", run("reviewer", "failed", modelEv("reviewer", "m1", "reviewer", 200)), "true"},
		{"planner", run("planner", "failed", modelEv("planner", "m1", "planner", 50)), "false"},
		{"clean", run("clean", "failed"), "false"},
		{"valid", run("valid", "ok", callEv("valid", "c1", "a1", "search", "ok", 200, 300)), "false"},
		{"noplan", run("noplan", "", callEv("noplan", "c1", "a1", "search", "ok", 200, 300)), "null"},
	}
	var all []ev
	for _, tc := range cases {
		all = append(all, tc.evs...)
	}
	s := load(t, jsonl(all...))
	for _, tc := range cases {
		wantFact(t, s, tc.run, "zero_call_violation", tc.want)
	}
	m := suiteOf(t, report(t, s), "s").Metrics
	wantRate(t, "zero_call_violation", m.ZeroCallViolation, 3, 5)
}

func TestSealViolation(t *testing.T) {
	term := func(run, terminal string, ms int) ev { return termEv(run, terminal, ms) }
	cases := []struct {
		run  string
		evs  []ev
		want string
	}{
		{"clean", goodRun("clean"), "false"},
		{"two", append(goodRun("two"), term("two", "failed", 1100)), "true"},
		{"two_same_ts", append(goodRun("two_same_ts"), term("two_same_ts", "failed", 1000).with("seq", 5)), "true"},
		{"after", append(goodRun("after"), callEv("after", "c9", "a9", "search", "ok", 1000, 1300)), "true"},
		{"model_after", append(goodRun("model_after"), modelEv("model_after", "m9", "reviewer", 1001)), "true"},
		{"noterm", replace(goodRun("noterm"), "terminal", "run_id", "noterm"), "false"},
		{"same_ts", append(goodRun("same_ts"), callEv("same_ts", "c9", "a9", "search", "ok", 900, 1000)), "false"},
		// the claimed terminal is the earliest; a later terminal alone is a violation
		{"earlier_second", append(goodRun("earlier_second"), term("earlier_second", "failed", 800)), "true"},
	}
	var all []ev
	for _, tc := range cases {
		all = append(all, tc.evs...)
	}
	s := load(t, jsonl(all...))
	for _, tc := range cases {
		wantFact(t, s, tc.run, "seal_violation", tc.want)
	}
	m := suiteOf(t, report(t, s), "s").Metrics
	wantRate(t, "seal_violation", m.SealViolation, 5, 8)
	wantRate(t, "terminal_committed", m.TerminalCommitted, 2, 8)
}

func TestBreakerViolation(t *testing.T) {
	call := func(id, status, circuit string) ev {
		c := callEv("r", id, "a"+id, "visit", status, 100, 200)
		if circuit != "" {
			c = c.with("circuit", circuit)
		}
		return c
	}
	s := load(t, jsonl(runEv("r"),
		call("1", "fast_fail", "open"),
		call("2", "fast_fail", "open"),
		call("3", "error", "open"), // sent through an open breaker
		call("4", "ok", "open"),    // also sent
		call("5", "error", "half_open"),
		call("6", "error", "closed"),
		call("7", "fast_fail", ""), // default closed
	))
	m := suiteOf(t, report(t, s), "s").Metrics
	wantRate(t, "breaker_violation", m.BreakerViolation, 2, 4)
}

func TestDuplicateCalls(t *testing.T) {
	call := func(run, id, action, tool, digest string, start int) ev {
		c := callEv(run, id, action, tool, "ok", start, start+50)
		if digest != "" {
			c = c.with("args_digest", digest)
		}
		return c
	}
	cases := []struct {
		name     string
		evs      []ev
		num, den int64
	}{
		{"other action, later", []ev{call("r", "c1", "a1", "search", "d1", 0), call("r", "c2", "a2", "search", "d1", 200)}, 1, 2},
		{"other action, overlapping start", []ev{call("r", "c1", "a1", "search", "d1", 0), call("r", "c2", "a2", "search", "d1", 10)}, 1, 2},
		{"same action re-send", []ev{call("r", "c1", "a1", "search", "d1", 0), call("r", "c2", "a1", "search", "d1", 200).with("attempt", 2)}, 0, 2},
		{"no args_digest", []ev{call("r", "c1", "a1", "search", "", 0), call("r", "c2", "a2", "search", "", 200)}, 0, 2},
		{"one without args_digest", []ev{call("r", "c1", "a1", "search", "d1", 0), call("r", "c2", "a2", "search", "", 200)}, 0, 2},
		{"other tool", []ev{call("r", "c1", "a1", "search", "d1", 0), call("r", "c2", "a2", "visit", "d1", 200)}, 0, 2},
		{"other digest", []ev{call("r", "c1", "a1", "search", "d1", 0), call("r", "c2", "a2", "search", "d2", 200)}, 0, 2},
		{"same start is not earlier", []ev{call("r", "c1", "a1", "search", "d1", 0), call("r", "c2", "a2", "search", "d1", 0)}, 0, 2},
		{"other run", []ev{call("r", "c1", "a1", "search", "d1", 0), call("q", "c2", "a2", "search", "d1", 200)}, 0, 2},
		{"three actions", []ev{call("r", "c1", "a1", "search", "d1", 0), call("r", "c2", "a2", "search", "d1", 200), call("r", "c3", "a3", "search", "d1", 400)}, 2, 3},
		{"re-send of a duplicate", []ev{call("r", "c1", "a1", "search", "d1", 0), call("r", "c2", "a2", "search", "d1", 200),
			call("r", "c3", "a2", "search", "d1", 400).with("attempt", 2)}, 2, 3},
		{"later in the file, earlier by start", []ev{call("r", "c2", "a2", "search", "d1", 300), call("r", "c1", "a1", "search", "d1", 0)}, 1, 2},
	}
	evs := make([][]ev, len(cases))
	for i, tc := range cases {
		evs[i] = append([]ev{runEv("r"), runEv("q")}, tc.evs...)
	}
	_, rep := loadCases(t, evs)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := suiteOf(t, rep, caseSuite(i)).Metrics
			wantRate(t, "duplicate_call", m.DuplicateCall, tc.num, tc.den)
		})
	}
}

func TestRetryBudgetOverrun(t *testing.T) {
	resends := func(run string, actions map[string]int) []ev {
		var out []ev
		for action, n := range actions {
			for i := 1; i <= n; i++ {
				out = append(out, callEv(run, action+string(rune('0'+i)), action, "search", "error", i*100, i*100+50).
					with("attempt", i, "error", errOf("TRANSIENT", "retryable", true)))
			}
		}
		return out
	}
	runs := []struct {
		run     string
		budget  any
		actions map[string]int // attempts per action
		want    string
	}{
		{"over", 1, map[string]int{"a": 3}, "true"},
		{"at", 1, map[string]int{"a": 2}, "false"},
		{"zero_over", 0, map[string]int{"a": 2}, "true"},
		{"zero_none", 0, nil, "false"},
		{"nobudget", nil, map[string]int{"a": 4}, "null"},
		{"shared", 2, map[string]int{"a": 3, "b": 2}, "true"}, // 2 + 1 re-sends
	}
	var all []ev
	for _, r := range runs {
		all = append(all, runEv(r.run).with("retry_budget", r.budget))
		all = append(all, resends(r.run, r.actions)...)
	}
	s := load(t, jsonl(all...))
	for _, r := range runs {
		wantFact(t, s, r.run, "retry_budget_overrun", r.want)
	}
	m := suiteOf(t, report(t, s), "s").Metrics
	wantRate(t, "retry_budget_overrun", m.RetryBudgetOverrun, 3, 5)
}

func TestDeadlineOverrun(t *testing.T) {
	run := func(id string, deadline any, startMs int, terms ...ev) []ev {
		out := []ev{runEv(id).with("deadline_ms", deadline, "started_at", at(startMs))}
		for _, tm := range terms {
			out = append(out, tm.with("run_id", id))
		}
		return out
	}
	term := func(ms int) ev { return termEv("", "completed", ms) }
	cases := []struct {
		run  string
		evs  []ev
		want string
	}{
		{"over", run("over", 1000, 0, term(1500)), "true"},
		{"at", run("at", 1000, 0, term(1000)), "false"},
		{"noterm", run("noterm", 1000, 0), "null"},
		{"nodeadline", run("nodeadline", nil, 0, term(9000)), "null"},
		{"claimed_first", run("claimed_first", 1000, 0, term(900), term(1500)), "false"},
		{"from_started_at", run("from_started_at", 1000, 200, term(1250)), "true"},
		{"sub_ms", run("sub_ms", 1000, 0, termEv("", "completed", 0).with("ts", atUS(1000400))), "true"},
	}
	var all []ev
	for _, tc := range cases {
		all = append(all, tc.evs...)
	}
	s := load(t, jsonl(all...))
	for _, tc := range cases {
		wantFact(t, s, tc.run, "deadline_overrun", tc.want)
	}
	wantFact(t, s, "from_started_at", "end_to_end_ms", "1050.0")
	wantFact(t, s, "sub_ms", "end_to_end_ms", "1000.4")
	m := suiteOf(t, report(t, s), "s").Metrics
	wantRate(t, "deadline_overrun", m.DeadlineOverrun, 3, 5)
}

func TestStageBudgetOverrun(t *testing.T) {
	stage := func(id string, budget any, enq, start, endUS int) ev {
		st := stageEv("r", id, "evidence", "ok", start, 0).with("ended_at", atUS(endUS), "budget_ms", budget)
		if enq >= 0 {
			st = st.with("enqueued_at", at(enq))
		}
		return st
	}
	s := load(t, jsonl(runEv("r"), runEv("q"),
		stage("exact", 100, -1, 0, 100000),                                       // wall 100: not over
		stage("queued", 100, 0, 50, 120000),                                      // exec 70, wall 120: over
		stage("slow", 100, -1, 0, 150000),                                        // over
		stage("sub_ms", 100, -1, 0, 100400),                                      // wall 100.4: over
		stage("queued_at", 100, 50, 50, 100000),                                  // no queue, wall 50
		stage("nobudget", nil, -1, 0, 900000),                                    // not counted
		stageEv("q", "other", "generation", "ok", 0, 500).with("budget_ms", 400), // another run, same suite: over
	))
	m := suiteOf(t, report(t, s), "s").Metrics
	wantRate(t, "stage_budget_overrun", m.StageBudgetOverrun, 4, 6)
}
