package metrics

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

// A run's twin in the other suite answers the same client_message_id, or,
// without one, has the same scenario and task kind at the same place in
// start order. The pair says which gates differ and the first step where
// the timelines part.
func TestPair(t *testing.T) {
	run := func(id, suite, msg string, ms int) ev {
		e := runEv(id).with("suite", suite, "task", map[string]any{"kind": "k"}, "ts", at(ms), "started_at", at(ms))
		if msg != "" {
			e = e.with("client_message_id", msg)
		}
		return e
	}
	s := load(t, jsonl(
		run("b1", "base", "m1", 0),
		stageEv("b1", "p", "planning", "ok", 0, 100),
		callEv("b1", "x1", "a1", "search", "ok", 100, 200),
		callEv("b1", "x2", "a2", "visit", "ok", 200, 300),
		termEv("b1", "completed", 400),
		run("b2", "base", "", 1000),
		termEv("b2", "completed", 1400),
		run("b3", "base", "", 1500),
		termEv("b3", "completed", 1600),
		run("c0", "cand", "", 50), // first without a message id in cand: b2's twin; c2 is b3's
		termEv("c0", "completed", 60),
		run("c1", "cand", "m1", 500),
		stageEv("c1", "p", "planning", "ok", 500, 600),
		callEv("c1", "y1", "a1", "search", "ok", 600, 700),
		callEv("c1", "y2", "a2", "visit", "error", 700, 900).with("error", errOf("TIMEOUT", "retryable", true)),
		termEv("c1", "completed", 1000).with("visible_chars", 0),
		run("c2", "cand", "", 2000),
		termEv("c2", "completed", 2400),
		run("c3", "cand", "m9", 3000),
		termEv("c3", "completed", 3100),
	))
	ctx := context.Background()
	p, err := s.Pair(ctx, "c1", "base", "cand")
	if err != nil {
		t.Fatal(err)
	}
	if p.Base.RunID != "b1" || p.Cand.RunID != "c1" || p.MatchedBy != "client_message_id" {
		t.Fatalf("pair of c1: %s / %s by %s", p.Base.RunID, p.Cand.RunID, p.MatchedBy)
	}
	if p.Diverge != 2 || p.Cand.Timeline[2].Name != "visit" {
		t.Errorf("diverge at %d, want 2 (the visit that timed out)", p.Diverge)
	}
	if !reflect.DeepEqual(p.Gates, []string{"deliverable", "success"}) {
		t.Errorf("gates that differ: %v", p.Gates)
	}
	// From the baseline side the same pair comes back, baseline first.
	p, err = s.Pair(ctx, "b1", "base", "cand")
	if err != nil || p.Base.RunID != "b1" || p.Cand.RunID != "c1" {
		t.Fatalf("pair of b1: %+v %v", p, err)
	}
	p, err = s.Pair(ctx, "b3", "base", "cand")
	if err != nil || p.Cand.RunID != "c2" || p.MatchedBy != "scenario, task kind and start order" || p.Diverge != -1 || len(p.Gates) != 0 {
		t.Fatalf("pair of b2: %+v %v", p, err)
	}
	if _, err := s.Pair(ctx, "c3", "base", "cand"); !errors.Is(err, ErrNoTwin) {
		t.Fatalf("c3 has no twin: %v", err)
	}
}
