package metrics

import (
	"maps"
	"testing"
)

// TestUnknownArgsNeverEqual is the native JSON Lines route of "unknown is
// never equal": tool_call events without args_digest (the contract's mark
// of arguments not recorded) are never duplicates of each other, whatever
// their tool and timing, and are counted per tool in the suite. Re-sends
// in JSON Lines are what the agent states (attempt, action_id), never
// inferred, so a call without a digest after a failed one stays a new
// action.
func TestUnknownArgsNeverEqual(t *testing.T) {
	s := load(t, jsonl(
		runEv("r"),
		// A search after a not-found, arguments not recorded: a new action.
		callEv("r", "c1", "a1", "search", "error", 0, 100).with("error", errOf("NOT_FOUND")),
		callEv("r", "c2", "a2", "search", "ok", 200, 300),
		// The same tool called again, arguments not recorded: no duplicate.
		callEv("r", "c3", "a3", "search", "ok", 400, 500),
		// Known equal arguments under another action: a duplicate.
		callEv("r", "c4", "a4", "weather", "ok", 600, 700).with("args_digest", "d1"),
		callEv("r", "c5", "a5", "weather", "ok", 800, 900).with("args_digest", "d1"),
		// One known, one unknown: not shown equal.
		callEv("r", "c6", "a6", "weather", "ok", 1000, 1100),
	))
	st := suiteOf(t, report(t, s), "s")
	wantRate(t, "duplicate_call", st.Metrics.DuplicateCall, 1, 6)
	wantRate(t, "invalid_retry", st.Metrics.InvalidRetry, 0, 0)
	if want := map[string]int64{"search": 3, "weather": 1}; !maps.Equal(st.UnknownArgs, want) {
		t.Errorf("unknown args per tool = %v, want %v", st.UnknownArgs, want)
	}
}

// TestUnknownArgsAbsentWhenKnown: a suite whose every call records its
// arguments has no unknown-argument counts (the JSON field is left out).
func TestUnknownArgsAbsentWhenKnown(t *testing.T) {
	s := load(t, jsonl(runEv("r"), callEv("r", "c1", "a1", "search", "ok", 0, 100).with("args_digest", "d")))
	if st := suiteOf(t, report(t, s), "s"); st.UnknownArgs != nil {
		t.Errorf("unknown args per tool = %v, want none", st.UnknownArgs)
	}
}
