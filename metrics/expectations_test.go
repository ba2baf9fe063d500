package metrics

import "testing"

// Expectation conformance: the expected action observed and the claimed
// terminal equal to expect.terminal.

func TestExpectationConformance(t *testing.T) {
	// expRun is a run whose fault expects action and terminal ("" leaves
	// that part out; expect nil when both are ""); evs are its other events.
	expRun := func(id, action, terminal string, evs ...ev) []ev {
		fault := ev{"class": "network", "kind": "timeout", "target_tool": "visit"}
		expect := ev{}
		if action != "" {
			expect["action"] = action
		}
		if terminal != "" {
			expect["terminal"] = terminal
		}
		if len(expect) > 0 {
			fault["expect"] = expect
		}
		out := []ev{runEv(id).with("fault", fault)}
		for _, e := range evs {
			out = append(out, e.with("run_id", id))
		}
		return out
	}
	call := func(id, action, status string, start int, kv ...any) ev {
		return callEv("", id, action, "visit", status, start, start+100).with(kv...)
	}
	failed := func(start int, kv ...any) ev {
		return call("c1", "a", "error", start, append([]any{"error", errOf("TIMEOUT", "retry_after_ms", 200)}, kv...)...)
	}
	// moved is a failed call followed by a strategy move with recovery rec.
	moved := func(rec string) []ev {
		return []ev{failed(0), call("c2", "b", "ok", 200, "recovery", rec, "recovery_of", "c1")}
	}
	done := func(terminal string) ev { return termEv("", terminal, 2000) }
	with := func(evs []ev, more ...ev) []ev { return append(append([]ev{}, evs...), more...) }
	retried := func(start int) []ev {
		return []ev{failed(0), call("c2", "a", "ok", start, "attempt", 2, "recovery", "retry", "recovery_of", "c1")}
	}

	cases := []struct {
		run  string
		evs  []ev
		want string
	}{
		{"retry+", expRun("retry+", "retry", "completed", with(retried(300), done("completed"))...), "true"},
		{"retry-", expRun("retry-", "retry", "completed", with(moved("fix_args"), done("completed"))...), "false"},
		{"retry-terminal", expRun("retry-terminal", "retry", "completed", with(retried(300), done("partial"))...), "false"},
		{"backoff+", expRun("backoff+", "backoff", "completed", with(retried(300), done("completed"))...), "true"},
		{"backoff-early", expRun("backoff-early", "backoff", "completed", with(retried(250), done("completed"))...), "false"},
		{"backoff-no-hint", expRun("backoff-no-hint", "backoff", "completed",
			call("c1", "a", "error", 0, "error", errOf("TIMEOUT")), call("c2", "a", "ok", 900, "attempt", 2), done("completed")), "false"},
		{"backoff-zero-hint", expRun("backoff-zero-hint", "backoff", "completed",
			call("c1", "a", "error", 0, "error", errOf("TIMEOUT", "retry_after_ms", 0)), call("c2", "a", "ok", 900, "attempt", 2), done("completed")), "false"},
		{"fix_args+", expRun("fix_args+", "fix_args", "completed", with(moved("fix_args"), done("completed"))...), "true"},
		{"fix_args-", expRun("fix_args-", "fix_args", "completed", with(moved("switch_tool"), done("completed"))...), "false"},
		{"switch_source+", expRun("switch_source+", "switch_source", "completed", with(moved("switch_source"), done("completed"))...), "true"},
		{"switch_source-", expRun("switch_source-", "switch_source", "completed", with(moved("fix_args"), done("completed"))...), "false"},
		{"switch_tool+", expRun("switch_tool+", "switch_tool", "completed", with(moved("switch_tool"), done("completed"))...), "true"},
		{"switch_tool-", expRun("switch_tool-", "switch_tool", "completed", with(moved("switch_source"), done("completed"))...), "false"},
		{"back_to_search+", expRun("back_to_search+", "back_to_search", "completed", with(moved("back_to_search"), done("completed"))...), "true"},
		{"back_to_search-", expRun("back_to_search-", "back_to_search", "completed", with(retried(300), done("completed"))...), "false"},
		{"query_status+", expRun("query_status+", "query_status", "completed", with(moved("query_status"), done("completed"))...), "true"},
		{"query_status-", expRun("query_status-", "query_status", "completed", with(moved("back_to_search"), done("completed"))...), "false"},
		{"degrade+", expRun("degrade+", "degrade", "partial", failed(0), done("partial").with("degradations", []string{"tool"})), "true"},
		{"degrade-gaps-only", expRun("degrade-gaps-only", "degrade", "partial", failed(0), done("partial").with("disclosed_gaps", true)), "false"},
		{"stop+", expRun("stop+", "stop", "failed", failed(0), done("failed")), "true"},
		{"stop-at-fail-end", expRun("stop-at-fail-end", "stop", "failed", failed(0), call("c2", "b", "ok", 100), done("failed")), "true"},
		{"stop-started-before", expRun("stop-started-before", "stop", "failed",
			call("c1", "a", "ok", 0, "ended_at", at(900)), stageEv("", "g", "generation", "failed", 100, 200), done("failed")), "true"},
		{"stop-call-after-call", expRun("stop-call-after-call", "stop", "failed", failed(0), call("c2", "b", "ok", 150), done("failed")), "false"},
		{"stop-call-after-stage", expRun("stop-call-after-stage", "stop", "failed",
			stageEv("", "e", "evidence", "timeout", 0, 200), call("c1", "a", "ok", 300), done("failed")), "false"},
		{"stop-after-fast-fail", expRun("stop-after-fast-fail", "stop", "failed",
			call("c1", "a", "fast_fail", 0, "circuit", "open"), call("c2", "b", "ok", 500), done("failed")), "false"},
		// a run without a failed step observes stop vacuously (documented)
		{"stop-vacuous", expRun("stop-vacuous", "stop", "failed", call("c1", "a", "ok", 0), done("failed")), "true"},
		{"no-terminal", expRun("no-terminal", "fix_args", "completed", moved("fix_args")...), "false"},
		{"claimed-first", expRun("claimed-first", "fix_args", "completed",
			with(moved("fix_args"), termEv("", "failed", 1500), done("completed"))...), "false"},
		// an expectation without terminal is judged on the action alone
		{"action-only", expRun("action-only", "fix_args", "", with(moved("fix_args"), done("failed"))...), "true"},
		{"terminal-only", expRun("terminal-only", "", "completed", with(moved("fix_args"), done("completed"))...), "true"},
		{"no-expect", expRun("no-expect", "", "", with(moved("fix_args"), done("completed"))...), "null"},
		{"no-fault", with([]ev{runEv("no-fault")}, done("completed").with("run_id", "no-fault")), "null"},
	}
	var all []ev
	for _, tc := range cases {
		all = append(all, tc.evs...)
	}
	s := load(t, jsonl(all...))
	for _, tc := range cases {
		wantFact(t, s, tc.run, "expectation_met", tc.want)
	}
	m := suiteOf(t, report(t, s), "s").Metrics
	wantRate(t, "expectation_conformance", m.ExpectationConformance, 14, 30)
}
