package otlp

import (
	"fmt"
	"testing"
	"time"
)

// TestInferRetriesAcrossParents pins the re-send rule: the latest earlier
// call of the same tool and arguments, failed and ended before the call
// started, whatever lies in between and whatever the parent spans.
func TestInferRetriesAcrossParents(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	call := func(id, tool, digest, status string, start, end int) *toolCall {
		return &toolCall{start: at(start), end: at(end), digest: digest,
			ev: &toolCallEvent{CallID: id, ActionID: id, Attempt: 1, Tool: tool, Status: status}}
	}
	cases := []struct {
		name  string
		calls []*toolCall
		want  []string // per call: action/attempt/recovery_of
	}{
		{"re-send in the next step, a parallel call in between",
			[]*toolCall{call("a", "weather", "paris", statusError, 0, 30), call("b", "weather", "oslo", statusOK, 0, 120), call("c", "weather", "paris", statusOK, 500, 620)},
			[]string{"a/1/", "b/1/", "a/2/a"}},
		{"three attempts of one action",
			[]*toolCall{call("a", "book", "x", statusError, 0, 5), call("b", "book", "x", statusError, 400, 405), call("c", "book", "x", statusOK, 800, 900)},
			[]string{"a/1/", "a/2/a", "a/3/b"}},
		{"after a success: a duplicate, not a re-send",
			[]*toolCall{call("a", "search", "q", statusOK, 0, 10), call("b", "search", "q", statusOK, 20, 30)},
			[]string{"a/1/", "b/1/"}},
		{"other arguments after a failure: a new action",
			[]*toolCall{call("a", "book", "x", statusError, 0, 5), call("b", "book", "y", statusOK, 10, 20)},
			[]string{"a/1/", "b/1/"}},
		{"same call running alongside the failed one: not a reaction to it",
			[]*toolCall{call("a", "search", "q", statusError, 0, 100), call("b", "search", "q", statusOK, 50, 150)},
			[]string{"a/1/", "b/1/"}},
		{"links to the latest namesake only",
			[]*toolCall{call("a", "search", "q", statusError, 0, 10), call("b", "search", "q", statusOK, 20, 30), call("c", "search", "q", statusOK, 40, 50)},
			[]string{"a/1/", "a/2/a", "c/1/"}},
		{"no arguments on either: the same request",
			[]*toolCall{call("a", "now", "", statusError, 0, 10), call("b", "now", "", statusOK, 20, 30)},
			[]string{"a/1/", "a/2/a"}},
		{"arguments on one only: not shown equal",
			[]*toolCall{call("a", "now", "", statusError, 0, 10), call("b", "now", "z", statusOK, 20, 30)},
			[]string{"a/1/", "b/1/"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			inferRetries(tc.calls)
			for i, c := range tc.calls {
				got := fmt.Sprintf("%s/%d/%s", c.ev.ActionID, c.ev.Attempt, c.ev.RecoveryOf)
				if got != tc.want[i] {
					t.Errorf("call %s = %s, want %s", c.ev.CallID, got, tc.want[i])
				}
				if (c.ev.RecoveryOf != "") != (c.ev.Recovery == recoveryRetry) {
					t.Errorf("call %s: recovery %q with recovery_of %q", c.ev.CallID, c.ev.Recovery, c.ev.RecoveryOf)
				}
			}
		})
	}
}
