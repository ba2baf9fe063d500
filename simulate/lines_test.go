package simulate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// suitesUnderTest are the outputs every structural test runs over: the
// bundled samples and the remaining policy/fault combinations.
func suitesUnderTest(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for file, data := range sampleData(t) {
		out[file] = data
	}
	out["naive-faults"], _ = generate(t, Options{Runs: 120, Seed: 9, Faults: true, Policy: Naive})
	out["naive-fault-free"], _ = generate(t, Options{Runs: 120, Seed: 9, Policy: Naive})
	out["mixed-fault-free"], _ = generate(t, Options{Runs: 120, Seed: 9, Policy: Mixed})
	return out
}

func TestEveryLineFollowsTheContract(t *testing.T) {
	for name, data := range suitesUnderTest(t) {
		t.Run(name, func(t *testing.T) {
			if len(data) == 0 || data[len(data)-1] != '\n' {
				t.Fatal("output must be newline-terminated lines")
			}
			runs := parseRuns(t, data) // fails on the first bad line
			for _, r := range runs {
				checkRunStructure(t, r)
			}
		})
	}
}

// checkRunStructure checks what holds within every run: one run event
// first, seq 1..n in ts order, ids unique and references resolvable.
func checkRunStructure(t *testing.T, r *runFacts) {
	t.Helper()
	bySeq := make([]tEvent, len(r.events)+1)
	for _, e := range r.events {
		seq := e.num("seq")
		if seq < 1 || seq > int64(len(r.events)) || bySeq[seq] != nil {
			t.Fatalf("run %s: bad or repeated seq %d", r.id, seq)
		}
		bySeq[seq] = e
	}
	for i := 2; i < len(bySeq); i++ {
		if bySeq[i].time("ts").Before(bySeq[i-1].time("ts")) {
			t.Fatalf("run %s: seq %d has an earlier ts than seq %d", r.id, i, i-1)
		}
	}
	first := bySeq[1]
	if first.str("type") != "run" || len(r.byType("run")) != 1 || !first.time("ts").Equal(first.time("started_at")) {
		t.Fatalf("run %s: the run event must come first, once, at started_at", r.id)
	}
	calls := map[string]tEvent{}
	for _, c := range r.byType("tool_call") {
		id := c.str("call_id")
		if calls[id] != nil || !strings.HasPrefix(id, r.id+"/") {
			t.Fatalf("run %s: call id %s repeated or not run-scoped", r.id, id)
		}
		calls[id] = c
		if c.time("ended_at").Before(c.time("started_at")) || c.time("started_at").Before(c.time("enqueued_at")) {
			t.Fatalf("run %s: call %s has times out of order", r.id, id)
		}
	}
	evidence := map[string]bool{}
	for _, ev := range r.byType("evidence") {
		c := calls[ev.str("call_id")]
		late := r.claimed != nil && ev.time("ts").After(r.claimed.time("ts")) // a naive late return
		if c == nil || !late && !strings.Contains(strings.Join(c.strs("evidence_ids"), " "), ev.str("evidence_id")) {
			t.Fatalf("run %s: evidence %s not listed by its call", r.id, ev.str("evidence_id"))
		}
		evidence[ev.str("evidence_id")] = true
	}
	for _, c := range calls {
		for _, id := range c.strs("evidence_ids") {
			if !evidence[id] {
				t.Fatalf("run %s: call lists evidence %s that is never written", r.id, id)
			}
		}
		if of := c.str("recovery_of"); of != "" {
			if p := calls[of]; p == nil || p.time("ended_at").After(c.time("enqueued_at")) {
				t.Fatalf("run %s: %s recovers from %s, which is unknown or ends later", r.id, c.str("call_id"), of)
			}
		}
		if c.attempt() > 1 && previousAttempt(r.byType("tool_call"), c) == nil {
			t.Fatalf("run %s: %s has no previous attempt", r.id, c.str("call_id"))
		}
	}
}

func TestLinesOfRunsInterleaveInTimeOrder(t *testing.T) {
	data := sampleData(t)["candidate.jsonl"]
	sc := bufio.NewScanner(bytes.NewReader(data))
	var last time.Time
	lastRun, switches := "", 0
	blocks := map[string]int{}
	for sc.Scan() {
		var ev struct {
			RunID string `json:"run_id"`
			TS    time.Time
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.TS.Before(last) {
			t.Fatalf("line at %v written after %v", ev.TS, last)
		}
		last = ev.TS
		if ev.RunID != lastRun {
			switches++
			blocks[ev.RunID]++
			lastRun = ev.RunID
		}
	}
	split := 0
	for _, n := range blocks {
		if n > 1 {
			split++
		}
	}
	if split < len(blocks)/2 {
		t.Fatalf("only %d of %d runs are interleaved with others", split, len(blocks))
	}
}

func TestSomeRunsUseAnotherZone(t *testing.T) {
	runs := parseRuns(t, sampleData(t)["candidate.jsonl"])
	zoned := 0
	for _, r := range runs {
		if !r.zoned {
			continue
		}
		zoned++
		for _, e := range r.events { // a whole run is written in one zone
			if strings.HasSuffix(e.str("ts"), "Z") {
				t.Fatalf("run %s mixes zones", r.id)
			}
		}
	}
	if zoned < len(runs)/20 || zoned > len(runs)/4 {
		t.Fatalf("%d of %d runs use a non-UTC offset; want a minority", zoned, len(runs))
	}
}

func TestSuiteNameIsEscaped(t *testing.T) {
	suite := "we\"ird\\suite\t\u00e9\xff"
	data, _ := generate(t, Options{Runs: 3, Seed: 1, Suite: suite})
	for line := range bytes.Lines(data) {
		var ev map[string]any
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if ev["type"] == "run" && ev["suite"] != strings.ToValidUTF8(suite, "\ufffd") {
			t.Fatalf("suite decoded as %q", ev["suite"])
		}
	}
}
