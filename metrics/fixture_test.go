package metrics

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// Builders for hand-written trace fixtures. Every event is a map so that a
// case can add, change or drop (value nil) any field with with(); times are
// offsets in milliseconds from t0 so that expected latencies read directly.

// t0 is the instant every fixture time is measured from.
var t0 = time.Date(2026, 11, 28, 2, 0, 0, 0, time.UTC)

// ev is one trace event.
type ev map[string]any

// at is the RFC 3339 text of t0 + ms milliseconds.
func at(ms int) string { return atUS(ms * 1000) }

// atUS is the RFC 3339 text of t0 + us microseconds.
func atUS(us int) string {
	return t0.Add(time.Duration(us) * time.Microsecond).Format("2006-01-02T15:04:05.000000Z07:00")
}

// with returns a copy of e with the given key/value pairs set; a nil value
// removes the key.
func (e ev) with(kv ...any) ev {
	out := ev{}
	for k, v := range e {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		k := kv[i].(string)
		if kv[i+1] == nil {
			delete(out, k)
		} else {
			out[k] = kv[i+1]
		}
	}
	return out
}

// runEv is a run event of suite "s" started at t0.
func runEv(run string) ev {
	return ev{"type": "run", "run_id": run, "ts": at(0), "suite": "s", "started_at": at(0)}
}

// stageEv is a stage attempt from start to end (ms), emitted at its end.
func stageEv(run, id, stage, outcome string, start, end int) ev {
	return ev{"type": "stage", "run_id": run, "ts": at(end), "stage_id": id, "stage": stage,
		"outcome": outcome, "started_at": at(start), "ended_at": at(end)}
}

// callEv is a tool call attempt from start to end (ms), emitted at its end.
func callEv(run, id, action, tool, status string, start, end int) ev {
	return ev{"type": "tool_call", "run_id": run, "ts": at(end), "call_id": id, "action_id": action,
		"tool": tool, "status": status, "started_at": at(start), "ended_at": at(end)}
}

// modelEv is a model call of the given role at ms.
func modelEv(run, id, role string, ms int) ev {
	return ev{"type": "model_call", "run_id": run, "ts": at(ms), "call_id": id, "role": role,
		"started_at": at(ms), "ended_at": at(ms), "outcome": "ok"}
}

// evidenceEv is an evidence event emitted at 500 ms.
func evidenceEv(run, id, claim, grade, status string) ev {
	return ev{"type": "evidence", "run_id": run, "ts": at(500), "evidence_id": id, "claim": claim,
		"grade": grade, "status": status}
}

// termEv is a terminal event committed at ms with a visible answer.
func termEv(run, terminal string, ms int) ev {
	return ev{"type": "terminal", "run_id": run, "ts": at(ms), "terminal": terminal, "visible_chars": 120}
}

// errOf is an error object.
func errOf(category string, kv ...any) ev {
	return ev{"category": category}.with(kv...)
}

// jsonl renders events as one JSON Lines file.
func jsonl(evs ...ev) string {
	var b strings.Builder
	for _, e := range evs {
		line, err := json.Marshal(e)
		if err != nil {
			panic(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// cat joins event lists.
func cat(lists ...[]ev) []ev {
	var out []ev
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// goodRun is a run that passes all four gates: a valid plan, one confirmed
// primary evidence for a task that needs one, an ok generation and one
// completed terminal that is the run's last event.
func goodRun(run string) []ev {
	return []ev{
		runEv(run).with("task", ev{"requires_current_evidence": true}),
		stageEv(run, "p", "planning", "ok", 0, 100),
		callEv(run, "c1", "a1", "search", "ok", 100, 200).with("evidence_ids", []string{"e1"}),
		evidenceEv(run, "e1", "x", "primary", "confirmed").with("call_id", "c1"),
		stageEv(run, "g", "generation", "ok", 600, 900),
		termEv(run, "completed", 1000),
	}
}

// replace returns evs with every event of the given type and key value
// replaced by repl (dropped when repl is nil).
func replace(evs []ev, typ, key, val string, repl ...ev) []ev {
	var out []ev
	for _, e := range evs {
		if e["type"] == typ && e[key] == val {
			out = append(out, repl...)
			continue
		}
		out = append(out, e)
	}
	return out
}

// fact reads one column of run_facts for a run as text: "true", "false",
// "null" or the value.
func fact(t *testing.T, s *Session, run, col string) string {
	t.Helper()
	var v sql.NullString
	q := "SELECT CAST(" + col + " AS VARCHAR) FROM run_facts WHERE run_id = ?"
	if err := s.conn.QueryRowContext(context.Background(), q, run).Scan(&v); err != nil {
		t.Fatalf("run_facts %s of %s: %v", col, run, err)
	}
	if !v.Valid {
		return "null"
	}
	return v.String
}

// wantFact asserts one run_facts column of a run.
func wantFact(t *testing.T, s *Session, run, col, want string) {
	t.Helper()
	if got := fact(t, s, run, col); got != want {
		t.Errorf("run %s: %s = %s, want %s", run, col, got, want)
	}
}

// wantFloat asserts a number within 1e-9 (nil means null).
func wantFloat(t *testing.T, name string, got *float64, want *float64) {
	t.Helper()
	switch {
	case got == nil && want == nil:
	case got == nil || want == nil:
		t.Errorf("%s = %v, want %v", name, show(got), show(want))
	case math.Abs(*got-*want) > 1e-9:
		t.Errorf("%s = %v, want %v", name, *got, *want)
	}
}

// f is a *float64 literal.
func f(v float64) *float64 { return &v }

func show(p *float64) any {
	if p == nil {
		return "null"
	}
	return *p
}

// wantReasons asserts invalid_retry.by_reason exactly.
func wantReasons(t *testing.T, got map[string]int64, want map[string]int64) {
	t.Helper()
	for _, r := range InvalidRetryReasons {
		if got[r] != want[r] {
			t.Errorf("by_reason[%s] = %d, want %d", r, got[r], want[r])
		}
	}
	if len(got) != len(InvalidRetryReasons) {
		t.Errorf("by_reason has %d keys, want %d: %v", len(got), len(InvalidRetryReasons), got)
	}
}

// loadCases loads the events of every case into one database, each case as
// its own suite (caseSuite) with its run ids prefixed (caseRun), so that a
// table costs one ingest while every case keeps its own numbers. Runs never
// share anything across run ids, and suites never share rates.
func loadCases(t *testing.T, cases [][]ev) (*Session, *Report) {
	t.Helper()
	var all []ev
	for i, evs := range cases {
		for _, e := range evs {
			e = e.with("run_id", caseRun(i, e["run_id"].(string)))
			if e["type"] == "run" {
				e = e.with("suite", caseSuite(i))
			}
			all = append(all, e)
		}
	}
	s := load(t, jsonl(all...))
	return s, report(t, s)
}

// caseSuite is the suite of case i in loadCases.
func caseSuite(i int) string { return fmt.Sprintf("case-%02d", i) }

// caseRun is the run id of run in case i in loadCases.
func caseRun(i int, run string) string { return fmt.Sprintf("%02d/%s", i, run) }
