package simulate

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestInjectionDecisions checks the per-run decisions: exactly MaskedRuns
// distinct runs, spread over the suite, and a naive fraction drawn per run
// from the seed alone.
func TestInjectionDecisions(t *testing.T) {
	in := Injection{MaskedRuns: 3, NaiveFraction: 0.05}
	var masked []int
	naive := 0
	for idx := 0; idx < 1000; idx++ {
		d := in.decide(7, idx, 1000)
		if d.mask {
			masked = append(masked, idx)
		}
		if d.naive {
			naive++
		}
	}
	if len(masked) != 3 || masked[0] != 0 || masked[1] != 333 || masked[2] != 666 {
		t.Errorf("masked runs = %v, want [0 333 666]", masked)
	}
	if naive != 49 {
		t.Errorf("naive runs = %d of 1000, want 49 for seed 7", naive)
	}
}

// TestInjectionChangesOnlyWhatItNames checks that a zero injection writes
// the same bytes as none, and that a slowed tool leaves every other tool's
// lines alone.
func TestInjectionChangesOnlyWhatItNames(t *testing.T) {
	gen := func(in Injection) string {
		var b bytes.Buffer
		if _, err := Generate(&b, Options{Runs: 40, Seed: 3, Inject: in}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	plain := gen(Injection{})
	if gen(Injection{ExecScale: 1, QueueScale: 1}) != plain {
		t.Error("scales of 1 changed the output")
	}
	slow := gen(Injection{SlowTool: "visit", SlowToolScale: 2})
	if slow == plain {
		t.Fatal("slowing visit changed nothing")
	}
	// Every call keeps its execution time but visit's successful ones,
	// which double (the clock shifts the later events of a run, not their
	// durations; a failing call's time is the fault's own).
	pe, se := execTimes(t, plain), execTimes(t, slow)
	if len(pe) != len(se) {
		t.Fatalf("%d calls became %d", len(pe), len(se))
	}
	visits := 0
	for i := range pe {
		switch {
		case pe[i].tool != se[i].tool:
			t.Fatalf("call %d: tool %s became %s", i, pe[i].tool, se[i].tool)
		case pe[i].tool == "visit" && pe[i].ok:
			visits++
			if se[i].ms != 2*pe[i].ms {
				t.Errorf("visit call %d: %d ms became %d, want doubled", i, pe[i].ms, se[i].ms)
			}
		case se[i].ms != pe[i].ms:
			t.Errorf("%s call %d: %d ms became %d", pe[i].tool, i, pe[i].ms, se[i].ms)
		}
	}
	if visits == 0 {
		t.Error("no visit call to slow down")
	}
}

type execTime struct {
	tool string
	ms   int64
	ok   bool
}

// execTimes lists every tool call's tool and execution time, by call id.
func execTimes(t *testing.T, jsonl string) []execTime {
	t.Helper()
	type call struct {
		Type, Tool, CallID, StartedAt, EndedAt, Status string
	}
	var calls []call
	for _, line := range strings.Split(strings.TrimSpace(jsonl), "\n") {
		var c struct {
			Type      string `json:"type"`
			Tool      string `json:"tool"`
			CallID    string `json:"call_id"`
			StartedAt string `json:"started_at"`
			EndedAt   string `json:"ended_at"`
			Status    string `json:"status"`
		}
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatal(err)
		}
		if c.Type == "tool_call" {
			calls = append(calls, call{c.Type, c.Tool, c.CallID, c.StartedAt, c.EndedAt, c.Status})
		}
	}
	sort.Slice(calls, func(i, j int) bool { return calls[i].CallID < calls[j].CallID })
	out := make([]execTime, len(calls))
	for i, c := range calls {
		a, err1 := time.Parse(time.RFC3339Nano, c.StartedAt)
		b, err2 := time.Parse(time.RFC3339Nano, c.EndedAt)
		if err1 != nil || err2 != nil {
			t.Fatalf("call %s: bad times", c.CallID)
		}
		out[i] = execTime{c.Tool, b.Sub(a).Milliseconds(), c.Status == "ok"}
	}
	return out
}

// TestInjectionMaskedAndNoTransients checks the counts Generate reports.
func TestInjectionMaskedAndNoTransients(t *testing.T) {
	var b bytes.Buffer
	if _, err := Generate(&b, Options{Runs: 300, Seed: 1, Inject: Injection{NoTransients: true}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range strings.Split(b.String(), "\n") {
		if strings.Contains(c, `"type":"tool_call"`) && strings.Contains(c, `"attempt":`) {
			t.Fatalf("NoTransients: a re-send: %s", c)
		}
	}
	b.Reset()
	if _, err := Generate(&b, Options{Runs: 300, Seed: 1, Inject: Injection{InvalidResends: 1, NoTransients: true}}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), `"code":"MISSING_FIELD"`); n != 600 {
		t.Errorf("InvalidResends 1: %d validation errors, want 600 (two per run)", n)
	}
	if _, err := Generate(&b, Options{Runs: 1, Inject: Injection{SlowTool: "nope", SlowToolScale: 2}}); err == nil {
		t.Error("unknown tool accepted")
	}
	if _, err := Generate(&b, Options{Runs: 1, Inject: Injection{LostEvidence: 2}}); err == nil {
		t.Error("probability 2 accepted")
	}
}
