package proxy

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// failedCalls makes n calls of echo and lists the indexes that failed.
func failedCalls(t *testing.T, px *proxied, n int) string {
	t.Helper()
	var out []string
	for k := 1; k <= n; k++ {
		r, err := callTool(t, px.session, "echo", fmt.Sprint(k))
		if err != nil {
			t.Fatal(err)
		}
		if r.IsError {
			out = append(out, fmt.Sprint(k))
		}
	}
	return strings.Join(out, " ")
}

// TestSameFaultsSameOrder: the same plan, seed and call order give the
// same faults in another session with another run id, and they are the
// ones the selector's draw names; another seed gives others.
func TestSameFaultsSameOrder(t *testing.T) {
	argv := testServerArgv(t)
	plan := mustPlan(t, "samples:\n  - tool: echo\n    calls: {share: 0.5}\n    fault: {kind: transient}\n")
	var want []string
	for k := 1; k <= 16; k++ {
		if plan.Samples[0].selects(k, 7, 0) {
			want = append(want, fmt.Sprint(k))
		}
	}
	runs := map[string]string{}
	for _, c := range []struct {
		run  string
		seed int64
	}{{"a", 7}, {"b", 7}, {"c", 8}} {
		px := startProxied(t, argv, Options{Plan: plan, Seed: c.seed, RunID: c.run}, "")
		runs[c.run] = failedCalls(t, px, 16)
		px.stop(t)
	}
	if runs["a"] != strings.Join(want, " ") || runs["b"] != runs["a"] {
		t.Errorf("seed 7: run a failed %q, run b %q, the draw says %q", runs["a"], runs["b"], strings.Join(want, " "))
	}
	if runs["c"] == runs["a"] {
		t.Errorf("seed 8 failed the same calls as seed 7: %q", runs["c"])
	}
}

// circuitTrail is "circuit status" of each recorded call.
func circuitTrail(t *testing.T, events string) string {
	calls, _ := parseEvents(t, events)
	var out []string
	for _, c := range calls {
		out = append(out, c.Circuit+" "+c.Status)
	}
	return strings.Join(out, ", ")
}

// TestBreaker: the breaker opens after its failures, fails fast while open
// (or, advisory, lets the call through and records it as made while open),
// and half-opens after the cool-down; the state is recorded on each call.
func TestBreaker(t *testing.T) {
	argv := testServerArgv(t)
	const faults = "samples:\n  - tool: echo\n    calls: {nth: [1, 2, 3]}\n    fault: {kind: transient}\n"
	for _, c := range []struct{ breaker, want string }{
		{"breaker: {tool: echo, failures: 2, cooldown_ms: 3600000}",
			"closed error, closed error, open fast_fail, open fast_fail, open fast_fail"},
		{"breaker: {tool: echo, failures: 2, cooldown_ms: 3600000, mode: advisory}",
			"closed error, closed error, open error, open ok, open ok"},
		{"breaker: {tool: echo, failures: 2, cooldown_ms: 0}",
			"closed error, closed error, half_open error, half_open ok, closed ok"},
	} {
		px := startProxied(t, argv, Options{Plan: mustPlan(t, faults+c.breaker+"\n"), RunID: "r"}, "")
		failedCalls(t, px, 5)
		if got := circuitTrail(t, px.stop(t)); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.breaker, got, c.want)
		}
	}
}

var stamps = regexp.MustCompile(`"(ts|enqueued_at|started_at|ended_at)":"[^"]*"`)

// TestReplay: a run replayed from its recording, without the server, gives
// the client the same answers and records the same events (timestamps
// aside: they are the replay's own).
func TestReplay(t *testing.T) {
	argv := testServerArgv(t)
	plan := mustPlan(t, "samples:\n  - tool: write_note\n    calls: {nth: [1]}\n    fault: {kind: unknown_outcome}\n    expect: {action: query_status, terminal: completed}\n")
	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	session := func(px *proxied) string {
		ctx := context.Background()
		var out []string
		tools, err := px.session.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprint(len(tools.Tools), " tools"))
		for _, c := range [][2]string{{"write_note", "a"}, {"note_count", ""}, {"write_note", "b"}, {"echo", "x"}, {"echo", "x"}} {
			r, err := callTool(t, px.session, c[0], c[1])
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, resultText(r))
		}
		return strings.Join(out, "\n")
	}
	f, err := os.Create(rec)
	if err != nil {
		t.Fatal(err)
	}
	px := startProxied(t, argv, Options{Plan: plan, RunID: "r", Record: f}, "")
	answers := session(px)
	events := px.stop(t)
	_ = f.Close()

	replay, err := LoadReplay(rec)
	if err != nil {
		t.Fatal(err)
	}
	px = startOver(t, replay, Options{Plan: plan, RunID: "r"}, "")
	again := session(px)
	replayed := px.stop(t)
	if again != answers {
		t.Errorf("replayed answers:\n%s\nrecorded:\n%s", again, answers)
	}
	norm := func(s string) string { return stamps.ReplaceAllString(s, `"$1":"T"`) }
	if norm(replayed) != norm(events) {
		t.Errorf("replayed events:\n%s\nrecorded:\n%s", replayed, events)
	}
	const want = "8 tools\n" +
		"UNKNOWN_OUTCOME (WRITE_TIMEOUT): the call timed out after it was sent; it may have taken effect: query its status before sending it again\n" +
		"1 notes\nsaved note 2: b\necho: x\necho: x"
	if answers != want {
		t.Errorf("recorded session:\n%s\nwant:\n%s", answers, want)
	}
	if n := bytes.Count([]byte(events), []byte(`"type":"tool_call"`)); n != 5 {
		t.Errorf("%d tool calls recorded, want 5", n)
	}
}
