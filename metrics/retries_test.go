package metrics

import "testing"

// Re-send judgements (invalid retry and its reasons) and retry amplification.

func TestInvalidRetry(t *testing.T) {
	// first is attempt 1 of action a, failed with err, ended at 100 ms.
	first := func(err ev) ev {
		return callEv("r", "c1", "a", "search", "error", 0, 100).with("error", err)
	}
	// again is a re-send of a starting at start.
	again := func(id string, attempt, start int) ev {
		return callEv("r", id, "a", "search", "ok", start, start+100).with("attempt", attempt)
	}
	write := func(e ev, key string) ev {
		e = e.with("side_effect", "write")
		if key != "" {
			e = e.with("idempotency_key", key)
		}
		return e
	}
	transient := errOf("TRANSIENT", "retryable", true)
	type reasons = map[string]int64
	cases := []struct {
		name     string
		calls    []ev
		num, den int64
		by       reasons
	}{
		{"retryable transient", []ev{first(transient), again("c2", 2, 200)}, 0, 1, reasons{}},
		{"retryable absent", []ev{first(errOf("TIMEOUT")), again("c2", 2, 200)}, 0, 1, reasons{}},
		{"not retryable", []ev{first(errOf("TRANSIENT", "retryable", false)), again("c2", 2, 200)}, 1, 1, reasons{"not_retryable": 1}},
		{"category VALIDATION", []ev{first(errOf("VALIDATION", "retryable", true)), again("c2", 2, 200)}, 1, 1, reasons{"category": 1}},
		{"category AUTHZ", []ev{first(errOf("AUTHZ")), again("c2", 2, 200)}, 1, 1, reasons{"category": 1}},
		{"category NOT_FOUND", []ev{first(errOf("NOT_FOUND")), again("c2", 2, 200)}, 1, 1, reasons{"category": 1}},
		{"category SAFETY", []ev{first(errOf("SAFETY")), again("c2", 2, 200)}, 1, 1, reasons{"category": 1}},
		{"category CONFLICT", []ev{first(errOf("CONFLICT")), again("c2", 2, 200)}, 1, 1, reasons{"category": 1}},
		{"category AUTHN is retryable", []ev{first(errOf("AUTHN")), again("c2", 2, 200)}, 0, 1, reasons{}},
		{"category RATE_LIMIT is retryable", []ev{first(errOf("RATE_LIMIT")), again("c2", 2, 200)}, 0, 1, reasons{}},
		{"write without key", []ev{write(first(transient), ""), write(again("c2", 2, 200), "")}, 1, 1, reasons{"write_without_key": 1}},
		{"write with key", []ev{write(first(transient), "k"), write(again("c2", 2, 200), "k")}, 0, 1, reasons{}},
		{"idempotent without key", []ev{first(transient).with("side_effect", "idempotent"), again("c2", 2, 200).with("side_effect", "idempotent")}, 0, 1, reasons{}},
		{"unknown outcome on a write", []ev{write(first(errOf("UNKNOWN_OUTCOME", "side_effect_state", "unknown")), "k"), write(again("c2", 2, 200), "k")},
			1, 1, reasons{"unknown_outcome_resend": 1}},
		{"unknown outcome on a write, no key", []ev{write(first(errOf("UNKNOWN_OUTCOME")), ""), write(again("c2", 2, 200), "")},
			1, 1, reasons{"unknown_outcome_resend": 1, "write_without_key": 1}},
		{"unknown outcome on a read", []ev{first(errOf("UNKNOWN_OUTCOME")), again("c2", 2, 200)}, 0, 1, reasons{}},
		{"before retry_after", []ev{first(transient.with("retry_after_ms", 500)), again("c2", 2, 300)}, 1, 1, reasons{"before_retry_after": 1}},
		{"at retry_after", []ev{first(transient.with("retry_after_ms", 500)), again("c2", 2, 600)}, 0, 1, reasons{}},
		{"after retry_after", []ev{first(transient.with("retry_after_ms", 500)), again("c2", 2, 700)}, 0, 1, reasons{}},
		{"retry_after 0, before previous end", []ev{first(transient.with("retry_after_ms", 0)), again("c2", 2, 50)}, 1, 1, reasons{"before_retry_after": 1}},
		{"retry_after 0, at previous end", []ev{first(transient.with("retry_after_ms", 0)), again("c2", 2, 100)}, 0, 1, reasons{}},
		{"no retry_after, overlapping", []ev{first(transient), again("c2", 2, 50)}, 0, 1, reasons{}},
		{"every reason but one", []ev{write(first(errOf("VALIDATION", "retryable", false, "retry_after_ms", 1000)), ""), write(again("c2", 2, 200), "")},
			1, 1, reasons{"not_retryable": 1, "category": 1, "write_without_key": 1, "before_retry_after": 1}},
		{"previous is the attempt before", []ev{first(errOf("VALIDATION")),
			callEv("r", "c2", "a", "search", "error", 200, 300).with("attempt", 2, "error", transient), again("c3", 3, 400)},
			1, 2, reasons{"category": 1}},
		{"attempts out of line order", []ev{again("c3", 3, 400),
			callEv("r", "c2", "a", "search", "error", 200, 300).with("attempt", 2, "error", transient), first(errOf("VALIDATION"))},
			1, 2, reasons{"category": 1}},
		// the previous attempt is by attempt number, not by start
		{"previous by attempt number", []ev{first(transient),
			callEv("r", "c2", "a", "search", "error", 300, 400).with("attempt", 2, "error", errOf("VALIDATION")), again("c3", 3, 200)},
			1, 2, reasons{"category": 1}},
		{"previous ok", []ev{callEv("r", "c1", "a", "search", "ok", 0, 100), again("c2", 2, 200)}, 0, 1, reasons{}},
		{"previous missing, write without key", []ev{write(again("c2", 2, 200), "")}, 1, 1, reasons{"write_without_key": 1}},
		{"previous missing", []ev{again("c2", 2, 200)}, 0, 1, reasons{}},
		{"attempt numbers absent: no re-sends", []ev{first(errOf("VALIDATION")), callEv("r", "c2", "a", "search", "ok", 200, 300)}, 0, 0, reasons{}},
		{"strategy move is not a re-send", []ev{first(errOf("VALIDATION")),
			callEv("r", "c2", "b", "search", "ok", 200, 300).with("recovery", "fix_args", "recovery_of", "c1")}, 0, 0, reasons{}},
		{"other action's error is not the previous attempt", []ev{first(errOf("VALIDATION")),
			callEv("r", "c2", "b", "search", "ok", 150, 180), callEv("r", "c3", "b", "search", "ok", 200, 300).with("attempt", 2)},
			0, 1, reasons{}},
	}
	evs := make([][]ev, len(cases))
	for i, tc := range cases {
		evs[i] = append([]ev{runEv("r")}, tc.calls...)
	}
	_, rep := loadCases(t, evs)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := suiteOf(t, rep, caseSuite(i)).Metrics
			wantRate(t, "invalid_retry", m.InvalidRetry, tc.num, tc.den)
			wantReasons(t, m.InvalidRetry.ByReason, tc.by)
			wantRate(t, "unknown_outcome_resend", m.UnknownOutcomeResend, tc.by["unknown_outcome_resend"], tc.den)
		})
	}
}

// Reasons add up over calls and runs of a suite; each call counts once in
// the numerator however many reasons it has.
func TestInvalidRetryByReasonTotals(t *testing.T) {
	var evs []ev
	for _, run := range []string{"r1", "r2"} {
		evs = append(evs, runEv(run),
			callEv(run, "c1", "a", "search", "error", 0, 100).with("error", errOf("NOT_FOUND", "retryable", false)),
			callEv(run, "c2", "a", "search", "error", 200, 300).with("attempt", 2, "error", errOf("RATE_LIMIT", "retry_after_ms", 1000)),
			callEv(run, "c3", "a", "search", "ok", 400, 500).with("attempt", 3),
			callEv(run, "c4", "w", "save", "error", 600, 700).with("side_effect", "write", "error", errOf("TRANSIENT")),
			callEv(run, "c5", "w", "save", "ok", 800, 900).with("side_effect", "write", "attempt", 2),
		)
	}
	m := suiteOf(t, report(t, load(t, jsonl(evs...))), "s").Metrics
	wantRate(t, "invalid_retry", m.InvalidRetry, 6, 6)
	wantReasons(t, m.InvalidRetry.ByReason, map[string]int64{
		"not_retryable": 2, "category": 2, "before_retry_after": 2, "write_without_key": 2})
	wantFloat(t, "invalid_retry.rate", m.InvalidRetry.Rate, f(1))
}

func TestRetryAmplification(t *testing.T) {
	calls := func(run, action string, n int) []ev {
		var out []ev
		for i := 1; i <= n; i++ {
			out = append(out, callEv(run, action+string(rune('0'+i)), action, "search", "error", i*100, i*100+50).with("attempt", i))
		}
		return out
	}
	s := load(t, jsonl(cat(
		[]ev{runEv("r1")}, calls("r1", "a", 3), calls("r1", "b", 1), // baseline: 4 calls, 2 actions
		[]ev{runEv("r2").with("scenario", "timeout")}, calls("r2", "a", 1), // same action_id, other run
		[]ev{runEv("r3").with("scenario", "timeout")}, calls("r3", "x", 2),
		[]ev{runEv("r4")}, // no calls
	)...))
	st := suiteOf(t, report(t, s), "s")
	wantFloat(t, "suite retry_amplification", st.RetryAmplification, f(7.0/4))
	want := map[string]*float64{"baseline": f(2), "timeout": f(1.5)}
	if len(st.Scenarios) != 2 {
		t.Fatalf("scenarios = %d, want 2", len(st.Scenarios))
	}
	for _, sp := range st.Scenarios {
		wantFloat(t, sp.Scenario+" retry_amplification", sp.RetryAmplification, want[sp.Scenario])
	}
}

// A suite without tool calls has no amplification and empty call rates.
func TestRetryAmplificationWithoutCalls(t *testing.T) {
	st := suiteOf(t, report(t, load(t, jsonl(goodRun("r")[0], termEv("r", "completed", 10)))), "s")
	if st.RetryAmplification != nil {
		t.Errorf("retry_amplification = %v, want null", *st.RetryAmplification)
	}
	wantRate(t, "invalid_retry", st.Metrics.InvalidRetry, 0, 0)
	if st.Metrics.InvalidRetry.Rate != nil {
		t.Errorf("invalid_retry.rate = %v, want null", *st.Metrics.InvalidRetry.Rate)
	}
	wantReasons(t, st.Metrics.InvalidRetry.ByReason, nil)
}
