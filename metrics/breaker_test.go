package metrics

import (
	"context"
	"reflect"
	"testing"
)

// The breaker of a tool is rebuilt from the circuit state its calls report,
// run by run: closed (no state), open (refused: fast_fail; or called
// through: a violation), half-open, closed again. A tool whose calls never
// saw it open or half-open has no lane.
func TestBreakers(t *testing.T) {
	s := load(t, jsonl(
		runEv("r1"),
		callEv("r1", "c1", "a1", "visit", "error", 0, 100),
		callEv("r1", "c2", "a1", "visit", "fast_fail", 200, 200).with("attempt", 2, "circuit", "open"),
		callEv("r1", "s1", "a2", "search", "ok", 300, 400),
		callEv("r1", "m1", "a3", "mail", "ok", 400, 450).with("circuit", "closed"),
		termEv("r1", "completed", 500),
		runEv("r2"),
		callEv("r2", "c3", "b1", "visit", "error", 1000, 1100).with("circuit", "open"),
		callEv("r2", "c4", "b1", "visit", "ok", 2000, 2100).with("attempt", 2, "circuit", "half_open"),
		callEv("r2", "c5", "b2", "visit", "ok", 2500, 2600),
		termEv("r2", "completed", 3000),
	))
	bt, err := s.Breakers(context.Background(), 3, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(bt.Lanes) != 1 || bt.Lanes[0].Tool != "visit" || bt.Lanes[0].Suite != "s" {
		t.Fatalf("lanes %+v", bt.Lanes)
	}
	l := bt.Lanes[0]
	if l.LastMs-l.FirstMs != 3000 {
		t.Errorf("span %v ms, want 3000 (first run start to last event)", l.LastMs-l.FirstMs)
	}
	want := []BreakerSlice{{Open: 1}, {Open: 1, Violations: 1}, {HalfOpen: 1}}
	if !reflect.DeepEqual(l.Slices, want) {
		t.Errorf("slices %+v, want %+v", l.Slices, want)
	}
	type step struct{ call, from, to string }
	var got []step
	for _, e := range bt.Events {
		got = append(got, step{e.CallID, e.From, e.To})
	}
	wantSteps := []step{{"c2", "closed", "open"}, {"c3", "closed", "open"}, {"c4", "open", "half_open"}, {"c5", "half_open", "closed"}}
	if !reflect.DeepEqual(got, wantSteps) || bt.TotalEvents != 4 {
		t.Fatalf("events %+v (total %d), want %+v", got, bt.TotalEvents, wantSteps)
	}
	if !bt.Events[1].BreakerViolation || bt.Events[0].BreakerViolation || bt.Events[1].RunID != "r2" {
		t.Errorf("violation marks: %+v", bt.Events)
	}
	// The limit bounds the events, not their total.
	bt, err = s.Breakers(context.Background(), 3, 2)
	if err != nil || len(bt.Events) != 2 || bt.TotalEvents != 4 {
		t.Fatalf("limit 2: %d events, total %d, %v", len(bt.Events), bt.TotalEvents, err)
	}
}
