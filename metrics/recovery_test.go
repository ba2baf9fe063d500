package metrics

import (
	"reflect"
	"testing"
)

// Recovery chains: outcomes, categories and root tools.

// tcall is a tool call of run r starting at start and lasting 50 ms.
func tcall(id, action, tool, status string, start int, kv ...any) ev {
	return callEv("r", id, action, tool, status, start, start+50).with(kv...)
}

// row is a recovery row with one chain of the given outcome.
func row(category, tool, outcome string) RecoveryRow {
	r := RecoveryRow{Category: category, Tool: tool, Chains: 1}
	switch outcome {
	case "first_try":
		r.FirstTry = 1
	case "after_retry":
		r.AfterRetry = 1
	case "after_switch":
		r.AfterSwitch = 1
	case "degraded":
		r.Degraded = 1
	case "failed":
		r.Failed = 1
	}
	return r
}

func TestRecoveryChains(t *testing.T) {
	timeout := errOf("TIMEOUT", "retryable", true)
	fallback := ev{"name": "mirror", "grade": "secondary", "fallback": true}
	// A fails, B fixes its arguments and fails, C switches source and succeeds.
	threeMoves := []ev{
		tcall("a1", "A", "visit", "error", 0, "error", timeout),
		tcall("b1", "B", "visit", "error", 100, "recovery", "fix_args", "recovery_of", "a1", "error", errOf("VALIDATION")),
		tcall("c1", "C", "fetch", "ok", 200, "recovery", "switch_source", "recovery_of", "b1"),
	}
	cases := []struct {
		name  string
		calls []ev
		want  []RecoveryRow
	}{
		{"first try", []ev{tcall("a1", "A", "search", "ok", 0)},
			[]RecoveryRow{row("none", "search", "first_try")}},
		{"first try from a fallback source", []ev{tcall("a1", "A", "search", "ok", 0, "source", fallback)},
			[]RecoveryRow{row("none", "search", "first_try")}},
		{"after retry", []ev{
			tcall("a1", "A", "visit", "error", 0, "error", timeout),
			tcall("a2", "A", "visit", "ok", 100, "attempt", 2, "recovery", "retry", "recovery_of", "a1")},
			[]RecoveryRow{row("TIMEOUT", "visit", "after_retry")}},
		{"retry ok only from a fallback source", []ev{
			tcall("a1", "A", "visit", "error", 0, "error", timeout),
			tcall("a2", "A", "visit", "ok", 100, "attempt", 2, "source", fallback)},
			[]RecoveryRow{row("TIMEOUT", "visit", "degraded")}},
		{"after switch through several moves", threeMoves,
			[]RecoveryRow{row("TIMEOUT", "visit", "after_switch")}},
		{"after switch, lines reversed", []ev{threeMoves[2], threeMoves[1], threeMoves[0]},
			[]RecoveryRow{row("TIMEOUT", "visit", "after_switch")}},
		{"retry of a switched action", []ev{
			tcall("a1", "A", "visit", "error", 0, "error", errOf("UNAVAILABLE")),
			tcall("b1", "B", "fetch", "error", 100, "recovery", "switch_tool", "recovery_of", "a1", "error", timeout),
			tcall("b2", "B", "fetch", "ok", 200, "attempt", 2, "recovery", "retry", "recovery_of", "b1")},
			[]RecoveryRow{row("UNAVAILABLE", "visit", "after_switch")}},
		{"switch from the root's second attempt", []ev{
			tcall("a1", "A", "visit", "error", 0, "error", timeout),
			tcall("a2", "A", "visit", "error", 100, "attempt", 2, "error", errOf("UNAVAILABLE")),
			tcall("b1", "B", "fetch", "ok", 200, "recovery", "switch_tool", "recovery_of", "a2")},
			[]RecoveryRow{row("TIMEOUT", "visit", "after_switch")}},
		{"retry beats switch", []ev{
			tcall("a1", "A", "visit", "error", 0, "error", timeout),
			tcall("b1", "B", "fetch", "ok", 100, "recovery", "switch_tool", "recovery_of", "a1"),
			tcall("a2", "A", "visit", "ok", 200, "attempt", 2)},
			[]RecoveryRow{row("TIMEOUT", "visit", "after_retry")}},
		{"switched to a fallback source", []ev{
			tcall("a1", "A", "visit", "error", 0, "error", errOf("UNAVAILABLE")),
			tcall("b1", "B", "visit", "ok", 100, "recovery", "switch_source", "recovery_of", "a1", "source", fallback)},
			[]RecoveryRow{row("UNAVAILABLE", "visit", "degraded")}},
		{"partial switch", []ev{
			tcall("a1", "A", "visit", "error", 0, "error", timeout),
			tcall("b1", "B", "visit", "partial", 100, "recovery", "fix_args", "recovery_of", "a1")},
			[]RecoveryRow{row("TIMEOUT", "visit", "degraded")}},
		{"partial root without error", []ev{tcall("a1", "A", "search", "partial", 0)},
			[]RecoveryRow{row("PARTIAL", "search", "degraded")}},
		{"partial root with error", []ev{tcall("a1", "A", "search", "partial", 0, "error", errOf("RATE_LIMIT"))},
			[]RecoveryRow{row("RATE_LIMIT", "search", "degraded")}},
		{"error without error object", []ev{tcall("a1", "A", "search", "error", 0)},
			[]RecoveryRow{row("UNKNOWN", "search", "failed")}},
		{"fast fail without error object", []ev{tcall("a1", "A", "search", "fast_fail", 0, "circuit", "open")},
			[]RecoveryRow{row("UNKNOWN", "search", "failed")}},
		{"error object without category", []ev{tcall("a1", "A", "search", "error", 0, "error", ev{"code": "E1"})},
			[]RecoveryRow{row("UNKNOWN", "search", "failed")}},
		{"failed after every move", []ev{
			tcall("a1", "A", "visit", "error", 0, "error", errOf("AUTHZ")),
			tcall("b1", "B", "status", "error", 100, "recovery", "query_status", "recovery_of", "a1", "error", timeout),
			tcall("c1", "C", "search", "fast_fail", 200, "recovery", "back_to_search", "recovery_of", "b1")},
			[]RecoveryRow{row("AUTHZ", "visit", "failed")}},
		// without attempt numbers every call is attempt 1: the first by start
		// is the root's attempt 1, and its category alone counts
		{"attempt numbers absent", []ev{
			tcall("a1", "A", "visit", "error", 0, "error", ev{"code": "E1"}),
			tcall("a2", "A", "visit", "error", 100, "error", timeout)},
			[]RecoveryRow{row("UNKNOWN", "visit", "failed")}},
		{"attempt numbers absent, first has category", []ev{
			tcall("a2", "A", "visit", "ok", 100),
			tcall("a1", "A", "visit", "error", 0, "error", timeout)},
			[]RecoveryRow{row("TIMEOUT", "visit", "after_retry")}},
		{"root attempt 1 missing", []ev{tcall("a2", "A", "visit", "ok", 100, "attempt", 2)},
			[]RecoveryRow{row("UNKNOWN", "visit", "after_retry")}},
		{"recovery_of an unknown call", []ev{tcall("b1", "B", "visit", "ok", 100, "recovery", "fix_args", "recovery_of", "zz")},
			[]RecoveryRow{row("none", "visit", "first_try")}},
		{"two chains", []ev{
			tcall("a1", "A", "search", "ok", 0),
			tcall("x1", "X", "visit", "error", 100, "error", timeout),
			tcall("x2", "X", "visit", "ok", 200, "attempt", 2)},
			[]RecoveryRow{row("TIMEOUT", "visit", "after_retry"), row("none", "search", "first_try")}},
	}
	evs := make([][]ev, len(cases))
	for i, tc := range cases {
		evs[i] = append([]ev{runEv("r")}, tc.calls...)
	}
	_, rep := loadCases(t, evs)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := suiteOf(t, rep, caseSuite(i))
			if !reflect.DeepEqual(st.Recovery, tc.want) {
				t.Errorf("recovery =\n  %+v\nwant\n  %+v", st.Recovery, tc.want)
			}
		})
	}
}

// Chains of a suite are counted per category and root tool over its runs.
func TestRecoveryTotals(t *testing.T) {
	timeout := errOf("TIMEOUT")
	run := func(id string, calls ...ev) []ev {
		out := []ev{runEv(id)}
		for _, c := range calls {
			out = append(out, c.with("run_id", id))
		}
		return out
	}
	s := load(t, jsonl(cat(
		run("r1", tcall("a1", "A", "visit", "error", 0, "error", timeout), tcall("a2", "A", "visit", "ok", 100, "attempt", 2),
			tcall("s1", "S", "search", "ok", 300)),
		run("r2", tcall("a1", "A", "visit", "error", 0, "error", timeout)),
		run("r3", tcall("a1", "A", "visit", "error", 0, "error", timeout),
			tcall("b1", "B", "fetch", "ok", 100, "recovery", "switch_tool", "recovery_of", "a1")),
		run("r4", tcall("a1", "A", "fetch", "error", 0, "error", timeout), tcall("b1", "B", "visit", "partial", 100, "recovery", "switch_tool", "recovery_of", "a1")),
		run("r5", tcall("a1", "A", "search", "ok", 0), tcall("q1", "Q", "visit", "error", 100, "error", errOf("NOT_FOUND"))),
	)...))
	st := suiteOf(t, report(t, s), "s")
	want := []RecoveryRow{
		{Category: "NOT_FOUND", Tool: "visit", Chains: 1, Failed: 1},
		{Category: "TIMEOUT", Tool: "fetch", Chains: 1, Degraded: 1},
		{Category: "TIMEOUT", Tool: "visit", Chains: 3, AfterRetry: 1, AfterSwitch: 1, Failed: 1},
		{Category: "none", Tool: "search", Chains: 2, FirstTry: 2},
	}
	if !reflect.DeepEqual(st.Recovery, want) {
		t.Errorf("recovery =\n  %+v\nwant\n  %+v", st.Recovery, want)
	}
	// every action belongs to exactly one chain
	var chains int64
	for _, r := range st.Recovery {
		chains += r.Chains
		if r.Chains != r.FirstTry+r.AfterRetry+r.AfterSwitch+r.Degraded+r.Failed {
			t.Errorf("row %+v: outcomes do not add up to chains", r)
		}
	}
	if chains != 7 {
		t.Errorf("chains = %d, want 7", chains)
	}
}
