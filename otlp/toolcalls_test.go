package otlp

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

var retryT0 = time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)

// retryAt is retryT0 plus ms milliseconds.
func retryAt(ms int) time.Time { return retryT0.Add(time.Duration(ms) * time.Millisecond) }

// testCall builds a tool call for inferRetries; its span id is its id.
func testCall(id, tool, digest, status string, start, end int) *toolCall {
	return &toolCall{start: retryAt(start), end: retryAt(end), spanID: id, digest: digest,
		ev: &toolCallEvent{CallID: id, ActionID: id, Attempt: 1, Tool: tool, Status: status}}
}

// links renders each call's action/attempt/recovery_of, by call id order.
func links(t *testing.T, calls []*toolCall) []string {
	t.Helper()
	byID := slices.Clone(calls)
	slices.SortFunc(byID, func(a, b *toolCall) int { return strings.Compare(a.ev.CallID, b.ev.CallID) })
	out := make([]string, len(byID))
	for i, c := range byID {
		out[i] = fmt.Sprintf("%s/%d/%s", c.ev.ActionID, c.ev.Attempt, c.ev.RecoveryOf)
		if (c.ev.RecoveryOf != "") != (c.ev.Recovery == recoveryRetry) {
			t.Errorf("call %s: recovery %q with recovery_of %q", c.ev.CallID, c.ev.Recovery, c.ev.RecoveryOf)
		}
	}
	return out
}

// TestInferRetriesAcrossParents pins the re-send rule: the latest earlier
// call of the same tool with arguments known to be equal (or an explicit
// link), failed, and before the call (ended, or a model turn in between),
// whatever lies in between and whatever the parent spans. Calls are given
// with ids in start order; the want is by call id.
func TestInferRetriesAcrossParents(t *testing.T) {
	withModelID := func(c *toolCall, id string) *toolCall { c.modelID = id; return c }
	resent := func(c *toolCall) *toolCall { c.resend = true; return c }
	cases := []struct {
		name   string
		calls  []*toolCall
		models []int // model call starts, ms
		want   []string
	}{
		{"re-send in the next step, a parallel call in between",
			[]*toolCall{testCall("a", "weather", "paris", statusError, 0, 30), testCall("b", "weather", "oslo", statusOK, 0, 120), testCall("c", "weather", "paris", statusOK, 500, 620)},
			nil, []string{"a/1/", "b/1/", "a/2/a"}},
		{"three attempts of one action",
			[]*toolCall{testCall("a", "book", "x", statusError, 0, 5), testCall("b", "book", "x", statusError, 400, 405), testCall("c", "book", "x", statusOK, 800, 900)},
			nil, []string{"a/1/", "a/2/a", "a/3/b"}},
		{"after a success: a duplicate, not a re-send",
			[]*toolCall{testCall("a", "search", "q", statusOK, 0, 10), testCall("b", "search", "q", statusOK, 20, 30)},
			nil, []string{"a/1/", "b/1/"}},
		{"other arguments after a failure: a new action",
			[]*toolCall{testCall("a", "book", "x", statusError, 0, 5), testCall("b", "book", "y", statusOK, 10, 20)},
			nil, []string{"a/1/", "b/1/"}},
		{"same call running alongside the failed one: not a reaction to it",
			[]*toolCall{testCall("a", "search", "q", statusError, 0, 100), testCall("b", "search", "q", statusOK, 50, 150)},
			nil, []string{"a/1/", "b/1/"}},
		{"links to the latest namesake only",
			[]*toolCall{testCall("a", "search", "q", statusError, 0, 10), testCall("b", "search", "q", statusOK, 20, 30), testCall("c", "search", "q", statusOK, 40, 50)},
			nil, []string{"a/1/", "a/2/a", "c/1/"}},
		{"no arguments on either: unknown is never equal",
			[]*toolCall{testCall("a", "now", "", statusError, 0, 10), testCall("b", "now", "", statusOK, 20, 30)},
			nil, []string{"a/1/", "b/1/"}},
		{"arguments on one only: not shown equal",
			[]*toolCall{testCall("a", "now", "", statusError, 0, 10), testCall("b", "now", "z", statusOK, 20, 30)},
			nil, []string{"a/1/", "b/1/"}},
		{"no arguments, the same model call id: an explicit link",
			[]*toolCall{withModelID(testCall("a", "now", "", statusError, 0, 10), "call_1"), withModelID(testCall("b", "now", "", statusOK, 20, 30), "call_1")},
			nil, []string{"a/1/", "a/2/a"}},
		{"no arguments, a stated re-send: an explicit link",
			[]*toolCall{testCall("a", "now", "", statusError, 0, 10), resent(testCall("b", "now", "", statusOK, 20, 30))},
			nil, []string{"a/1/", "a/2/a"}},
		{"a search after a not-found, arguments unknown: not a re-send",
			[]*toolCall{testCall("a", "search", "", statusError, 0, 10), testCall("b", "search", "", statusOK, 400, 500)},
			[]int{11}, []string{"a/1/", "b/1/"}},
		{"jitter: the re-send starts a hair before the failed call's end, a model turn between",
			[]*toolCall{testCall("a", "weather", "paris", statusError, 0, 30), testCall("b", "weather", "oslo", statusOK, 0, 31), testCall("c", "weather", "paris", statusOK, 29, 60)},
			[]int{-400, 28}, []string{"a/1/", "b/1/", "a/2/a"}},
		{"tied starts with the failed call, no model turn between: parallel, not a re-send",
			[]*toolCall{testCall("a", "weather", "paris", statusError, 0, 30), testCall("b", "weather", "paris", statusOK, 0, 120)},
			[]int{-400}, []string{"a/1/", "b/1/"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			models := make([]time.Time, len(tc.models))
			for i, ms := range tc.models {
				models[i] = retryAt(ms)
			}
			inferRetries(tc.calls, models)
			if got := links(t, tc.calls); !slices.Equal(got, tc.want) {
				t.Errorf("links = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestInferRetriesOrderIndependent is the AI SDK 6 case of a re-send after
// a 429 among parallel calls of the previous step, with tied and jittered
// timestamps: however the spans arrive, the re-send is linked to the failed
// call, and the parallel call of the same step is not.
func TestInferRetriesOrderIndependent(t *testing.T) {
	build := func(jitter int) []*toolCall {
		return []*toolCall{
			// Step 1: two parallel calls issued at one instant; Paris fails with 429.
			testCall("call_1", "weather", "paris", statusError, 0, 0+jitter),
			testCall("call_2", "weather", "oslo", statusOK, 0, 1),
			// Step 2: the model re-sends Paris; its start ties with (or,
			// jittered, precedes by a hair) the end of the failed call.
			testCall("call_3", "weather", "paris", statusOK, 2, 3),
		}
	}
	want := []string{"call_1/1/", "call_2/1/", "call_1/2/call_1"}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, jitter := range []int{0, 2, 3} {
		for range 20 {
			calls := build(jitter)
			rng.Shuffle(len(calls), func(i, j int) { calls[i], calls[j] = calls[j], calls[i] })
			models := []time.Time{retryAt(1), retryAt(-400)}
			rng.Shuffle(len(models), func(i, j int) { models[i], models[j] = models[j], models[i] })
			inferRetries(calls, models)
			if got := links(t, calls); !slices.Equal(got, want) {
				t.Fatalf("jitter %d ms, order %v: links = %q, want %q", jitter, ids(calls), got, want)
			}
		}
	}
}

func ids(calls []*toolCall) []string {
	out := make([]string, len(calls))
	for i, c := range calls {
		out[i] = c.ev.CallID
	}
	return out
}
